"""The quick answers the random player, expect and the move table ask of every state (issue 17's
speed work) agree with the full rules they stand for, on every state of random games: which
cubes fit which powers, whether a resolving power has an open step, which zones a power reaches.
A shortcut that drifted from the rule would play other games than the rule allows."""

import random

from companion.games.invincible import board, card_powers, cube_fit, resolve
from companion.games.invincible.data import CUBES
from companion.games.invincible.state import HQ
from companion.rng import rng_for
from invincible_helpers import engine  # noqa: F401 (fixtures)


def _states(engine, games):
    for seed in range(games):
        rng = random.Random(seed)
        state = engine.setup(engine.sample_options(rng), rng_for(seed, "setup"))
        step = 0
        while engine.outcome(state)["status"] == "playing":
            yield state
            state = engine.apply(state, engine.sample_action(state, rng), rng_for(seed, step))
            step += 1


def test_the_quick_answers_agree_with_the_rules(engine):
    checked = {"fit": 0, "open": 0, "reach": 0}
    for s in _states(engine, 25):
        for h in s.heroes:
            # 'black cubes are wild': fit gives the symbol a cube would cover, or its refusal
            for cube in CUBES:
                full = [slot for slot in h.powers
                        if cube_fit.fit(s, h, cube, slot).__class__ is int]
                assert cube_fit.fitting(s, h, cube) == full, (cube, h.id)
            assert cube_fit.can_play(s, h) == any(cube_fit.fitting(s, h, c) for c in h.ready)
            checked["fit"] += 1
            # 'it can only affect your own zone'; Ranged 'lets a power reach into an adjacent
            # zone'; 'While at Guardians HQ, you can't target anything in any zone'
            for ranged in (False, True):
                direct = [] if h.zone == HQ else [
                    z for z in s.data.zones if board.in_range(s.data, h.zone, z, ranged)]
                assert list(card_powers.zones_in_reach(s, h, ranged)) == direct
                checked["reach"] += 1
        for hero in s.resolutions:
            steps = resolve.open_steps(s, hero)
            options = resolve.open_options(s, hero)
            assert resolve.has_open(s, hero) == bool(steps)
            assert list(options) == steps
            checked["open"] += 1
    # the games reached every question, often
    assert min(checked.values()) > 500, checked
