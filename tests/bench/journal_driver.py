"""The part of bench_journal.py that runs inside a tree's own interpreter (``PYTHONPATH`` set to
this tree or to the code before, unpacked from a git ref), so both are measured by the same
driver. Prints one JSON object. Uses only what both trees offer: Journal, Session, Catalog.

    journal_driver.py submit DIR ROUNDS BLOCK   raw SQLite and Session.submit, block by block
    journal_driver.py build PATH DEPTH          a long game of random moves, undos and timers
    journal_driver.py start PATH [memory]       open it as start-up does: seconds, or bytes held
    journal_driver.py raw DIR N                 raw SQLite alone (the reference of the HTTP runs)
"""

from __future__ import annotations

import gc
import json
import random
import sqlite3
import sys
import time
from pathlib import Path

from companion.actions import Action
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session

ADD = Action("timer.add", data={"name": "turn", "seconds": 1})
PAYLOAD = json.dumps(dict(ADD.stamped(1.0e9).to_json(), at=1764590000.123456), sort_keys=True)


def steady(db: sqlite3.Connection) -> None:
    """Past the write-ahead log's first checkpoint, as a service is minutes after it starts.
    Until the log has grown to SQLite's checkpoint size (1,000 pages) each commit makes the file
    longer, and its fsync then writes the file's size too: here 3 to 10 times slower (ext4 on a
    virtual disk); after it, commits write over the log's first pages again."""
    db.execute("CREATE TABLE IF NOT EXISTS bench_scratch (x BLOB)")
    db.execute("INSERT INTO bench_scratch VALUES (zeroblob(4400000))")
    db.execute("DROP TABLE bench_scratch")


class Raw:
    """The reference: one row the size of an entry per transaction, the journal's pragmas, the
    journal's two tables (an entry refers to its game), the same disk, its log as steady."""

    def __init__(self, path: Path):
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
        self.db.execute("INSERT INTO games VALUES (1)")
        self.db.execute("CREATE TABLE entries (seq INTEGER PRIMARY KEY, game_id INTEGER NOT NULL "
                        "REFERENCES games(id), kind TEXT, payload TEXT, at REAL, crc INTEGER)")
        steady(self.db)
        self.seq = 0

    def block(self, n: int) -> None:
        for _ in range(n):
            self.seq += 1
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT INTO entries VALUES (?,?,?,?,?,?)",
                            (self.seq, 1, "action", PAYLOAD, 1.0, 0))
            self.db.execute("COMMIT")


def timed(block, n: int) -> dict:
    wall, cpu = time.perf_counter(), time.process_time()
    block(n)
    return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "n": n}


class Clock:
    """The session's clock: half a second on with every action, or the time the engine's random
    player gave its action (an expiry at its deadline), as the conformance test does."""

    def __init__(self):
        self.now = 1764590000.0

    def __call__(self) -> float:
        return self.now

    def follow(self, action: Action) -> Action:
        self.now = action.at if action.at is not None else self.now + 0.5
        return Action(action.type, action.player, action.data, "bench")


def moves_block(session: Session, clock: Clock, rng: random.Random, game: str):
    """Random legal moves of ``game`` (a new game whenever one ends, not counted)."""
    engine = session.catalog(game)

    def run(n: int) -> None:
        for _ in range(n):
            state = session._top().game
            if engine.outcome(state)["status"] != "playing":
                session.start(game, engine.sample_options(rng), seed=rng.randrange(1 << 30))
                state = session._top().game
            session.submit(clock.follow(engine.sample_action(state, rng)))
    return run


def submit(folder: Path, rounds: int, block: int) -> dict:
    raw = Raw(folder / "raw.sqlite3")
    out: dict = {"raw": [], "timer.add": [], "invincible moves": [], "Journal.append": []}
    with Journal(folder / "timers.sqlite3") as j1, Journal(folder / "moves.sqlite3") as j2, \
            Journal(folder / "appends.sqlite3") as j3:
        for journal in (j1, j2, j3):
            steady(journal._conn())
        timers = Session(j1, Catalog())
        timers.start("incredibles", {"players": ["dash", "violet"]}, seed=1)
        timers.submit(Action("timer.start", data={"name": "turn", "seconds": 3600}))
        clock = Clock()
        moves = Session(j2, Catalog(), clock=clock)
        rng = random.Random(5)
        moves.start("invincible", Catalog()("invincible").sample_options(rng), seed=5)
        play = moves_block(moves, clock, rng, "invincible")
        # The journal alone: timer.add's entry appended with no session around it (what the
        # session's rules, undo history and view may add on top of it is the rest).
        game_id = Session(j3, Catalog()).start("incredibles", {"players": ["dash"]}, seed=1)["game_id"]
        entry = ADD.stamped(1.0e9).to_json()

        def append(n: int) -> None:
            for _ in range(n):
                j3.append(game_id, "action", entry, 1.0e9)

        view = timer_views(timers, entry)
        if view is not None:
            out["view"] = []
        play(20)
        raw.block(20)
        for _ in range(rounds):       # interleaved, so a busy moment of the disk hits each
            out["raw"].append(timed(raw.block, block))
            out["timer.add"].append(timed(lambda n: [timers.submit(ADD) for _ in range(n)], block))
            out["invincible moves"].append(timed(play, block))
            out["Journal.append"].append(timed(append, block))
            if view is not None:
                out["view"].append(timed(view, block))
    return out


def timer_views(session: Session, entry: dict):
    """A block making the view of a timer.add change on ``session``'s table, as the session
    makes it once per change for the answer and every stream (the game's part kept from the
    last change, the head and tail encoded anew); None for code before companion/views.py."""
    import companion
    here = Path(companion.__file__).parent
    if not (here / "views.py").exists():     # (the editable install would find this tree's)
        return None
    from companion.views import Views
    views, record, engine = Views(), session._record, session._engine

    def run(n: int) -> None:
        table = session._top()
        for seq in range(n):
            views.change(seq, record, engine, table, {"seq": seq, "action": entry}, [], 1.0e9)
    return run


def build(path: Path, depth: int) -> dict:
    """A long game of Invincible, its largest state, ``depth`` effective actions deep: random
    moves, and once the game has ended the table's timer (timer.add), the timer running
    throughout; an undo now and then (8 in 100 entries), so its history is a real one."""
    catalog = Catalog()
    engine = catalog("invincible")
    rng = random.Random(11)
    started = time.perf_counter()
    clock = Clock()
    entries = 1
    with Journal(path) as journal:
        session = Session(journal, catalog, clock=clock)
        session.start("invincible", engine.sample_options(rng), seed=11)
        session.submit(Action("timer.start", data={"name": "turn", "seconds": 3600}))
        undoable = 1
        while undoable < depth:
            entries += 1
            state = session._top().game
            over = engine.outcome(state)["status"] != "playing"
            roll = rng.random()
            if undoable and roll < 0.08:
                session.submit(clock.follow(Action("undo")))
                undoable -= 1
                continue
            session.submit(clock.follow(ADD if over or roll < 0.3 else
                                        engine.sample_action(state, rng)))
            undoable += 1
    return {"seconds": time.perf_counter() - started, "depth": undoable, "entries": entries}


def start(path: Path, memory: bool) -> dict:
    """Start-up as `serve` does it: open the journal and replay the game in progress."""
    if memory:
        import tracemalloc
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    journal = Journal(path)
    session = Session(journal, Catalog())
    out = {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
           "seq": session.view()["seq"]}
    if memory:
        gc.collect()
        out["held"] = tracemalloc.get_traced_memory()[0] - before
    journal.close()
    return out


def raw_only(folder: Path, n: int) -> dict:
    raw = Raw(folder / "raw.sqlite3")
    raw.block(10)
    return timed(raw.block, n)


if __name__ == "__main__":
    mode, where = sys.argv[1], Path(sys.argv[2])
    if mode == "submit":
        result = submit(where, int(sys.argv[3]), int(sys.argv[4]))
    elif mode == "build":
        result = build(where, int(sys.argv[3]))
    elif mode == "start":
        result = start(where, len(sys.argv) > 3)
    else:
        result = raw_only(where, int(sys.argv[3]))
    print(json.dumps(result))
