"""Options -> Beacon's first state: ``players``, two to four names, first player first (and
``top``, the tower's height, which the engine's resolve_data has put in ``data``)."""

from companion.errors import SetupError

from .state import BeaconState


def setup(data, options, rng) -> BeaconState:
    players = options.get("players")
    if (not isinstance(players, list) or not 2 <= len(players) <= 4
            or not all(isinstance(p, str) and 0 < len(p) <= 40 for p in players)
            or len(set(players)) != len(players)):
        raise SetupError("players: give 2 to 4 different names, first player first")
    return BeaconState(list(players), {p: 0 for p in players}, data=data)
