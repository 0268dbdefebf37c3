"""Shared helpers for the X-Men Alert tests: a game applied action by action, and dice rolls."""

import random

from companion.actions import Action
from companion.rng import rng_for


class Table:
    """A game in memory, applied action by action the way the session folds the journal."""

    def __init__(self, engine, state):
        self.engine = engine
        self.state = state
        self.step = 0

    def do(self, kind, player=None, **data):
        before = self.state
        self.state = self.engine.apply(self.state, Action(kind, player, data),
                                       random.Random(f"test:{self.step}"))
        self.step += 1
        assert self.engine.invariants(self.state) == []
        assert before is not self.state
        return self.state

    @property
    def s(self):
        return self.state

    def team(self, player):
        return self.state.team(player)

    def hero(self, player, hero_id):
        return self.state.hero(self.state.team(player), hero_id)

    def zone(self, number):
        return self.state.zones[number - 1]

    def view(self):
        return self.engine.to_json(self.state)


def roll(n, marvel=0, xmen=0, evil=0):
    """A physical roll of n dice as the camera reads it, blanks filling the rest."""
    faces = ["marvel"] * marvel + ["xmen"] * xmen + ["evil_mutant"] * evil
    assert len(faces) <= n
    return faces + ["blank"] * (n - len(faces))


BASIC_DECK = ["sabretooth", "mystique", "blob", "toad", "pyro"]


# Ana captures Blob (2 Experience), then Toad (1), landing on the Training & Luck space 3 and
# drawing Cerebro; in her next turn she plays it on Ben and ends the turn: Ben's turn passes.
CEREBRO_OPTIONS = {"players": ["Ana", "Ben"], "first_player": "Ana", "alert_deck": BASIC_DECK,
                   "luck_deck": ["cerebro-1"], "stat_cards": {"Ana": ["wolverine"], "Ben": ["storm"]}}
CEREBRO_PLAY = [("deploy", "Ana", {"zone": 3, "heroes": ["wolverine"]}),
                ("battle.roll", "Ana", {"zone": 3, "faces": roll(9, marvel=4)}),
                ("turn.end", "Ana", {}), ("turn.end", "Ben", {}),
                ("deploy", "Ana", {"zone": 3, "heroes": ["wolverine"]}),
                ("battle.roll", "Ana", {"zone": 3, "faces": roll(9, marvel=3)}),
                ("turn.end", "Ana", {}), ("turn.end", "Ben", {}),
                ("card.play", "Ana", {"card": "cerebro", "target": "Ben"}),
                ("turn.end", "Ana", {})]


def confirmed_table(tmp_path, hero_id, options):
    """A table set up with ``options`` after the owner confirmed ``hero_id``'s Power Stat card on
    the Your box page (a box under ``tmp_path``)."""
    from companion import box_items
    from companion.games import Catalog

    catalog = Catalog(tmp_path / "components")
    engine = catalog("xmen-alert")
    engine.boxed.store.save(box_items.edit(engine, f"characters/{hero_id}", None))
    catalog.reload("xmen-alert")
    engine = catalog("xmen-alert")
    assert not engine.data.characters[hero_id].assumption
    return Table(engine, engine.setup(engine.boxed.record(options), random.Random(0)))


def random_states(engine, games, first=1000):
    """(state, the sampled action, its generator) along seeded random games."""
    n = 0
    for g in range(games):
        rng = random.Random(first + g)
        state = engine.setup(engine.sample_options(rng), rng_for(g, "setup"))
        while engine.outcome(state)["status"] == "playing":
            action = engine.sample_action(state, rng)
            yield state, action, rng_for(g, n)
            state = engine.apply(state, action, rng_for(g, n))
            n += 1
