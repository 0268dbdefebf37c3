"""What a power's effect leaves for the table to choose, and applying it with the card's amount.

A step is one effect of the power resolving (resolve.py makes them from the card's data): its
``kind``, its ``amount`` (the printed amount, strengthen tokens and a red cube's +1 already in
it), and for moves and heals whether it reaches another hero. ``options(s, hero, step, ranged)``
lists every answer the card allows now (which enemy, zone, civilian, hero, colour or slot), each
a small dict of the ``effect`` action's fields; ``apply`` applies one, through the rules of
effects.py (range, Guardians HQ, one target, Explosive, Multi-Paul, the token limits).
"""

from __future__ import annotations

import random
from typing import Any

from companion.games.invincible import (
    board, bosses, card_powers, cards, effects, experimental, gain_play,
)
from companion.games.invincible.data import COLOURS
from companion.games.invincible.state import HQ, R_CLARIFY, HeroState, InvincibleState
from companion.games.base import forbid

Step = dict[str, Any]
Answer = dict[str, Any]
#: kinds that leave nothing to choose: applied as soon as they come up (unless they may be skipped)
AUTO = ("confidence", "hurt_self", "immortal")


zones_in_reach = card_powers.zones_in_reach


def _heroes_in_reach(s: InvincibleState, h: HeroState, ranged: bool) -> list[HeroState]:
    zones = zones_in_reach(s, h, ranged)
    return [x for x in s.heroes if x.id == h.id or x.zone in zones]


def _destinations(s: InvincibleState, zone: str) -> list[str]:
    """'Move your hero standee to an adjacent zone, or to Guardians HQ from anywhere (and from
    Guardians HQ back to anywhere)'."""
    if zone == HQ:
        return list(s.data.zones)
    return [*board.neighbours(s.data.zones, zone), HQ]


def _damage(s, h, step, ranged) -> list[Answer]:
    out: list[Answer] = []
    for z in zones_in_reach(s, h, ranged):
        zone = s.zone(z)
        out += [{"target": v.id} for v in zone.villains
                if v is not None and board.damageable(s, z, v.id)]
        if zone.minions:
            out.append({"target": "minion", "zone": z})
        if bosses.in_zone(s, z):
            out.append({"target": bosses.TARGET})
    return out + card_powers.drone_options(s, out)


def _move_enemy(s, h, step, ranged) -> list[Answer]:
    """Telekimeanness: 'move an enemy from your zone into an adjacent one'."""
    if h.zone == HQ:
        return []
    here, out = s.zone(h.zone), []
    for to in board.neighbours(s.data.zones, h.zone):
        if board.open_slot(s.zone(to)) is not None:
            out += [{"target": v.id, "to": to} for v in here.villains if v is not None]
        if here.minions and s.zone(to).minions < s.data.minion_cap:
            out.append({"target": "minion", "zone": h.zone, "to": to})
        if bosses.in_zone(s, h.zone):      # a boss is an enemy and takes no villain slot
            out.append({"target": bosses.TARGET, "to": to})
    return out


def _rescue(s, h, step, ranged) -> list[Answer]:
    zones = zones_in_reach(s, h, ranged)
    return ([{"zone": z} for z in zones if s.zone(z).danger > 0]
            + [{"crashed": x.id} for x in s.heroes if effects.rescuable(x) and x.zone in zones])


def _thwart(s, h, step, ranged) -> list[Answer]:
    if effects.thwart_tokens_left(s) <= 0:
        return []
    zones = zones_in_reach(s, h, ranged)
    return ([{"villain": v.id} for z, _, v in board.villains_in_play(s)
             if z in zones and v.thwart < v.thwart_spaces]
            + [{"ability": a} for a in s.data.episodes[s.episode].abilities
               if effects.ability_open(s, h, a)])


def _heal(s, h, step, ranged) -> list[Answer]:
    heroes = _heroes_in_reach(s, h, ranged) if step["target"] != "self" else [h]
    if step["target"] == "each":    # every hero in range at once: nothing to choose
        return [{}] if any(x.damage > 0 for x in heroes) else []
    return [{"target": x.id} for x in heroes if x.damage > 0]


def _move(s, h, step, ranged) -> list[Answer]:
    heroes = _heroes_in_reach(s, h, ranged) if step["target"] == "hero" else [h]
    out = [{"to": to, "target": x.id} for x in heroes for to in _destinations(s, x.zone)]
    # Flying Charge 'could bring a villain into her zone': an enemy moved as Telekimeanness does
    return out + _move_enemy(s, h, step, ranged) if step.get("enemy") else out


def _gain(s, h, step, ranged) -> list[Answer]:
    """'a card that says "gain a cube of any color" can only choose among yellow, blue, orange,
    and purple' (so Molecule Makeover and Guardians, Gather! never gain red or black)."""
    colours = COLOURS if step["colour"] == "any" else (step["colour"],)
    out = [{"colour": c} for c in colours if s.supply.get(c, 0) > 0]
    if step["target"] == "hero":
        return [{**o, "target": x.id} for x in _heroes_in_reach(s, h, ranged) for o in out]
    return out


def _strengthen(s, h, step, ranged) -> list[Answer]:
    if s.strengthen_left <= 0:
        return []
    return [{"slot": slot} for slot, p in h.powers.items() if s.data.powers[p.power].damaging]


OPTIONS = {
    "damage": _damage, "explosive": lambda s, h, st, r: [
        {"zone": z} for z in zones_in_reach(s, h, r)
        if board.enemies_in(s.zone(z)) or bosses.in_zone(s, z)],
    "move": _move, "move_enemy": _move_enemy, "rescue": _rescue,
    "rescue_crashed": lambda s, h, st, r: [
        {"crashed": x.id} for x in s.heroes if x.crashed and not x.rescued],
    "thwart": _thwart, "heal": _heal, "gain_cube": _gain, "strengthen": _strengthen,
    "bubble": lambda s, h, st, r: [{"target": x.id} for x in _heroes_in_reach(s, h, r)],
    "clear_power": lambda s, h, st, r: [
        {"slot": slot} for slot, p in h.powers.items() if any(p.cubes)],
    # Heroic Assembly: 'Choose any helper card your team doesn't already hold (and hasn't already
    # used this game)'
    "gain_helper": lambda s, h, st, r: [
        {"helper": c} for c in s.data.helpers if c not in s.helpers and c not in s.helpers_used],
    "hurl": lambda s, h, st, r: [
        {"villain": v.id} for z, _, v in board.villains_in_play(s)
        if z in zones_in_reach(s, h, r) and v.id not in s.hurled],
    "confidence": lambda s, h, st, r: [{}], "hurt_self": lambda s, h, st, r: [{}],
    "immortal": lambda s, h, st, r: [{}],
    "text": lambda s, h, st, r: [{}],
    "repeat": lambda s, h, st, r: [{}],
    gain_play.PLACE: lambda s, h, st, r: gain_play.options(s, h, st),
    **card_powers.OPTIONS, **experimental.OPTIONS,
}
APPLY = {**card_powers.APPLY, **experimental.APPLY}


def options(s: InvincibleState, h: HeroState, step: Step, ranged: bool) -> list[Answer]:
    if step["kind"] in ("damage", "explosive") and step["amount"] <= 0:
        return []     # Turn the Tide with nobody rescued this round deals nothing
    # a step another card brought (From the Lab, Relentless Barrage) has that card's range
    return OPTIONS[step["kind"]](s, h, step, step.get("ranged", ranged))


def matches(step: Step, answer: Answer, option: Answer, h: HeroState) -> bool:
    """``answer`` names ``option``: every field of the option, a missing one taken as the hero's
    own (its own standee, its own zone); other fields are not this step's choices, except the
    drone: used only where named."""
    if answer.get("drone") and not option.get("drone"):
        return False
    for key, value in option.items():
        got = answer.get(key)
        if got is None and key == "target" and step["kind"] in ("move", "heal", "bubble",
                                                                 "gain_cube"):
            got = h.id
        if got is None and key == "zone" and option.get("target") == "minion":
            got = h.zone
        if got != value:
            return False
    return True


def apply(s: InvincibleState, h: HeroState, step: Step, answer: Answer, ranged: bool,
          name: str, rng: random.Random) -> None:
    """``answer`` applied to the fork ``s`` with the card's amount, by the rules of effects.py."""
    kind, amount = step["kind"], step["amount"]
    ranged = step.get("ranged", ranged)
    reach = {"ranged": bool(ranged), "helper": ranged == effects.ANYWHERE}
    a = answer
    if kind in APPLY:
        APPLY[kind](s, h, step, a, rng)
    elif kind in ("damage", "explosive"):
        amount += card_powers.use_drone(s, h, a)
        effects.damage(s, h, {"amount": amount, "power": None, "explosive": kind == "explosive",
                              "target": a.get("target"), "zone": a.get("zone"), **reach}, rng)
    elif kind == "move" and step.get("enemy") and a.get("target") is not None and not any(
            x.id == a["target"] for x in s.heroes):   # Flying Charge moving an enemy
        move_enemy(s, h, a)
    elif kind == "move":
        effects.move(s, h, {"to": a["to"], "target": a.get("target")}, rng)
    elif kind == "move_enemy":
        move_enemy(s, h, a)
    elif kind in ("rescue", "rescue_crashed"):
        auto = kind == "rescue_crashed"
        effects.rescue(s, h, {"zone": a.get("zone"), "crashed": a.get("crashed"),
                              "face": a.get("face"), "auto": auto,
                              "ranged": bool(ranged), "helper": auto or reach["helper"]}, rng)
    elif kind == "thwart":
        effects.thwart(s, h, {"villain": a.get("villain"), "ability": a.get("ability"), **reach},
                       rng)
    elif kind == "heal" and step["target"] == "each":
        for x in _heroes_in_reach(s, h, ranged):
            if x.damage > 0:
                effects.heal(s, h, {"target": x.id, "amount": amount, **reach}, rng)
    elif kind == "heal":
        effects.heal(s, h, {"target": a.get("target"), "amount": amount, **reach}, rng)
    elif kind == "gain_cube":
        effects.gain_cube(s, h, {"colour": a["colour"]}, rng)
    elif kind == "strengthen":
        effects.strengthen(s, h, {"power": a["slot"]}, rng)
    elif kind == "bubble":
        effects.bubble(s, h, {"target": a.get("target"), **reach}, rng)
    elif kind == "clear_power":
        effects.clear_power(s, h, {"power": a["slot"]}, rng)
    elif kind == "confidence":
        effects.confidence(s, h, {"amount": amount}, rng)
    elif kind == "hurl":
        s.hurled = [*s.hurled, a["villain"]]
        s.say(f"{h.name} hurls {s.data.villains[a['villain']].name} into space: it skips its "
              "strike and power this Villain Phase and can't be damaged.")
    elif kind == "gain_helper":
        s.helpers = [*s.helpers, a["helper"]]
        s.assembled = [*s.assembled, a["helper"]]   # 'In Campaign Mode ... carry forward'
        s.say(f"{h.name} adds {s.data.helpers[a['helper']].name} to the team's helpers.")
    elif kind == "immortal":
        immortal(s, h, name)
    elif kind == "hurt_self":
        board.hurt_hero(s, h.id, amount, name)
    else:
        s.say(f"{name}: {step['text']} (the table applies this; the companion does not)")


def move_enemy(s: InvincibleState, h: HeroState, a: Answer) -> None:
    target, to = a.get("target"), a.get("to")
    if to not in s.data.zones:
        raise forbid(f"{to!r} is not a zone ({', '.join(s.data.zones)})", R_CLARIFY)
    if target == "minion":
        if a.get("zone") not in s.data.zones or s.zone(a["zone"]).minions <= 0:
            raise forbid(f"no minion in the {a.get('zone')} zone to move", R_CLARIFY)
        s.own_zone(a["zone"]).minions -= 1
        s.own_zone(to).minions += 1
        s.say(f"{h.name} moves a minion to the {to} zone.")
        return
    if target == bosses.TARGET:
        if bosses.active(s) is None:
            raise forbid("no boss is in play", R_CLARIFY)
        bosses.move(s, to, h.name)
        return
    if board.find_villain(s, target) is None:
        raise forbid(f"{target!r} is not a villain in play", R_CLARIFY)
    if board.open_slot(s.zone(to)) is None:
        raise forbid(f"the {to} zone's villain slots are full", R_CLARIFY)
    board.relocate(s, target, to)
    s.say(f"{h.name} moves {s.data.villains[target].name} to the {to} zone.")


def immortal(s: InvincibleState, h: HeroState, name: str) -> None:
    """Immortality: 'Using this removes it from your hero board and sets it aside; from then on it
    protects you from being KOed even on a later round. Any cubes on it return to your bag at end
    of round' (they wait in the dropped area until the reset)."""
    me = s.own_hero(h.id)
    me.immortal = True
    for slot, p in list(me.powers.items()):
        if s.data.powers[p.power].effects and any(
                e.kind == "immortal" for e in s.data.powers[p.power].effects) and p.filled:
            del me.powers[slot]
            cards.keep_confidence(s, me, p)
            me.dropped.extend(c for c in p.cubes if c is not None)
    s.say(f"{h.name} uses {name}: set aside, {h.name} can't be KOed from now on.")
