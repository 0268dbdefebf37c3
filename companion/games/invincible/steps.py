"""A power's effects as the steps the table answers (resolve.py opens them when the power fills;
From the Lab and Relentless Barrage add another card's to the power resolving).

'When a power offers multiple effects, you may do them in any order and skip any you don't want';
'A Rescue power worth 2 or more lets you make a separate attempt for each point of value'.
"""

from __future__ import annotations

from typing import Any

from companion.games.invincible.data import Power
from companion.games.invincible.data_powers import PowerEffect
from companion.games.invincible.state import HQ, HeroState, InvincibleState


def at_fill(s: InvincibleState, h: HeroState, power: Power) -> tuple[PowerEffect, ...]:
    """The effects ``power`` has as it fills. Convenient Creation: 'Check how many civilians are
    safe in your zone at the moment you fill this power; you only get one of its three listed
    effects' (an effect with ``safe = [low, high]`` applies only then; at Guardians HQ, which is
    no zone, none are safe)."""
    safe = s.zone(h.zone).safety if h.zone != HQ else 0
    return tuple(e for e in power.effects if e.safe is None or e.safe[0] <= safe <= e.safe[1])


def steps_of(h: HeroState, power: Power, effects: tuple[PowerEffect, ...], boost: int,
             **extra: Any) -> list[dict[str, Any]]:
    """One step per effect (per attempt of a Rescue), the damage with ``boost`` added (strengthen
    tokens, a red cube); ``extra`` goes in every step (where it came from, its card's range)."""
    several = len(effects) > 1
    group = {"one_of": power.id} if power.one_of and several else {}
    if power.ordered and "via" in extra:
        # a card brought by another (From the Lab, Relentless Barrage) keeps its printed order
        group["ordered"] = f"{extra['via']}:{power.id}"
    steps = []
    for e in effects:
        amount = e.amount * (h.rescued_civilians if e.per == "rescued" else 1)
        if e.kind in ("damage", "explosive", "knock") and amount > 0:
            amount += boost
        for _ in range(e.amount if e.kind == "rescue" else 1):
            steps.append({"kind": e.kind, "amount": 1 if e.kind == "rescue" else amount,
                          "colour": e.colour, "target": e.target, "text": e.text,
                          "skip": e.optional or several, "hint": e.hint, **group, **extra})
    return steps


def waits(steps: list[dict[str, Any]], i: int) -> bool:
    """Step ``i`` of an ordered card brought by another waits for that card's earlier steps."""
    group = steps[i].get("ordered")
    return group is not None and any(st.get("ordered") == group for st in steps[:i])
