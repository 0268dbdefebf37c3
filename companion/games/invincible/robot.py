"""The random player of the conformance test, the benchmarks and the browser tests: short games
that reach both a win and a loss.

The table's players are played by a hasty, somewhat sensible robot: it pulls a couple of times,
plays cubes where they fit, hits what stands in its zone, and sometimes lets hero time run out.
What it may do it asks the moves themselves (``PULL.open_for``, ``fitting``); what it chooses is
its own.
"""

from __future__ import annotations

import random

from companion.actions import Action
from companion.games.invincible import board, choices, cube_fit, moves_pull, moves_round, resolve
from companion.games.invincible import moves_training as training
from companion.games.invincible.cards import power_id
from companion.games.invincible.sampler import crash_faces
from companion.games.invincible.state import HERO_TIMER, HQ, InvincibleState

PULL_AGAIN = 0.35   # after the first pull: enough to crash now and then, short games still


def robot(s: InvincibleState, rng: random.Random) -> Action:
    """A random action that is legal now (the game is not over)."""
    p = s.pending
    if p is not None:
        return _answer(s, rng)
    if s.phase == "advance":
        return Action("advance")
    if s.phase == "villain":
        return Action("reveal")
    if s.phase == "crash":
        h = next(h for h in s.heroes if h.crashed and not h.rescued)
        faces = crash_faces(s.data, rng)
        if rng.random() < 0.5:
            faces = faces[:1]      # one roll at a time, as a camera reads them
        return Action("crash_roll", data={"hero": h.id, "faces": faces})
    if s.phase == "training":
        return _training(s, rng)
    if s.phase == "hero_end":
        return _resolve(s, rng)
    return _hero(s, rng)


def _answer(s: InvincibleState, rng: random.Random) -> Action:
    p = s.pending
    if p["kind"] == "manual":
        return Action("resolved")
    if p["kind"] == "contingency":
        if rng.random() < 0.3:
            chosen = rng.sample(p["options"], min(len(p["options"]), rng.randint(1, p["max"])))
            return Action("use_helper", data={"helper": p["helper"], "cancel": chosen})
        return Action("resolved")
    if p["kind"] == "random_zone":
        return Action("roll", data={"face": rng.choice(s.data.rescue_die).id})
    key = "villain" if p["kind"] == "discard" else "zone"
    return Action("choose", data={key: rng.choice(p["options"])})


def _hero(s: InvincibleState, rng: random.Random) -> Action:
    t = s.timer
    if t is not None and t.running and rng.random() < 0.01:
        # hero time runs out: the clock's expiry, stamped with the moment it is due
        return Action("timer.expire", data={"name": HERO_TIMER}, at=t.deadline())
    if t is not None and not t.running and not t.expired and s.resolving is None:
        return Action("timer.resume", data={"name": HERO_TIMER})
    if t is not None and t.running and rng.random() < 0.005:
        return Action("timer.pause", data={"name": HERO_TIMER})
    # hero time: 'Heroes pull and play independently', so another hero may act meanwhile
    active = [h for h in s.heroes if not h.done and not (h.crashed and not h.rescued)
              and moves_pull.free(s, h)]
    if s.resolutions and (not active or rng.random() < 0.7):
        return _resolve(s, rng)
    if not active:  # only crashed heroes left, who may still drop or stop
        h = next(h for h in s.heroes if not h.done)
        return Action("done", data={"hero": h.id})
    # an owner's helper with effects: 'the team decides together when and how to use one'
    # usable_helpers' list, filtered first by what is cheap to ask (most helpers have no effects)
    cards = s.data.helpers
    helpers = [x for x in s.helpers if cards[x].effects and moves_round.helper_refusal(s, x) is None]
    if helpers and rng.random() < 0.1:
        return Action("use_helper", data={"helper": rng.choice(helpers),
                                          "hero": rng.choice(moves_round.helper_heroes(s))})
    h = rng.choice(active)
    if h.last_pull and moves_pull.DEFIANCE.open_for(s, h) and rng.random() < 0.1:
        return Action("defiance", data={"hero": h.id})
    if h.ready:
        cube = rng.choice(h.ready)
        slots = cube_fit.fitting(s, h, cube)
        if slots and rng.random() < 0.9:
            return Action("play", data={"hero": h.id, "cube": cube,
                                        "power": _slot(s, h, slots, rng)})
        return Action("drop", data={"hero": h.id, "cube": cube})
    # like a careful player: keep pulling while few black cubes are out, then now and then
    keep_going = rng.random() < (0.9 if cube_fit.black_count(h) < 3 else PULL_AGAIN)
    if keep_going and moves_pull.PULL.open_for(s, h):
        return Action("pull", data={"hero": h.id})
    return Action("done", data={"hero": h.id})


def _slot(s: InvincibleState, h, slots: list[str], rng: random.Random) -> str:
    """Damage where an enemy stands, a move where none does; otherwise any slot."""
    here = s.zone(h.zone) if h.zone != HQ else None
    kinds = (("damage", "explosive") if here is not None and board.enemies_in(here) else
             ("rescue",) if here is not None and here.danger else ("move",))
    powers = s.data.powers
    good = [x for x in slots if not powers[h.powers[x].power].kinds.isdisjoint(kinds)]
    return rng.choice(good if good and rng.random() < 0.8 else slots)


def _toward(s: InvincibleState, options: list[dict]) -> list[dict]:
    """Move options toward an enemy, when there are any."""
    good = [o for o in options if o.get("to") in s.data.zones and board.enemies_in(s.zone(o["to"]))]
    return good or options


def _resolve(s: InvincibleState, rng: random.Random) -> Action:
    """Answer the power resolving: mostly an open effect (damage first), now and then a skip."""
    # each power's open steps with their options, worked out once (resolve.open_steps and
    # answerable ask the same of choices.options)
    opened = {hero: resolve.open_options(s, hero) for hero in s.resolutions}
    answerable = [hero for hero, steps in opened.items() if steps]
    r = s.resolutions[rng.choice(answerable or resolve.skippable(s))]
    skippable = [i for i, st in enumerate(r["steps"]) if st["skip"]]
    if skippable and rng.random() < 0.15:
        return Action("decline", data={"hero": r["hero"], "step": rng.choice(skippable)})
    open_now = opened[r["hero"]]
    steps = list(open_now)
    if not steps:
        return Action("decline", data={"hero": r["hero"], "step": skippable[0]})
    hitting = [i for i in steps if r["steps"][i]["kind"] in ("damage", "explosive")]
    i = rng.choice(hitting) if hitting and rng.random() < 0.8 else rng.choice(steps)
    options = open_now[i]
    option = rng.choice(_toward(s, options) if rng.random() < 0.8 else options)
    if "crashed" in option and r["steps"][i]["kind"] == "rescue":
        option = {**option, "face": rng.choice(s.data.rescue_die).id}
    return Action("effect", data={"hero": r["hero"], "step": i, **option})


def _training(s: InvincibleState, rng: random.Random) -> Action:
    d = s.data
    h = next(h for h in s.heroes if not h.done)
    cards = s.hand_of(h)
    roll = rng.random()
    if cards and roll < 0.35 and training.LEARN.refusal(s, h) is None:
        card = rng.choice(cards)
        power = d.powers[power_id(card)]
        if power.cost <= training.left(d, h):
            slot = _learn_slot(s, h, power)
            if slot is not None:
                return Action("learn", data={"hero": h.id, "card": card, "slot": slot})
    if cards and roll < 0.5 and not h.cube_gained:
        card = rng.choice(cards)
        colour = rng.choice(d.powers[power_id(card)].colours)
        if s.supply.get(colour, 0) > 0:
            return Action("train_cube", data={"hero": h.id, "discard": card, "colour": colour})
    if cards and roll < 0.55 and training.PUNCH_MOVE.open_for(s, h):
        return Action("punch", data={"hero": h.id, "discard": rng.choice(cards), "slot": "flex2"})
    ultimates = 0 if d.episodes[s.episode].fixed_order else rng.randint(0, 1)
    return Action("done", data={"hero": h.id, "ultimates": ultimates})


def _learn_slot(s: InvincibleState, h, power) -> str | None:
    d = s.data
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
