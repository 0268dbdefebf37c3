"""What the table sees: expect (who does what next, which dice), reminders, the dashboard JSON,
and the invariants the conformance test checks after every action."""

from __future__ import annotations

from typing import Any

from companion.dice import Dice, DiceRequest
from companion.games import invincible_board as board
from companion.games import invincible_training as training
from companion.games.invincible_data import CUBES
from companion.games.invincible_hero_phase import black_count, finished
from companion.games.invincible_scoring import score
from companion.games.invincible_state import (
    HQ, R_CRASH, R_DEFIANCE, R_ENDANGER, R_HERO_END, R_HERO_TIME, R_KO, R_LEARN,
    R_PULL, R_RESET, R_VILLAIN, R_WINLOSE, InvincibleState,
)

CUBE_SET = frozenset(CUBES)
EFFECT_ACTIONS = ["damage", "rescue", "thwart", "heal", "move", "gain_cube", "strengthen",
                  "confidence", "endanger", "hurt", "minions", "bubble", "clear_power"]
ALWAYS = ["use_helper", "episode_bonus"]


def rescue_die(d) -> Dice:
    sides = tuple(f.id for f in d.rescue_die)
    meanings = {f.id: f"{f.result} ({f.zone} zone)" for f in d.rescue_die}
    return Dice("rescue", "invincible-rescue", tuple(sorted(set(sides))), sides,
                meanings=meanings, field="face", single=True)


def crash_die(d) -> Dice:
    sides = tuple(f.id for f in d.crash_die)
    meanings = {f.id: f"{f.damage} damage" + (", roll again" if f.again else "")
                for f in d.crash_die}
    return Dice("crash", "invincible-crash", tuple(sorted(set(sides))), sides,
                meanings=meanings, field="faces", single=True)


def _dice_rescue(d, action: str | None = None, data: dict | None = None,
                 player: str | None = None) -> dict:
    """The rescue die; with ``action`` a camera read of it becomes that action (the face goes
    into data.face), as companion.dice_reads expects."""
    return DiceRequest((rescue_die(d),), action=action, data=data or {}, player=player).to_json()


def _dice_crash(d, hero: str) -> dict:
    return DiceRequest((crash_die(d),), action="crash_roll", data={"hero": hero},
                       player=hero).to_json()


def _crash_rescue_dice(engine, s: InvincibleState) -> list[dict]:
    """While a power resolves and exactly one crashed hero is in its range, a rescue die read is
    that rescue attempt; otherwise the die is listed without an action (enter it by hand)."""
    d = engine.data
    crashed = [h for h in s.heroes if h.crashed and not h.rescued]
    if not crashed:
        return []
    r = s.resolving
    if r is not None:
        me = s.hero(r["hero"])
        reach = [h for h in crashed if h.zone != HQ and board.in_range(d, me.zone, h.zone, r["ranged"])]
        if len(reach) == 1:
            return [_dice_rescue(d, "rescue", {"hero": me.id, "crashed": reach[0].id,
                                               "ranged": r["ranged"]}, me.id)]
    return [_dice_rescue(d)]


def expect(engine, s: InvincibleState) -> dict[str, Any]:
    d = engine.data
    base = {"phase": s.phase, "round": s.round, "space": s.space + 1, "dice": []}
    if s.result is not None:
        return {**base, "actions": [], "prompt": f"The game is over: {s.result['reason']}."}
    if s.pending is not None:
        p = s.pending
        actions = {"manual": ["resolved", *EFFECT_ACTIONS], "random_zone": ["roll"],
                   "contingency": ["resolved"]}.get(
            p["kind"], ["choose"])
        out = {**base, "actions": actions + ALWAYS, "prompt": p["prompt"], "pending": p,
               "rule": p["rule"]}
        if p["kind"] == "random_zone":
            out["dice"] = [_dice_rescue(d, "roll")]
        if "options" in p:
            out["choices"] = p["options"]
        return out
    if s.phase == "advance":
        return {**base, "actions": ["advance", *ALWAYS],
                "prompt": f"Round {s.round}: advance the episode track."}
    if s.phase in ("hero", "hero_end"):
        heroes = []
        for h in s.heroes:
            can = []
            if s.phase == "hero" and s.resolving is None and not h.done:
                if h.ready and not (h.crashed and not h.rescued):
                    can += ["play", "drop"]
                elif h.ready:
                    can += ["drop"]
                if not h.ready and h.can_pull and not h.crashed and sum(h.bag.values()):
                    can.append("pull")
                if h.defiance and h.last_pull and not h.crashed and sorted(h.ready) == sorted(h.last_pull):
                    can.append("defiance")
                can.append("done")
            heroes.append({"hero": h.id, "name": h.name, "actions": can,
                           "finished": finished(h), "crashed": h.crashed and not h.rescued})
        actions = sorted({a for h in heroes for a in h["actions"]})
        if s.resolving is not None:
            r = s.resolving
            prompt = (f"{s.hero(r['hero']).name}: resolve {r['name']}"
                      + (f" ({'; '.join(r['effects'])})" if r["effects"] else "")
                      + ", then send resolved.")
            actions = ["resolved"]
        else:
            active = [h["name"] for h in heroes if not h["finished"]]
            prompt = "Hero Phase: " + (", ".join(active) + " pull and play cubes, then done."
                                        if active else "every hero has stopped.")
        dice = _crash_rescue_dice(engine, s)
        return {**base, "actions": actions + EFFECT_ACTIONS + ALWAYS, "prompt": prompt,
                "heroes": heroes, "resolving": s.resolving, "dice": dice,
                "player": s.resolving["hero"] if s.resolving else None}
    if s.phase == "crash":
        waiting = [h for h in s.heroes if h.crashed and not h.rescued]
        return {**base, "actions": ["crash_roll", *ALWAYS], "player": waiting[0].id,
                "heroes": [h.id for h in waiting], "dice": [_dice_crash(d, waiting[0].id)],
                "prompt": f"{waiting[0].name} crashed and was not rescued: roll the crash die "
                          "(on 1+, take 1 and roll again).", "rule": R_HERO_END}
    if s.phase == "training":
        waiting = [h for h in s.heroes if not h.done]
        return {**base, "player": waiting[0].id if waiting else None,
                "actions": ["learn", "punch", "train_cube", "discard_power", "arrange", "done",
                            *ALWAYS],
                "confidence": {h.id: training.left(d, h) for h in s.heroes},
                "heroes": [h.id for h in waiting],
                "prompt": "Training Phase: " + ", ".join(
                    f"{h.name} ({training.left(d, h)} confidence)" for h in waiting)
                          + ": learn powers, gain a cube, then done."}
    if s.phase == "villain":
        return {**base, "actions": ["reveal", *ALWAYS],
                "prompt": "Villain Phase: reveal the top event card."}
    return {**base, "actions": [], "prompt": ""}


def reminders(engine, s: InvincibleState) -> list[dict[str, str]]:
    d = engine.data
    if s.result is not None:
        return []
    out = []
    if s.phase == "hero":
        out.append({"text": "Black cubes are wild. A hero crashes the moment they pull a fifth "
                            "black cube (board, powers and dropped area count).", "rule": R_CRASH})
        for h in s.heroes:
            if h.crashed and not h.rescued:
                out.append({"text": f"{h.name} has crashed: a Rescue power in their zone (or "
                                    "Ranged from next door) and the rescue die can save them "
                                    "before the phase ends.", "rule": R_CRASH})
            if h.defiance and h.last_pull and not h.crashed:
                out.append({"text": f"{h.name} may flip defiance to set this pull aside and pull "
                                    "three fresh cubes.", "rule": R_DEFIANCE})
        out.append({"text": "Play or drop all three cubes of a pull before pulling again.",
                    "rule": R_PULL})
        if s.timer is not None:
            out.append({"text": "Hero time: when it runs out the phase ends at once; cubes in "
                                "ready areas count as dropped.", "rule": R_HERO_TIME})
    if s.phase == "training":
        out.append({"text": "Confidence left unspent is lost at the end of the phase; one cube "
                            "per hero per phase.", "rule": R_LEARN})
        out.append({"text": "Refill to five cards: at most one from the Ultimate deck.",
                    "rule": R_RESET})
    if s.phase == "villain":
        out.append({"text": "Enemy damage hits every hero in the zone, or endangers that many "
                            "civilians when no hero is there.", "rule": R_VILLAIN})
    dead = board.dead_total(s)
    if dead >= d.limits["dead"] - 3:
        out.append({"text": f"{dead} civilians dead: at {d.limits['dead']} the heroes lose.",
                    "rule": R_WINLOSE})
    for z in s.zones:
        if z.safety == 0 and z.danger <= 2:
            out.append({"text": f"The {z.name} zone has {z.danger} civilian(s) left, all in "
                                "danger: if every one dies, the heroes lose.", "rule": R_ENDANGER})
    if s.kos == d.limits["kos"] - 1:
        out.append({"text": "One more KO loses the game.", "rule": R_KO})
    if s.space == len(s.track) - 1:
        out.append({"text": "This is the last space of the episode track.", "rule": R_WINLOSE})
    return out


def to_json(engine, s: InvincibleState) -> dict[str, Any]:
    d = engine.data
    ep = d.episodes[s.episode]
    sc = score(d, s)
    zones = []
    for z in s.zones:
        zones.append({
            "name": z.name, "civilians": {"safety": z.safety, "danger": z.danger, "dead": z.dead},
            "minions": z.minions,
            "villains": [None if v is None else {
                "id": v.id, "name": v.name, "level": v.level, "health": v.health,
                "damage": v.damage, "remaining": max(0, v.health - v.damage),
                "thwart": v.thwart, "thwart_spaces": v.thwart_spaces,
                "fully_thwarted": v.thwart >= v.thwart_spaces > 0,
                "text": d.villains[v.id].text} for v in z.villains],
            "heroes": [h.id for h in s.heroes if h.zone == z.name],
        })
    heroes = []
    for h in s.heroes:
        heroes.append({
            "id": h.id, "name": h.name, "player": h.player, "zone": h.zone,
            "health": h.max_health - h.damage, "max_health": h.max_health, "damage": h.damage,
            "crashed": h.crashed, "rescued": h.rescued, "done": h.done, "can_pull": h.can_pull,
            "defiance": "face up" if h.defiance else "face down",
            "black_cubes": black_count(h), "crash_at": d.limits["crash_black"],
            "bag": dict(h.bag), "bag_count": sum(h.bag.values()), "ready": list(h.ready),
            "dropped": list(h.dropped), "pulls": h.pulls,
            "confidence": training.confidence(d, h), "confidence_left": training.left(d, h),
            "cube_gained": h.cube_gained,
            # for Combo and Turn the Tide, which the table applies by hand
            "types_filled": sorted({d.powers[p.power].type for p in h.powers.values()
                                    if p.filled and d.powers[p.power].type != "none"}),
            "civilians_rescued": h.rescued_civilians,
            "powers": {slot: {"card": p.card, "name": d.powers[p.power].name,
                              "kind": d.powers[p.power].kind,
                              "symbols": list(d.powers[p.power].symbols), "cubes": list(p.cubes),
                              "filled": p.filled, "strength": p.strength,
                              "confidence": d.powers[p.power].confidence,
                              "effects": list(d.powers[p.power].effects)}
                       for slot, p in h.powers.items()},
            "hand": [_card(d, c) for c in h.hand],
        })
    track = [{"space": i + 1, "icons": list(icons), "current": i == s.space}
             for i, icons in enumerate(s.track)]
    out = {
        "episode": {"number": s.episode, "name": ep.name, "win": ep.win_text,
                    "bonus": ep.bonus.get("text", ""), "bonus_claimed": s.episode_bonus},
        "difficulty": s.difficulty, "solo": s.solo, "hero_count": s.hero_count,
        "round": s.round, "phase": s.phase, "track": track,
        "track_left": len(s.track) - 1 - s.space,
        "zones": zones, "hq": [h.id for h in s.heroes if h.zone == HQ],
        "heroes": heroes, "shared_hand": [_card(d, c) for c in s.shared_hand],
        "casualties": board.dead_total(s), "casualty_limit": d.limits["dead"],
        "kos": s.kos, "ko_limit": d.limits["kos"],
        "defeated": [{"id": v, "name": d.villains[v].name, "level": d.villains[v].level}
                     for v in s.defeated],
        "decks": {k: len(v) for k, v in s.decks.items()},
        "discards": {k: len(v) for k, v in s.discards.items()},
        "event": None if s.event is None else _event(d, s.event),
        "last_event": None if not s.discards["event"] else _event(d, s.discards["event"][-1]),
        "last_villain_revealed": None if s.revealed is None else _villain(d, s, s.revealed),
        "abilities": [{"id": a.id, "name": a.name, "tag": a.tag,
                       "thwart": s.ability_thwart.get(a.id, 0), "spaces": a.spaces(s.hero_count)}
                      for a in ep.abilities.values()],
        "supply": dict(s.supply), "learn_by_punching_left": s.punch_left,
        "strengthen_left": s.strengthen_left,
        "helpers": [{"id": c, "name": d.helpers[c].name, "text": d.helpers[c].text}
                    for c in s.helpers],
        "helpers_used": list(s.helpers_used),
        "challenges": [{"id": c, "name": d.challenges[c].name, "text": d.challenges[c].text}
                       for c in s.challenges],
        "resolving": s.resolving, "pending": s.pending, "bubble": s.bubble,
        "hero_time": None if s.hero_time is None else {
            "name": "hero_time", "seconds": s.hero_time,
            "expired": bool(s.timer and s.timer.expired)},
        "score": sc, "result": s.result, "campaign": s.campaign,
        "helper_gained": s.helper_gained, "log": list(s.log),
    }
    return out


def _event(d, event_id: str) -> dict:
    e = d.events[event_id]
    return {"id": e.id, "name": e.name, "level": e.level, "minions": e.minions,
            "villains": [dict(a) for a in e.villains]}


def _villain(d, s, villain_id: str) -> dict:
    v = d.villains[villain_id]
    return {"id": v.id, "name": v.name, "level": v.level, "zone": v.zone,
            "health": v.health_for(s.hero_count), "thwart": v.thwart, "text": v.text}


def _card(d, card: str) -> dict:
    p = d.powers[training.power_id(card)]
    return {"card": card, "name": p.name, "kind": p.kind, "cost": p.cost,
            "colours": list(p.colours), "symbols": list(p.symbols), "confidence": p.confidence,
            "effects": list(p.effects)}


def invariants(engine, s: InvincibleState) -> list[str]:
    d, bad = engine.data, []
    for z in s.zones:
        if z.safety + z.danger + z.dead != d.safety + d.danger or min(z.safety, z.danger, z.dead) < 0:
            bad.append(f"the {z.name} zone's civilians do not add up to ten")
        if not 0 <= z.minions <= d.minion_cap:
            bad.append(f"the {z.name} zone holds {z.minions} minions")
        if len(z.villains) != d.villain_slots:
            bad.append(f"the {z.name} zone has {len(z.villains)} villain slots")
    placed = board.villains_in_play(s)
    by_level: dict[int, list[str]] = {1: [], 2: [], 3: []}
    for _, _, v in placed:
        by_level[v.level].append(v.id)
        if v.damage >= v.health or not 0 <= v.thwart <= v.thwart_spaces:
            bad.append(f"{v.name} has impossible damage or thwart tokens")
    # a revealed villain waits in the queue or on the players' choice before it is placed
    waiting = [t["villain"] for t in s.queue if t["do"] == "place"]
    if s.pending and s.pending["kind"] in ("zone", "discard"):
        waiting.append(s.pending["villain"])
    for vid in waiting:
        by_level[d.villains[vid].level].append(vid)
    for level in (1, 2, 3):
        key = f"villain{level}"
        held = s.decks[key] + s.discards[key] + by_level[level]
        if len(held) != len(s.level_decks[key]) or set(held) != set(s.level_decks[key]):
            bad.append(f"Level {level} villains were lost or duplicated")
    powers = d.powers
    reset = s.phase in ("advance", "villain")
    zones_hq = (*d.zones, HQ)
    for h in s.heroes:
        if not 0 <= h.damage < h.max_health:
            bad.append(f"{h.name} has {h.damage} damage but is not KOed")
        if min(h.bag.values()) < 0 or not h.bag.keys() <= CUBE_SET:
            bad.append(f"{h.name}'s bag is impossible")
        black = h.bag.get("black", 0) + h.ready.count("black") + h.dropped.count("black")
        out = bool(h.ready or h.dropped)
        for slot, p in h.powers.items():
            cubes = p.cubes
            black += cubes.count("black")
            open_ = cubes.count(None)
            out = out or open_ < len(cubes)
            if len(cubes) != len(powers[p.power].symbols) or p.filled == (open_ > 0):
                bad.append(f"{h.name}'s {slot} power has the wrong symbols or filled mark")
        if black != d.bag["black"]:
            bad.append(f"{h.name}'s black cubes do not add up")
        if h.zone not in zones_hq:
            bad.append(f"{h.name} stands nowhere")
        if s.phase == "hero" and h.crashed and h.can_pull:
            bad.append(f"{h.name} crashed but may still pull")
        if reset and out:
            bad.append(f"{h.name} still has cubes out of the bag after the reset")
    events = s.decks["event"] + s.discards["event"]
    if len(set(events)) != len(events):
        bad.append("an event card is in the deck twice")
    if any(v < 0 for v in s.supply.values()):
        bad.append("the cube supply went negative")
    if s.kos > d.limits["kos"] or (s.kos >= d.limits["kos"] and s.result is None):
        bad.append("three KOs but the game goes on")
    if board.dead_total(s) >= d.limits["dead"] and s.result is None:
        bad.append("fifteen dead but the game goes on")
    if (s.result is None) == (s.phase == "over"):
        bad.append("the phase and the result disagree")
    if s.resolving is not None and s.phase not in ("hero", "hero_end"):
        bad.append("a power resolves outside the Hero Phase")
    if s.phase == "hero_end" and s.resolving is None:
        bad.append("hero_end without a power to finish")
    if s.timer is not None and s.timer.running and s.phase != "hero":
        bad.append("hero time runs outside the Hero Phase")
    if not 0 <= s.space < len(s.track):
        bad.append("the round marker is off the track")
    return bad
