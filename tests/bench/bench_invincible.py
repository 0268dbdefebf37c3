"""Invincible engine speed: one apply, a random game, a journal replay with hero time."""

import json
import random
import tempfile
import time
from pathlib import Path

from companion.actions import Action
from companion.games import Catalog
from companion.journal import Journal
from companion.rng import rng_for
from companion.session import Session


def _game(engine, seed):
    rng = random.Random(seed)
    options = engine.sample_options(rng)
    state = engine.setup(options, rng_for(seed, "setup"))
    actions = []
    while engine.outcome(state)["status"] == "playing":
        action = engine.sample_action(state, rng)
        state = engine.apply(state, action, rng_for(seed, len(actions)))
        actions.append(action)
    return options, actions


def run():
    engine = Catalog()("invincible")
    rows = []
    started, steps = time.perf_counter(), 0
    games = 300
    for seed in range(games):
        steps += len(_game(engine, seed)[1])
    took = time.perf_counter() - started
    rows.append(("random game (sample_action + apply)", f"{took / games * 1000:.1f} ms",
                 f"{steps / games:.0f} actions per game on average"))
    rows.append(("apply one action", f"{took / steps * 1e6:.0f} us", "including the sampler"))
    sample = Path(__file__).resolve().parent.parent / "companion" / "games" / "invincible_sample_game.jsonl"
    lines = [json.loads(x) for x in sample.read_text().splitlines() if x.strip()]
    head, actions = lines[0], [Action.from_json(x) for x in lines[1:]]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        with Journal(path) as journal:
            session = Session(journal, Catalog())
            session.start("invincible", head["setup"], seed=head["seed"])
            for a in actions:
                session.submit(a)
        started = time.perf_counter()
        with Journal(path) as journal:
            Session(journal, Catalog()).view()
        rows.append(("restart: replay a journal", f"{(time.perf_counter() - started) * 1000:.0f} ms",
                     f"the {len(actions)}-action sample game from SQLite, hero time on"))
    return rows
