"""The Card Clarifications that shape a power's steps around its effects: Combo and Power Surge
(counting the hero's other filled powers of the card's Type), the repeats of Flurry of Blows,
Launch the Robots, Miracle Grow and Two Places at Once, Resilient Spirit's count of heroes healed
and Power Conduit's limit on the damage its hero takes; Convenient Creation's effect chosen by the
civilians safe as it fills, Telekimeanness's one option of several, and the steps another card
brings (From the Lab, Relentless Barrage: ``via``).

Which card has which (``repeat``, ``per``, ``combo``) is data (invincible_powers.toml, mostly
assumed: the rulebook prints the rules, not the cards); resolve.py asks this module for a power's
steps when it fills and for a step's amount when it applies.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.invincible.data import Power
from companion.games.invincible.data_powers import PowerEffect
from companion.games.invincible.state import HQ, HeroState, InvincibleState

Step = dict[str, Any]
REPEAT = "repeat"   # the step kind of Two Places at Once's 'you may repeat all of it once more'


def new_step(kind: str, hint: str, **fields: Any) -> Step:
    """A step that is not one of the card's printed effects (a repeat, a gained cube's place)."""
    return {"kind": kind, "amount": 0, "colour": "", "target": "self", "text": "", "per": "",
            "play": False, "enemy": False, "skip": True, "hint": hint, **fields}


def hint_now(e: PowerEffect, others: int) -> str:
    """The effect's words as it resolves: its Combo named only where it is met ('checked only
    at the moment the Combo power itself is used'); the card's own words name it always."""
    return e.hint if others or not e.combo else replace(e, combo=0).hint


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


def at_fill(s: InvincibleState, h: HeroState, power: Power) -> tuple[PowerEffect, ...]:
    """The effects ``power`` has as it fills. Convenient Creation: 'Check how many civilians are
    safe in your zone at the moment you fill this power; you only get one of its three listed
    effects' (an effect with ``safe = [low, high]`` applies only then; at Guardians HQ, which is
    no zone, none are safe)."""
    safe = s.zone(h.zone).safety if h.zone != HQ else 0
    return tuple(e for e in power.effects if e.safe is None or e.safe[0] <= safe <= e.safe[1])


def effect_steps(h: HeroState, power: Power, effects: tuple[PowerEffect, ...], boost: int,
                 others: int = 0, **extra: Any) -> list[Step]:
    """One step per effect (per attempt of a Rescue), the damage with ``boost`` added (strengthen
    tokens, a red cube), ``others`` the hero's other filled powers of its Type (Combo, Power
    Surge); ``extra`` goes in every step (``via``: the card that brought it, From the Lab or
    Relentless Barrage, and its card's range)."""
    several = len(effects) > 1
    # Telekimeanness: a card of options (``one_of``): using one drops the others
    group: dict[str, Any] = {"one_of": power.id} if power.one_of and several else {}
    if power.ordered and "via" in extra:
        # a card brought by another (From the Lab, Relentless Barrage) keeps its printed order
        group["ordered"] = f"{extra['via']}:{power.id}"
    base: list[Step] = []
    for e in effects:
        amount = e.amount * {"rescued": h.rescued_civilians, "type": others}.get(e.per, 1)
        if e.combo and others:
            # Combo: 'a bonus if you've already filled a power of the matching Type this round ...
            # only once per power ... checked only at the moment the Combo power itself is used'
            amount += e.combo
        if e.kind in ("damage", "explosive", "knock") and amount > 0:
            amount += boost
        # 'A Rescue power worth 2 or more lets you make a separate attempt for each point'
        for _ in range(e.amount if e.kind == "rescue" else 1):
            base.append({"kind": e.kind, "amount": 1 if e.kind == "rescue" else amount,
                         "colour": e.colour, "target": e.target, "text": e.text,
                         "per": e.per if e.per == "healed" else "", "play": e.play,
                         "enemy": e.enemy,
                         # a hero's own damage is the card's cost, not an effect to skip
                         "skip": (e.optional or several) and e.kind != "hurt_self",
                         "hint": hint_now(e, others), **group, **extra})
    return base


def steps(s: InvincibleState, h: HeroState, slot: str, boost: int) -> tuple[list[Step], list[Step]]:
    """The steps of the power ``h`` has just filled in ``slot`` (``boost``: its strengthen tokens
    and a red cube's +1 on each damage effect), and the steps a 'repeat all of it' adds."""
    power = s.data.powers[h.powers[slot].power]
    others = others_of_type(s, h, slot)
    base = effect_steps(h, power, at_fill(s, h, power), boost, others)
    if power.repeat == "type":
        # Flurry of Blows: 'Repeat this power's effect once for each of your other currently
        # filled powers of the matching Type ... except for the instruction to repeat'
        return [dict(st) for _ in range(1 + others) for st in base], []
    if power.repeat == "once":
        # Two Places at Once: 'After resolving everything else this power offers ..., you may
        # repeat all of it once more; you don't repeat the instruction to repeat itself'
        return [*base, new_step(REPEAT, "repeat all of it once more")], base
    return base, []


def open_now(steps_left: list[Step], i: int) -> bool:
    """The repeat waits until 'everything else this power offers' is resolved; a step of an
    ordered card brought by another waits for that card's earlier steps."""
    if steps_left[i]["kind"] == REPEAT:
        return len(steps_left) == 1
    return not waits(steps_left, i)


def waits(steps_left: list[Step], i: int) -> bool:
    """Step ``i`` of an ordered card brought by another waits for that card's earlier steps."""
    group = steps_left[i].get("ordered")
    return group is not None and any(st.get("ordered") == group for st in steps_left[:i])


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
