"""The card effects players apply when a card says so: damage, rescue, thwart, heal, move, gain a
cube, strengthen, confidence, endanger, hurt, minions, bubble, clear a power. The rulebook's rules
about them (range, Guardians HQ, a single target, Explosive, Multi-Paul's immunity, the token
limits, red cubes only through Fire Up) are enforced here; the amounts printed on a card are not
known to the companion.

Each effect is ``effect(state, hero, args, rng)``: ``state`` is a fork, ``hero`` the hero applying
it (as the action named it: ask the fork for its own copy to change it), ``args`` the effect's
checked arguments (their schemas are in args.py). ``BY_NAME`` lists them by action type.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from companion.errors import BadAction
from companion.games.base import forbid
from companion.games.invincible import board, bosses
from companion.games.invincible.state import (
    HQ, R_BASIC, R_CLARIFY, R_CRASH_RESCUE, R_KEYWORDS, R_RANGE, HeroState, InvincibleState,
)

THWART_TOKENS = 20   # printed: "20 thwart tokens"
STRENGTHEN_TOKENS = 16
ANYWHERE = "anywhere"
Args = dict[str, Any]


def reach(args: Args) -> bool | str:
    """True for a Ranged power; ANYWHERE for a helper card: 'Unlike normal powers, helper cards
    aren't restricted to a hero's current zone — they can affect any zone'."""
    return ANYWHERE if args.get("helper") else bool(args.get("ranged"))


def reaches(s: InvincibleState, h: HeroState, zone: str, how: bool | str) -> bool:
    return how is ANYWHERE or board.in_range(s.data, h.zone, zone, bool(how))


def _reach(s: InvincibleState, h: HeroState, zone: str, how: bool | str, what: str) -> None:
    if how is ANYWHERE:
        return
    if h.zone == HQ:
        raise forbid(f"{h.name} is at Guardians HQ: 'While at Guardians HQ, you can't target "
                     "anything in any zone, even with a Ranged power'", R_BASIC)
    if not board.in_range(s.data, h.zone, zone, how):
        raise forbid(f"{what}: the {zone} zone is out of {h.name}'s range (in the {h.zone} zone"
                     + ("; Ranged reaches only an adjacent zone" if how else
                        "; only a Ranged power reaches an adjacent zone") + ")", R_RANGE)


def _zone(s: InvincibleState, args: Args, what: str, default: str | None) -> str:
    zone = args.get("zone") or default
    if zone is None:
        raise BadAction(f"{what}: data.zone is one of {', '.join(s.data.zones)}")
    return zone


def _home(s: InvincibleState, h: HeroState) -> str | None:
    return h.zone if h.zone != HQ else None


def damage(s: InvincibleState, h: HeroState, args: Args, rng: random.Random) -> None:
    """'place that many damage tokens on a single enemy within range — you cannot split damage
    across multiple enemies'; Explosive 'deals its listed damage to every enemy'."""
    amount, how = args["amount"], reach(args)
    if args["power"] is not None:
        played = h.powers.get(args["power"])
        if played is None:
            raise forbid(f"{h.name} has no power in slot {args['power']!r}", R_KEYWORDS)
        # 'Effects that boost damage — including a strengthen token — apply to any damage icon'
        amount += played.strength
    if args["explosive"]:
        _explosive(s, h, _zone(s, args, "damage", _home(s, h) or s.data.zones[0]), how, amount)
        return
    target = args["target"]
    if target is None:
        raise BadAction("damage needs data.target (a villain in play, or \"minion\")")
    if target == "minion":
        zone = _zone(s, args, "damage", _home(s, h))
        _reach(s, h, zone, how, "damage")
        if not s.zone(zone).minions:
            raise forbid(f"there is no minion in the {zone} zone", R_KEYWORDS)
        s.own_zone(zone).minions -= 1   # minions are 'one-health enemies'
        s.say(f"{h.name} defeats a minion in the {zone} zone.")
        return
    if target == bosses.TARGET:
        # the bosses: 'the term "enemy" covers both (as well as the Machine Head and Omni-Man
        # bosses that appear in episodes 4 and 7)'
        boss = bosses.active(s)
        if boss is None:
            raise forbid("no boss is in play", R_BASIC)
        _reach(s, h, boss.zone, how, "damage")
        bosses.damage(s, amount, h.name)
        return
    where = board.find_villain(s, target)
    if where is None:
        raise forbid(f"{target!r} is not a villain in play", R_BASIC)
    zone = where[0].name
    _reach(s, h, zone, how, "damage")
    if target in s.hurled:
        raise forbid(f"{s.data.villains[target].name} is hurled into space and can't be "
                     "damaged", R_CLARIFY)
    if not board.damageable(s, zone, target):
        raise forbid(f"{s.data.villains[target].name} can't be damaged while any minion shares "
                     "its zone", R_CLARIFY)
    board.damage_villain(s, target, amount, h.name)


def _explosive(s: InvincibleState, h: HeroState, zone: str, how, amount: int) -> None:
    _reach(s, h, zone, how, "damage")
    z = s.zone(zone)
    if not board.enemies_in(z) and not bosses.in_zone(s, zone):
        # An Explosive power that hits nothing changes nothing: the table sends resolved.
        raise forbid(f"there is no enemy in the {zone} zone for explosive damage to hit",
                     R_KEYWORDS)
    protected = [v.id for v in z.villains if v is not None and not board.damageable(s, zone, v.id)]
    if z.minions:
        s.say(f"{h.name}'s explosive damage wipes out {board.minions(z.minions)} in the {zone} zone.")
        s.own_zone(zone).minions = 0
    for v in [v.id for v in z.villains if v is not None]:
        if v in protected:
            s.say(f"{s.data.villains[v].name} can't be damaged now (a minion shares its zone, "
                  "or it is hurled into space).")
        elif s.result is None:
            board.damage_villain(s, v, amount, f"{h.name}, explosive")
    if bosses.in_zone(s, zone) and s.result is None:
        bosses.damage(s, amount, f"{h.name}, explosive")


def rescue(s: InvincibleState, h: HeroState, args: Args, rng: random.Random) -> None:
    """'A Rescue power can either move a civilian from danger to safety, or attempt to save a
    crashed hero'."""
    how = reach(args)
    if args["crashed"] is not None:
        _crash_rescue(s, h, args, how, rng)
        return
    zone = _zone(s, args, "rescue", _home(s, h))
    _reach(s, h, zone, how, "rescue")
    if s.zone(zone).danger <= 0:
        raise forbid(f"no civilian is in danger in the {zone} zone", R_BASIC)
    z = s.own_zone(zone)
    z.danger -= 1
    z.safety += 1
    s.own_hero(h.id).rescued_civilians += 1
    s.say(f"{h.name} moves a civilian to safety in the {zone} zone.")


def rescuable(h: HeroState) -> bool:
    """A crashed hero a rescue can reach: 'HQ is not a zone'."""
    return h.crashed and not h.rescued and h.zone != HQ


def _crash_rescue(s: InvincibleState, h: HeroState, args: Args, how, rng) -> None:
    other = _hero(s, args["crashed"], "rescue")
    if not other.crashed or other.rescued:
        raise forbid(f"{other.name} is not a crashed hero waiting for rescue", R_CRASH_RESCUE)
    if other.zone == HQ and not args["auto"]:
        raise forbid(f"{other.name} is at Guardians HQ, which is not a zone", R_CRASH_RESCUE)
    if args["auto"]:
        # Home-Cooked Meal: 'Automatically rescues a crashed hero with no die roll required ...
        # the rescued hero doesn't lose their future cube pulls'
        other = s.own_hero(other.id)
        other.rescued, other.can_pull, other.crashed = True, True, False
        s.say(f"{h.name} rescues {other.name} with no roll needed.")
        return
    _reach(s, h, other.zone, how, "crash rescue")
    faces = {f.id: f for f in s.data.rescue_die}
    face = faces[args["face"]] if args["face"] is not None else rng.choice(s.data.rescue_die)
    # 'Regardless of the result, neither you nor the crashed hero can pull any more cubes'
    me, other = s.own_hero(h.id), s.own_hero(other.id)
    me.can_pull = other.can_pull = False
    if face.result == "failure":
        s.say(f"{h.name} tries to rescue {other.name}: Failure.")
        return
    other.rescued = True
    if face.result == "epic":
        me.bonus_confidence += 1
    s.say(f"{h.name} rescues {other.name}: "
          f"{'Epic Rescue (+1 confidence)' if face.result == 'epic' else 'Rescue'}.")


def thwart_tokens_left(s: InvincibleState) -> int:
    used = sum(v.thwart for _, _, v in board.villains_in_play(s)) + sum(s.ability_thwart.values())
    return THWART_TOKENS - used


def ability_open(s: InvincibleState, h: HeroState, ability_id: str) -> bool:
    """``h`` may thwart the episode ability: from its zone ('Global' means anywhere), not full."""
    ab = s.data.episodes[s.episode].abilities[ability_id]
    return ((ab.tag == "global" or h.zone == ab.tag)
            and s.ability_thwart.get(ability_id, 0) < ab.spaces(s.hero_count))


def thwart(s: InvincibleState, h: HeroState, args: Args, rng: random.Random) -> None:
    """'place a thwart token on a villain in your zone or on an episode ability'."""
    if thwart_tokens_left(s) <= 0:
        raise forbid(f"all {THWART_TOKENS} thwart tokens are in use", R_BASIC)
    if args["ability"] is not None:
        _thwart_ability(s, h, args["ability"])
        return
    target = args["villain"]
    if target is None:
        raise BadAction("thwart needs data.villain (a villain in play) or data.ability")
    where = board.find_villain(s, target)
    if where is None:
        raise forbid(f"{target!r} is not a villain in play", R_BASIC)
    _reach(s, h, where[0].name, reach(args), "thwart")
    v = where[0].villains[where[1]]
    if v.thwart >= v.thwart_spaces:
        raise forbid(f"{v.name} is already fully thwarted", R_BASIC)
    v = s.own_villain(target)
    v.thwart += 1
    s.say(f"{h.name} thwarts {v.name} ({v.thwart}/{v.thwart_spaces}).")


def _thwart_ability(s: InvincibleState, h: HeroState, ability: str) -> None:
    abilities = s.data.episodes[s.episode].abilities
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


def heal(s: InvincibleState, h: HeroState, args: Args, rng: random.Random) -> None:
    """'Healing removes damage tokens from a hero, never taking them above their maximum health
    ... can only reach heroes in your own zone unless it also has Ranged.'"""
    target = _hero(s, args["target"] or h.id, "heal")
    how = reach(args)
    if target.id != h.id and not (target.zone == h.zone or reaches(s, h, target.zone, how)):
        raise forbid(f"{target.name} is out of {h.name}'s range", R_KEYWORDS)
    healed = min(args["amount"], target.damage)
    if healed:
        s.own_hero(target.id).damage -= healed
    s.say(f"{h.name} heals {target.name} by {healed}.")


def move(s: InvincibleState, h: HeroState, args: Args, rng: random.Random) -> None:
    """'Move your hero standee to an adjacent zone, or to Guardians HQ from anywhere (and from
    Guardians HQ back to anywhere).'"""
    to = args["to"]
    who = _hero(s, args["target"], "move") if args["target"] is not None else h
    if to == who.zone:
        raise forbid(f"{who.name} is already there", R_BASIC)
    if not (to == HQ or who.zone == HQ or board.adjacent(s.data, who.zone, to)):
        raise forbid(f"the {who.zone} and {to} zones are not adjacent ('the two outer zones are "
                     "not adjacent to each other')", R_BASIC)
    s.own_hero(who.id).zone = to
    s.say(f"{who.name} moves to {'Guardians HQ' if to == HQ else 'the ' + to + ' zone'}.")


def gain_cube(s: InvincibleState, h: HeroState, args: Args, rng: random.Random) -> None:
    """'immediately take a cube of the indicated color from the supply and add it permanently to
    your bag. If the supply of that color is empty, nothing happens.'"""
    colour = args["colour"]
    if colour == "red" and not any(p.power == "fire-up" for p in h.powers.values()):
        raise forbid("Red cubes can only be gained through Rex Splode's Fire Up", R_KEYWORDS)
    if s.supply.get(colour, 0) <= 0:
        s.say(f"The supply has no {colour} cube: nothing happens.")
        return
    s.supply[colour] -= 1
    bag = s.own_hero(h.id).bag
    bag[colour] = bag.get(colour, 0) + 1
    s.say(f"{h.name} gains {'an' if colour[0] in 'aeiou' else 'a'} {colour} cube.")


def deals_damage(s: InvincibleState, power_id: str) -> bool:
    return s.data.powers[power_id].damaging


def strengthen(s: InvincibleState, h: HeroState, args: Args, rng: random.Random) -> None:
    """'place a strengthen token on one of your own powers ... only powers that deal damage'."""
    slot = args["power"]
    played = h.powers.get(slot)
    if played is None:
        raise forbid(f"{h.name} has no power in slot {slot!r}: you can only strengthen your own "
                     "powers", R_KEYWORDS)
    power = s.data.powers[played.power]
    if not deals_damage(s, played.power):
        raise forbid(f"{power.name} never deals damage, so it can't be strengthened", R_KEYWORDS)
    if s.strengthen_left <= 0:
        raise forbid(f"all {STRENGTHEN_TOKENS} strengthen tokens are in use", R_KEYWORDS)
    mine = s.own_hero(h.id)
    mine.powers[slot] = stronger = played.stronger()
    s.strengthen_left -= 1
    s.say(f"{h.name} strengthens {power.name} (+{stronger.strength} damage).")


def gives_bubble(s: InvincibleState, h: HeroState) -> bool:
    return any(p.filled and any(e.kind == "bubble" for e in s.data.powers[p.power].effects)
               for p in h.powers.values())


def bubble(s: InvincibleState, h: HeroState, args: Args, rng: random.Random) -> None:
    """Bubble Up: 'When she gives it to a hero (herself included), place it near that hero's
    max-health icon. It stays with them until it actually blocks damage, or until Eve reassigns
    it to someone else'."""
    if not gives_bubble(s, h):
        raise forbid(f"{h.name} has no filled power that gives the bubble", R_CLARIFY)
    target = _hero(s, args["target"] or h.id, "bubble")
    if target.id != h.id and not reaches(s, h, target.zone, reach(args)):
        raise forbid(f"{target.name} is out of {h.name}'s range", R_RANGE)
    s.bubble = target.id
    s.say(f"{h.name} gives the bubble to {target.name}.")


def clear_power(s: InvincibleState, h: HeroState, args: Args, rng: random.Random) -> None:
    """Clean Slate: 'Removing cubes from an already-filled power forfeits any confidence it
    granted ... Black cubes returned to your bag this way no longer count toward your crash
    limit'."""
    slot = args["power"]
    played = h.powers.get(slot)
    if played is None or not any(played.cubes):
        raise forbid(f"{h.name} has no power with cubes in slot {slot!r}", R_CLARIFY)
    mine = s.own_hero(h.id)
    for c in played.cubes:
        if c is not None:
            mine.bag[c] = mine.bag.get(c, 0) + 1
    mine.powers[slot] = played.with_cubes([None] * len(played.cubes))
    s.say(f"{h.name} clears {s.data.powers[played.power].name}: its cubes go back to the bag.")


def endanger(s: InvincibleState, h: HeroState | None, args: Args, rng: random.Random) -> None:
    board.endanger(s, args["zone"], args["count"], "a card")


def hurt(s: InvincibleState, h: HeroState, args: Args, rng: random.Random) -> None:
    board.hurt_hero(s, h.id, args["amount"], args["why"])


def minions(s: InvincibleState, h: HeroState | None, args: Args, rng: random.Random) -> None:
    zone, count = args["zone"], args["count"]
    if count == 0:
        raise BadAction("minions: data.count is 1 to 3 to place, -1 to -3 to remove")
    if count > 0:
        board.add_minions(s, zone, count)
        return
    if s.zone(zone).minions < -count:
        raise forbid(f"the {zone} zone has only {board.minions(s.zone(zone).minions)}", R_KEYWORDS)
    s.own_zone(zone).minions += count
    s.say(f"{board.minions(-count)} removed from the {zone} zone.")


def confidence(s: InvincibleState, h: HeroState, args: Args, rng: random.Random) -> None:
    s.own_hero(h.id).bonus_confidence += args["amount"]
    s.say(f"{h.name} gains {args['amount']} bonus confidence.")


def _hero(s: InvincibleState, hero_id: str, what: str) -> HeroState:
    try:
        return s.hero(hero_id)
    except KeyError:
        raise BadAction(f"{what}: {hero_id!r} is not a hero in this game "
                        f"({', '.join(h.id for h in s.heroes)})") from None


Effect = Callable[[InvincibleState, HeroState, Args, random.Random], None]
#: every effect by its action type, in the order expect lists them
BY_NAME: dict[str, Effect] = {
    "damage": damage, "rescue": rescue, "thwart": thwart, "heal": heal, "move": move,
    "gain_cube": gain_cube, "strengthen": strengthen, "confidence": confidence,
    "endanger": endanger, "hurt": hurt, "minions": minions, "bubble": bubble,
    "clear_power": clear_power,
}
#: the effects that need no hero to apply them
NO_HERO = ("endanger", "minions")
