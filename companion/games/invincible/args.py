"""The argument schema of every Invincible action, from the game's data: types, ranges and the
ids each field allows (a zone, a villain card, a hero, a slot, a die's face, a cube colour).
``Game.apply`` checks them before any handler runs, and refuses a bad field by its name.

Whether a value is allowed *now* (the cube is in the ready area, the villain is in play, the
card is in the hand) is the rule's own check, in its moves module.
"""

from __future__ import annotations

from companion.games.invincible.data import BASIC_SLOTS, COLOURS, CUBES, InvincibleData
from companion.games.invincible.state import HQ
from companion.schema import Arg, Args, Choice, Flag, ListOf, Text, Whole

AMOUNT = Whole(1, 50)
NAME = Text(max_len=80)


def _opt(schema, default=None) -> Arg:
    return Arg(schema, required=False, default=default)


def slots(d: InvincibleData) -> tuple[str, ...]:
    """Every slot a power can be in: the basic ones, starter, signature, the coloured and flex
    slots, and beneath each of those an Ultimate's."""
    learned = [n for n in d.slot_names() if n not in ("starter", "signature")]
    return (*BASIC_SLOTS, *d.slot_names(), *(f"under:{n}" for n in learned))


class Ids:
    """The ids the game's data allows, as schemas."""

    def __init__(self, d: InvincibleData):
        self.zone = Choice(d.zones, what="a zone")
        self.villain = Choice(tuple(d.villains), what="a villain card")
        self.hero = Choice(tuple(d.heroes), what="a hero")
        self.slot = Choice(slots(d), what="a power's slot")
        self.ability = Choice(tuple(dict.fromkeys(a for e in d.episodes.values()
                                                  for a in e.abilities)), what="an episode ability")
        self.rescue_face = Choice(tuple(f.id for f in d.rescue_die), what="a face of the rescue die")
        self.crash_face = Choice(tuple(dict.fromkeys(f.id for f in d.crash_die)),
                                 what="a face of the crash die")
        self.helper = Choice(tuple(d.helpers), what="a helper card")
        self.pulled = ListOf(Choice(CUBES, what="a cube colour", fold=True), 0, d.limits["pull"])
        self.target = Choice((*d.villains, "minion", "boss"), what="a villain, minion or boss")
        self.target_any = Choice((*d.villains, "minion", "boss", *d.heroes),
                                 what="a villain, minion, boss or hero")
        self.to = Choice((*d.zones, HQ), what="a zone or hq")


HERO = Arg(NAME, required=False, doc="the hero (its id or name); the player's when omitted")
CUBE = Choice(CUBES, what="a cube colour")
REACH = {"ranged": _opt(Flag(), default=False), "helper": _opt(Flag(), default=False)}


def schemas(d: InvincibleData) -> dict[str, Args]:
    """Action type -> its arguments (``done.training``: done in the Training Phase)."""
    ids = Ids(d)
    return {**_table(ids), **_heroes(ids), **_effects(ids)}


def _table(i: Ids) -> dict[str, Args]:
    return {
        "advance": Args({"villains": _opt(ListOf(i.villain, 0, 10))}),
        "reveal": Args({"card": _opt(NAME), "boss_card": _opt(NAME)}),
        "choose": Args({"zone": _opt(i.zone), "villain": _opt(i.villain)}),
        "roll": Args({"face": _opt(i.rescue_face)}),
        "use_helper": Args({"helper": Arg(i.helper), "cancel": _opt(ListOf(NAME, 0, 10)),
                            "hero": _opt(i.hero)}),
        "episode_bonus": Args({"met": _opt(Flag(), default=True)}),
    }


def _heroes(i: Ids) -> dict[str, Args]:
    return {
        "resolved": Args({"hero": HERO}),
        "effect": Args({"hero": HERO, "step": _opt(Whole(0, 40)), "target": _opt(i.target_any),
                        "zone": _opt(i.zone), "to": _opt(i.to), "crashed": _opt(i.hero),
                        "face": _opt(i.rescue_face), "villain": _opt(i.villain),
                        "ability": _opt(i.ability), "colour": _opt(Choice(COLOURS + ("red",),
                                                                          what="a cube colour")),
                        "slot": _opt(i.slot), "helper": _opt(i.helper),
                        "card": _opt(NAME), "into": _opt(i.slot), "drone": _opt(Flag())}),
        "decline": Args({"hero": HERO, "step": _opt(Whole(0, 40))}),
        "pull": Args({"hero": HERO, "cubes": _opt(i.pulled)}),
        "defiance": Args({"hero": HERO, "cubes": _opt(i.pulled)}),
        "play": Args({"hero": HERO, "cube": Arg(CUBE), "power": Arg(i.slot),
                      "symbol": _opt(Whole(0, 20))}),
        "drop": Args({"hero": HERO, "cube": Arg(CUBE)}),
        "done": Args({"hero": HERO}),
        "done.training": Args({"hero": HERO, "ultimates": _opt(Whole(0, 2), default=0),
                               "drawn": _opt(ListOf(NAME, 0, 10))}),
        "crash_roll": Args({"hero": HERO, "faces": _opt(ListOf(i.crash_face, 1, 30, one=True))}),
        "learn": Args({"hero": HERO, "card": Arg(NAME), "slot": Arg(i.slot)}),
        "punch": Args({"hero": HERO, "discard": Arg(NAME), "slot": Arg(i.slot)}),
        "train_cube": Args({"hero": HERO, "discard": Arg(NAME),
                            "colour": _opt(Choice(COLOURS, what="a cube colour"))}),
        "discard_power": Args({"hero": HERO, "slot": Arg(i.slot)}),
        "arrange": Args({"hero": HERO, "slots": Arg(ListOf(i.slot, 2, 2))}),
    }


def _effects(i: Ids) -> dict[str, Args]:
    return {
        "damage": Args({"hero": HERO, "amount": _opt(AMOUNT, default=1), "target": _opt(i.target),
                        "zone": _opt(i.zone), "explosive": _opt(Flag(), default=False),
                        "power": _opt(i.slot), **REACH}),
        "rescue": Args({"hero": HERO, "zone": _opt(i.zone), "crashed": _opt(i.hero),
                        "face": _opt(i.rescue_face), "auto": _opt(Flag(), default=False),
                        **REACH}),
        "thwart": Args({"hero": HERO, "villain": _opt(i.villain), "ability": _opt(i.ability),
                        **REACH}),
        "heal": Args({"hero": HERO, "target": _opt(i.hero), "amount": _opt(AMOUNT, default=1),
                      **REACH}),
        "move": Args({"hero": HERO, "to": Arg(i.to), "target": _opt(i.hero)}),
        "gain_cube": Args({"hero": HERO, "colour": Arg(Choice((*COLOURS, "red"),
                                                              what="a cube colour"))}),
        "strengthen": Args({"hero": HERO, "power": Arg(i.slot)}),
        "confidence": Args({"hero": HERO, "amount": _opt(AMOUNT, default=1)}),
        "endanger": Args({"zone": Arg(i.zone), "count": _opt(AMOUNT, default=1)}),
        "hurt": Args({"hero": HERO, "amount": _opt(AMOUNT, default=1),
                      "why": _opt(NAME, default="a card")}),
        "minions": Args({"zone": Arg(i.zone), "count": _opt(Whole(-3, 3), default=1)}),
        "bubble": Args({"hero": HERO, "target": _opt(i.hero), **REACH}),
        "clear_power": Args({"hero": HERO, "power": Arg(i.slot)}),
    }
