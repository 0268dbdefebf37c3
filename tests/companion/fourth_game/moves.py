"""Beacon's moves, one handler each. Game.apply has checked the phase, the player and the
arguments' types already: a handler checks only what its own rule says."""

from companion.errors import IllegalAction

from .state import R_STORM, BeaconState


def roll(state: BeaconState, play) -> BeaconState:
    """Roll the die (data.face, or a virtual die) and climb that many steps; a storm asks the
    table who is blown down."""
    faces = state.data.die
    face = (play.rng.choice(faces) if play.args["face"] is None
            else next(f for f in faces if f.id == play.args["face"]))
    s = state.fork()
    s.log.append(f"{s.player} rolls {face.id}.")
    if face.storm:
        s.phase = "storm"
        return s
    s.heights[s.player] = min(s.data.top, s.heights[s.player] + face.steps)
    if s.heights[s.player] == s.data.top:
        s.winner, s.phase = s.player, "over"
        s.log.append(f"{s.player} lights the beacon!")
        return s
    return _next(s)


def blow(state: BeaconState, play) -> BeaconState:
    """The table chooses whom the storm blows one step down (data.player)."""
    who = play.args["player"]
    if who not in state.heights:
        raise IllegalAction(f"{who!r} is not climbing: blow down one of "
                            + ", ".join(state.players), R_STORM)
    s = state.fork()
    s.heights[who] = max(0, s.heights[who] - 1)
    s.log.append(f"The storm blows {who} one step down.")
    return _next(s)


def _next(s: BeaconState) -> BeaconState:
    s.turn, s.phase = (s.turn + 1) % len(s.players), "roll"
    return s
