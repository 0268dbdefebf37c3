"""What the team whose turn it is may do now in the play phase: the rolls it may make (fights,
recoveries), where each character may deploy, whether the turn may end, and the order of the
turn's steps. The move table's ``when``s, expect's dice, the handlers' checks and the random
player all read these, so what is listed and what is accepted cannot differ.

Steps 2, 3 and 4 come in order: "once a team recruits, it cannot start battles; once it
recovers, it cannot battle or recruit this turn" (docs/xmen-alert.md).
"""

from __future__ import annotations

from typing import Any

from companion.errors import IllegalAction
from companion.games.xmen import battle, dice, recovery
from companion.games.xmen.state import (HQ, R_FIGHT, R_PLAYING, R_RECOVER, R_RECRUIT,
                                        R_SERIOUS, R_TEAMWORK, Hero, Team, XMenState)


def stage_allows(s: XMenState, kind: str, team: Team) -> bool:
    """Battles in Step 2; recruiting in Step 3, once every battle of the turn is fought."""
    if kind == "battle":
        return s.stage == "battle"
    return s.stage == "recruit" or (s.stage == "battle" and not s.unfought(team, "battle"))


def stage_problem(s: XMenState, team: Team, kind: str) -> IllegalAction | None:
    if stage_allows(s, kind, team):
        return None
    if kind == "battle":
        return IllegalAction("battles (Step 2) come before recruiting and recovery (Steps 3 and "
                             "4): " + _past_battles(s, team), R_PLAYING)
    return IllegalAction("recruiting (Step 3) comes after your battles and before recovery: "
                         + ("finish your battles first" if s.unfought(team, "battle")
                            else "this turn has moved past it"), R_RECRUIT)


def recruit_deployment(s: XMenState, team: Team) -> tuple[int, list[str]] | None:
    """The zone the team deployed to recruit in this turn and who deployed there, while they are
    still there: that deployment is what closed the turn's battles (Step 3 after Step 2)."""
    if s.stage != "recruit":
        return None
    for z, zone in enumerate(s.zones):
        side = zone.side(team.player) if zone.kind == "recruit" else None
        if side is not None:
            return z, list(side.order)
    return None


def recruit_words(s: XMenState, team: Team) -> tuple[str, str] | None:
    """ "deploying Cyclops to recruit in Battle Zone 1", and what Undo takes back to reopen the
    battles: a table that refused a battle after nothing was rolled asked what had closed it."""
    found = recruit_deployment(s, team)
    if found is None:
        return None
    z, heroes = found
    names = " and ".join(s.data.characters[h].name for h in heroes)
    rolled = any(team.hero(h).acted for h in heroes)
    return (f"deploying {names} to recruit in Battle Zone {z + 1}",
            "Undo takes back the recruiting rolls since, then that deployment" if rolled
            else "Undo takes that deployment back")


def battle_deploy_but_for_step(s: XMenState) -> bool:
    """Whether a character could deploy to an Evil Mutant's zone now were the turn still in
    Step 2: what a recruiting deployment cost the team."""
    team = s.current
    free = battle.deployable(s.data, team)
    return bool(free) and any(zone.kind == "battle" and battle.deployers(s, team, z, free)
                              for z, zone in enumerate(s.zones))


def _past_battles(s: XMenState, team: Team) -> str:
    """What moved the turn past its battles, so the refusal names the move to take back."""
    words = recruit_words(s, team)
    if words is not None:
        return f"{words[0]} moved this turn past them ({words[1]})"
    if s.stage == "recover":
        return "a recovery roll (Step 4) moved this turn past them"
    return "recruiting (Step 3) this turn moved it past them"


def open_problem(s: XMenState, z: int) -> IllegalAction | None:
    """ "always complete all your character actions in one Battle Zone before going on to the
    actions in another zone." """
    if s.zone_open is not None and s.zone_open != z:
        return IllegalAction(f"complete all your character actions in Battle Zone "
                             f"{s.zone_open + 1} before going on to another zone", R_TEAMWORK)
    return None


def zones_to_enter(s: XMenState, team: Team) -> list[int]:
    """The zones the team may act in now: holding a card, in a step that allows it, and the zone
    it is midway through if any."""
    if s.zone_open is not None:
        zone = s.zones[s.zone_open]
        return ([s.zone_open] if zone.kind is not None and stage_allows(s, zone.kind, team)
                else [])
    # one pass over the zones, each kind's step asked once (the random player, expect and the
    # table's whens ask this for nearly every state)
    out, allows = [], {}
    for z, zone in enumerate(s.zones):
        if zone.card is None:
            continue
        kind = "recruit" if zone.recruit is not None else "battle"     # zone.kind, with a card
        ok = allows.get(kind)
        if ok is None:
            ok = allows[kind] = stage_allows(s, kind, team)
        if ok:
            out.append(z)
    return out


def fights(s: XMenState, kind: str | None = None) -> list[dict[str, Any]]:
    """Every roll a character in a Battle Zone may make now (of ``kind``: "battle" or "recruit"):
    the leader first, then any backer; with each alternative attack for battles."""
    out = []
    for z, hid, zone_kind, attack in fight_picks(s, kind):
        f = {"zone": z, "hero": hid, "kind": zone_kind,
             "count": fight_dice(s, z, hid, zone_kind, attack)}
        if attack is not None:
            f["attack"] = attack
        out.append(f)
    return out


def fight_picks(s: XMenState, kind: str | None = None) -> list[tuple[int, str, str, str | None]]:
    """The rolls ``fights`` lists, in its order, as (zone, character, zone's kind, alternative
    attack or None), without their dice: the random player picks one, then asks its dice."""
    d, team, out = s.data, s.current, []
    for z in zones_to_enter(s, team) if s.unfought(team) else ():
        zone = s.zones[z]
        side = zone.side(team.player)
        if side is None or (kind is not None and zone.kind != kind):
            continue
        if not team.hero(side.leader).acted:
            heroes = [side.leader]
        else:
            heroes = [h for h in side.order if not team.hero(h).acted]
        zone_kind = zone.kind
        for hid in heroes:
            out.append((z, hid, zone_kind, None))
            if zone_kind == "battle":
                for a in d.characters[hid].abilities_of("alt_attack", s.advanced):
                    out.append((z, hid, "battle", a.name))
    return out


def fight_dice(s: XMenState, z: int, hero_id: str, kind: str, attack: str | None) -> int:
    """The dice of one roll ``fight_picks`` lists (capped at nine)."""
    team = s.current
    return dice.capped(s.data, battle.dice_for(s, team, s.zones[z].side(team.player), hero_id,
                                               kind, attack))


def can_fight(s: XMenState, kind: str) -> bool:
    """Whether fights(s, kind) has any roll (without listing them)."""
    team = s.current
    unfought = s.unfought(team)
    if not unfought or not stage_allows(s, kind, team):
        return False
    return any(s.zones[z].kind == kind and (s.zone_open is None or s.zone_open == z)
               for z, _ in unfought)


def deployments(s: XMenState) -> dict[int, list[str]]:
    """Zone -> the characters who may deploy there now, one at a time (any of them together)."""
    team, out = s.current, {}
    free = battle.deployable(s.data, team)
    for z in zones_to_enter(s, team) if free else ():
        if battle.zone_problem(s, team, z) is None:
            heroes = battle.deployers(s, team, z, free)
            if heroes:
                out[z] = heroes
    return out


def deploy_problem(s: XMenState, z: int, heroes: list[str],
                   leader: str | None) -> IllegalAction | None:
    """Why the current team's ``heroes`` may not deploy to zone ``z`` now (None: they may), what
    only an assumed card forbids let through (battle.heroes_problem lenient)."""
    team, kind = s.current, s.zones[z].kind
    return ((stage_problem(s, team, kind) if kind is not None else None) or open_problem(s, z)
            or battle.deploy_problem(s, team, z, heroes, leader, lenient=True))


def unchecked_deployments(s: XMenState) -> list[tuple[int, str]]:
    """(zone, character) deployments only an assumed Durability forbids: accepted with a
    reminder, not listed in deployments but apart, with their caveat (view.unchecked_deploys),
    so the phone offers what the next step's "deploy" names."""
    team = s.current
    return [(z, h) for h in battle.unchecked_wounded(s, team)
            for z in zones_to_enter(s, team)
            if deploy_problem(s, z, [h], h if s.zones[z].side(team.player) is None else None)
            is None]


def deploy_open(s: XMenState) -> bool:
    """Whether deploy is open: someone may deploy (can_deploy), or only an assumed Durability
    keeps a character at Headquarters (unchecked_deployments)."""
    return can_deploy(s) or bool(unchecked_deployments(s))


def can_deploy(s: XMenState) -> bool:
    """Whether deployments(s) has any zone (without listing them all)."""
    team = s.current
    free = battle.deployable(s.data, team)
    return bool(free) and any(
        battle.zone_problem(s, team, z) is None
        and bool(battle.deployers(s, team, z, free))
        for z in zones_to_enter(s, team))


def recover_problem(s: XMenState, hero_id: str | None = None) -> IllegalAction | None:
    """Why ``hero_id`` (without one: any character) may not roll to recover now (None: it may):
    "Step 4 ... comes after the battles", only characters at Headquarters with hit chips
    recover, and "Your character can only do one of these two actions (Battle or Recover)"."""
    d, team = s.data, s.current
    left = s.unfought(team)
    if left:
        z, h = left[0]
        return IllegalAction(f"{d.characters[h].name} must still {_rolls(s, z)} in Battle Zone "
                             f"{z + 1}: recovery (Step 4) comes after the battles", R_PLAYING)
    if hero_id is None:
        if not any(may_recover(s, h) for h in team.heroes):
            return IllegalAction("nobody at Headquarters has hit chips to remove", R_RECOVER)
        return None
    hero, name = team.hero(hero_id), d.characters[hero_id].name
    if hero is None:
        return IllegalAction(f"{name} is not on {team.player}'s team", R_RECOVER)
    if hero.where != HQ:
        return IllegalAction(f"{name} is in Battle Zone {hero.where + 1}: only characters at "
                             "Headquarters recover", R_RECOVER)
    if hero.acted:
        return IllegalAction(f"{name} has already acted this turn: battled or recovered (a "
                             "character does only one of the two in a turn), or joined the team",
                             R_PLAYING)
    if hero.hits == 0:
        return IllegalAction(f"{name} has no hit chips to remove", R_RECOVER)
    if wounded_now(s, hero) and s.trusted(hero_id):
        return IllegalAction(f"{name} was seriously wounded this turn: \"On your next turn, the "
                             "seriously wounded character must roll to recover\"", R_SERIOUS)
    return None


def wounded_now(s: XMenState, hero: Hero) -> bool:
    """Seriously wounded this turn (a teammate's Wing Missile can send a character home so
    before it rolls): its one roll to survive is on the team's next turn. Refused only on a
    trusted card (an assumed Durability may be wrong): otherwise accepted with a reminder."""
    return recovery.on_picture(s.data, hero) > 0 and hero.id not in s.must_recover


def may_recover(s: XMenState, hero: Hero) -> bool:
    return (hero.where == HQ and not hero.acted and hero.hits > 0
            and not (wounded_now(s, hero) and s.trusted(hero.id)))


def can_recover(s: XMenState) -> bool:
    return recover_problem(s) is None


def recoveries(s: XMenState) -> list[dict[str, Any]]:
    """The characters who may roll to recover now: at Headquarters with hit chips, once every
    character in a Battle Zone has fought."""
    if recover_problem(s) is not None:
        return []
    pending = s.pending_recovery()
    return [{"hero": h.id, "count": dice.capped(s.data, s.data.characters[h.id].durability),
             "serious": h.id in pending}
            for h in s.current.heroes if may_recover(s, h)]


def unchecked_serious(s: XMenState) -> list[str]:
    """The seriously wounded yet to roll whose Durability is only assumed: the turn may end
    without their roll, with a reminder (end_problem lenient)."""
    return [h for h in s.pending_recovery() if not s.trusted(h)]


def end_problem(s: XMenState, lenient: bool = False) -> IllegalAction | None:
    """Why the turn may not end yet (None: it may): everyone in a Battle Zone has fought, and
    every seriously wounded character has rolled to recover (``lenient``: but those only an
    assumed Durability calls seriously wounded, unchecked_serious)."""
    d = s.data
    left = s.unfought(s.current)
    if left:
        z, h = left[0]
        return IllegalAction(f"{d.characters[h].name} is in Battle Zone {z + 1} and must "
                             f"continue to {_rolls(s, z)} before the turn ends",
                             R_RECRUIT if s.zones[z].kind == "recruit" else R_FIGHT)
    pending = s.pending_recovery()
    if lenient and pending:
        unchecked = unchecked_serious(s)
        pending = [h for h in pending if h not in unchecked]
    if pending:
        return IllegalAction(f"{d.characters[pending[0]].name} is seriously wounded and must "
                             "roll to recover this turn", R_SERIOUS)
    return None


def _rolls(s: XMenState, z: int) -> str:
    """What a character in zone ``z`` rolls for: "The same rules apply when recruiting another
    team member as the rules for battling an Evil Mutant", with Intelligence dice."""
    return "roll to recruit" if s.zones[z].kind == "recruit" else "battle"


def can_end(s: XMenState) -> bool:
    return end_problem(s, lenient=True) is None


def must(s: XMenState) -> list[str]:
    """What must still happen before the turn can end, in the players' words."""
    d, team = s.data, s.current
    # in the order they roll (the team's order is the cards' as dealt): the zone the team is
    # midway through first, and in each zone "The team leader is always the first character to
    # battle", then the backers as deployed
    left = sorted(s.unfought(team), key=lambda zh: (
        zh[0] != s.zone_open, zh[0], s.zones[zh[0]].side(team.player).order.index(zh[1])))
    return ([f"{d.characters[h].name} in Battle Zone {z + 1}" for z, h in left]
            + [f"{d.characters[h].name} (seriously wounded) at Headquarters"
               for h in s.pending_recovery()])
