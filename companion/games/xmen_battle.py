"""Battles and recruiting in the Battle Zones: deployment, dice, the Strength Track, hits,
team work and capture. Recruiting follows the same rules with Intelligence dice (Step 3).

Every function changes the state it is given: the engine hands it a private clone.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import forbid
from companion.games.xmen_data import Character, XMenData
from companion.games.xmen_state import (HQ, R_BATTLE, R_FIGHT, R_JOIN, R_NEW, R_RECRUIT, Hero,
                                        Side, Team, XMenState, Zone)


def zone_kind(zone: Zone) -> str | None:
    if zone.card is None:
        return None
    return "recruit" if zone.recruit is not None else "battle"


def unfought(s: XMenState, team: Team, kind: str | None = None) -> list[tuple[int, str]]:
    """(zone, hero) of every figure of the team in a Battle Zone that has not fought this turn.

    "If your character(s) is already in a Battle Zone, you must continue to battle that Evil
    Mutant."
    """
    out = []
    for h in team.heroes:
        if h.where != HQ and not h.acted and (kind is None or zone_kind(s.zones[h.where]) == kind):
            out.append((h.where, h.id))
    return out


def deployable(data: XMenData, s: XMenState, team: Team) -> list[str]:
    """ "If you have one or more characters at Headquarters and they have fewer hits than their
    Durability number, they can move to a Battle Zone Deployment Area." """
    return [h.id for h in team.heroes
            if h.where == HQ and not h.acted and h.hits < data.characters[h.id].durability]


def can_fly(data: XMenData, s: XMenState, hero_id: str) -> bool:
    return bool(data.characters[hero_id].abilities_of("flight", s.advanced))


def check_deploy(data: XMenData, s: XMenState, team: Team, z: int, heroes: list[str],
                 leader: str | None) -> None:
    """Raise IllegalAction unless these heroes may deploy to zone ``z`` now."""
    zone = s.zones[z]
    kind = zone_kind(zone)
    if kind is None:
        raise forbid(f"Battle Zone {z + 1} is empty: an Alert card is drawn for it at the start "
                     "of the next turn", R_FIGHT)
    if kind == "recruit" and len(team.heroes) >= data.max_team:
        raise forbid(f"your team already has {data.max_team} X-Men: \"Once your team has four "
                     "characters, you cannot recruit another X-Men.\"", R_RECRUIT)
    free = deployable(data, s, team)
    for hid in heroes:
        hero = s.hero(team, hid)
        name = data.characters[hid].name if hid in data.characters else hid
        if hero is None:
            raise forbid(f"{name} is not on {team.player}'s team", R_FIGHT)
        if hid not in free:
            if hero.where != HQ:
                why = f"is already in Battle Zone {hero.where + 1}"
            elif hero.acted:
                why = "has already battled or recovered this turn (one of the two per turn)"
            else:
                why = (f"has {hero.hits} hits, not fewer than a Durability of "
                       f"{data.characters[hid].durability}: recover at Headquarters first")
            raise forbid(f"{name} cannot deploy: {why}", R_FIGHT)
    if len(set(heroes)) != len(heroes):
        raise forbid("each X-Men deploys once", R_FIGHT)
    side = zone.side(team.player)
    if side is not None:
        if leader is not None and leader != side.leader:
            raise forbid(f"{data.characters[side.leader].name} already leads your team in Battle "
                         f"Zone {z + 1}: the leader stays until the Evil Mutant is captured or he "
                         "is forced back to Headquarters", R_NEW)
        if side.started:
            walkers = [h for h in heroes if not can_fly(data, s, h)]
            if walkers:
                raise forbid(f"{', '.join(data.characters[h].name for h in walkers)} cannot join "
                             f"the battle in progress in Battle Zone {z + 1}: only characters "
                             "with flight can join a teammate already fighting", R_JOIN)
    elif leader is not None and leader not in heroes:
        raise forbid("the leader must be one of the characters deploying", R_NEW)


def deploy(data: XMenData, s: XMenState, team: Team, z: int, heroes: list[str],
           leader: str | None) -> None:
    zone = s.zones[z]
    side = zone.side(team.player)
    if side is None:
        lead = leader or heroes[0]
        side = Side(team.player, lead, [lead] + [h for h in heroes if h != lead])
        zone.sides.append(side)
    else:
        side.order.extend(heroes)
    for hid in heroes:
        s.hero(team, hid).where = z
    names = ", ".join(data.characters[h].name for h in heroes)
    s.log.append(f"{team.player} deploys {names} to Battle Zone {z + 1}"
                 + (f", led by {data.characters[side.leader].name}." if side.leader in heroes else "."))


def next_fighter(side: Side, team: Team, s: XMenState) -> str | None:
    """ "The team leader is always the first character to battle." """
    for hid in side.order:
        if not s.hero(team, hid).acted:
            return hid
    return None


def dice_for(data: XMenData, s: XMenState, team: Team, side: Side, hero_id: str,
             activity: str, attack: str | None = None) -> int:
    """How many dice a character rolls, before the cap of nine.

    Battle uses Fighting Skill, recruiting Intelligence; a leader adds its own extra dice, a
    leader with team dice adds them to each teammate's Fighting Skill (battle only).
    """
    card = data.characters[hero_id]
    if attack is not None:
        n = alt_attack(data, s, card, attack)["dice"]
    else:
        n = card.fighting_skill if activity == "battle" else card.intelligence
        if hero_id == side.leader:
            n += sum(a.params["dice"] for a in card.abilities_of("extra_dice_leading", s.advanced)
                     if a.activity == activity)
        elif activity == "battle":
            lead = data.characters[side.leader]
            n += sum(a.params["dice"] for a in lead.abilities_of("team_dice_leading", s.advanced))
    return n + team.boosts.get(hero_id, 0)


def alt_attack(data: XMenData, s: XMenState, card: Character, name: str) -> dict[str, Any]:
    for a in card.abilities_of("alt_attack", s.advanced):
        if _slug(a.name) == _slug(name):
            return {"name": a.name, **a.params}
    raise forbid(f"{card.name} has no alternative attack called {name!r}", R_BATTLE)


def _slug(text: str) -> str:
    return text.strip().lower().replace(" ", "_").replace("-", "_")


def add_hits(data: XMenData, hero: Hero, n: int) -> bool:
    """Place ``n`` hit chips; True when every X symbol is covered (the figure must go home).

    "If the character receives more hits than he has X symbols, that character is seriously
    wounded. Cover all the X symbols and put the extra Hit Chips on his picture."
    """
    hero.hits += n
    return hero.hits >= data.characters[hero.id].durability


def resolve(data: XMenData, s: XMenState, team: Team, z: int, fighter: str, score: int,
            hit_list: list[str], new_leader: str | None) -> None:
    """Apply one character's roll: hits first, then the leader's move, bumps and capture.

    ``hit_list`` names the character receiving each Evil Mutant rolled.
    "If all the character's X symbols are covered, the character figure must return to
    Headquarters to recover before advancing on the Strength Track."
    """
    zone = s.zones[z]
    side = zone.side(team.player)
    s.hero(team, fighter).acted = True
    side.started = True
    out = []
    for hid in dict.fromkeys(hit_list):
        hero = s.hero(team, hid)
        if add_hits(data, hero, hit_list.count(hid)):
            out.append(hid)
    leader_out = side.leader in out
    for hid in out:
        hero = s.hero(team, hid)
        hero.where = HQ
        side.order.remove(hid)
        card = data.characters[hid]
        worse = " seriously wounded," if hero.hits > card.durability else ""
        s.log.append(f"{card.name} takes {hero.hits} hits,{worse} and returns to Headquarters.")
    moves = fighter not in out
    if leader_out:
        if side.order:
            # "another X-Men on your team's Battle Zone Deployment Area can jump in and take the
            # same space the leader held on the Strength Track. He can complete the movement of
            # the leader's roll. This character becomes the new team leader."
            heir = new_leader if new_leader in side.order else side.order[0]
            side.order.remove(heir)
            side.order.insert(0, heir)
            if fighter == side.leader:
                moves = True
            side.leader = heir
            s.log.append(f"Team work: {data.characters[heir].name} takes over the lead on space "
                         f"{side.position}.")
        else:
            # "If you don't have another character in the team's deployment area, your team
            # loses its position on the Strength Track."
            zone.sides.remove(side)
            s.log.append(f"{team.player}'s team loses its position in Battle Zone {z + 1}.")
            return
    if moves and score > 0:
        advance(data, s, team, z, side, score)


def advance(data: XMenData, s: XMenState, team: Team, z: int, side: Side, score: int) -> None:
    """ "Advance your leader 1 space on the Battle Zone's Strength Track for each point you
    score." Capture on reaching or passing the Strength Indicator; else bump any leader there."""
    zone = s.zones[z]
    target = side.position + score
    if target >= zone.indicator:
        capture(data, s, team, z)
        return
    side.position = target
    s.log.append(f"{team.player}'s leader {data.characters[side.leader].name} moves to space "
                 f"{target} of Battle Zone {z + 1}.")
    bump(s, zone, side)


def bump(s: XMenState, zone: Zone, mover: Side) -> None:
    """ "If your leader lands on the same space as another leader, move the other leader back one
    space. Two leaders cannot occupy the same space on the Strength Track."

    A leader pushed onto a third leader pushes that one too (the second sentence forbids sharing);
    a leader pushed back from space 1 stands in the Deployment Area (space 0)."""
    pushing = mover
    while pushing.position > 0:
        other = next((x for x in zone.sides if x is not pushing and x.position == pushing.position),
                     None)
        if other is None:
            return
        other.position -= 1
        s.log.append(f"{other.player}'s leader is bumped back to "
                     + (f"space {other.position}." if other.position else "the Deployment Area."))
        pushing = other


def capture(data: XMenData, s: XMenState, team: Team, z: int) -> None:
    """ "When your team leader moves onto or past the space with the Strength Indicator, your team
    captures the Evil Mutant!" (or recruits the X-Men, Step 3). Everyone in the zone goes home."""
    zone = s.zones[z]
    card = data.alert[zone.card]
    if zone.recruit is not None:
        recruit = data.characters[zone.recruit]
        if len(team.heroes) < data.max_team:
            team.heroes.append(Hero(zone.recruit, acted=True))
            s.log.append(f"{team.player}'s team recruits {recruit.name}!")
        else:
            s.stat_deck.append(zone.recruit)
            s.log.append(f"{team.player}'s team already has {data.max_team} X-Men: {recruit.name} "
                         "goes to the bottom of the Power Stat deck.")
        s.alert_discard.append(zone.card)
    else:
        team.captured.append(zone.card)
        s.log.append(f"{team.player}'s team captures {card.name}!")
    # "All X-Men in that Battle Zone from all teams are returned to their Headquarters."
    for side in zone.sides:
        other = s.team(side.player)
        for hid in side.order:
            other.heroes[_index(other, hid)].where = HQ
    zone.card = zone.recruit = zone.indicator = None
    zone.sides = []
    if s.zone_open == z:
        s.zone_open = None


def send_home(s: XMenState, team: Team) -> None:
    """The whole team returns to Headquarters and loses its positions (Cerebro, recall)."""
    for zone in s.zones:
        zone.sides = [x for x in zone.sides if x.player != team.player]
    for h in team.heroes:
        h.where = HQ


def _index(team: Team, hero_id: str) -> int:
    return next(i for i, h in enumerate(team.heroes) if h.id == hero_id)
