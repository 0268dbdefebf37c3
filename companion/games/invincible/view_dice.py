"""Invincible's dice and cube reads as the table sees them: the rescue and crash dice, the cubes
of a pull laid in a hero's pull area, and which action a read of the rescue die becomes."""

from __future__ import annotations

from dataclasses import replace

from companion.dice import Dice, DiceRequest
from companion.games.invincible import choices, resolve
from companion.games.invincible.data import CUBES
from companion.games.invincible.state import InvincibleState


def rescue_die(d) -> Dice:
    sides = tuple(f.id for f in d.rescue_die)
    meanings = {f.id: f"{f.result} ({f.zone} zone)" for f in d.rescue_die}
    return Dice("rescue", "invincible-rescue", tuple(sorted(set(sides))), sides,
                meanings=meanings, field="face", single=True)


def crash_die(d) -> Dice:
    sides = tuple(f.id for f in d.crash_die)
    meanings = {f.id: f"{f.damage} damage" + (", roll again" if f.again else "")
                for f in d.crash_die}
    return Dice("crash", "invincible-crash", tuple(sorted(set(sides))), sides,
                meanings=meanings, field="faces", single=True)


def dice_rescue(d, action: str | None = None, data: dict | None = None,
                 player: str | None = None) -> dict:
    """The rescue die; with ``action`` a camera read of it becomes that action (the face goes
    into data.face), as companion.dice_reads expects."""
    return DiceRequest((rescue_die(d),), action=action, data=data or {}, player=player).to_json()


def dice_crash(d, hero: str) -> dict:
    return DiceRequest((crash_die(d),), action="crash_roll", data={"hero": hero},
                       player=hero).to_json()


def cube_bag(d) -> Dice:
    """A pull's cubes as a read sees them: one colour a cube, the colours a bag holds."""
    return Dice("cube", "invincible-cubes", CUBES, count=d.limits["pull"], field="cubes")


def pull_reads(s: InvincibleState, pulling: list[str]) -> list[DiceRequest]:
    """Cubes laid in a hero's pull area are that hero's pull: 'Draw three random cubes from your
    bag at a time' (fewer when the bag holds fewer; the engine checks the bag)."""
    cubes = cube_bag(s.data)
    return [DiceRequest((replace(cubes, count=min(cubes.count, sum(s.hero(h).bag.values()))
                                 or cubes.count),),     # an empty bag: the pull says so
                        action="pull", data={"hero": h}, player=h, purpose="pull")
            for h in pulling]


def defiance_draws(pulls: list[DiceRequest]) -> list[DiceRequest]:
    """Defiance's fresh cubes, as the hero's pull in ``pulls``. The rulebook: 'flip your
    defiance token face down to set that pull aside, pull three fresh cubes, and then return the
    first three to your ready area'; and to pull is to 'Draw three random cubes from your bag at
    a time'. So the fresh three are drawn from the bag, the table's newest draw (the set-aside
    three are not drawn again, nor taken from a supply): the Last roll shows them, named by the
    move ("defiance"). No camera read stands for one: cubes laid in a pull area stay that hero's
    pull, since the flipped token, not the cubes, says it is a defiance."""
    return [replace(r, action="defiance", purpose="defiance") for r in pulls]


def crash_rescue_dice(s: InvincibleState) -> list[dict]:
    """While a power resolves and exactly one crashed hero is in its range, a rescue die read is
    that rescue attempt; otherwise the die is listed without an action (enter it by hand)."""
    d = s.data
    crashed = [h for h in s.heroes if h.crashed and not h.rescued]
    if not crashed:
        return []
    for r in s.resolutions.values():
        # a read of the die is the crash rescue an open Rescue step leaves to exactly one hero
        me = s.hero(r["hero"])
        for i in resolve.open_steps(s, me.id):
            step = r["steps"][i]
            if step["kind"] != "rescue":
                continue
            reach = [o["crashed"] for o in choices.options(s, me, step, r["ranged"])
                     if "crashed" in o]
            if len(reach) == 1:
                return [dice_rescue(d, "effect", {"hero": me.id, "step": i,
                                                   "crashed": reach[0]}, me.id)]
    return [dice_rescue(d)]
