"""Core figures: journaled actions per second (SQLite, WAL, synchronous=FULL, on disk) and
in-memory random full games per second for every engine."""

import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.actions import Action
from companion.games import Catalog, available
from companion.journal import Journal
from companion.rng import rng_for
from companion.session import Session


def journaled_actions_per_second(n: int = 400) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        with Journal(Path(tmp) / "bench.sqlite3") as journal:
            session = Session(journal, Catalog())
            session.start("incredibles", {"players": ["dash"]}, seed=1)
            session.submit(Action("timer.start", data={"seconds": 3600}))
            latencies = []
            started = time.perf_counter()
            for _ in range(n):
                t = time.perf_counter()
                session.submit(Action("timer.add", data={"seconds": 1}))
                latencies.append(time.perf_counter() - t)
            elapsed = time.perf_counter() - started
    return n / elapsed, statistics.median(latencies) * 1000


def random_games_per_second(game: str, seconds: float = 3.0) -> tuple[float, float]:
    engine = Catalog()(game)
    games = actions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        rng = random.Random(games)
        state = engine.setup(engine.sample_options(rng), rng_for(games, "setup"))
        while engine.outcome(state)["status"] == "playing":
            state = engine.apply(state, engine.sample_action(state, rng), rng_for(games, actions))
            actions += 1
        games += 1
    elapsed = time.perf_counter() - started
    return games / elapsed, actions / games


def run():
    rate, median_ms = journaled_actions_per_second()
    rows = [("journaled actions per second (fsync'd)", f"{rate:,.0f}/s",
             f"median {median_ms:.2f} ms per action")]
    for game in available():
        per_second, length = random_games_per_second(game)
        rows.append((f"random full games per second: {game}", f"{per_second:,.0f}/s",
                     f"{length:.0f} actions a game, in memory"))
    return rows
