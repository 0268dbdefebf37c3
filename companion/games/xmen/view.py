"""What the table sees of X-Men Alert: expect (whose turn, which dice to roll, where characters may
deploy, which cards can be played), the reminders that apply now, and the state as the
dashboard's JSON."""

from __future__ import annotations

from typing import Any

from companion.games.xmen import battle, cards, choices, dice, draws, recovery
from companion.games.xmen.state import (HQ, R_BONUS, R_FIGHT, R_FIRST, R_JOIN, R_LUCK, R_PLAYING,
                                        R_RECRUIT, R_SERIOUS, R_STEP1, R_TURN_IN, Hero,
                                        XMenState)

NAME = "xmen-alert"


def expect(s: XMenState, actions: list[str]) -> dict[str, Any]:
    """``actions``: the moves the engine's table has open now. A turn that passed at once before
    this one (Cerebro) is told first, in ``passed`` and the prompt, until this turn ends."""
    out = _expect(s, actions)
    if s.passed and out["phase"] != "over":
        told = passed_words(s.passed)
        out = {**out, "passed": told, "prompt": f"{told} {out['prompt']}"}
    return out


def passed_words(players: list[str]) -> str:
    """ "Cerebro is on the fritz! Their entire team must report to Headquarters to repair the
    computer for one turn, with no other actions." """
    names = " and ".join(f"{p}'s" for p in players)
    return f"Cerebro is on the fritz! {names} turn{'s' if len(players) > 1 else ''} passed."


def _expect(s: XMenState, actions: list[str]) -> dict[str, Any]:
    d = s.data
    if s.phase == "over":
        return {"phase": "over", "actions": [], "prompt": "The game is over.", "dice": []}
    if s.phase == "first":
        who, n = s.first_to_roll[0], d.going_first_dice
        return {"phase": "first", "player": who, "actions": actions,
                "to_roll": list(s.first_to_roll),
                "dice": [dice.entry(d, n, "going first", who, "first.roll")],
                "prompt": f"{who}: roll {n} dice to see who goes first (X-Men 1 point, "
                          "Marvel 2).", "rule": R_FIRST}
    if s.phase == "draw":
        return draws.expect(s, actions)
    team = s.current
    if s.phase == "bonus":
        n = s.bonus["dice"]
        return {"phase": "bonus", "player": team.player, "actions": actions,
                "dice": [dice.entry(d, n, "bonus experience", team.player, "bonus.roll")],
                "prompt": f"{team.player}: roll {n} Experience Bonus dice (X-Men 1, Marvel 2) "
                          f"to add to {s.bonus['experience']} Experience.", "rule": R_BONUS}
    must = choices.must(s)
    if must and "deploy" in actions and not s.unfought(team):
        # only a seriously wounded character's recovery is due, and others may still battle:
        # Step 4 comes after the battles and ends them, so the step asked first is the battle's
        prompt = (f"{team.player}: deploy X-Men to a Battle Zone before anyone recovers; then "
                  + "; ".join(must) + " must still roll.")
    elif must:
        prompt = f"{team.player}: " + "; ".join(must) + " must still roll."
    else:
        prompt = f"{team.player}: {free_choice(actions)}."
    out = {"phase": "play", "player": team.player, "round": s.round, "stage": s.stage,
           "actions": actions, "dice": rolls(s), "prompt": prompt, "must": must,
           "deploy": {str(z + 1): h for z, h in choices.deployments(s).items()},
           "cards": cards.playable(s), "rule": R_PLAYING}
    unchecked = unchecked_deploys(s)
    if unchecked:           # only then: the recorded views (tests/companion/golden) lack it
        out["deploy_unchecked"] = unchecked
    return out


def unchecked_deploys(s: XMenState) -> list[dict[str, Any]]:
    """The deployments only an assumed Power Stat card forbids (choices.unchecked_deployments),
    each with the caveat its reminder will give: {zone, hero, caveat}.

    "they have fewer hits than their Durability number, they can move to a Battle Zone" reads
    the card in front of the player; for 15 of the 18 X-Men the rulebook does not print it, and
    the companion's number is a guess (option ``unconfirmed``, "remind" by default), so the
    engine accepts such a deployment with a reminder and the next step says "deploy". The
    phone's deploy form offers exactly what the words say: these too, each marked with its
    caveat, never as a deployment the printed rule allows (docs/xmen-alert.md)."""
    team, cards, out = s.current, s.data.characters, []
    for z, h in choices.unchecked_deployments(s):
        why = battle.wounded_caveat(s, team, h)
        if battle.unchecked_joiners(s, team, z, [h]):
            why += "; joining the battle in progress, " + battle.join_caveat(cards[h].name)
        out.append({"zone": z + 1, "hero": h,
                    "caveat": f"{cards[h].name} would deploy unchecked: {why}."})
    return out


# what the team may choose once nothing must roll, in the order of the turn's steps
CHOICES = (("deploy", "deploy X-Men to a Battle Zone"), ("recover.roll", "recover at Headquarters"),
           ("turn.end", "end the turn"), ("card.play", "play a Training & Luck card"))


def free_choice(actions: list[str]) -> str:
    """ "deploy X-Men to a Battle Zone, recover at Headquarters, or end the turn": only what is
    open (a team whose characters have all acted may only end its turn); a card only when
    nothing else is."""
    words = [w for kind, w in CHOICES[:3] if kind in actions] or [
        w for kind, w in CHOICES[3:] if kind in actions]
    if len(words) > 2:
        return ", ".join(words[:-1]) + ", or " + words[-1]
    return " or ".join(words)


def rolls(s: XMenState) -> list[dict[str, Any]]:
    """Every roll the team can make now, as DiceRequests: characters in a Battle Zone first,
    then the seriously wounded, then other recoveries."""
    d, player, out = s.data, s.current.player, []
    for f in choices.fights(s):
        data = {"zone": f["zone"] + 1, "hero": f["hero"]}
        if "attack" in f:
            data["attack"] = f["attack"]
        entry = dice.entry(d, f["count"], f["kind"], player, f"{f['kind']}.roll", **data)
        picks = _picks(s, f)
        if picks:
            entry["choose"] = picks
        out.append(entry)
    for r in sorted(choices.recoveries(s), key=lambda r: not r["serious"]):
        out.append(dice.entry(d, r["count"], "recovery", player, "recover.roll", hero=r["hero"]))
    return out


def _picks(s: XMenState, f: dict[str, Any]) -> dict[str, list[str]]:
    """The choices a roll leaves the team where there is more than one answer: which teammate
    takes an alternative attack's hits ("Evil Mutant rolls give 1 hit to a teammate",
    ``hits_to``), and which backer jumps in should the leader fall (Team Work, ``new_leader``);
    the first of each is what the roll does when none is named."""
    side, hid = s.zones[f["zone"]].side(s.current.player), f["hero"]
    out = {}
    mates = [h for h in side.order if h != hid]
    if "attack" in f and len(mates) > 1:
        out["hits_to"] = mates
    backers = [h for h in side.order if h != side.leader]
    if hid == side.leader and len(backers) > 1:
        out["new_leader"] = backers
    return out


def reminders(s: XMenState) -> list[dict[str, str]]:
    """The reminders of the step the table is at: a team's turn (play) has its steps' rules;
    while the table draws its own card (draw) or rolls Experience Bonus dice (bonus) none of
    those apply (a table naming its first Alert cards at setup was told how characters battle),
    only what is pending (Cerebro for a coming turn, what this turn let through unchecked)."""
    if s.phase in ("over", "first"):
        return []
    play = s.phase == "play"
    out = _turn_steps(s) if play else []
    if play and not s.alert_deck:
        out.append({"text": "The Alert deck is empty: turned-in cards are shuffled into a new "
                            "deck when the next card is needed.", "rule": R_STEP1})
    for t in s.teams:
        if t.cerebro:
            out.append({"text": f"Cerebro is on the fritz for {t.player}: the whole team reports "
                                f"to Headquarters at the start of {t.player}'s next turn.",
                        "rule": R_LUCK})
    if not play:        # what an assumed card let through this turn stays told till it ends
        return out + s.unchecked
    if any(t.held for t in s.teams):
        out.append({"text": "Held Training & Luck cards can be played before or during your "
                            "turn, or before another player's turn.", "rule": R_LUCK})
    if s.advanced:
        out.append({"text": "Only characters with flight can join a battle already in progress.",
                    "rule": R_JOIN})
    out.extend(s.unchecked)
    if s.current.captured:
        out.append({"text": "At the end of the turn the captured Evil Mutants are turned in "
                            "and the team moves on the Experience Track.", "rule": R_TURN_IN})
    return out


def _turn_steps(s: XMenState) -> list[dict[str, str]]:
    """What the turn's Steps 2 to 4 ask of the team now, and the order they bind it to."""
    out = [{"text": "Each character either battles (or recruits) or recovers in a turn, never "
                    "both.", "rule": R_PLAYING}]
    team = s.current
    if s.unfought(team, "battle"):
        out.append({"text": "Characters already in a Battle Zone must continue to battle: the "
                            "leader first, then each backer.", "rule": R_FIGHT})
    if s.unfought(team, "recruit"):
        out.append({"text": "Characters already recruiting in a Battle Zone must continue to "
                            "roll to recruit, with Intelligence dice: the leader first, then "
                            "each backer.",
                    "rule": R_RECRUIT})
    if s.pending_recovery():
        out.append({"text": "A seriously wounded character must clear every chip on its picture "
                            "in one recovery roll, or it is lost.", "rule": R_SERIOUS})
    if choices.can_recover(s) and choices.can_deploy(s):
        # the reminder above is each character's; the steps' order binds the whole team, and a
        # recovery rolled first would cost a teammate the battle he could still deploy to
        out.append({"text": "Deploy first: once a character rolls to recover (Step 4), nobody "
                            "battles or recruits this turn (Steps 2 and 3 come before it).",
                    "rule": R_PLAYING})
    return out + _recruit_order(s)


def _recruit_order(s: XMenState) -> list[dict[str, str]]:
    """Step 3 after Step 2 binds the whole team: a deployment to recruit ends its battles. Said
    before, where both are open, and after, where a battle is closed only by it (a table that
    deployed to recruit first found Archangel's battle refused with nothing rolled)."""
    if s.stage == "battle":
        kinds = {s.zones[z].kind for z in choices.deployments(s)}
        if {"battle", "recruit"} <= kinds:
            return [{"text": "Battle first: once a character deploys to recruit (Step 3), nobody "
                             "starts a battle this turn (Step 2 comes before it).",
                     "rule": R_RECRUIT}]
        return []
    words = choices.recruit_words(s, s.current)
    if words is None or not choices.battle_deploy_but_for_step(s):
        return []
    return [{"text": f"Battles are closed this turn: {words[0]} moved it past them (Step 3 comes "
                     f"after Step 2); {words[1]}.", "rule": R_RECRUIT}]


def to_json(s: XMenState) -> dict[str, Any]:
    """The state for the dashboard: Battle Zones with their Strength Tracks, each team's
    Headquarters with hit chips, the Experience Track, held cards, deck counts and the log.
    The order of face-down decks is left out."""
    d = s.data
    teams = [{"player": t.player, "mover": t.mover,
              "headquarters": [_hero_json(s, h) for h in t.heroes],
              "captured": [{"id": c, "name": d.alert[c].name, "experience": d.alert[c].experience}
                           for c in t.captured],
              "held": [{"id": c, "title": d.luck[c].title, "text": d.luck[c].text}
                       for c in t.held],
              "cerebro_next_turn": t.cerebro, "extra_dice": dict(t.boosts),
              "bonus_dice": t.bonus_dice} for t in s.teams]
    out = {
        "game": NAME, "advanced": s.advanced, "phase": s.phase,
        "player": s.current.player if s.phase in ("play", "bonus", "draw") else None,
        "round": s.round, "stage": s.stage,
        "zone_open": None if s.zone_open is None else s.zone_open + 1,
        "zones": _zones_json(s), "teams": teams,
        "experience_track": {"spaces": d.track_spaces, "victory": d.track_spaces,
                             "goal": d.track_spaces if s.advanced else d.recruit_spaces[0],
                             "training_luck": sorted(d.training_luck_spaces),
                             "recruit": list(d.recruit_spaces),
                             "movers": {t.player: t.mover for t in s.teams}},
        "decks": {"alert": len(s.alert_deck), "alert_turned_in": len(s.alert_discard),
                  "power_stat": len(s.stat_deck), "training_luck": len(s.luck_deck),
                  "training_luck_used": len(s.luck_discard)},
        "must_recover": list(s.must_recover),
        "going_first": {"rolls": dict(s.first_rolls), "to_roll": list(s.first_to_roll)},
        "bonus": s.bonus, "last_roll": s.last_roll, "winner": s.winner, "ended": s.ended,
        "options": dict(s.options), "log": list(s.log),
    }
    if s.options.get("physical_decks"):     # the table draws these decks itself (draws.py)
        dr = s.drawing
        out["drawing"] = None if dr is None else {
            "deck": dr["deck"], "zone": dr["zone"] + 1 if "zone" in dr else None,
            "player": s.teams[dr["team"]].player if "team" in dr else None}
    return out


def _hero_json(s: XMenState, h: Hero) -> dict[str, Any]:
    c = s.data.characters[h.id]
    return {"id": h.id, "name": c.name, "hits": h.hits, "durability": c.durability,
            "x_covered": min(h.hits, c.durability),
            "on_picture": recovery.on_picture(s.data, h),
            "seriously_wounded": h.hits > c.durability,
            "where": "headquarters" if h.where == HQ else f"zone {h.where + 1}",
            "acted": h.acted, "fighting_skill": c.fighting_skill,
            "intelligence": c.intelligence, "total_power": c.total_power,
            "abilities": [a.name for a in c.abilities if s.advanced or not a.advanced]}


def _zones_json(s: XMenState) -> list[dict[str, Any]]:
    d, out = s.data, []
    for z, zone in enumerate(s.zones):
        card = d.alert[zone.card] if zone.card else None
        out.append({
            "number": z + 1, "strength_track": d.strength_track,
            "card": None if card is None else {"id": card.id, "name": card.name, "kind": card.kind,
                                               "strength": card.strength,
                                               "experience": card.experience},
            "recruit": None if zone.recruit is None else
            {"id": zone.recruit, "name": d.characters[zone.recruit].name,
             "total_power": d.characters[zone.recruit].total_power},
            "indicator": zone.indicator,
            "teams": [{"player": x.player, "leader": x.leader,
                       "leader_name": d.characters[x.leader].name, "position": x.position,
                       "backers": x.order[1:], "started": x.started} for x in zone.sides],
        })
    return out
