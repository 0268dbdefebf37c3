"""Battles and recruiting in the Battle Zones (Steps 2 and 3): deployment, dice, the Strength
Track, hits, team work and capture. Recruiting follows the same rules with Intelligence dice.

The checks (``deploy_problem``, ``dice_for``, ``next_fighter``) read any state; the changes
(``deploy``, ``resolve``, ``capture``, ``send_home``) work on a move's fork and take the teams and
zones they change with ``own_team`` / ``own_zone``.
"""

from __future__ import annotations

from typing import Any

from companion.errors import IllegalAction
from companion.games.xmen.data import Character, XMenData
from companion.games.xmen.state import (HQ, R_BATTLE, R_FIGHT, R_JOIN, R_NEW, R_RECRUIT, Hero,
                                        Side, Team, XMenState)


def deployable(data: XMenData, team: Team) -> list[str]:
    """ "If you have one or more characters at Headquarters and they have fewer hits than their
    Durability number, they can move to a Battle Zone Deployment Area." """
    return [h.id for h in team.heroes
            if h.where == HQ and not h.acted and h.hits < data.characters[h.id].durability]


def can_fly(data: XMenData, s: XMenState, hero_id: str) -> bool:
    return bool(data.characters[hero_id].abilities_of("flight", s.advanced))


def zone_problem(s: XMenState, team: Team, z: int) -> IllegalAction | None:
    """Why no character of the team may deploy to zone ``z`` now (None: some may)."""
    data, kind = s.data, s.zones[z].kind
    if kind is None:
        return IllegalAction(f"Battle Zone {z + 1} is empty: an Alert card is drawn for it at "
                             "the start of the next turn", R_FIGHT)
    if kind == "recruit" and len(team.heroes) >= data.max_team:
        return IllegalAction(f"your team already has {data.max_team} X-Men: \"Once your team "
                             "has four characters, you cannot recruit another X-Men.\"", R_RECRUIT)
    return None


def deploy_problem(s: XMenState, team: Team, z: int, heroes: list[str],
                   leader: str | None, lenient: bool = False) -> IllegalAction | None:
    """Why these heroes may not deploy to zone ``z`` now, led by ``leader`` (None: they may)."""
    return zone_problem(s, team, z) or heroes_problem(s, team, z, heroes, leader, lenient=lenient)


def unchecked_wounded(s: XMenState, team: Team, heroes: list[str] | None = None) -> list[str]:
    """Of ``heroes`` deploying (None: the whole team, in its order), those at Headquarters whose
    hits reach a Durability that is only assumed: the deployment is accepted, with a reminder,
    not refused (deploy_problem lenient)."""
    data = s.data
    if heroes is None:      # each character once, without looking it up by its id
        return [x.id for x in team.heroes if x.where == HQ and not x.acted
                and x.hits >= data.characters[x.id].durability and not s.trusted(x.id)]
    return [h for h in heroes if (x := team.hero(h)) is not None and x.where == HQ
            and not x.acted and x.hits >= data.characters[h].durability and not s.trusted(h)]


def wounded_caveat(s: XMenState, team: Team, hero_id: str) -> str:
    """Why a deployment of ``hero_id`` (one of unchecked_wounded) is not checked: the words of
    the reminder after it and of the phone's deploy form before it (view.unchecked_deploys)."""
    card = s.data.characters[hero_id]
    return (f"a character with as many hits as its Durability ({team.hero(hero_id).hits} of "
            f"{card.durability}) recovers first, and {card.name}'s Power Stat card is assumed, "
            "not confirmed (confirm it on the Your box page)")


def join_caveat(names: str) -> str:
    """Why a join of ``names`` (unchecked_joiners) is not checked, as wounded_caveat."""
    return (f"only characters with flight may, and {names}'s Power Stat card is assumed, not "
            "confirmed (confirm it on the Your box page)")


def unchecked_joiners(s: XMenState, team: Team, z: int, heroes: list[str]) -> list[str]:
    """Of ``heroes`` joining a battle in progress, those without flight on a card that is only
    assumed: the join is accepted, with a reminder, not refused (deploy_problem lenient)."""
    side = s.zones[z].side(team.player)
    if side is None or not side.started:
        return []
    return [h for h in heroes if not can_fly(s.data, s, h) and not s.trusted(h)]


def heroes_problem(s: XMenState, team: Team, z: int, heroes: list[str], leader: str | None,
                   free: list[str] | None = None, lenient: bool = False) -> IllegalAction | None:
    """deploy_problem, for a zone that takes deployments (``free``: deployable(data, team));
    ``lenient``: what only an assumed card forbids is let through (unchecked_joiners,
    unchecked_wounded)."""
    data = s.data
    free = deployable(data, team) if free is None else free
    if lenient:
        free = free + unchecked_wounded(s, team, heroes)
    for hid in heroes:
        if hid not in free:
            return _not_free(data, team, hid)
    if len(set(heroes)) != len(heroes):
        return IllegalAction("each X-Men deploys once", R_FIGHT)
    side = s.zones[z].side(team.player)
    if side is None:
        if leader is not None and leader not in heroes:
            return IllegalAction("the leader must be one of the characters deploying", R_NEW)
        return None
    if leader is not None and leader != side.leader:
        return IllegalAction(f"{data.characters[side.leader].name} already leads your team in "
                             f"Battle Zone {z + 1}: the leader stays until the Evil Mutant is "
                             "captured or he is forced back to Headquarters", R_NEW)
    walkers = [h for h in heroes if not can_fly(data, s, h)] if side.started else []
    if lenient:
        walkers = [h for h in walkers if s.trusted(h)]
    if walkers:
        return IllegalAction(f"{', '.join(data.characters[h].name for h in walkers)} cannot join "
                             f"the battle in progress in Battle Zone {z + 1}: only characters "
                             "with flight can join a teammate already fighting", R_JOIN)
    return None


def deployers(s: XMenState, team: Team, z: int, free: list[str]) -> list[str]:
    """Of ``free`` (deployable(data, team)), those who may deploy to zone ``z`` alone, without a
    named leader: ``heroes_problem(s, team, z, [h], None, free)`` is None for each, which for
    one free character comes down to its one rule, "only characters with flight can join a
    teammate already fighting" (the random player and expect ask this for every character and
    zone; tests/companion/games/test_xmen_choices_same.py holds it to heroes_problem)."""
    side = s.zones[z].side(team.player)
    if side is None or not side.started:
        return list(free)
    data = s.data
    return [h for h in free if can_fly(data, s, h)]


def _not_free(data: XMenData, team: Team, hid: str) -> IllegalAction:
    hero = team.hero(hid)
    name = data.characters[hid].name
    if hero is None:
        return IllegalAction(f"{name} is not on {team.player}'s team", R_FIGHT)
    if hero.where != HQ:
        why = f"is already in Battle Zone {hero.where + 1}"
    elif hero.acted:
        why = ("has already acted this turn: battled or recovered (one of the two per turn), or "
               "joined the team")
    else:
        why = (f"has {hero.hits} hits, not fewer than a Durability of "
               f"{data.characters[hid].durability}: recover at Headquarters first")
    return IllegalAction(f"{name} cannot deploy: {why}", R_FIGHT)


def deploy(s: XMenState, z: int, heroes: list[str], leader: str | None) -> None:
    """The current team's ``heroes`` move to zone ``z`` (checked by deploy_problem)."""
    team, zone = s.own_team(s.turn), s.own_zone(z)
    side = zone.side(team.player)
    if side is None:
        lead = leader or heroes[0]
        side = Side(team.player, lead, [lead] + [h for h in heroes if h != lead])
        zone.sides.append(side)
    else:
        side.order.extend(heroes)
    for hid in heroes:
        team.hero(hid).where = z
    names = ", ".join(s.data.characters[h].name for h in heroes)
    s.log.append(f"{team.player} deploys {names} to Battle Zone {z + 1}"
                 + (f", led by {s.data.characters[side.leader].name}." if side.leader in heroes
                    else "."))


def next_fighter(side: Side, team: Team) -> str | None:
    """ "The team leader is always the first character to battle." """
    for hid in side.order:
        if not team.hero(hid).acted:
            return hid
    return None


def dice_for(s: XMenState, team: Team, side: Side, hero_id: str, activity: str,
             attack: str | None = None) -> int:
    """How many dice a character rolls, before the cap of nine.

    Battle uses Fighting Skill, recruiting Intelligence; a leader adds its own extra dice, a
    leader with team dice adds them to each teammate's Fighting Skill (battle only).
    """
    data = s.data
    card = data.characters[hero_id]
    if attack is not None:
        n = alt_attack(s, card, attack)["dice"]
    else:
        n = card.fighting_skill if activity == "battle" else card.intelligence
        # most cards have neither ability: the sums are made only for those that do (the
        # random player and the roll's own check ask this for every fighter)
        if hero_id == side.leader:
            extra = card.abilities_of("extra_dice_leading", s.advanced)
            if extra:
                n += sum(a.params["dice"] for a in extra if a.activity == activity)
        elif activity == "battle":
            team_dice = data.characters[side.leader].abilities_of("team_dice_leading", s.advanced)
            if team_dice:
                n += sum(a.params["dice"] for a in team_dice)
    return n + team.boosts.get(hero_id, 0)


def alt_attack(s: XMenState, card: Character, name: str) -> dict[str, Any]:
    for a in card.abilities_of("alt_attack", s.advanced):
        if _slug(a.name) == _slug(name):
            return {"name": a.name, **a.params}
    raise IllegalAction(f"{card.name} has no alternative attack called {name!r}", R_BATTLE)


def _slug(text: str) -> str:
    return text.strip().lower().replace(" ", "_").replace("-", "_")


def add_hits(data: XMenData, hero: Hero, n: int) -> bool:
    """Place ``n`` hit chips; True when every X symbol is covered (the figure must go home).

    "If the character receives more hits than he has X symbols, that character is seriously
    wounded. Cover all the X symbols and put the extra Hit Chips on his picture."
    """
    hero.hits += n
    return hero.hits >= data.characters[hero.id].durability


def resolve(s: XMenState, z: int, fighter: str, score: int, hit_list: list[str],
            new_leader: str | None) -> None:
    """Apply one character's roll for the current team: hits first, then the leader's move,
    bumps and capture (a backer sent home: setup.BACKER_READINGS).

    ``hit_list`` names the character receiving each Evil Mutant rolled.
    "If all the character's X symbols are covered, the character figure must return to
    Headquarters to recover before advancing on the Strength Track."
    """
    data = s.data
    team, zone = s.own_team(s.turn), s.own_zone(z)
    side = zone.side(team.player)
    team.hero(fighter).acted = True
    side.started = True
    out = [hid for hid in dict.fromkeys(hit_list)
           if add_hits(data, team.hero(hid), hit_list.count(hid))]
    for hid in out:
        hero = team.hero(hid)
        hero.where = HQ
        side.order.remove(hid)
        card = data.characters[hid]
        worse = " seriously wounded," if hero.hits > card.durability else ""
        # the hit chips placed are this roll's: the table already has the earlier ones on
        taken = hit_list.count(hid)
        total = f" ({hero.hits} in all)" if hero.hits != taken else ""
        s.log.append(f"{card.name} takes {taken} hit{'s' if taken != 1 else ''}{total},{worse} "
                     "and returns to Headquarters.")
    # a backer sent home by his own roll still moves the leader where the table reads the
    # printed order so (setup.BACKER_READINGS)
    moves = fighter not in out or (fighter != side.leader and s.options.get(
        "knocked_out_backer") == "advances")
    if side.leader in out:
        if not side.order:
            # "If you don't have another character in the team's deployment area, your team
            # loses its position on the Strength Track."
            zone.sides.remove(side)
            s.log.append(f"{team.player}'s team loses its position in Battle Zone {z + 1}.")
            return
        # "another X-Men on your team's Battle Zone Deployment Area can jump in and take the
        # same space the leader held on the Strength Track. He can complete the movement of the
        # leader's roll. This character becomes the new team leader."
        heir = new_leader if new_leader in side.order else side.order[0]
        side.order.remove(heir)
        side.order.insert(0, heir)
        if fighter == side.leader:
            moves = True
        side.leader = heir
        s.log.append(f"Team work: {data.characters[heir].name} takes over the lead on space "
                     f"{side.position}.")
    if moves and score > 0:
        advance(s, z, side, score)


def advance(s: XMenState, z: int, side: Side, score: int) -> None:
    """ "Advance your leader 1 space on the Battle Zone's Strength Track for each point you
    score." Capture on reaching or passing the Strength Indicator; else bump any leader there."""
    zone = s.zones[z]
    target = side.position + score
    if target >= zone.indicator:
        capture(s, z)
        return
    side.position = target
    s.log.append(f"{side.player}'s leader {s.data.characters[side.leader].name} moves to space "
                 f"{target} of Battle Zone {z + 1}.")
    bump(s, z, side)


def bump(s: XMenState, z: int, mover: Side) -> None:
    """ "If your leader lands on the same space as another leader, move the other leader back one
    space. Two leaders cannot occupy the same space on the Strength Track."

    A leader pushed onto a third leader pushes that one too (the second sentence forbids sharing);
    a leader pushed back from space 1 stands in the Deployment Area (space 0)."""
    zone = s.own_zone(z)
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


def capture(s: XMenState, z: int) -> None:
    """ "When your team leader moves onto or past the space with the Strength Indicator, your team
    captures the Evil Mutant!" (or recruits the X-Men, Step 3). Everyone in the zone goes home."""
    data = s.data
    team, zone = s.own_team(s.turn), s.own_zone(z)
    if zone.recruit is not None:
        recruit = data.characters[zone.recruit]
        if len(team.heroes) < data.max_team:
            team.heroes.append(Hero(zone.recruit, acted=True))
            s.log.append(f"{team.player}'s team recruits {recruit.name}!")
        else:
            s.own("stat_deck").append(zone.recruit)
            s.log.append(f"{team.player}'s team already has {data.max_team} X-Men: {recruit.name} "
                         "goes to the bottom of the Power Stat deck.")
        s.own("alert_discard").append(zone.card)
    else:
        team.captured.append(zone.card)
        s.log.append(f"{team.player}'s team captures {data.alert[zone.card].name}!")
    # "All X-Men in that Battle Zone from all teams are returned to their Headquarters."
    for side in zone.sides:
        other = s.own_team(s.team_index(side.player))
        for hid in side.order:
            other.hero(hid).where = HQ
    zone.card = zone.recruit = zone.indicator = None
    zone.sides = []
    if s.zone_open == z:
        s.zone_open = None


def send_home(s: XMenState, i: int) -> None:
    """Team ``i`` returns to Headquarters and loses its positions (Cerebro, recall)."""
    team = s.own_team(i)
    for z, zone in enumerate(s.zones):
        if zone.side(team.player) is not None:
            zone = s.own_zone(z)
            zone.sides = [x for x in zone.sides if x.player != team.player]
    for h in team.heroes:
        h.where = HQ
