"""Core figures: journaled actions per second (SQLite, WAL, synchronous=FULL, on disk),
in-memory random full games per second for every engine, the same against the code before issue
17 (``f55824e``, unpacked from git: both trees in interleaved rounds, each timed by its own
process's CPU time, ab_random_games.py) with what 4x asks an action beside what the same loop
takes with an engine that does nothing (framework_floor.py) and what each game's random draws
and argument checks add to it (required_parts.py), and what start-up after a crash pays to read the
write-ahead log frame by frame (against reading the same bytes with zlib's CRC)."""

import os
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

BEFORE = os.environ.get("CORE_BENCH_BEFORE", "f55824e")     # main before issue 17
AB_ROUNDS = int(os.environ.get("CORE_BENCH_ROUNDS", "3"))
AB_GAMES = {"incredibles": 400, "xmen-alert": 60, "invincible": 60}   # a second or so a round


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


def wal_scan_ms(frames: int = 1000) -> tuple[float, float]:
    """(ms to scan a log of ``frames`` 4 KB frames, ms for zlib.crc32 over the same bytes): a
    log of 1000 frames is as long as SQLite's automatic checkpoint lets it grow."""
    import os
    import struct
    import zlib

    from companion import journal_wal

    pages = os.urandom(4096 * frames)
    salts = (0x1234, 0x5678)
    head = struct.pack(">IIII", journal_wal.MAGIC_LE, 3007000, 4096, 1) + struct.pack(">II", *salts)
    s = journal_wal.checksum(head, False)
    out = [head + struct.pack(">II", *s)]
    for i in range(frames):
        page = pages[i * 4096:(i + 1) * 4096]
        start = struct.pack(">II", i + 1, i + 1)
        s = journal_wal.checksum(start + page, False, *s)
        out.append(start + struct.pack(">IIII", *salts, *s) + page)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "j.sqlite3-wal"
        path.write_bytes(b"".join(out))
        started = time.perf_counter()
        scan = journal_wal.scan(path)
        scanned = (time.perf_counter() - started) * 1000
        assert scan.valid == frames and scan.lost_commits == 0
        started = time.perf_counter()
        zlib.crc32(path.read_bytes())
        reference = (time.perf_counter() - started) * 1000
    return scanned, reference


def random_games_against_before(games: list[str]) -> list[tuple[str, str, str]]:
    """One row a game: random full games per second, this tree over ``BEFORE``."""
    import required_parts
    from ab_random_games import compare
    from framework_floor import NothingGame, per_action_us
    from trees import unpack

    def nothing(length: float) -> NothingGame:
        engine = NothingGame()
        engine.length = round(length)
        return engine

    old = unpack(BEFORE)
    if old is None:
        return [(f"random games against {BEFORE}", "skipped",
                 f"{BEFORE} is not in this checkout's git history (a shallow clone or a tarball): "
                 "nothing to compare with")]
    rows = []
    with old:
        for game in games:
            try:
                got = compare(Path(old.name), game, AB_GAMES.get(game, 60), AB_ROUNDS,
                              say=lambda line: None)
            except Exception as exc:    # a game the code before lacks, or fails to play
                why = (getattr(exc, "stderr", None) or str(exc)).strip().splitlines()
                rows.append((f"random games {game}: this / {BEFORE}", "skipped",
                             f"{type(exc).__name__}: {why[-1][-200:] if why else ''}"))
                continue
            was = statistics.median(r["games"] for r in got["other"])
            now = statistics.median(r["games"] for r in got["this"])
            low, high = got["range"]
            length = statistics.median(r["length"] for r in got["this"])
            budget = 1e6 / (4 * was * length)      # us an action for 4x, at today's game length
            floor = statistics.median(per_action_us(round(length), 20_000 // round(length) + 1)
                                      for _ in range(3))
            # what this game's random player draws and its moves' argument checks add to the
            # do-nothing engine's own (one shuffle, no arguments), each timed alone
            calls, draws, checks = required_parts.per_action_us(game)
            parts = draws + checks - sum(required_parts.per_action_us(nothing(length))[1:])
            rows.append((f"random games {game}: this / {BEFORE}", f"{got['games']:.2f}x",
                         f"{now:,.0f} against {was:,.0f} games/s (CPU time; {low:.2f} to "
                         f"{high:.2f}x over {AB_ROUNDS} interleaved rounds of "
                         f"{AB_GAMES.get(game, 60)} games); actions/s {got['actions']:.2f}x; "
                         f"{length:.0f} against "
                         f"{statistics.median(r['length'] for r in got['other']):.0f} actions a game; "
                         f"4x asks {budget:.1f} us an action at this length, and the loop with an "
                         f"engine that does nothing takes {floor:.1f} (framework_floor.py); this "
                         f"game's random draws ({calls:.1f} an action) and argument checks add "
                         f"{parts:.1f} (required_parts.py), leaving {budget - floor - parts:.1f} us "
                         "an action for its rules"))
    return rows


def run():
    scanned, reference = wal_scan_ms()
    rate, median_ms = journaled_actions_per_second()
    rows = [("journaled actions per second (fsync'd)", f"{rate:,.0f}/s",
             f"median {median_ms:.2f} ms per action")]
    for game in available():
        per_second, length = random_games_per_second(game)
        rows.append((f"random full games per second: {game}", f"{per_second:,.0f}/s",
                     f"{length:.0f} actions a game, in memory"))
    rows += random_games_against_before(available())
    rows.append(("start-up after a crash: reading a 4 MB write-ahead log", f"{scanned:.0f} ms",
                 f"{scanned / reference:.0f}x zlib.crc32 of the same bytes ({reference:.1f} ms); "
                 "after a clean stop there is no log"))
    return rows
