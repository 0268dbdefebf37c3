"""Random play beyond the generic conformance test: apply never changes its input, and the
sampled options cover solo and 2 to 4 heroes, every difficulty, with and without hero time."""

import pickle
import random

from companion.rng import rng_for


def test_apply_never_mutates_its_input(engine):
    for seed in range(150):
        rng = random.Random(seed)
        state = engine.setup(engine.sample_options(rng), rng_for(seed, "setup"))
        step = 0
        while engine.outcome(state)["status"] == "playing":
            action = engine.sample_action(state, rng)
            before = pickle.dumps(state)
            nxt = engine.apply(state, action, rng_for(seed, step))
            assert pickle.dumps(state) == before, (seed, step, action)
            state, step = nxt, step + 1


def test_sampled_options_cover_every_mode(engine):
    seen = set()
    for seed in range(2000):
        o = engine.sample_options(random.Random(seed))
        mode = "solo" if o["solo"] else len(o["heroes"])
        seen.add((mode, o["difficulty"], "hero_time" in o))
    assert seen == {(m, d, t) for m in ("solo", 2, 3, 4)
                    for d in ("easy", "normal", "hardcore") for t in (True, False)}
