"""The play phase's moves, one handler per action (rulebook: Playing, Steps 2 to 5).

``Game.apply`` has already checked that the game is on, that the move is open now (see the
``when``s in engine.py, read from choices.py), that it is this team's turn (any holder's, for
``card.play``) and that the arguments have their declared types; each handler checks what is
particular to its rule, in the rule's words, and returns a new state made from a fork.
"""

from __future__ import annotations

from companion.errors import BadAction, IllegalAction
from companion.games.move_table import Play
from companion.games.xmen import battle, cards, choices, dice, recovery, track, turn
from companion.games.xmen.state import (HQ, R_BATTLE, R_FIGHT, R_JOIN, R_LUCK, R_NEW, R_PLAYING,
                                        R_RECRUIT, R_SERIOUS, R_TEAMWORK, Side, XMenState)


def hero_id(state: XMenState, play: Play, key: str, value: str | None = None) -> str:
    """The character ``data.<key>`` names (by id or name), or BadAction naming the field."""
    value = play.args[key] if value is None else value
    found = state.data.named(value)
    if found is None:
        raise BadAction(f"{play.action.type}: data.{key}: {value!r} is not an X-Men of this box ("
                        + ", ".join(state.data.characters) + ")")
    return found


# -- Step 2: deploy -------------------------------------------------------------------------------

def deploy(state: XMenState, play: Play) -> XMenState:
    """Move characters from Headquarters to a Battle Zone (data.zone, data.heroes; data.leader
    for a new battle)."""
    args, team = play.args, state.current
    z = args["zone"] - 1
    names = args["heroes"] or ([args["hero"]] if args["hero"] is not None else None)
    if not names:
        raise BadAction("deploy needs data.heroes, a list of character ids")
    heroes = [hero_id(state, play, "heroes", h) for h in names]
    leader = hero_id(state, play, "leader") if args["leader"] is not None else None
    kind = state.zones[z].kind
    problem = choices.deploy_problem(state, z, heroes, leader)
    if problem is not None:
        raise problem
    joiners = battle.unchecked_joiners(state, team, z, heroes)
    wounded = battle.unchecked_wounded(state, team, heroes)
    s = state.fork()
    if kind == "recruit":
        s.stage = "recruit"
    battle.deploy(s, z, heroes, leader)
    cards = state.data.characters
    for h in wounded:
        s.remind(f"{cards[h].name} deployed to Battle Zone {z + 1} unchecked: "
                 + battle.wounded_caveat(state, team, h), R_FIGHT)
    if joiners:
        names = ", ".join(cards[h].name for h in joiners)
        s.remind(f"{names} joined the battle in progress in Battle Zone {z + 1} unchecked: "
                 + battle.join_caveat(names), R_JOIN)
    return s


# -- Steps 2 and 3: a character's roll in a Battle Zone -----------------------------------------

def battle_roll(state: XMenState, play: Play) -> XMenState:
    """One character's battle roll (Fighting Skill dice) against the zone's Evil Mutant."""
    return _fight(state, play, "battle")


def recruit_roll(state: XMenState, play: Play) -> XMenState:
    """One character's recruiting roll (Intelligence dice) for the zone's X-Men (Advanced)."""
    return _fight(state, play, "recruit")


def _fight(state: XMenState, play: Play, kind: str) -> XMenState:
    d, args, team = state.data, play.args, state.current
    z, hid = _fighter(state, play, kind)
    side = state.zones[z].side(team.player)
    attack = args["attack"]
    if attack is not None and kind != "battle":
        raise IllegalAction("alternative attacks are for battling Evil Mutants, not recruiting",
                            R_RECRUIT)
    count = dice.capped(d, battle.dice_for(state, team, side, hid, kind, attack))
    faces = dice.roll(d, args["faces"], count, play.rng)
    n_hits = dice.hits(faces)
    if attack is None:
        score, hit_list = dice.points(faces, d.points), [hid] * n_hits
    else:
        a = battle.alt_attack(state, d.characters[hid], attack)
        score = faces.count("xmen") * a["xmen"] + faces.count("marvel") * a["marvel"]
        hit_list = _alt_hits(state, play, side, hid, n_hits)
    new_leader = hero_id(state, play, "new_leader") if args["new_leader"] is not None else None
    if new_leader is not None and (new_leader == side.leader or new_leader not in side.order):
        # named in advance, used only if the leader falls; but it must be able to "jump in"
        raise IllegalAction(f"{d.characters[new_leader].name} is not backing the leader in your "
                            f"team's Deployment Area of Battle Zone {z + 1}: 'another X-Men on "
                            "your team's Battle Zone Deployment Area can jump in'", R_TEAMWORK)
    s = state.fork()
    if kind == "recruit":
        s.stage = "recruit"
    s.own_team(s.turn).boosts.pop(hid, None)
    zone = s.zones[z]
    what = d.alert[zone.card].name if kind == "battle" else d.characters[zone.recruit].name
    s.last_roll = {"player": team.player, "purpose": kind, "zone": z + 1, "hero": hid,
                   "faces": faces, "points": score, "hits": n_hits, "attack": attack}
    s.log.append(f"{d.characters[hid].name} {'battles' if kind == 'battle' else 'tries to recruit'} "
                 f"{what} with {count} dice{' (' + attack + ')' if attack else ''}: {score} "
                 f"point{'s' if score != 1 else ''}, {n_hits} Evil Mutant{'s' if n_hits != 1 else ''}.")
    battle.resolve(s, z, hid, score, hit_list, new_leader)
    side = s.zones[z].side(team.player)
    open_now = side is not None and battle.next_fighter(side, s.current) is not None
    s.zone_open = z if open_now else None
    return s


def _fighter(state: XMenState, play: Play, kind: str) -> tuple[int, str]:
    """The zone (data.zone, or the one the team is in) and the character who rolls there
    (data.hero, or the next to fight), as the rules allow."""
    d, team = state.data, state.current
    z = play.args["zone"] - 1 if play.args["zone"] is not None else _zone_in_progress(state, kind)
    if z is None:
        raise BadAction(f"{play.action.type} needs data.zone (1 to {len(state.zones)})")
    zone = state.zones[z]
    if zone.kind != kind:
        what = {"battle": "an Evil Mutant to battle", "recruit": "an X-Men to recruit"}
        raise IllegalAction(f"Battle Zone {z + 1} holds {what[zone.kind]}: use "
                            + ("recruit.roll" if kind == "battle" else "battle.roll") + " there"
                            if zone.kind else f"Battle Zone {z + 1} is empty",
                            R_RECRUIT if kind == "recruit" else R_FIGHT)
    side = zone.side(team.player)
    if side is None or battle.next_fighter(side, team) is None:
        raise IllegalAction(f"{team.player} has nobody left to roll in Battle Zone {z + 1}: "
                            "deploy characters from Headquarters first", R_FIGHT)
    problem = choices.stage_problem(state, team, kind) or choices.open_problem(state, z)
    if problem is not None:
        raise problem
    hid = (hero_id(state, play, "hero") if play.args["hero"] is not None
           else battle.next_fighter(side, team))
    hero, name = team.hero(hid), d.characters[hid].name
    if hero is None or hid not in side.order:
        raise IllegalAction(f"{name} is not in your team's Deployment Area of Battle Zone "
                            f"{z + 1}", R_FIGHT)
    if hero.acted:
        raise IllegalAction(f"{name} has already rolled this turn", R_PLAYING)
    if hid != side.leader and not team.hero(side.leader).acted:
        raise IllegalAction(f"the team leader {d.characters[side.leader].name} is always the "
                            "first character to battle", R_NEW)
    return z, hid


def _zone_in_progress(state: XMenState, kind: str) -> int | None:
    """The zone a roll without data.zone is for: the one the team is midway through, or the
    only zone where it has characters yet to roll."""
    if state.zone_open is not None:
        return state.zone_open
    mine = {z for z, _ in state.unfought(state.current, kind)}
    return mine.pop() if len(mine) == 1 else None


def _alt_hits(state: XMenState, play: Play, side: Side, hid: str, n: int) -> list[str]:
    """ "Evil Mutant rolls give 1 hit to a teammate. When no teammates are in the Battle Zone,
    all hits are taken by Archangel." data.hits_to names the teammate (or one per hit);
    by default they go to the leader, or the first backer when the attacker leads."""
    mates = [h for h in side.order if h != hid]
    names = play.args["hits_to"]
    if not mates:
        if names is not None and any(hero_id(state, play, "hits_to", x) != hid for x in names):
            raise IllegalAction("no teammate is in this Battle Zone: 'When no teammates are in "
                                "the Battle Zone, all hits are taken by Archangel'", R_BATTLE)
        return [hid] * n
    if names is None:
        return [mates[0]] * n
    names = names * n if len(names) == 1 else names     # one teammate takes every hit
    if len(names) != n:
        raise BadAction(f"battle.roll: data.hits_to is one teammate, or a list of {n} (one per "
                        "Evil Mutant)")
    out = [hero_id(state, play, "hits_to", x) for x in names]
    if any(x not in mates for x in out):
        raise IllegalAction("Evil Mutant rolls give 1 hit to a teammate in the Battle Zone: "
                            "choose from " + ", ".join(state.data.characters[m].name
                                                       for m in mates), R_BATTLE)
    return out


# -- Step 4: recovery ---------------------------------------------------------------------------

def recover_roll(state: XMenState, play: Play) -> XMenState:
    """A character's recovery roll at Headquarters (Durability dice): data.hero, data.faces."""
    d, team = state.data, state.current
    hid = hero_id(state, play, "hero") if play.args["hero"] is not None else None
    problem = choices.recover_problem(state, hid)
    if problem is not None:
        raise problem
    if hid is None:     # the seriously wounded first: their roll is due this turn
        hid = (state.pending_recovery() or [h.id for h in team.heroes
                                            if choices.may_recover(state, h)])[0]
    faces = dice.roll(d, play.args["faces"], dice.capped(d, d.characters[hid].durability),
                      play.rng)
    s = state.fork()
    s.stage = "recover"
    if choices.wounded_now(state, team.hero(hid)):
        s.remind(f"{d.characters[hid].name} was seriously wounded this turn (by an assumed "
                 "Durability): \"On your next turn, the seriously wounded character must roll to "
                 "recover\"", R_SERIOUS)
    s.last_roll = {"player": team.player, "purpose": "recovery", "hero": hid, "faces": faces,
                   "removes": recovery.removal(s, hid, faces)}
    recovery.recover(s, hid, faces)
    if hid in s.must_recover:
        s.own("must_recover").remove(hid)
    return s


# -- Step 5: the end of the turn ------------------------------------------------------------------

def turn_end(state: XMenState, play: Play) -> XMenState:
    """Turn in captured Evil Mutants, move on the Experience Track (Step 5), pass play (Step 6)."""
    d, team = state.data, state.current
    problem = choices.end_problem(state, lenient=True)
    if problem is not None:
        raise problem
    skipped = [d.characters[h] for h in choices.unchecked_serious(state)]
    why = (f"{team.player}'s turn ended without the recovery roll of "
           + ", ".join(f"{c.name} ({team.hero(c.id).hits} hits, Durability {c.durability})"
                       for c in skipped)
           + ": a seriously wounded character must roll to recover, and the Durability is "
           "assumed, not confirmed (confirm the card on the Your box page)") if skipped else None
    s = state.fork()
    if team.captured:
        # "your team must turn in all the captured Evil Mutant Cards"
        team = s.own_team(s.turn)
        experience = sum(d.alert[c].experience for c in team.captured)
        s.log.append(f"{team.player} turns in " + ", ".join(d.alert[c].name for c in team.captured)
                     + f" for {experience} Experience.")
        s.own("alert_discard").extend(team.captured)
        team.captured = []
        n = dice.capped(d, track.bonus_dice(s, team)) if s.advanced else 0
        if n:
            s.phase, s.bonus = "bonus", {"experience": experience, "dice": n}
            if why:
                s.remind(why, R_SERIOUS)
            return s
        track.move(s, s.turn, experience, play.rng)
    if s.phase != "draw":        # the table draws its Training & Luck card first (moves_draw.py)
        turn.finish_turn(s, play.rng)
    if why:     # after the turn passes: reminded through the next turn
        s.remind(why, R_SERIOUS)
    return s


# -- Training & Luck cards ------------------------------------------------------------------------

def card_play(state: XMenState, play: Play) -> XMenState:
    """Play a held Training & Luck card: the holder (the action's player; the current player by
    default), data.card, and data.target or data.hero when the card needs one."""
    player = play.player or state.current.player
    i = state.team_index(player)
    team, key = state.teams[i], play.args["card"]
    cid = cards.held_card(team, key)
    if cid is None:
        raise IllegalAction(f"{player} holds no {key!r} card: held cards are "
                            + (", ".join(team.held) or "none"), R_LUCK)
    target = hero = None
    need = cards.needs(state, cid)
    if need == "target":
        target = play.args["target"]
        if target not in [t.player for t in state.teams]:
            raise BadAction(f"card.play: {state.data.luck[cid].title} needs data.target, "
                            "another player's name")
    elif need == "hero":
        if play.args["hero"] is None:
            raise BadAction("card.play: data.hero names a character, e.g. \"wolverine\"")
        hero = hero_id(state, play, "hero")
    problem = cards.problem(state, team, cid, target, hero)
    if problem is not None:
        raise problem
    s = state.fork()
    cards.play(s, i, cid, target, hero)
    return s
