"""The loop every random-games figure times: seeded random games, each from ``sample_options``
and ``setup`` to its end, an action being ``sample_action`` then ``apply`` with that step's
generator, and ``outcome`` asked after each. Imported by ab_random_games.py's rounds (in the
interpreter of the tree under test, so it uses only what every tree offers) and by
framework_floor.py."""

import random
import time


def play(engine, games: int) -> tuple[int, float]:
    """(actions played, CPU seconds) for ``games`` seeded random games of ``engine``."""
    from companion.rng import rng_for
    actions = 0
    started = time.process_time()
    for g in range(games):
        rng = random.Random(g)
        state = engine.setup(engine.sample_options(rng), rng_for(g, "setup"))
        while engine.outcome(state)["status"] == "playing":
            state = engine.apply(state, engine.sample_action(state, rng), rng_for(g, actions))
            actions += 1
    return actions, time.process_time() - started
