"""What the table sees: expect (who does what next, which dice: view_dice.py), reminders and the
dashboard JSON.
Every function takes the state (which carries its component data); expect is given the moves
the engine's table has open now, and each hero's share of them in the Hero Phase."""

from __future__ import annotations

from typing import Any

from companion.games.invincible import board, bosses, card_powers, card_rules, choices, resolve
from companion.games.invincible import moves_training as training
from companion.games.invincible import slot_colours, view_dice
from companion.games.invincible.cards import power_id
from companion.games.invincible.moves_pull import (DEFIANCE, DONE, black_count, finished,
                                                   pulls_once_cleared)
from companion.games.invincible.moves_round import helper_heroes, usable_helpers, villains_to_reveal
from companion.games.invincible.moves_villain import revealable
from companion.games.invincible.scoring import score
from companion.games.invincible.state import (
    HQ, R_CRASH, R_DEFIANCE, R_ENDANGER, R_HERO_END, R_HERO_TIME, R_KO, R_LEARN,
    R_PULL, R_RESET, R_VILLAIN, R_WINLOSE, HeroState, InvincibleState,
)


#: the table's phase while the companion waits on the players' answer, by the question's kind
QUESTIONS = {"zone": "choose", "discard": "choose", "move": "choose", "random_zone": "roll",
             "manual": "manual", "contingency": "contingency"}


def table_phase(s: InvincibleState) -> str:
    """The phase the moves and the table's buttons go by: a question's own while one waits (the
    rescue die's roll, a choice, an effect applied by hand), else the round's."""
    return QUESTIONS[s.pending["kind"]] if s.pending is not None else s.phase


def expect(s: InvincibleState, actions: list[str],
           hero_actions: dict[str, list[str]]) -> dict[str, Any]:
    """``actions``: the moves open now; ``hero_actions``: each hero's own moves among them (the
    Hero Phase's pull, play, drop, defiance and done); ``helpers``: while one may be spent, each
    with the heroes its effects may come through (for the phones' buttons)."""
    out = _expect(s, actions, hero_actions)
    if "use_helper" in actions:
        out["helpers"] = [_helper(s, h) for h in usable_helpers(s)]
    return out


def _helper(s: InvincibleState, helper: str) -> dict[str, Any]:
    card = s.data.helpers[helper]
    return {"helper": helper, "name": card.name, "text": card.text,
            "heroes": helper_heroes(s) if card.effects else [],
            "cancel": card.cancel_abilities}


def _expect(s: InvincibleState, actions: list[str],
            hero_actions: dict[str, list[str]]) -> dict[str, Any]:
    # the table's phase: a button's meaning follows the question waiting, not the round under it
    base = {"phase": table_phase(s), "round": s.round, "space": s.space + 1, "dice": []}
    if s.result is not None:
        return {**base, "actions": [], "prompt": f"The game is over: {s.result['reason'].rstrip('.')}."}
    if s.pending is not None:
        p = s.pending
        out = {**base, "actions": actions, "prompt": p["prompt"], "pending": p, "rule": p["rule"]}
        if p["kind"] == "random_zone":
            out["dice"] = [view_dice.dice_rescue(s.data, "roll")]
        if "options" in p:
            out["choices"] = p["options"]
        return out
    if s.phase == "advance":
        out = {**base, "actions": actions, "prompt": f"Round {s.round}: advance the episode track."}
        reveal = villains_to_reveal(s)    # for villain cards drawn from the table's own decks
        if reveal:
            out["villains"] = [{"level": r["level"], "deck": [
                {"id": v, "title": s.data.villains[v].name} for v in r["deck"]]} for r in reveal]
        return out
    if s.phase in ("hero", "hero_end"):
        return _hero_phase(s, base, actions, hero_actions)
    if s.phase == "crash":
        waiting = [h for h in s.heroes if h.crashed and not h.rescued]
        return {**base, "actions": actions, "player": waiting[0].id,
                "heroes": [h.id for h in waiting], "dice": [view_dice.dice_crash(s.data, waiting[0].id)],
                "prompt": f"{waiting[0].name} crashed and was not rescued: roll the crash die "
                          "(on 1+, take 1 and roll again).", "rule": R_HERO_END}
    if s.phase == "training":
        waiting = [h for h in s.heroes if not h.done]
        left = {h.id: training.left(s.data, h) for h in s.heroes}
        offered = {h.id: _training_choices(s, h) for h in waiting}
        return {**base, "player": waiting[0].id if waiting else None, "actions": actions,
                "confidence": left, "heroes": [h.id for h in waiting], "training": offered,
                # what each may do in brackets: spoken, and left to the phones' own buttons on
                # the screens, where four heroes' lists would push the board off the table's
                "prompt": "Training Phase: " + ", ".join(
                    f"{h.name} ({left[h.id]} confidence: {_training_steps(offered[h.id])})"
                    for h in waiting) + ". Each taps done when finished."}
    if s.phase == "villain":
        # a physical event card is named from those the deck's build lets come up now
        deck = [{"id": c, "title": s.data.events[c].name, "level": s.data.events[c].level}
                for c in revealable(s)]
        out = {**base, "actions": actions, "prompt": "Villain Phase: reveal the top event card.",
               "deck_name": "event", "deck_action": "reveal", "deck": deck,
               "deck_count": len(s.decks["event"])}
        boss = bosses.revealable(s)     # Omni-Man's own deck, revealed with the event card
        if boss:
            out["boss_deck"] = [{"id": c, "title": s.data.boss_events[c].name} for c in boss]
            out["prompt"] = (f"Villain Phase: reveal the top event card, then "
                             f"{s.boss.name}'s own event card.")
        return out
    return {**base, "actions": [], "prompt": ""}


def _hero_phase(s: InvincibleState, base: dict, actions: list[str],
                hero_actions: dict[str, list[str]]) -> dict[str, Any]:
    heroes = [_hero_row(s, h, hero_actions) for h in s.heroes]
    every = [_resolving(s, x) for x in s.resolutions.values()]
    r = every[0] if every else None
    if r is not None:
        prompt = " ".join(
            f"{s.hero(x['hero']).name}: resolve {x['name']}: "
            + ("; ".join(st["hint"] + (f" ({st['not_yet']})" if st["not_yet"] else "")
                         for st in x["steps"]))
            + " (tap a choice" + (", or skip what the card lets you skip)." if any(
                st["skip"] for st in x["steps"]) else ").") for x in every)
        # 'one hero may keep pulling while another has already finished': nor do the others wait
        # for a power resolving
        busy = {x["hero"] for x in every}
        others = [h for h in heroes if not h["finished"] and h["actions"] and h["hero"] not in busy]
        if others:
            prompt += " Meanwhile " + _hero_steps(s, others, True)
    else:
        prompt = "Hero Phase: " + _hero_steps(s, [h for h in heroes if not h["finished"]],
                                              bool(hero_actions))
    return {**base, "actions": actions, "prompt": prompt, "heroes": heroes, "resolving": r,
            "resolutions": every,
            "dice": view_dice.crash_rescue_dice(s), "player": r["hero"] if r else None}


def _hero_row(s: InvincibleState, h: HeroState, hero_actions: dict[str, list[str]]) -> dict[str, Any]:
    """A hero's share of the Hero Phase; ``done_closed``: while they may not stop yet (their own
    power resolving: 'each power must fully resolve before the next begins'), the refusal a
    "done" would get, so a phone shows why instead of a Done it would only refuse."""
    row = {"hero": h.id, "name": h.name, "actions": hero_actions.get(h.id, []),
           "finished": finished(h), "crashed": h.crashed and not h.rescued}
    refusal = (DONE.refusal(s, h) if hero_actions and not row["finished"]
               and "done" not in row["actions"] else None)
    if refusal is not None:
        row["done_closed"] = {"reason": refusal.reason, "rule": refusal.rule}
    return row


def _hero_steps(s: InvincibleState, active: list[dict[str, Any]], listed: bool) -> str:
    """What each hero still acting may do, in words (_step). ``listed``: each hero's moves are
    known (not while hero time's powers finish)."""
    if not active:
        return "every hero has stopped."
    if not listed:
        return ", ".join(h["name"] for h in active) + " pull and play cubes, then done."
    groups: dict[str, list[str]] = {}
    for row in active:
        groups.setdefault(_step(s, row), []).append(row["name"])
    return "; ".join(f"{', '.join(names)} {step}" for step, names in groups.items()) + "."


def _step(s: InvincibleState, row: dict[str, Any]) -> str:
    """Pull and play; play or drop the ready cubes, then pull again where PULL's other needs
    hold ('All three cubes from a pull must be either played or dropped before you pull again');
    or only stop. From the hero's open moves: a hero told "pull" with cubes ready was refused."""
    acts = set(row["actions"])
    if "pull" in acts:
        return "pull and play cubes, then done"
    if not acts & {"play", "drop", "defiance"}:
        return "can only stop (done)"
    then = "pull again or done" if pulls_once_cleared(s, s.hero(row["hero"])) else "done"
    return f"{'play or drop' if 'play' in acts else 'drop'} the ready cubes, then {then}"


def _not_yet(r: dict[str, Any], steps: list[dict[str, Any]], i: int) -> str:
    """Why step ``i`` of a power resolving has no answer now, in the prompt's words."""
    if steps[i]["options"]:
        return ""
    if steps[i]["kind"] == card_rules.REPEAT:
        return "after the rest"
    if r["ordered"] or card_rules.waits(r["steps"], i):
        return "in the printed order"
    return "nothing in range yet"


def _resolving(s: InvincibleState, r: dict[str, Any]) -> dict[str, Any]:
    """A power resolving with, for each step, the answers the card leaves open now, and why
    there are none (``not_yet``) where there are none."""
    me, open_now = s.hero(r["hero"]), resolve.open_steps(s, r["hero"])
    steps = [{**st, "index": i, "options": choices.options(s, me, st, r["ranged"])
              if i in open_now else []} for i, st in enumerate(r["steps"])]
    return {**r, "steps": [{**st, "not_yet": _not_yet(r, steps, i)} for i, st in enumerate(steps)]}


def reminders(s: InvincibleState) -> list[dict[str, str]]:
    d = s.data
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
            if DEFIANCE.open_for(s, h):          # not once stopped, nor while it must wait
                out.append({"text": f"{h.name} may flip defiance to set this pull aside and pull "
                                    "three fresh cubes.", "rule": R_DEFIANCE})
        out.append({"text": "Play or drop all three cubes of a pull before pulling again.",
                    "rule": R_PULL})
        if s.timer is not None:
            out.append({"text": "Hero time: when it runs out the phase ends at once; cubes in "
                                "ready areas count as dropped.", "rule": R_HERO_TIME})
    if s.phase == "training":
        for h in s.heroes:
            over = -training.left(d, h)
            if over > 0:      # learned past the assumed confidence (moves_training.unchecked_cost)
                out.append({"text": f"{h.name} has learned {over} confidence past the "
                                    "companion's count: those costs are assumed, not printed, "
                                    "and were not checked.", "rule": R_LEARN})
            out.extend({"text": why, "rule": R_LEARN}
                       for why in slot_colours.placement_reminders(d, h))
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


def to_json(s: InvincibleState, before: tuple[InvincibleState, dict] | None = None) -> dict[str, Any]:
    """The state as JSON; ``before``: another state and its JSON, whose heroes' JSON is reused
    for every hero record the two share (see ``_heroes``)."""
    d = s.data
    ep = d.episodes[s.episode]
    track = [{"space": i + 1, "icons": list(icons), "current": i == s.space}
             for i, icons in enumerate(s.track)]
    return {
        "episode": {"number": s.episode, "name": ep.name, "win": ep.win_text,
                    "bonus": ep.bonus.get("text", ""), "bonus_claimed": s.episode_bonus},
        "difficulty": s.difficulty, "solo": s.solo, "hero_count": s.hero_count,
        "round": s.round, "phase": s.phase, "track": track,
        "track_left": len(s.track) - 1 - s.space,
        "zones": [_zone(s, z) for z in s.zones], "hq": [h.id for h in s.heroes if h.zone == HQ],
        "heroes": _heroes(s, before),
        "shared_hand": [_card(d, c) for c in s.shared_hand],
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
        "resolving": _resolving(s, s.resolving) if s.resolutions else None,
        "resolutions": [_resolving(s, r) for r in s.resolutions.values()],
        "pending": s.pending, "bubble": s.bubble, "boss": bosses.json_of(s),
        "drone": card_powers.drone_on(s), "autosave": list(s.autosave),
        "experimental": [{"id": c, "name": d.powers[c].name} for c in s.experimental],
        "hero_time": None if s.hero_time is None else {
            "name": "hero_time", "seconds": s.hero_time,
            "expired": bool(s.timer and s.timer.expired)},
        "score": score(s), "result": s.result, "campaign": s.campaign,
        "helper_gained": s.helper_gained, "log": list(s.log),
        "villain_report": list(s.villain_report),
    }


def _zone(s: InvincibleState, z) -> dict[str, Any]:
    return {
        "name": z.name, "civilians": {"safety": z.safety, "danger": z.danger, "dead": z.dead},
        "minions": z.minions,
        "villains": [None if v is None else {
            "id": v.id, "name": v.name, "level": v.level, "health": v.health,
            "damage": v.damage, "remaining": max(0, v.health - v.damage),
            "thwart": v.thwart, "thwart_spaces": v.thwart_spaces,
            "fully_thwarted": v.thwart >= v.thwart_spaces > 0,
            "text": s.data.villains[v.id].text} for v in z.villains],
        "heroes": [h.id for h in s.heroes if h.zone == z.name],
    }


def _heroes(s: InvincibleState, before: tuple[InvincibleState, dict] | None) -> list[dict]:
    """Each hero's JSON. A move copies only the heroes it changes (state.py, ``own_hero``), and
    a hero's JSON is made of its record and the game's data alone, so a record ``before``'s
    state holds too keeps the JSON made of it there. Both states are alive, so a record's id is
    its own."""
    if before is None or before[0].data is not s.data:
        return [_hero(s, h) for h in s.heroes]
    made = {id(h): j for h, j in zip(before[0].heroes, before[1]["heroes"])}
    return [made.get(id(h)) or _hero(s, h) for h in s.heroes]


def _hero(s: InvincibleState, h) -> dict[str, Any]:
    d = s.data
    return {
        "id": h.id, "name": h.name, "player": h.player, "zone": h.zone,
        "health": h.max_health - h.damage, "max_health": h.max_health, "damage": h.damage,
        "crashed": h.crashed, "rescued": h.rescued, "done": h.done, "can_pull": h.can_pull,
        "defiance": "face up" if h.defiance else "face down",
        "black_cubes": black_count(h), "crash_at": d.limits["crash_black"],
        "bag": dict(h.bag), "bag_count": sum(h.bag.values()), "ready": list(h.ready),
        "dropped": list(h.dropped), "pulls": h.pulls,
        "confidence": training.confidence(d, h), "confidence_left": training.left(d, h),
        "cube_gained": h.cube_gained,
        # what Combo, the repeats and Turn the Tide count (card_rules.py), shown for the table
        "types_filled": sorted({d.powers[p.power].type for p in h.powers.values()
                                if p.filled and d.powers[p.power].type != "none"}),
        "civilians_rescued": h.rescued_civilians,
        "powers": {slot: {"card": p.card, "name": d.powers[p.power].name,
                          "kind": d.powers[p.power].kind,
                          "symbols": list(d.powers[p.power].symbols), "cubes": list(p.cubes),
                          "filled": p.filled, "strength": p.strength,
                          "confidence": d.powers[p.power].confidence,
                          "effects": list(d.powers[p.power].hints)}
                   for slot, p in h.powers.items()},
        "hand": [_card(d, c) for c in h.hand],
    }


def _event(d, event_id: str) -> dict:
    e = d.events[event_id]
    return {"id": e.id, "name": e.name, "level": e.level, "minions": e.minions,
            "villains": [dict(a) for a in e.villains]}


def _villain(d, s, villain_id: str) -> dict:
    v = d.villains[villain_id]
    return {"id": v.id, "name": v.name, "level": v.level, "zone": v.zone,
            "health": v.health_for(s.hero_count), "thwart": v.thwart, "text": v.text}


def _training_steps(offered: dict[str, Any]) -> str:
    """What a hero may still do in the Training Phase, in words, from what its phone offers."""
    steps = [words for key, words in (
        ("learn", "learn a power"), ("punch", "take Learn By Punching"), ("cube", "gain a cube"))
        if offered[key]]
    if offered["arrange"] or offered["discard"]:
        steps.append(" or ".join(w for key, w in (("arrange", "rearrange"), ("discard", "discard"))
                                 if offered[key]) + " powers")
    if not steps:
        return "can only finish"
    return "may " + (", ".join(steps[:-1]) + ", or " + steps[-1] if len(steps) > 1 else steps[0])


def _training_choices(s: InvincibleState, h) -> dict[str, Any]:
    """What ``h`` may do now in the Training Phase, for the phones' buttons: the (card, slot)
    pairs it can learn (those the assumed numbers would forbid are still accepted, with a
    reminder, but not offered), Learn By Punching's cards to discard and slots, the (card,
    colour) pairs for the one cube, the learned powers it may discard, and the swaps it may make
    (each pair once, one side at least holding a power: two empty places change nothing)."""
    learn = training.learnable(s, h) if training.LEARN.refusal(s, h) is None else []
    punch = training.PUNCH_MOVE.open_for(s, h)
    cube = training.cube_choices(s, h) if training.TRAIN_CUBE.open_for(s, h) else []
    discard = training.learned(s, h) if training.DISCARD_POWER.open_for(s, h) else []
    swaps = training.arrangements(s, h) if training.ARRANGE.open_for(s, h) else []
    return {"learn": [{"card": c, "slot": slot} for c, slot in learn],
            "punch": ({"discard": list(dict.fromkeys(s.hand_of(h))), "slots": training.punch_slots(s)}
                      if punch else None),
            "cube": [{"card": c, "colour": colour} for c, colour in cube],
            # how many of its refill cards it may take from the Ultimate deck (full game only)
            "ultimates": 0 if s.data.episodes[s.episode].fixed_order else 2 if s.solo else 1,
            "discard": discard,
            "arrange": [[a, b] for a, b in swaps if a < b and (a in h.powers or b in h.powers)]}


def _card(d, card: str) -> dict:
    p = d.powers[power_id(card)]
    return {"card": card, "name": p.name, "kind": p.kind, "cost": p.cost,
            "colours": list(p.colours), "symbols": list(p.symbols), "confidence": p.confidence,
            "effects": list(p.hints)}
