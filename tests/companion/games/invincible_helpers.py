"""Helpers for the Invincible tests: a real engine, real actions, and a few board set-ups.

Each test module imports the fixtures it uses from here (``from invincible_helpers import
engine, table``), so they stay the Invincible ones beside other games' conftest fixtures."""

import random

import pytest

from companion.actions import Action
from companion.games import Catalog
from companion.games.invincible import board


class Table:
    """Drives the real engine the way the session does: one action at a time, each with its rng."""

    def __init__(self, engine, options, seed=0):
        self.engine = engine
        self.seed = seed
        self.steps = 0
        self.clock = 1000.0
        self.state = engine.setup(options, random.Random(f"setup:{seed}"))

    def act(self, kind, player=None, **data):
        self.steps += 1
        action = Action(kind, player, data, "test", at=self.clock)
        self.state = self.engine.apply(self.state, action,
                                       random.Random(f"{self.seed}:{self.steps}"))
        return self.state

    # -- board set-ups for a rule under test ---------------------------------------------------

    def put_villain(self, villain_id, zone, slot=None, damage=0):
        s = self.state
        for level in (1, 2, 3):
            for pile in (s.decks[f"villain{level}"], s.discards[f"villain{level}"]):
                if villain_id in pile:
                    pile.remove(villain_id)
        z = s.zone(zone)
        slot = board.open_slot(z) if slot is None else slot
        v = board.new_villain(s, villain_id)
        v.damage = damage
        z.villains[slot] = v
        return v

    def to_hero_phase(self):
        """Advance round 1 with an empty track space so nothing arrives."""
        self.state.track[self.state.space] = []
        self.act("advance")
        assert self.state.phase == "hero"
        return self.state

    def everyone_done(self):
        for h in self.state.heroes:
            if not h.done and not (h.crashed and not h.rescued):
                self.act("done", hero=h.id)


@pytest.fixture(scope="session")
def engine():
    return Catalog()("invincible")


@pytest.fixture
def table(engine):
    def make(heroes=("invincible", "atom-eve"), **options):
        options.setdefault("heroes", list(heroes))
        return Table(engine, options)
    return make
