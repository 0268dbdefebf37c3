"""The generic effects the players apply when a card says so: damage, rescue, thwart, heal, move,
gain a cube, strengthen, endanger, hurt, minions. The companion does not know every card's text,
so it checks what the rulebook rules (range, HQ, caps, immunity) and trusts the table for the
amounts printed on the card."""

from __future__ import annotations

import random

from companion.errors import BadAction
from companion.games import invincible_board as board
from companion.games.base import field, forbid
from companion.games.invincible_data import COLOURS, InvincibleData
from companion.games.invincible_state import (
    HQ, R_BASIC, R_CLARIFY, R_CRASH_RESCUE, R_KEYWORDS, R_RANGE, HeroState, InvincibleState,
)

THWART_TOKENS = 20   # printed: "20 thwart tokens"
ANYWHERE = "anywhere"


def _amount(data: dict, what: str, key: str = "amount", low: int = 1) -> int:
    n = field(data, key, int, what, 1)
    if not low <= n <= 50:
        raise BadAction(f"{what}: data.{key} must be between {low} and 50")
    return n


def _ranged(data: dict, what: str) -> bool:
    """True for a Ranged power, and for a helper card: 'Unlike normal powers, helper cards aren't
    restricted to a hero's current zone — they can affect any zone'."""
    if field(data, "helper", bool, what, False):
        return ANYWHERE
    return field(data, "ranged", bool, what, False)


def _zone(d: InvincibleData, data: dict, what: str, default: str | None) -> str:
    zone = field(data, "zone", str, what, default)
    if zone not in d.zones:
        raise BadAction(f"{what}: data.zone is one of {', '.join(d.zones)}")
    return zone


def _reach(d, h: HeroState, zone: str, ranged, what: str) -> None:
    if ranged is ANYWHERE:
        return
    if h.zone == HQ:
        raise forbid(f"{h.name} is at Guardians HQ: 'While at Guardians HQ, you can't target "
                     "anything in any zone, even with a Ranged power'", R_BASIC)
    if not board.in_range(d, h.zone, zone, ranged):
        raise forbid(f"{what}: the {zone} zone is out of {h.name}'s range (in the {h.zone} zone"
                     + ("; Ranged reaches only an adjacent zone" if ranged else
                        "; only a Ranged power reaches an adjacent zone") + ")", R_RANGE)


def damage(d, s: InvincibleState, h: HeroState, data: dict) -> None:
    """'place that many damage tokens on a single enemy within range — you cannot split damage
    across multiple enemies'; Explosive 'deals its listed damage to every enemy'."""
    amount = _amount(data, "damage")
    ranged = _ranged(data, "damage")
    slot = field(data, "power", str, "damage", None)
    if slot is not None:
        played = h.powers.get(slot)
        if played is None:
            raise forbid(f"{h.name} has no power in slot {slot!r}", R_KEYWORDS)
        # 'Effects that boost damage — including a strengthen token — apply to any damage icon'
        amount += played.strength
    if field(data, "explosive", bool, "damage", False):
        zone = _zone(d, data, "damage", h.zone if h.zone != HQ else d.zones[0])
        _reach(d, h, zone, ranged, "damage")
        z = s.zone(zone)
        protected = [v.id for v in z.villains if v is not None
                     and d.villains[v.id].immune_with_minions and z.minions]
        if z.minions:
            s.say(f"{h.name}'s explosive damage wipes out {z.minions} minion(s) in the {zone} zone.")
            z.minions = 0
        for v in [v.id for v in z.villains if v is not None]:
            if v in protected:
                s.say(f"{d.villains[v].name} can't be damaged while a minion shares its zone.")
            elif s.result is None:
                board.damage_villain(d, s, v, amount, f"{h.name}, explosive")
        return
    target = field(data, "target", str, "damage")
    if target == "minion":
        zone = _zone(d, data, "damage", h.zone if h.zone != HQ else None)
        _reach(d, h, zone, ranged, "damage")
        z = s.zone(zone)
        if not z.minions:
            raise forbid(f"there is no minion in the {zone} zone", R_KEYWORDS)
        z.minions -= 1   # minions are 'one-health enemies'
        s.say(f"{h.name} defeats a minion in the {zone} zone.")
        return
    where = board.find_villain(s, target)
    if where is None:
        raise forbid(f"{target!r} is not a villain in play", R_BASIC)
    zone = where[0]
    _reach(d, h, zone.name, ranged, "damage")
    if d.villains[target].immune_with_minions and zone.minions:
        raise forbid(f"{d.villains[target].name} can't be damaged while any minion shares its "
                     "zone", R_CLARIFY)
    board.damage_villain(d, s, target, amount, h.name)


def rescue(d, s: InvincibleState, h: HeroState, data: dict, rng: random.Random) -> None:
    """'A Rescue power can either move a civilian from danger to safety, or attempt to save a
    crashed hero'."""
    ranged = _ranged(data, "rescue")
    crashed = field(data, "crashed", str, "rescue", None)
    if crashed is None:
        zone = _zone(d, data, "rescue", h.zone if h.zone != HQ else None)
        _reach(d, h, zone, ranged, "rescue")
        z = s.zone(zone)
        if z.danger <= 0:
            raise forbid(f"no civilian is in danger in the {zone} zone", R_BASIC)
        z.danger -= 1
        z.safety += 1
        h.rescued_civilians += 1
        s.say(f"{h.name} moves a civilian to safety in the {zone} zone.")
        return
    try:
        other = s.hero(crashed)
    except KeyError:
        raise BadAction(f"rescue: {crashed!r} is not a hero in this game") from None
    if not other.crashed or other.rescued:
        raise forbid(f"{other.name} is not a crashed hero waiting for rescue", R_CRASH_RESCUE)
    if other.zone == HQ:
        raise forbid(f"{other.name} is at Guardians HQ, which is not a zone", R_CRASH_RESCUE)
    _reach(d, h, other.zone, ranged, "crash rescue")
    if field(data, "auto", bool, "rescue", False):
        # Home-Cooked Meal: 'Automatically rescues a crashed hero with no die roll required ...
        # the rescued hero doesn't lose their future cube pulls'
        other.rescued, other.can_pull = True, True
        other.crashed = False
        s.say(f"{h.name} rescues {other.name} with no roll needed.")
        return
    face_id = field(data, "face", str, "rescue", None)
    faces = {f.id: f for f in d.rescue_die}
    if face_id is None:
        face = rng.choice(d.rescue_die)
    elif face_id not in faces:
        raise BadAction(f"rescue: {face_id!r} is not a rescue die face ({', '.join(faces)})")
    else:
        face = faces[face_id]
    # 'Regardless of the result, neither you nor the crashed hero can pull any more cubes'
    h.can_pull = other.can_pull = False
    if face.result == "failure":
        s.say(f"{h.name} tries to rescue {other.name}: Failure ({face.id}).")
        return
    other.rescued = True
    if face.result == "epic":
        h.bonus_confidence += 1
    s.say(f"{h.name} rescues {other.name}: {'Epic Rescue (+1 confidence)' if face.result == 'epic' else 'Rescue'}"
          f" ({face.id}).")


def thwart(d, s: InvincibleState, h: HeroState, data: dict) -> None:
    """'place a thwart token on a villain in your zone or on an episode ability'."""
    on_board = sum(v.thwart for _, _, v in board.villains_in_play(s)) + sum(s.ability_thwart.values())
    if on_board >= THWART_TOKENS:
        raise forbid(f"all {THWART_TOKENS} thwart tokens are in use", R_BASIC)
    ability = field(data, "ability", str, "thwart", None)
    if ability is not None:
        abilities = d.episodes[s.episode].abilities
        if ability not in abilities:
            raise BadAction(f"thwart: {ability!r} is not an ability of this episode "
                            f"({', '.join(abilities) or 'none'})")
        ab = abilities[ability]
        if ab.tag != "global" and h.zone != ab.tag:
            raise forbid(f"{ab.name} is thwarted from the {ab.tag} zone", R_BASIC)
        if s.ability_thwart.get(ability, 0) >= ab.spaces(s.hero_count):
            raise forbid(f"{ab.name} is already fully thwarted", R_BASIC)
        s.ability_thwart[ability] = s.ability_thwart.get(ability, 0) + 1
        s.say(f"{h.name} thwarts {ab.name} ({s.ability_thwart[ability]}/{ab.spaces(s.hero_count)}).")
        return
    target = field(data, "villain", str, "thwart")
    where = board.find_villain(s, target)
    if where is None:
        raise forbid(f"{target!r} is not a villain in play", R_BASIC)
    _reach(d, h, where[0].name, _ranged(data, "thwart"), "thwart")
    v = where[0].villains[where[1]]
    if v.thwart >= v.thwart_spaces:
        raise forbid(f"{v.name} is already fully thwarted", R_BASIC)
    v.thwart += 1
    s.say(f"{h.name} thwarts {v.name} ({v.thwart}/{v.thwart_spaces}).")


def heal(d, s: InvincibleState, h: HeroState, data: dict) -> None:
    """'Healing removes damage tokens from a hero, never taking them above their maximum health
    ... can only reach heroes in your own zone unless it also has Ranged.'"""
    amount = _amount(data, "heal")
    try:
        target = s.hero(field(data, "target", str, "heal", h.id))
    except KeyError:
        raise BadAction("heal: data.target is a hero in this game") from None
    reach = _ranged(data, "heal")
    if target.id != h.id and not (reach is ANYWHERE or target.zone == h.zone or board.in_range(
            d, h.zone, target.zone, reach)):
        raise forbid(f"{target.name} is out of {h.name}'s range", R_KEYWORDS)
    healed = min(amount, target.damage)
    target.damage -= healed
    s.say(f"{h.name} heals {target.name} by {healed}.")


def move(d, s: InvincibleState, h: HeroState, data: dict) -> None:
    """'Move your hero standee to an adjacent zone, or to Guardians HQ from anywhere (and from
    Guardians HQ back to anywhere).'"""
    to = field(data, "to", str, "move")
    if to not in (*d.zones, HQ):
        raise BadAction(f"move: data.to is one of {', '.join(d.zones)} or hq")
    who = h
    if "target" in data:
        try:
            who = s.hero(field(data, "target", str, "move"))
        except KeyError:
            raise BadAction("move: data.target is a hero in this game") from None
    if to == who.zone:
        raise forbid(f"{who.name} is already there", R_BASIC)
    if not (to == HQ or who.zone == HQ or board.adjacent(d, who.zone, to)):
        raise forbid(f"the {who.zone} and {to} zones are not adjacent ('the two outer zones are "
                     "not adjacent to each other')", R_BASIC)
    who.zone = to
    s.say(f"{who.name} moves to {'Guardians HQ' if to == HQ else 'the ' + to + ' zone'}.")


def gain_cube(d, s: InvincibleState, h: HeroState, data: dict) -> None:
    """'immediately take a cube of the indicated color from the supply and add it permanently to
    your bag. If the supply of that color is empty, nothing happens.'"""
    colour = field(data, "colour", str, "gain_cube")
    if colour not in (*COLOURS, "red"):
        raise BadAction(f"gain_cube: data.colour is one of {', '.join(COLOURS)} or red")
    if colour == "red" and not any(p.power == "fire-up" for p in h.powers.values()):
        raise forbid("Red cubes can only be gained through Rex Splode's Fire Up", R_KEYWORDS)
    if s.supply.get(colour, 0) <= 0:
        s.say(f"The supply has no {colour} cube: nothing happens.")
        return
    s.supply[colour] -= 1
    h.bag[colour] = h.bag.get(colour, 0) + 1
    s.say(f"{h.name} gains a {colour} cube.")


def strengthen(d, s: InvincibleState, h: HeroState, data: dict) -> None:
    """'place a strengthen token on one of your own powers ... only powers that deal damage'."""
    slot = field(data, "power", str, "strengthen")
    played = h.powers.get(slot)
    if played is None:
        raise forbid(f"{h.name} has no power in slot {slot!r}: you can only strengthen your own "
                     "powers", R_KEYWORDS)
    power = d.powers[played.power]
    if not any(e.startswith(("damage", "explosive")) for e in power.effects):
        raise forbid(f"{power.name} never deals damage, so it can't be strengthened", R_KEYWORDS)
    if s.strengthen_left <= 0:
        raise forbid("all 16 strengthen tokens are in use", R_KEYWORDS)
    played.strength += 1
    s.strengthen_left -= 1
    s.say(f"{h.name} strengthens {power.name} (+{played.strength} damage).")


def bubble(d, s: InvincibleState, h: HeroState, data: dict) -> None:
    """Bubble Up: 'When she gives it to a hero (herself included), place it near that hero's
    max-health icon. It stays with them until it actually blocks damage, or until Eve reassigns
    it to someone else'."""
    if not any("bubble" in d.powers[p.power].effects and p.filled for p in h.powers.values()):
        raise forbid(f"{h.name} has no filled power that gives the bubble", R_CLARIFY)
    try:
        target = s.hero(field(data, "target", str, "bubble", h.id))
    except KeyError:
        raise BadAction("bubble: data.target is a hero in this game") from None
    reach = _ranged(data, "bubble")
    if target.id != h.id and reach is not ANYWHERE and not board.in_range(d, h.zone, target.zone,
                                                                          reach):
        raise forbid(f"{target.name} is out of {h.name}'s range", R_RANGE)
    s.bubble = target.id
    s.say(f"{h.name} gives the bubble to {target.name}.")


def clear_power(d, s: InvincibleState, h: HeroState, data: dict) -> None:
    """Clean Slate: 'Removing cubes from an already-filled power forfeits any confidence it
    granted ... Black cubes returned to your bag this way no longer count toward your crash
    limit'."""
    slot = field(data, "power", str, "clear_power")
    played = h.powers.get(slot)
    if played is None or not any(played.cubes):
        raise forbid(f"{h.name} has no power with cubes in slot {slot!r}", R_CLARIFY)
    for c in played.cubes:
        if c is not None:
            h.bag[c] = h.bag.get(c, 0) + 1
    played.cubes = [None] * len(played.cubes)
    played.filled = False
    s.say(f"{h.name} clears {d.powers[played.power].name}: its cubes go back to the bag.")


def endanger(d, s: InvincibleState, data: dict) -> None:
    zone = _zone(d, data, "endanger", None)
    board.endanger(d, s, zone, _amount(data, "endanger", "count"), "a card")


def hurt(d, s: InvincibleState, h: HeroState, data: dict) -> None:
    board.hurt_hero(d, s, h.id, _amount(data, "hurt"), field(data, "why", str, "hurt", "a card"))


def minions(d, s: InvincibleState, data: dict) -> None:
    zone = _zone(d, data, "minions", None)
    count = field(data, "count", int, "minions", 1)
    if not -3 <= count <= 3 or count == 0:
        raise BadAction("minions: data.count is 1 to 3 to place, -1 to -3 to remove")
    if count < 0:
        z = s.zone(zone)
        if z.minions < -count:
            raise forbid(f"the {zone} zone has only {z.minions} minion(s)", R_KEYWORDS)
        z.minions += count
        s.say(f"{-count} minion(s) removed from the {zone} zone.")
        return
    board.add_minions(d, s, zone, count)


def confidence(d, s: InvincibleState, h: HeroState, data: dict) -> None:
    n = _amount(data, "confidence")
    h.bonus_confidence += n
    s.say(f"{h.name} gains {n} bonus confidence.")


__all__ = ["damage", "rescue", "thwart", "heal", "move", "gain_cube", "strengthen", "endanger",
           "hurt", "minions", "confidence"]
