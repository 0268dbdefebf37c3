"""Random valid data for each Invincible move (``Move.sample``: the conformance test asks each
move that expect lists for an action it accepts), random setup options, and the random player
(robot.py) that plays whole games with them.

A hero's move samples a hero who may make it now (``HeroMove.heroes``) and a choice that move's
own checks allow; each returns None when nothing is open.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games.invincible import (
    board, choices, cube_fit, effects, moves_pull, moves_round, resolve,
)
from companion.games.invincible import moves_training as training
from companion.games.invincible.data import COLOURS, InvincibleData
from companion.games.invincible.moves_hero import EFFECTS as EFFECT_MOVES
from companion.games.invincible.state import HQ, InvincibleState

Data = dict[str, Any]


def sample_options(d: InvincibleData, rng: random.Random) -> dict[str, Any]:
    solo = rng.random() < 0.25
    heroes = list(d.heroes)
    rng.shuffle(heroes)
    count = 2 if solo else rng.randint(2, min(4, len(heroes)))
    options: dict[str, Any] = {"heroes": heroes[:count], "solo": solo,
                               # the first game's episode half the time: its three Flaxans
                               # are the win a random table reaches most often
                               "episode": (min(d.episodes) if rng.random() < 0.5
                                           else rng.choice(sorted(d.episodes))),
                               "difficulty": rng.choice(["easy", "normal", "hardcore"])}
    if rng.random() < 0.5:
        options["hero_time"] = (rng.choice(list(d.hero_time_minutes)) if rng.random() < 0.8
                                else {"seconds": rng.randint(30, 600)})
    if rng.random() < 0.3:
        options["helpers"] = rng.sample(sorted(d.helpers), rng.randint(0, 2))
    if rng.random() < 0.3:
        options["challenges"] = rng.sample(sorted(d.challenges), rng.randint(1, 2))
    return options


def crash_faces(d: InvincibleData, rng: random.Random) -> list[str]:
    """A crash roll: faces until one that is not the re-roll face."""
    faces = [rng.choice(d.crash_die)]
    while faces[-1].again:
        faces.append(rng.choice(d.crash_die))
    return [f.id for f in faces]


# -- the table's moves -------------------------------------------------------------------------------

def nothing(s: InvincibleState, rng: random.Random) -> Data:
    return {}


advance = reveal = nothing


def episode_bonus(s: InvincibleState, rng: random.Random) -> Data:
    return {"met": rng.random() < 0.5}


def choose(s: InvincibleState, rng: random.Random) -> Data:
    p = s.pending
    return {"villain" if p["kind"] == "discard" else "zone": rng.choice(p["options"])}


def roll(s: InvincibleState, rng: random.Random) -> Data:
    return {"face": rng.choice(s.data.rescue_die).id}


def use_helper(s: InvincibleState, rng: random.Random) -> Data | None:
    usable = moves_round.usable_helpers(s)
    if not usable:
        return None
    helper = rng.choice(usable)
    if s.data.helpers[helper].effects:
        return {"helper": helper, "hero": rng.choice(moves_round.helper_heroes(s))}
    if not s.data.helpers[helper].cancel_abilities:
        return {"helper": helper}
    p = s.pending
    return {"helper": helper,
            "cancel": rng.sample(p["options"], min(len(p["options"]), rng.randint(1, p["max"])))}


def effect(s: InvincibleState, rng: random.Random) -> Data | None:
    """An answer the power resolving leaves open (a crash rescue with a face of the die)."""
    heroes = resolve.answerable(s)
    if not heroes:
        return None
    r = s.resolutions[rng.choice(heroes)]
    steps = resolve.open_steps(s, r["hero"])
    i = rng.choice(steps)
    option = rng.choice(choices.options(s, s.hero(r["hero"]), r["steps"][i], r["ranged"]))
    if "crashed" in option and r["steps"][i]["kind"] == "rescue":
        option = {**option, "face": rng.choice(s.data.rescue_die).id}
    return {"hero": r["hero"], "step": i, **option}


def decline(s: InvincibleState, rng: random.Random) -> Data | None:
    heroes = resolve.skippable(s)
    if not heroes:
        return None
    r = s.resolutions[rng.choice(heroes)]
    return {"hero": r["hero"], "step": rng.choice([i for i, st in enumerate(r["steps"])
                                                   if st["skip"]])}


# -- a hero's moves ----------------------------------------------------------------------------------

def _hero(move, s: InvincibleState, rng: random.Random):
    heroes = move.heroes(s)
    return rng.choice(heroes) if heroes else None


def _for_hero(move, choose_data=None):
    """The sampler of a hero's move: a hero who may make it, and ``choose_data(s, h, rng)``."""
    def sample(s: InvincibleState, rng: random.Random) -> Data | None:
        h = _hero(move, s, rng)
        if h is None:
            return None
        return {"hero": h.id, **(choose_data(s, h, rng) if choose_data else {})}
    return sample


def _play(s, h, rng) -> Data:
    cube = rng.choice(sorted(c for c in set(h.ready) if cube_fit.fitting(s, h, c)))
    return {"cube": cube, "power": rng.choice(cube_fit.fitting(s, h, cube))}


pull = _for_hero(moves_pull.PULL)
defiance = _for_hero(moves_pull.DEFIANCE)
play = _for_hero(moves_pull.PLAY, _play)
drop = _for_hero(moves_pull.DROP, lambda s, h, rng: {"cube": rng.choice(h.ready)})
done = _for_hero(moves_pull.DONE)
crash_roll = _for_hero(moves_pull.CRASH_ROLL, lambda s, h, rng: {"faces": crash_faces(s.data, rng)})


def _pair(pairs, keys, rng) -> Data:
    return dict(zip(keys, rng.choice(pairs)))


def _finish(s, h, rng) -> Data:
    ultimates = 0 if s.data.episodes[s.episode].fixed_order else rng.randint(0, 1)
    return {"ultimates": ultimates}


TRAINING = {
    # what only assumed data forbids is played where nothing else is (accepted, reminded)
    "learn": _for_hero(training.LEARN, lambda s, h, rng: _pair(
        training.learnable(s, h) or training.learnable(s, h, lenient=True), ("card", "slot"), rng)),
    "punch": _for_hero(training.PUNCH_MOVE, lambda s, h, rng: {
        "discard": rng.choice(s.hand_of(h)), "slot": rng.choice(training.punch_slots(s))}),
    "train_cube": _for_hero(training.TRAIN_CUBE, lambda s, h, rng: _pair(
        training.cube_choices(s, h), ("discard", "colour"), rng)),
    "discard_power": _for_hero(training.DISCARD_POWER,
                               lambda s, h, rng: {"slot": rng.choice(training.learned(s, h))}),
    "arrange": _for_hero(training.ARRANGE, lambda s, h, rng: {
        "slots": list(rng.choice(training.arrangements(s, h)))}),
    "done": _for_hero(training.FINISH, _finish),
}


# -- the effects -------------------------------------------------------------------------------------

def _reach(s, h, zone) -> Data:
    """No flag from the hero's own zone, Ranged next door, a helper card's reach elsewhere."""
    if h.zone != HQ and h.zone == zone:
        return {}
    if h.zone != HQ and board.adjacent(s.data, h.zone, zone):
        return {"ranged": True}
    return {"helper": True}


def _damage(s, h, rng) -> Data:
    targets = [(v.id, z) for z, _, v in board.villains_in_play(s) if board.damageable(s, z, v.id)]
    targets += [("minion", z.name) for z in s.zones if z.minions]
    if not targets or rng.random() < 0.1:
        zone = rng.choice([z.name for z in s.zones if board.enemies_in(z)])
        return {"explosive": True, "zone": zone, "amount": rng.randint(1, 3), **_reach(s, h, zone)}
    target, zone = rng.choice(targets)
    return {"target": target, "zone": zone, "amount": rng.randint(1, 6), **_reach(s, h, zone)}


def _rescue(s, h, rng) -> Data:
    crashed = [x for x in s.heroes if effects.rescuable(x)]
    zones = [z.name for z in s.zones if z.danger > 0]
    if crashed and (not zones or rng.random() < 0.5):
        other = rng.choice(crashed)
        return {"crashed": other.id, "face": rng.choice(s.data.rescue_die).id,
                **_reach(s, h, other.zone)}
    zone = rng.choice(zones)
    return {"zone": zone, **_reach(s, h, zone)}


def _thwart(s, h, rng) -> Data:
    abilities = [a for a in s.data.episodes[s.episode].abilities if effects.ability_open(s, h, a)]
    villains = [(v.id, z) for z, _, v in board.villains_in_play(s) if v.thwart < v.thwart_spaces]
    if abilities and (not villains or rng.random() < 0.5):
        return {"ability": rng.choice(abilities)}
    vid, zone = rng.choice(villains)
    return {"villain": vid, **_reach(s, h, zone)}


def _move(s, h, rng) -> Data:
    if h.zone == HQ:
        return {"to": rng.choice(s.data.zones)}
    near = [z for z in s.data.zones if board.adjacent(s.data, h.zone, z)]
    return {"to": rng.choice([HQ, *near])}


EFFECTS = {
    "damage": _for_hero(EFFECT_MOVES["damage"], _damage),
    "rescue": _for_hero(EFFECT_MOVES["rescue"], _rescue),
    "thwart": _for_hero(EFFECT_MOVES["thwart"], _thwart),
    "heal": _for_hero(EFFECT_MOVES["heal"], lambda s, h, rng: {"amount": rng.randint(1, 3)}),
    "move": _for_hero(EFFECT_MOVES["move"], _move),
    "gain_cube": _for_hero(EFFECT_MOVES["gain_cube"],
                           lambda s, h, rng: {"colour": rng.choice(COLOURS)}),
    "strengthen": _for_hero(EFFECT_MOVES["strengthen"], lambda s, h, rng: {"power": rng.choice(
        [slot for slot, p in h.powers.items() if effects.deals_damage(s, p.power)])}),
    "confidence": _for_hero(EFFECT_MOVES["confidence"], lambda s, h, rng: {"amount": 1}),
    "endanger": lambda s, rng: {"zone": rng.choice(s.data.zones), "count": rng.randint(1, 2)},
    "hurt": _for_hero(EFFECT_MOVES["hurt"], lambda s, h, rng: {"amount": rng.randint(1, 2)}),
    "minions": lambda s, rng: {"zone": rng.choice(s.data.zones), "count": 1},
    "bubble": _for_hero(EFFECT_MOVES["bubble"]),
    "clear_power": _for_hero(EFFECT_MOVES["clear_power"], lambda s, h, rng: {"power": rng.choice(
        [slot for slot, p in h.powers.items() if any(p.cubes)])}),
}
