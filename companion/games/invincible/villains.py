"""The table's automatic procedure: advancing the episode track and the Villain Phase.

Both are a queue of small tasks in the state, run until the queue is empty, the game ends, or
the players must choose (a full center zone, a tie, a random zone to roll, an effect the
companion cannot apply by itself). A choice leaves ``state.pending``; the answer resumes the run.
A task is data (``{"do": "effect", "effect": {"endanger": 2}, ...}``) and so are the villains'
and abilities' effects it carries, from the episode file. Every function here changes a fork.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games.base import forbid
from companion.games.invincible import board, bosses, contingency
from companion.games.invincible.data_episodes import parse_icon
from companion.games.invincible.state import (
    HERO_TIMER, HQ, R_PLACE, R_VILLAIN, InvincibleState,
)
from companion.timers import Timer


def run(s: InvincibleState, rng: random.Random, now: float) -> None:
    while s.queue and s.pending is None and s.result is None:
        task = s.queue.pop(0)
        HANDLERS[task["do"]](s, task, rng, now)


def push(s: InvincibleState, *tasks: dict[str, Any]) -> None:
    """Tasks that must happen before the rest of the queue (an arrive power, a move's sequel)."""
    s.queue[:0] = list(tasks)


# -- advancing the episode ------------------------------------------------------------------------

def advance(s: InvincibleState, rng: random.Random, now: float, revealed: list[str]) -> None:
    """'Move the round marker one space along the episode card's track (in round 1, it starts on
    the first space). Each space lists icons underneath it that you resolve in order'."""
    villains = s.data.villains
    if s.round > 1:
        s.space += 1
    s.say(f"Round {s.round}: the round marker is on space {s.space + 1} of {len(s.track)}.")
    tasks = []
    wanted = list(revealed)
    for icon in s.track[s.space]:
        hardcore, words = parse_icon(icon)
        if hardcore and s.difficulty != "hardcore":
            continue  # 'Ignore these unless you're playing on hardcore difficulty'
        task = {"do": "icon", "words": words}
        if words[0] == "villain" and wanted:
            card = wanted.pop(0)
            if villains[card].level != int(words[1]):
                raise forbid(f"this space reveals a Level {words[1]} villain; "
                             f"{villains[card].name} is Level {villains[card].level}", R_PLACE)
            task["card"] = card
        tasks.append(task)
    if wanted:
        raise forbid(f"this space reveals {len(revealed) - len(wanted)} villain(s), not "
                     f"{len(revealed)}", R_PLACE)
    tasks.append({"do": "start_hero"})
    s.queue = tasks
    s.phase = "advance"
    run(s, rng, now)


def _icon(s, task, rng, now):
    words = task["words"]
    if words[0] == "villain":
        level = int(words[1])
        card = board.draw_villain(s, level, rng, task.get("card"))
        if not card:
            s.say(f"No Level {level} villain is left to place.")
            return
        s.say(f"Revealed {s.data.villains[card].name} (Level {level}).")
        s.revealed = card
        push(s, {"do": "place", "villain": card})
    elif words[0] == "minions":
        count = int(words[2])
        for zone in (s.data.zones if words[1] == "all" else [words[1]]):
            board.add_minions(s, zone, count)
    elif words[0] == "ability":
        push(s, {"do": "ability", "id": words[1]})
    elif words[0] == "boss":
        push(s, *bosses.enter(s))


def _place(s, task, rng, now):
    villain = s.data.villains[task["villain"]]
    zones = board.placement_zones(s, villain.zone)
    if not zones:
        low = board.weakest(s)
        if len(low) > 1:
            s.pending = {"kind": "discard", "villain": villain.id, "options": low, "rule": R_PLACE,
                         "prompt": f"No room for {villain.name}: choose which villain with the "
                                   "least remaining health to discard (" + ", ".join(
                                       s.data.villains[v].name for v in low) + ")."}
            return
        board.discard_from_play(s, low[0])
        zones = board.placement_zones(s, villain.zone)
    if len(zones) > 1:
        s.pending = {"kind": "zone", "villain": villain.id, "options": zones, "rule": R_PLACE,
                     "prompt": f"The {villain.zone} zone is full: choose the zone for "
                               f"{villain.name} ({' or '.join(zones)})."}
        return
    arrive(s, villain.id, zones[0])


def arrive(s: InvincibleState, villain_id: str, zone: str) -> None:
    """'Once placed, resolve the villain's arrive power (if it has one) in its zone.'"""
    board.place(s, villain_id, zone)
    villain = s.data.villains[villain_id]
    tasks = [{"do": "effect", "villain": villain_id, "effect": e, "why": f"{villain.name} arrives"}
             for e in villain.arrive]
    extra = sum(s.data.challenges[c].arrive_endanger for c in s.challenges)
    if extra:
        # Still Have a Job: 'Every villain endangers one extra civilian upon arriving'
        tasks.append({"do": "effect", "villain": villain_id, "effect": {"endanger": extra},
                      "why": "a challenge card"})
    push(s, *tasks)


def _ability(s, task, rng, now):
    ability = s.data.episodes[s.episode].abilities[task["id"]]
    spaces = ability.spaces(s.hero_count)
    if s.ability_thwart.get(ability.id, 0) >= spaces:
        # 'the next time it would act, remove the tokens instead of resolving it'
        s.ability_thwart[ability.id] = 0
        s.say(f"{ability.name} is fully thwarted: its tokens are removed instead.")
        return
    s.say(f"Episode ability: {ability.name}.")
    push(s, *({"do": "effect", "villain": None, "effect": e, "why": ability.name}
              for e in ability.effects))


def _start_hero(s, task, rng, now):
    """'if you begin a Hero Phase there, you heal 2 damage and recharge your defiance token'."""
    s.phase = "hero"
    for h in s.own_heroes():
        h.ready, h.dropped, h.last_pull = [], [], []
        h.crashed = h.rescued = h.done = False
        h.can_pull, h.pulls, h.rescued_civilians = True, 0, 0
        if h.zone == HQ:
            healed = min(s.data.limits["hq_heal"], h.damage)
            h.damage -= healed
            h.defiance = True
            s.say(f"{h.name} begins the Hero Phase at Guardians HQ: heals {healed}, defiance "
                  "recharged.")
    if s.hero_time is not None:
        s.timer = Timer(HERO_TIMER, "Hero time", s.hero_time, warn=s.data.hero_time_warn).start(now)
        s.say(f"Hero time: {board.clock_words(s.hero_time)} on the clock.")
    s.say("Hero Phase: pull cubes and fill your powers.")


# -- the Villain Phase ----------------------------------------------------------------------------

def reveal(s: InvincibleState, rng: random.Random, now: float, wanted: str | None,
           boss_card: str | None = None) -> None:
    """'Reveal the top card of the event deck and resolve its instructions from top to bottom.'"""
    deck = board.refilled(s, "event", rng, "The event deck ran out: its discard pile is "
                                           "reshuffled (assumed, not printed).")
    card = wanted if wanted is not None else deck[0]
    deck.remove(card)
    s.own_discards("event").append(card)
    s.event = card
    event = s.data.events[card]
    s.acted = []
    s.say(f"Event: {event.name}.")
    tasks: list[dict[str, Any]] = []
    # 'if a card has no minion instructions, minions simply don't act (and this area is ignored
    # if no minions are in play)'
    if event.minions and any(z.minions for z in s.zones):
        tasks.append({"do": "minions", "effect": dict(event.minions)})
    # 'resolve them one villain at a time, starting with the leftmost villain named, working
    # through all of its abilities in the order shown before moving to the next' (a card of
    # several rows included: each villain all its abilities, then the next)
    uses: dict[str, list[str]] = {}
    for act in event.villains:
        for vid in _which(s, act["which"]):
            uses.setdefault(vid, []).extend(act["use"])
    order = [v.id for _, _, v in board.villains_in_play(s)]
    for vid in sorted(uses, key=order.index):
        tasks.extend({"do": "act", "villain": vid, "ability": a} for a in uses[vid])
    tasks.extend(bosses.villain_phase(s, rng, boss_card))   # episodes 4 and 7, after the event
    tasks.append({"do": "end_villain"})
    s.queue = tasks
    if not contingency.ask(s, event.name, tasks):
        run(s, rng, now)


def _which(s: InvincibleState, which: str) -> list[str]:
    ids = [v.id for _, _, v in board.villains_in_play(s)]
    if not ids:
        return []
    if which == "all":
        return ids
    if which == "leftmost":
        return ids[:1]
    if which == "rightmost":
        return ids[-1:]
    # Such Heroic Nonsense: 'If only one villain is in play, it only uses its "leftmost and
    # rightmost villain" power once rather than twice.'
    return ids[:1] if len(ids) == 1 else [ids[0], ids[-1]]


def _minions(s, task, rng, now):
    kind, per = next(iter(task["effect"].items()))
    for z in s.zones:
        if z.minions and s.result is None:
            amount = per * z.minions
            if kind == "damage":
                board.enemy_damage(s, z.name, amount, board.minions(z.minions))
            else:
                board.endanger(s, z.name, amount, board.minions(z.minions))


def _act(s, task, rng, now):
    where = board.find_villain(s, task["villain"])
    if where is None:
        return  # defeated or discarded earlier this phase
    zone, slot = where
    v = zone.villains[slot]
    if v.id in s.hurled:
        # Hurl Into Space: 'The targeted villain skips both its strike and its power in the
        # Villain Phase ... but keeps any damage and thwart tokens already on it'
        s.say(f"{v.name} is hurled into space: its {task['ability']} is skipped.")
        return
    first = v.id not in s.acted
    s.acted.append(v.id)
    if first and v.thwart >= v.thwart_spaces > 0:
        # 'remove its thwart tokens instead of resolving the first thing it attempts to do'
        s.own_villain(v.id).thwart = 0
        s.say(f"{v.name} is fully thwarted: its {task['ability']} is skipped and the tokens "
              "are removed.")
        return
    effects = getattr(s.data.villains[v.id], task["ability"])
    s.say(f"{v.name} uses its {task['ability']}.")
    push(s, *({"do": "effect", "villain": v.id, "effect": e,
               "why": f"{v.name}'s {task['ability']}"} for e in effects))


def _end_villain(s, task, rng, now):
    s.event, s.hurled = None, []
    if s.space >= len(s.track) - 1:
        # 'You run out of time on the episode card's track.'
        s.result = {"status": "lost", "reason": "the heroes ran out of time on the episode track",
                    "rule": "Winning and Losing"}
        return
    s.round += 1
    s.phase = "advance"
    s.say("The Villain Phase ends: advance the episode.")


# -- structured effects ---------------------------------------------------------------------------

def _effect(s, task, rng, now):
    e = task["effect"]
    vid = task.get("villain")
    if vid is not None:
        where = board.find_villain(s, vid)
        if where is None:
            return
        zone = where[0].name
    else:
        zone = task.get("zone") or e.get("zone", "all")
        if zone == "random":
            s.pending = {"kind": "random_zone", "task": task, "rule": R_VILLAIN,
                         "prompt": f"{task['why']}: roll the rescue die for a random zone."}
            return
        if zone == "all":
            push(s, *({**task, "zone": z} for z in s.data.zones))
            return
    why = task["why"]
    if "manual" in e:
        s.pending = {"kind": "manual", "text": e["manual"], "zone": zone, "villain": vid,
                     "rule": R_VILLAIN,
                     "prompt": f"{why}: {e['manual']} Apply it with the effect actions, then "
                               "send resolved."}
        return
    if "move" in e:
        _move_villain(s, vid, zone, e, why)
        return
    if "minions" in e:
        board.add_minions(s, zone, e["minions"])
    if "endanger" in e:
        count = e["endanger"]
        if "leftmost" in e and zone == s.data.zones[0]:
            count = e["leftmost"]  # Flaxan Tank: 'only endangers two civilians there'
        board.endanger(s, zone, count, why)
    if "damage" in e and s.result is None:
        board.enemy_damage(s, zone, e["damage"], why, e.get("no_hero_endanger"),
                           villain=vid is not None)
        if e.get("splash") and s.result is None:
            _splash(s, vid, zone, e["damage"], why)


def _splash(s, vid, zone, amount, why):
    """Magmaniac: 'damages other villains and minions in its zone as well as any heroes'; all at
    once, so Multi-Paul 'can't be damaged while any minion shares its zone, even by an Explosive
    power that would otherwise wipe out the minions too' (nor by this)."""
    z = s.zone(zone)
    others = [v.id for v in z.villains if v is not None and v.id != vid]
    protected = [v for v in others if not board.damageable(s, zone, v)]
    if z.minions:
        s.say(f"{why} wipes out {board.minions(z.minions)} in the {zone} zone.")
        s.own_zone(zone).minions = 0
    for other in others:
        if other in protected:
            s.say(f"{s.data.villains[other].name} can't be damaged now (a minion shares its zone, "
                  "or it is hurled into space).")
        elif s.result is None:
            board.damage_villain(s, other, amount, why)


def _move_villain(s, vid, zone, e, why):
    zones = s.data.zones
    i = zones.index(zone)
    v = s.data.villains[vid]
    if e["move"] in ("left", "right"):
        j = i + (1 if e["move"] == "right" else -1)
        target = zones[j] if 0 <= j < len(zones) else None
        if target is None or board.open_slot(s.zone(target)) is None:
            # Bi-Plane: 'If this villain can't move ... it instead endangers four civilians'
            if e.get("blocked_endanger"):
                board.endanger(s, zone, e["blocked_endanger"], f"{v.name} can't move")
            else:
                s.say(f"{v.name} can't move.")
            return
        board.relocate(s, vid, target)
        s.say(f"{v.name} moves to the {target} zone.")
        return
    # Master Gator: 'If this villain can't move into the zone with the most civilians in danger
    # (because two villains are already there), or is already in that zone, it resolves the rest
    # of its power where it stands.'
    most = max(z.danger for z in s.zones)
    tied = [z.name for z in s.zones if z.danger == most]
    if zone in tied:
        return
    if len(tied) > 1:
        s.pending = {"kind": "move", "villain": vid, "options": tied, "rule": R_VILLAIN,
                     "prompt": f"{v.name} moves to the zone with the most civilians in danger: "
                               f"tie between {' and '.join(tied)}, choose one."}
        return
    finish_move(s, vid, tied[0])


def finish_move(s: InvincibleState, vid: str, target: str) -> None:
    if vid == bosses.TARGET:
        bosses.move(s, target, "the players' choice of the tied zones")
        return
    if board.open_slot(s.zone(target)) is None:
        s.say(f"{s.data.villains[vid].name} can't move into the full {target} zone: it stays.")
        return
    board.relocate(s, vid, target)
    s.say(f"{s.data.villains[vid].name} moves to the {target} zone.")


HANDLERS = {
    "icon": _icon, "place": _place, "ability": _ability, "start_hero": _start_hero,
    "minions": _minions, "act": _act, "end_villain": _end_villain, "effect": _effect,
    "boss": lambda s, task, rng, now: push(s, *bosses.step(s, task)),
}
