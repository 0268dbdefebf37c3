"""A cube gained and played at once (Defensive, Weapon and Mental Mastery; Guardians, Gather!):
'Permanently gain a cube of the indicated color and immediately play it to another eligible power
(or drop it if you can't or don't want to play it). Resolve Defensive Mastery itself completely
before resolving any power the new cube might complete.'

The gained cube comes from the supply into its hero's ready area (it is theirs from then on: the
reset returns it to their bag), and a step of the power resolving asks where it goes
(``effect`` with ``slot``) or drops it (``decline``, or no power it fits). A power it completes
opens once the power that gained it is resolved (the resolution's ``then``). Guardians, Gather!:
'If a crashed hero gains a cube through it, they can't play the cube until they're rescued' — it
waits in their ready area, as the crashing pull does.
"""

from __future__ import annotations

from typing import Any

from companion.games.invincible import card_rules, cube_fit
from companion.games.invincible.state import HeroState, InvincibleState

PLACE = "place_cube"
Step = dict[str, Any]


def gain(s: InvincibleState, h: HeroState, step: Step, answer: dict[str, Any]) -> None:
    """The gain of a ``play`` step: the cube to its hero's ready area, and a step to place it."""
    colour, who = answer["colour"], s.hero(answer.get("target") or h.id)
    if s.supply.get(colour, 0) <= 0:
        s.say(f"The supply has no {colour} cube: nothing happens.")
        return
    s.supply[colour] -= 1
    me = s.own_hero(who.id)
    me.ready.append(colour)
    if me.crashed and not me.rescued:
        s.say(f"{me.name} gains a {colour} cube; crashed, they can't play it until rescued.")
        return
    if who.id != h.id and who.id in s.resolutions:
        # hero time: its hero is resolving a power of their own, so it cannot be played now
        _drop(s, me, colour, "is resolving a power")
        return
    s.say(f"{me.name} gains a {colour} cube to play at once.")
    r = dict(s.resolutions[h.id])
    r["steps"] = [card_rules.new_step(
        PLACE, f"play the gained {colour} cube on another power of {me.name} (or drop it)",
        colour=colour, target=me.id), *r["steps"]]
    s.resolutions = {**s.resolutions, h.id: r}


def options(s: InvincibleState, h: HeroState, step: Step) -> list[dict[str, Any]]:
    """'another eligible power': every slot of its hero the cube fits now. None once the cube
    has left the ready area (hero time ran out: it is dropped) or, in hero time, while its hero
    (another than ``h``) resolves a power of their own."""
    me = s.hero(step["target"])
    if step["colour"] not in me.ready or (me.id != h.id and me.id in s.resolutions):
        return []
    return [{"slot": slot} for slot in cube_fit.fitting(s, me, step["colour"])]


def place(s: InvincibleState, resolver: str, step: Step, slot: str) -> None:
    me, colour = s.own_hero(step["target"]), step["colour"]
    index = cube_fit.fit(s, me, colour, slot)
    if index.__class__ is not int:
        raise index()
    me.ready.remove(colour)
    cubes = list(me.powers[slot].cubes)
    cubes[index] = colour
    me.powers[slot] = played = me.powers[slot].with_cubes(cubes)
    name = s.data.powers[played.power].name
    s.say(f"{me.name} plays the gained {colour} cube on {name}.")
    if played.filled:
        s.say(f"{name} is filled: it resolves once the power that gained the cube is resolved.")
        s.resolutions = {**s.resolutions, resolver: {**s.resolutions[resolver],
                                                     "then": [me.id, slot]}}


def forgo(s: InvincibleState, step: Step) -> None:
    """A place step skipped, or with no power to take the cube: the cube is dropped."""
    me = s.own_hero(step["target"])
    if step["colour"] in me.ready:
        _drop(s, me, step["colour"], "is not played")


def _drop(s: InvincibleState, me: HeroState, colour: str, why: str) -> None:
    me.ready.remove(colour)
    me.dropped.append(colour)
    s.say(f"{me.name}'s gained {colour} cube {why}: it is dropped.")
