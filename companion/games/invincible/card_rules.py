"""The Card Clarifications that shape a power's steps around its effects: Combo and Power Surge
(counting the hero's other filled powers of the card's Type), the repeats of Flurry of Blows,
Launch the Robots, Miracle Grow and Two Places at Once, Resilient Spirit's count of heroes healed
and Power Conduit's limit on the damage its hero takes.

Which card has which (``repeat``, ``per``, ``combo``) is data (invincible_powers.toml, mostly
assumed: the rulebook prints the rules, not the cards); resolve.py asks this module for a power's
steps when it fills and for a step's amount when it applies.
"""

from __future__ import annotations

from typing import Any

from companion.games.invincible.state import HeroState, InvincibleState

Step = dict[str, Any]
REPEAT = "repeat"   # the step kind of Two Places at Once's 'you may repeat all of it once more'


def new_step(kind: str, hint: str, **fields: Any) -> Step:
    """A step that is not one of the card's printed effects (a repeat, a gained cube's place)."""
    return {"kind": kind, "amount": 0, "colour": "", "target": "self", "text": "", "per": "",
            "play": False, "enemy": False, "skip": True, "hint": hint, **fields}


def others_of_type(s: InvincibleState, h: HeroState, slot: str) -> int:
    """'your other currently filled powers of the matching Type; powers played through special
    means (like From the Lab) don't count, nor do powers that were used and then discarded or
    cleared' (Flurry of Blows); Combo 'only looks at powers currently filled on your board'."""
    powers = s.data.powers
    kind = powers[h.powers[slot].power].type
    if kind == "none":     # 'The basic powers on your hero board, and Learn By Punching, have no type'
        return 0
    return sum(1 for k, p in h.powers.items()
               if k != slot and p.filled and powers[p.power].type == kind)


def steps(s: InvincibleState, h: HeroState, slot: str, boost: int) -> tuple[list[Step], list[Step]]:
    """The steps of the power ``h`` has just filled in ``slot`` (``boost``: its strengthen tokens
    and a red cube's +1 on each damage effect), and the steps a 'repeat all of it' adds."""
    power = s.data.powers[h.powers[slot].power]
    others = others_of_type(s, h, slot)
    several = len(power.effects) > 1
    base: list[Step] = []
    for e in power.effects:
        amount = e.amount * {"rescued": h.rescued_civilians, "type": others}.get(e.per, 1)
        if e.combo and others:
            # Combo: 'a bonus if you've already filled a power of the matching Type this round ...
            # only once per power ... checked only at the moment the Combo power itself is used'
            amount += e.combo
        if e.kind in ("damage", "explosive") and amount > 0:
            amount += boost
        # 'A Rescue power worth 2 or more lets you make a separate attempt for each point'
        for _ in range(e.amount if e.kind == "rescue" else 1):
            base.append({"kind": e.kind, "amount": 1 if e.kind == "rescue" else amount,
                         "colour": e.colour, "target": e.target, "text": e.text,
                         "per": e.per if e.per == "healed" else "", "play": e.play,
                         "enemy": e.enemy,
                         # a hero's own damage is the card's cost, not an effect to skip
                         "skip": (e.optional or several) and e.kind != "hurt_self",
                         "hint": e.hint})
    if power.repeat == "type":
        # Flurry of Blows: 'Repeat this power's effect once for each of your other currently
        # filled powers of the matching Type ... except for the instruction to repeat'
        return [dict(st) for _ in range(1 + others) for st in base], []
    if power.repeat == "once":
        # Two Places at Once: 'After resolving everything else this power offers ..., you may
        # repeat all of it once more; you don't repeat the instruction to repeat itself'
        return [*base, new_step(REPEAT, "repeat all of it once more")], base
    return base, []


def open_now(step: Step, steps_left: list[Step]) -> bool:
    """The repeat waits until 'everything else this power offers' is resolved."""
    return step["kind"] != REPEAT or len(steps_left) == 1


def bound(s: InvincibleState, h: HeroState, r: dict[str, Any], step: Step) -> Step:
    """``step`` with the amount it has as it applies: per hero healed so far by this power
    (Resilient Spirit), or the hero's damage no more than their remaining health (Power
    Conduit)."""
    if step["per"] == "healed":
        return {**step, "amount": step["amount"] * r.get("healed", 0)}
    if step["kind"] == "hurt_self":
        me = s.hero(h.id)
        left = me.max_health - me.damage
        if step["amount"] > left:
            # Power Conduit: 'You can't take more damage than your remaining health (though you
            # may still choose to KO yourself deliberately)'
            s.say(f"{me.name} can't take more damage than their remaining health ({left}).")
            return {**step, "amount": left}
    return step


def damage_of(s: InvincibleState) -> dict[str, int]:
    return {x.id: x.damage for x in s.heroes}


def healed(was: dict[str, int], s: InvincibleState) -> int:
    """Resilient Spirit: 'You only count as having healed a hero if that hero was below maximum
    health at the time': the heroes whose damage went down."""
    return sum(1 for x in s.heroes if x.damage < was[x.id])
