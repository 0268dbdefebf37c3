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

    def give(self, hero, slot, power_id):
        """Put ``power_id`` (a card of the data) in ``hero``'s ``slot``, no cubes on it."""
        from companion.games.invincible.state import Played
        symbols = self.engine.data.powers[power_id].symbols
        self.state.hero(hero).powers[slot] = Played(f"{power_id}#t", power_id,
                                                    [None] * len(symbols))

    def fill(self, hero, at, **answer):
        """Cover all but the last symbol of ``hero``'s power in slot ``at``, then play the last cube
        (a real ``play``: the power resolves); with ``answer``, answer its first open effect."""
        h = self.state.hero(hero)
        played = h.powers[at]
        symbols = self.engine.data.powers[played.power].symbols
        h.powers[at] = played.with_cubes(list(symbols[:-1]) + [None])
        h.ready, h.last_pull = list(h.ready) + [symbols[-1]], []
        self.act("play", hero=hero, cube=symbols[-1], power=at)
        if answer:
            self.act("effect", hero=hero, **answer)
        return self.state

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


@pytest.fixture
def hero_phase(table):
    """A table already in the Hero Phase."""
    def make(**options):
        t = table(**options)
        t.to_hero_phase()
        return t
    return make


def lose(session, limit=600):
    """Plays the game through ``session`` to a loss, the heroes doing nothing but stop: the
    villains' damage or the end of the track ('You run out of time on the episode card's
    track') ends it."""
    for _ in range(limit):
        view = session.view()
        if view["outcome"]["status"] != "playing":
            return view
        session.submit(stopping(view))
    raise AssertionError("the game did not end")


def stopping(view):
    """The next action of heroes who do nothing but stop, the companion's questions answered
    with their first choice."""
    e, state = view["expect"], view["state"]
    acts = e["actions"]
    if "advance" in acts:
        return {"type": "advance"}
    if "reveal" in acts:
        return {"type": "reveal"}
    if "choose" in acts:
        key = "villain" if e["pending"]["kind"] == "discard" else "zone"
        return {"type": "choose", "data": {key: e["choices"][0]}}
    if "roll" in acts:
        return {"type": "roll", "data": {"face": state["rescue_die_faces"][0]}
                if "rescue_die_faces" in state else {}}
    if "resolved" in acts:
        return {"type": "resolved"}
    if "crash_roll" in acts:
        return {"type": "crash_roll", "data": {"hero": e["heroes"][0]}}
    waiting = [h for h in (e.get("heroes") or []) if isinstance(h, str)] or [
        h["hero"] for h in e.get("heroes", []) if not h.get("finished")]
    return {"type": "done", "data": {"hero": waiting[0]}}
