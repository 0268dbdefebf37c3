"""Powers that add things to the table, applied from their data (invincible_powers.toml): Robot's
drone, Autosave's later crash rescue, Telekimeanness's Knock, From the Lab, Wildcard Energy's
discard, New and Improved, Relentless Barrage (Card Clarifications). Each kind has ``OPTIONS``
(what the table may choose now, as the ``effect`` action's fields) and ``APPLY``; choices.py
dispatches to them. Their texts beyond the Card Clarifications are not printed: amounts are the
data's assumptions.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from companion.games.invincible import board, bosses, card_rules, cards, effects
from companion.games.invincible.moves_training import _slot_refusal
from companion.games.invincible.state import HQ, R_CLARIFY, HeroState, InvincibleState, Played

Step = dict[str, Any]
Answer = dict[str, Any]
R_AUTOSAVE = R_CLARIFY


def zones_in_reach(s: InvincibleState, h: HeroState, ranged: bool | str) -> tuple[str, ...]:
    """'it can only affect your own zone'; Ranged 'lets a power reach into an adjacent zone';
    'While at Guardians HQ, you can't target anything in any zone'; a helper card's effects
    (``ranged``: ANYWHERE) 'aren't restricted to a hero's current zone — they can affect any
    zone'."""
    if ranged == effects.ANYWHERE:
        return s.data.zones
    if h.zone == HQ:
        return ()
    return _reach(s.data.zones, h.zone, bool(ranged))


@functools.lru_cache(maxsize=256)
def _reach(zones: tuple[str, ...], here: str, ranged: bool) -> tuple[str, ...]:
    """The zones a power from ``here`` reaches (read-only; asked of every option of every step
    while a power resolves, so worked out once per episode layout)."""
    return tuple(z for z in zones if here == z or (ranged and board.adjacent_in(zones, here, z)))


def chosen(s: InvincibleState, hero: str, step: Step) -> None:
    """Telekimeanness: 'If you choose the "move an enemy" option' — a card of options (data
    ``one_of``): using one drops the others."""
    group = step.get("one_of")
    if group is None or hero not in s.resolutions:
        return
    r = s.resolutions[hero]
    s.resolutions = {**s.resolutions, hero: {
        **r, "steps": [st for st in r["steps"] if st.get("one_of") != group]}}


def _add_steps(s: InvincibleState, h: HeroState, power, effects_, boost: int, via: str,
               others: int = 0) -> None:
    """Another card's effects join the power resolving (they are this power's to answer)."""
    new = card_rules.effect_steps(h, power, effects_, boost, others, via=via, ranged=power.ranged)
    for st in new:
        st["hint"] = f"{power.name}: {st['hint']}"
    r = s.resolutions[h.id]
    s.resolutions = {**s.resolutions, h.id: {**r, "steps": [*r["steps"], *new]}}


def _discard_from_hand(s: InvincibleState, h: HeroState, card: str) -> None:
    """Immortality: 'If it's discarded through From the Lab or Unlikely Ally, set it aside instead
    of putting it in the discard pile.'"""
    s.own_hand(h).remove(card)
    power = s.data.powers[cards.power_id(card)]
    if any(e.kind == "immortal" for e in power.effects):
        s.say(f"{power.name} is set aside, not discarded.")
    else:
        cards.discard_card(s, card)


# -- Robot's drone -----------------------------------------------------------------------------

def drone_on(s: InvincibleState) -> str | None:
    """The enemy holding the drone, or None while it is on Coordinated Assault ('It stays there
    whenever it isn't placed on an enemy'): an enemy gone from play leaves it on the power."""
    d = s.drone
    if d is None:
        return None
    if d.startswith("minion:"):
        return d if s.zone(d[7:]).minions else None
    if d == bosses.TARGET:     # 'the term "enemy" covers ... the Machine Head and Omni-Man bosses'
        return d if bosses.active(s) is not None else None
    return d if board.find_villain(s, d) is not None else None


def drop_stale_drone(s: InvincibleState) -> None:
    """After each move: the drone of an enemy gone from play is back on its power (so a villain
    coming back into play later, or a new minion, does not hold it)."""
    if s.drone is not None and drone_on(s) is None:
        s.drone = None
        s.say("Robot's drone returns to Coordinated Assault: the enemy holding it is gone.")


def drone_boost(s: InvincibleState) -> int:
    return next((e.amount for p in s.data.powers.values() for e in p.effects
                 if e.kind == "drone"), 0)


def drone_options(s: InvincibleState, damage_options: list[Answer]) -> list[Answer]:
    """'The drone only comes off when a hero uses it to boost their damage': damaging the enemy
    holding it, a hero may use it (``drone = true``)."""
    on = drone_on(s)
    if on is None:
        return []
    return [{**o, "drone": True} for o in damage_options
            if o.get("target") == on or (o.get("target") == "minion" and on == f"minion:{o['zone']}")]


def use_drone(s: InvincibleState, h: HeroState, answer: Answer) -> int:
    """The damage the drone adds to this answer (and it comes off), or 0."""
    if not answer.get("drone"):
        return 0
    s.drone = None
    s.say(f"{h.name} uses Robot's drone: +{drone_boost(s)} damage; the drone returns to "
          "Coordinated Assault.")
    return drone_boost(s)


def _drone(s, h, step, ranged) -> list[Answer]:
    out: list[Answer] = []
    for z in zones_in_reach(s, h, ranged):
        zone = s.zone(z)
        out += [{"target": v.id} for v in zone.villains if v is not None]
        if zone.minions:
            out.append({"target": "minion", "zone": z})
        if bosses.in_zone(s, z):
            out.append({"target": bosses.TARGET})
    return out


def _place_drone(s, h, step, a, rng) -> None:
    """'Robot moves it elsewhere by using the power again'."""
    target = a["target"]
    s.drone = f"minion:{a['zone']}" if target == "minion" else target
    what = (f"a minion in the {a['zone']} zone" if target == "minion"
            else s.boss.name if target == bosses.TARGET else s.data.villains[target].name)
    s.say(f"{h.name} places Robot's drone on {what}.")


# -- Telekimeanness's Knock ----------------------------------------------------------------------

def _knock(s, h, step, ranged) -> list[Answer]:
    """'"Knock" ... you simply choose a minion and another enemy in your zone and deal 1 damage
    to each.' A boss in the zone is such an enemy ('the term "enemy" covers both (as well as the
    Machine Head and Omni-Man bosses ...)')."""
    if h.zone == HQ or not s.zone(h.zone).minions:
        return []
    zone = s.zone(h.zone)
    out = [{"target": v.id} for v in zone.villains
           if v is not None and board.damageable(s, h.zone, v.id)]
    if bosses.in_zone(s, h.zone):
        out.append({"target": bosses.TARGET})
    return out + ([{"target": "minion"}] if zone.minions >= 2 else [])


def _apply_knock(s, h, step, a, rng) -> None:
    z = s.own_zone(h.zone)
    z.minions -= 1    # minions are 'one-health enemies'
    s.say(f"{h.name} knocks out a minion in the {h.zone} zone.")
    if a["target"] == "minion":
        z.minions -= 1
        s.say(f"{h.name} knocks out another minion in the {h.zone} zone.")
    elif a["target"] == bosses.TARGET:
        bosses.damage(s, step["amount"], f"{h.name}, Knock")
    else:
        board.damage_villain(s, a["target"], step["amount"], f"{h.name}, Knock")


# -- Autosave ------------------------------------------------------------------------------------

def _autosave(s, h, step, a, rng) -> None:
    s.autosave = [*(x for x in s.autosave if x != h.id), h.id]
    s.say(f"{h.name}'s Autosave waits: the next time a hero in {h.name}'s zone crashes, "
          f"{h.name} may attempt a rescue on them.")


def autosave_trigger(s: InvincibleState, crashed: HeroState) -> None:
    """Autosave: 'After you use it, the next time a hero in your zone crashes (no matter where
    they were when you filled Autosave), you may attempt a rescue on them ... You still roll the
    rescue die as usual'. A rescue step opens for the first waiting hero in the crashed hero's
    zone (a "may": it can be declined); the Autosave is spent."""
    if crashed.zone == HQ:
        return
    holder = next((x for x in s.heroes if x.id in s.autosave and x.id != crashed.id
                   and x.zone == crashed.zone), None)
    if holder is None:
        return
    s.autosave = [x for x in s.autosave if x != holder.id]
    step = card_rules.new_step("autosave_rescue", f"Autosave: attempt a rescue on {crashed.name}",
                               amount=1, target="", crashed=crashed.id)
    r = s.resolutions.get(holder.id) or {
        "hero": holder.id, "slot": None, "power": "autosave", "name": "Autosave",
        "effects": [step["hint"]], "ranged": False, "ordered": False, "strength": 0,
        "confidence": 0, "steps": [], "again": [], "healed": 0}
    s.resolutions = {**s.resolutions, holder.id: {**r, "steps": [*r["steps"], step]}}
    s.say(f"Autosave: {holder.name} may attempt a rescue on {crashed.name}.")


def _autosave_options(s, h, step, ranged) -> list[Answer]:
    crashed = s.hero(step["crashed"])
    return [{"crashed": crashed.id}] if effects.rescuable(crashed) else []


def _autosave_rescue(s, h, step, a, rng) -> None:
    effects.rescue(s, h, {"zone": None, "crashed": a["crashed"], "face": a.get("face"),
                          "auto": False, "ranged": False, "helper": True}, rng)


# -- From the Lab, Wildcard Energy, Relentless Barrage ------------------------------------------

def _hand_powers(s: InvincibleState, h: HeroState) -> list[str]:
    return [c for c in dict.fromkeys(s.hand_of(h)) if s.data.powers[cards.power_id(c)].effects]


def _from_the_lab(s, h, step, a, rng) -> None:
    """'Powers discarded to use this effect don't grant their confidence, and they don't count
    toward Combo or any effect that cares how many powers of a Type you've used' (the steps are
    marked ``via``)."""
    power = s.data.powers[cards.power_id(a["card"])]
    _discard_from_hand(s, h, a["card"])
    s.say(f"{h.name} discards {power.name} from the hand to use its effect (From the Lab).")
    _add_steps(s, h, power, card_rules.at_fill(s, h, power), 0, "from-the-lab")


def _discard_gain_options(s, h, step, ranged) -> list[Answer]:
    """Wildcard Energy: 'If you discard a two-color Ultimate Power to gain a cube through this
    effect, you get both colors' (another card: one of its colours)."""
    out: list[Answer] = []
    for c in dict.fromkeys(s.hand_of(h)):
        power = s.data.powers[cards.power_id(c)]
        if power.kind == "ultimate" and len(power.colours) == 2:
            out.append({"card": c})
        else:
            out += [{"card": c, "colour": col} for col in power.colours]
    return out


def _discard_gain(s, h, step, a, rng) -> None:
    power = s.data.powers[cards.power_id(a["card"])]
    both = power.kind == "ultimate" and len(power.colours) == 2
    _discard_from_hand(s, h, a["card"])
    s.say(f"{h.name} discards {power.name} to gain a cube.")
    for colour in (power.colours if both else (a["colour"],)):
        effects.gain_cube(s, h, {"colour": colour}, rng)


def _copyable(s, h, step, ranged) -> list[Answer]:
    """'Reuse one of your filled powers': one with effects, not a copying power itself."""
    return [{"slot": slot} for slot, p in h.powers.items() if p.filled
            and s.data.powers[p.power].effects
            and not any(e.kind == "copy_power" for e in s.data.powers[p.power].effects)]


def _copy_power(s, h, step, a, rng) -> None:
    """Relentless Barrage: 'Powers reused through this effect don't grant their confidence
    again, nor do they count as an additional use'; Immortality: 'It has no effect if copied by
    Relentless Barrage.'"""
    played = h.powers[a["slot"]]
    power = s.data.powers[played.power]
    now = card_rules.at_fill(s, h, power)
    kept = tuple(e for e in now if e.kind != "immortal")
    if len(kept) < len(now):
        s.say(f"{power.name} has no effect if copied by Relentless Barrage.")
    s.say(f"{h.name} uses {power.name} again (Relentless Barrage).")
    boost = played.strength + (1 if "red" in played.cubes else 0)
    _add_steps(s, h, power, kept, boost, "relentless-barrage",
               card_rules.others_of_type(s, h, a["slot"]))


# -- New and Improved ----------------------------------------------------------------------------

LEARNED = ("super", "ultimate", "punch")


def _paired(s: InvincibleState, powers: dict[str, str]) -> bool:
    """'as long as every Ultimate Power you hold is paired with a matching Super Power by the
    time you're done' (``powers``: slot -> power id)."""
    d = s.data
    for slot, pid in powers.items():
        if slot.startswith("under:"):
            above = powers.get(slot[6:])
            if above is None or d.powers[above].kind != "super" or not (
                    set(d.powers[above].colours) & set(d.powers[pid].colours)):
                return False
    return True


def _relearn_options(s, h, step, ranged) -> list[Answer]:
    """New and Improved: 'You may discard a Super Power to learn an Ultimate Power, or vice versa
    ... and you may even discard New and Improved itself this way.' The new power takes the
    freed slot or an empty one a power of it may hold (outside Training, no confidence is
    spent: assumed)."""
    d = s.data
    learned_slots = [n for n in d.slot_names() if n not in ("starter", "signature")]
    out: list[Answer] = []
    for x, px in h.powers.items():
        if d.powers[px.power].kind not in LEARNED:
            continue
        rest = {k: p.power for k, p in h.powers.items() if k != x}
        for card in dict.fromkeys(s.hand_of(h)):
            pid = cards.power_id(card)
            ultimate = d.powers[pid].kind == "ultimate"
            for y in ((f"under:{n}" for n in learned_slots) if ultimate else learned_slots):
                if y in rest or (not ultimate and _slot_refusal(d, y, pid) is not None):
                    continue
                if _paired(s, {**rest, y: pid}):
                    out.append({"slot": x, "card": card, "into": y})
    return out


def _relearn(s, h, step, a, rng) -> None:
    me = s.own_hero(h.id)
    pid = cards.power_id(a["card"])
    s.own_hand(me).remove(a["card"])
    cards.clear_slot(s, me, a["slot"])
    me.powers[a["into"]] = Played(a["card"], pid, [None] * len(s.data.powers[pid].symbols))
    s.say(f"{h.name} learns {s.data.powers[pid].name} into the {a['into']} slot (New and "
          "Improved).")


OPTIONS = {
    "drone": _drone, "knock": _knock, "autosave": lambda s, h, st, r: [{}],
    "autosave_rescue": _autosave_options,
    "from_the_lab": lambda s, h, st, r: [{"card": c} for c in _hand_powers(s, h)],
    "discard_gain": _discard_gain_options, "copy_power": _copyable, "relearn": _relearn_options,
}
APPLY = {
    "drone": _place_drone, "knock": _apply_knock, "autosave": _autosave,
    "autosave_rescue": _autosave_rescue, "from_the_lab": _from_the_lab,
    "discard_gain": _discard_gain, "copy_power": _copy_power, "relearn": _relearn,
}
