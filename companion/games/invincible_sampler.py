"""Random legal play for the conformance test: short games that reach both a win and a loss.

The table's players are played by a hasty, somewhat sensible robot: it pulls a couple of times,
plays cubes where they fit, hits what stands in its zone, and sometimes lets hero time run out.
"""

from __future__ import annotations

import random
from typing import Any

from companion.actions import Action
from companion.errors import IllegalAction
from companion.games import invincible_board as board
from companion.games import invincible_training as training
from companion.games.invincible_data import InvincibleData
from companion.games.invincible_hero_phase import WILD
from companion.games.invincible_state import HERO_TIMER, HQ, InvincibleState

PULL_AGAIN = 0.35   # after the first pull: enough to crash now and then, short games still


def sample_options(d: InvincibleData, rng: random.Random) -> dict[str, Any]:
    solo = rng.random() < 0.25
    heroes = list(d.heroes)
    rng.shuffle(heroes)
    count = 2 if solo else rng.randint(2, min(4, len(heroes)))
    options: dict[str, Any] = {"heroes": heroes[:count], "solo": solo,
                               "episode": rng.choice(sorted(d.episodes)),
                               "difficulty": rng.choice(["easy", "normal", "hardcore"])}
    if rng.random() < 0.5:
        options["hero_time"] = (rng.choice(list(d.hero_time_minutes)) if rng.random() < 0.8
                                else {"seconds": rng.randint(30, 600)})
    if rng.random() < 0.3:
        options["helpers"] = rng.sample(sorted(d.helpers), rng.randint(0, 2))
    if rng.random() < 0.3:
        options["challenges"] = rng.sample(sorted(d.challenges), rng.randint(1, 2))
    return options


def sample_action(engine, s: InvincibleState, rng: random.Random) -> Action:
    d = engine.data
    if s.result is not None:
        raise IllegalAction("the game is over")
    p = s.pending
    if p is not None:
        if p["kind"] == "manual":
            return Action("resolved")
        if p["kind"] == "contingency":
            if rng.random() < 0.3:
                chosen = rng.sample(p["options"], min(len(p["options"]), rng.randint(1, p["max"])))
                return Action("use_helper", data={"helper": p["helper"], "cancel": chosen})
            return Action("resolved")
        if p["kind"] == "random_zone":
            return Action("roll", data={"face": rng.choice(d.rescue_die).id})
        key = "villain" if p["kind"] == "discard" else "zone"
        return Action("choose", data={key: rng.choice(p["options"])})
    if s.phase == "advance":
        return Action("advance")
    if s.phase == "villain":
        return Action("reveal")
    if s.phase == "crash":
        h = next(h for h in s.heroes if h.crashed and not h.rescued)
        faces = _crash_faces(d, rng)
        if rng.random() < 0.5:
            faces = faces[:1]      # one roll at a time, as a camera reads them
        return Action("crash_roll", data={"hero": h.id, "faces": faces})
    if s.phase == "training":
        return _training(d, s, rng)
    if s.phase == "hero_end":
        return Action("resolved", data={"hero": s.resolving["hero"]})
    return _hero(d, s, rng)


def _crash_faces(d, rng) -> list[str]:
    faces = [rng.choice(d.crash_die)]
    while faces[-1].again:
        faces.append(rng.choice(d.crash_die))
    return [f.id for f in faces]


def _hero(d, s: InvincibleState, rng) -> Action:
    t = s.timer
    if t is not None and t.running and rng.random() < 0.01:
        # hero time runs out: the clock's expiry, stamped with the moment it is due
        return Action("timer.expire", data={"name": HERO_TIMER}, at=t.deadline())
    if t is not None and not t.running and not t.expired and s.resolving is None:
        return Action("timer.resume", data={"name": HERO_TIMER})
    if t is not None and t.running and rng.random() < 0.005:
        return Action("timer.pause", data={"name": HERO_TIMER})
    if s.resolving is not None:
        return _resolve(d, s, rng)
    active = [h for h in s.heroes if not h.done and not (h.crashed and not h.rescued)]
    if not active:  # only crashed heroes left, who may still drop or stop
        h = next(h for h in s.heroes if not h.done)
        return Action("done", data={"hero": h.id})
    h = rng.choice(active)
    if (h.ready and h.defiance and not h.crashed and h.last_pull and sum(h.bag.values())
            and sorted(h.ready) == sorted(h.last_pull) and rng.random() < 0.1):
        return Action("defiance", data={"hero": h.id})
    if h.ready:
        cube = rng.choice(h.ready)
        slots = _fits(d, h, cube)
        if slots and rng.random() < 0.9:
            return Action("play", data={"hero": h.id, "cube": cube, "power": rng.choice(slots)})
        return Action("drop", data={"hero": h.id, "cube": cube})
    if h.zone == HQ or (not _enemies(s, h.zone) and rng.random() < 0.4):
        targets = [z for z in d.zones if _enemies(s, z)] or list(d.zones)
        to = rng.choice(targets)
        if h.zone != HQ and not board.adjacent(d, h.zone, to):
            to = HQ if rng.random() < 0.3 else d.zones[1]
        if to != h.zone:
            return Action("move", data={"hero": h.id, "to": to})
    keep_going = rng.random() < (0.5 if h.pulls == 0 else PULL_AGAIN)
    if h.can_pull and not h.crashed and sum(h.bag.values()) and keep_going:
        return Action("pull", data={"hero": h.id})
    return Action("done", data={"hero": h.id})


def _fits(d, h, cube: str) -> list[str]:
    out = []
    for slot, p in h.powers.items():
        if p.filled:
            continue
        if slot.startswith("under:") and not (h.powers.get(slot[6:]) and h.powers[slot[6:]].filled):
            continue
        power = d.powers[p.power]
        if any(c is None and (cube in WILD or power.symbols[i] == cube) for i, c in enumerate(p.cubes)):
            out.append(slot)
    return out


def _enemies(s, zone: str) -> bool:
    z = s.zone(zone)
    return bool(z.minions or any(v is not None for v in z.villains))


def _resolve(d, s: InvincibleState, rng) -> Action:
    r = s.resolving
    h = s.hero(r["hero"])
    roll = rng.random()
    if roll < 0.55 and h.zone != HQ:
        crashed = [x for x in s.heroes if x.crashed and not x.rescued and x.zone == h.zone]
        if crashed and rng.random() < 0.5:
            return Action("rescue", data={"hero": h.id, "crashed": crashed[0].id,
                                          "face": rng.choice(d.rescue_die).id})
        z = s.zone(h.zone)
        targets = [v for v in z.villains if v is not None
                   and not (d.villains[v.id].immune_with_minions and z.minions)]
        if targets:
            v = rng.choice(targets)
            if rng.random() < 0.2 and v.thwart < v.thwart_spaces:
                return Action("thwart", data={"hero": h.id, "villain": v.id})
            return Action("damage", data={"hero": h.id, "target": v.id,
                                          "amount": rng.randint(2, 8), "power": r["slot"]})
        if z.minions:
            return Action("damage", data={"hero": h.id, "target": "minion", "zone": z.name})
        if z.danger and rng.random() < 0.7:
            return Action("rescue", data={"hero": h.id, "zone": z.name})
    if roll < 0.6 and h.damage:
        return Action("heal", data={"hero": h.id, "amount": 1})
    return Action("resolved", data={"hero": h.id})


def _training(d, s: InvincibleState, rng) -> Action:
    h = next(h for h in s.heroes if not h.done)
    cards = training.hand(s, h)
    roll = rng.random()
    if cards and roll < 0.35:
        card = rng.choice(cards)
        power = d.powers[training.power_id(card)]
        if power.cost <= training.left(d, h):
            slot = _learn_slot(d, h, power)
            if slot is not None:
                return Action("learn", data={"hero": h.id, "card": card, "slot": slot})
    if cards and roll < 0.5 and not h.cube_gained:
        card = rng.choice(cards)
        power = d.powers[training.power_id(card)]
        colour = rng.choice(power.colours)
        if s.supply.get(colour, 0) > 0:
            return Action("train_cube", data={"hero": h.id, "discard": card, "colour": colour})
    if cards and roll < 0.55 and s.punch_left and not any(
            p.power == "learn-by-punching" for p in h.powers.values()):
        return Action("punch", data={"hero": h.id, "discard": rng.choice(cards), "slot": "flex2"})
    ultimates = 0 if d.episodes[s.episode].fixed_order else rng.randint(0, 1)
    return Action("done", data={"hero": h.id, "ultimates": ultimates})


def _learn_slot(d, h, power) -> str | None:
    if power.kind == "ultimate":
        for slot, p in h.powers.items():
            sup = d.powers[p.power]
            if sup.kind == "super" and set(sup.colours) & set(power.colours):
                return slot
        return None
    for colour in power.colours:
        if colour in d.colored_slots:
            return colour
    return "flex1"

