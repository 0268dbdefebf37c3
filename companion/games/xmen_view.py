"""The X-Men Alert state as the dashboard sees it, and the checks every state must pass."""

from __future__ import annotations

from typing import Any

from companion.games import xmen_recovery as recovery
from companion.games.xmen_data import XMenData
from companion.games.xmen_state import HQ, Hero, Team, XMenState


def invariants(data: XMenData, s: XMenState, alert_cards: list[str], luck_cards: list[str]) -> list[str]:
    """What is wrong with a state: cards lost or duplicated, figures out of place, two leaders
    on one space, a leader past the indicator, a phase that disagrees with the game's end."""
    d, bad = data, []
    alert = s.alert_deck + s.alert_discard + [z.card for z in s.zones if z.card] + \
        [c for t in s.teams for c in t.captured]
    if sorted(alert) != sorted(alert_cards):
        bad.append("X-Men Alert cards were lost or duplicated")
    stats = s.stat_deck + [h.id for t in s.teams for h in t.heroes] + \
        [z.recruit for z in s.zones if z.recruit]
    if sorted(stats) != sorted(d.characters):
        bad.append("Power Stat cards were lost or duplicated")
    luck = s.luck_deck + s.luck_discard + [c for t in s.teams for c in t.held]
    if sorted(luck) != sorted(luck_cards):
        bad.append("Training & Luck cards were lost or duplicated")
    limit = d.max_team if s.advanced else 1
    for t in s.teams:
        if len(t.heroes) > limit:
            bad.append(f"{t.player} has {len(t.heroes)} X-Men (at most {limit})")
        if not 0 <= t.mover <= d.track_spaces:
            bad.append(f"{t.player}'s mover is off the Experience Track")
        for h in t.heroes:
            if h.hits < 0:
                bad.append(f"{h.id} has negative hits")
            if h.where != HQ:
                side = s.zones[h.where].side(t.player)
                if side is None or h.id not in side.order:
                    bad.append(f"{h.id} stands in Battle Zone {h.where + 1} outside its team's area")
                if h.hits >= d.characters[h.id].durability:
                    bad.append(f"{h.id} fights with every X symbol covered")
    for z, zone in enumerate(s.zones):
        if zone.card is None:
            if zone.sides or zone.indicator is not None:
                bad.append(f"Battle Zone {z + 1} is empty but has teams or an indicator")
            continue
        if not 1 <= zone.indicator <= d.strength_track:
            bad.append(f"Battle Zone {z + 1}'s indicator is off the Strength Track")
        if (zone.recruit is not None) != (d.alert[zone.card].kind == "recruit"):
            bad.append(f"Battle Zone {z + 1}'s recruit and card disagree")
        spaces = [x.position for x in zone.sides if x.position > 0]
        if len(spaces) != len(set(spaces)):
            bad.append(f"two leaders share a space in Battle Zone {z + 1}")
        for x in zone.sides:
            t = s.team(x.player)
            if not x.order or x.order[0] != x.leader:
                bad.append(f"{x.player}'s side in Battle Zone {z + 1} has no leader in front")
            if not 0 <= x.position < zone.indicator:
                bad.append(f"{x.player}'s leader is at or past the indicator without capturing")
            for hid in x.order:
                h = s.hero(t, hid)
                if h is None or h.where != z:
                    bad.append(f"{hid} is listed in Battle Zone {z + 1} but is not there")
        if len({x.player for x in zone.sides}) != len(zone.sides):
            bad.append(f"a team appears twice in Battle Zone {z + 1}")
    if (s.phase == "over") != (s.winner is not None or s.ended is not None):
        bad.append("the phase and the game's end disagree")
    if (s.phase == "bonus") != (s.bonus is not None):
        bad.append("the bonus phase and its pending roll disagree")
    return bad


def view(data: XMenData, name: str, s: XMenState) -> dict[str, Any]:
    """The state for the dashboard: Battle Zones with their Strength Tracks, each team's
    Headquarters with hit chips, the Experience Track, held cards, deck counts and the log.
    The order of face-down decks is left out."""
    d = data

    def hero_json(t: Team, h: Hero) -> dict[str, Any]:
        c = d.characters[h.id]
        return {"id": h.id, "name": c.name, "hits": h.hits, "durability": c.durability,
                "x_covered": min(h.hits, c.durability),
                "on_picture": recovery.on_picture(d, h),
                "seriously_wounded": h.hits > c.durability,
                "where": "headquarters" if h.where == HQ else f"zone {h.where + 1}",
                "acted": h.acted, "fighting_skill": c.fighting_skill,
                "intelligence": c.intelligence, "total_power": c.total_power,
                "abilities": [a.name for a in c.abilities if s.advanced or not a.advanced]}

    zones = []
    for z, zone in enumerate(s.zones):
        card = d.alert[zone.card] if zone.card else None
        zones.append({
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
    teams = [{"player": t.player, "mover": t.mover,
              "headquarters": [hero_json(t, h) for h in t.heroes],
              "captured": [{"id": c, "name": d.alert[c].name, "experience": d.alert[c].experience}
                           for c in t.captured],
              "held": [{"id": c, "title": d.luck[c].title, "text": d.luck[c].text}
                       for c in t.held],
              "cerebro_next_turn": t.cerebro, "extra_dice": dict(t.boosts),
              "bonus_dice": t.bonus_dice} for t in s.teams]
    return {
        "game": name, "advanced": s.advanced, "phase": s.phase,
        "player": s.current.player if s.phase in ("play", "bonus") else None,
        "round": s.round, "stage": s.stage, "zone_open": None if s.zone_open is None else s.zone_open + 1,
        "zones": zones, "teams": teams,
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
