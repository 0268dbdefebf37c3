"""X-Men Alert engine speed: actions applied per second in random games, and one whole game.

The conformance test plays 2000 random games; these figures say how long that costs and how
much of a Raspberry Pi's time one action takes at the table (nothing, in practice).
"""

import random
import time

from companion.games import Catalog
from companion.rng import rng_for


def _play(engine, seed):
    rng = random.Random(seed)
    options = engine.sample_options(rng)
    state = engine.setup(options, rng_for(seed, "setup"))
    n = 0
    while engine.outcome(state)["status"] == "playing":
        state = engine.apply(state, engine.sample_action(state, rng), rng_for(seed, n))
        n += 1
    return n, options["advanced"]


def run():
    engine = Catalog()("xmen-alert")
    started = time.perf_counter()
    games = [_play(engine, seed) for seed in range(300)]
    elapsed = time.perf_counter() - started
    actions = sum(n for n, _ in games)
    basic = [n for n, adv in games if not adv]
    advanced = [n for n, adv in games if adv]
    state = engine.setup({"players": ["Ana", "Ben", "Chloe", "Dev"], "advanced": True,
                          "first_player": "Ana"}, rng_for(0, "setup"))
    t0 = time.perf_counter()
    for _ in range(200):
        engine.to_json(state)
        engine.expect(state)
    view_ms = (time.perf_counter() - t0) / 200 * 1000
    return [
        ("random play: actions applied per second", f"{actions / elapsed:,.0f}/s",
         "sample_action + apply, 300 games"),
        ("random game length, Basic (mean actions)", f"{sum(basic) / max(1, len(basic)):.0f}",
         f"{len(basic)} games"),
        ("random game length, Advanced (mean actions)", f"{sum(advanced) / max(1, len(advanced)):.0f}",
         f"{len(advanced)} games"),
        ("to_json + expect, 4-player Advanced state", f"{view_ms:.2f} ms", "what each view costs"),
    ]
