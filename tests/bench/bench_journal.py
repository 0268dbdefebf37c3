"""The cost of an action in the session and the journal, against raw SQLite on the same disk in
the same run, now and before (issue 17, part B).

- Journaled actions through ``Session.submit`` (a table timer's ``timer.add``, as bench_core
  has always measured, and random Invincible moves: its 12 KB view is the largest), in blocks
  that take turns with a block of raw SQLite commits (one row the size of an entry per
  transaction, the journal's pragmas and tables, the same folder): the ratio is the median of
  each round's raw time over its session time. Both trees run the same driver
  (journal_driver.py), each in its own interpreter. Beside them, in the same rounds, the journal
  alone (``Journal.append`` of the timer.add entry, no session): the journal's own share, and so
  what is left for the session's rules, undo history and view under the 0.8 line; and that write
  together with the change's view made once (the one serialisation a change the issue asks for).
- Over HTTP: a real `companion serve` of each tree, one client POSTing one action after another,
  then four client processes at once; raw SQLite measured in the same folder between them. The
  floor beside them: a Flask app with nothing behind it on the same waitress, answering the same
  POST with the same client, so a ratio to raw SQLite that no journaling server could beat on
  this disk is measured in the same run, not assumed.
- A 10,000-action game (10,000 effective actions: random Invincible moves, then the table's
  timer once the game has ended, an undo in every dozen entries or so) journaled by the code before:
  that code's start-up, then this code's first start-up on it (the schema migrated, no snapshot
  yet: a full replay, which keeps a snapshot) and its next ones (from that snapshot); and the
  same game journaled by this code (snapshots all along). Seconds to a session that answers, and
  the bytes the session holds once started (tracemalloc, in a process of its own).

BEFORE is main before this work (set JOURNAL_BENCH_BEFORE to measure another ref);
JOURNAL_BENCH_PARTS picks parts (submit,http,start: all three by default).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from journal_driver import Raw, timed
from trees import REPO, Serve, unpack

BEFORE = os.environ.get("JOURNAL_BENCH_BEFORE", "badcd98")
ROUNDS = int(os.environ.get("JOURNAL_BENCH_ROUNDS", "9"))
BLOCK = 100
DEPTH = 10_000       # effective actions of the long game (its entries: some more, the undos)
HTTP_BLOCK = 80        # POSTs a round (shared out between the clients)
HTTP_ROUNDS = 6
DRIVER = Path(__file__).with_name("journal_driver.py")
PARTS = os.environ.get("JOURNAL_BENCH_PARTS", "submit,http,start").split(",")


def drive(tree: Path | None, *args: str, timeout: float = 900) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree or REPO)}
    out = subprocess.run([sys.executable, str(DRIVER), *args], env=env, cwd=tree or REPO,
                         capture_output=True, text=True, timeout=timeout)
    if out.returncode:
        raise RuntimeError(f"journal_driver {' '.join(args)}: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def per_second(blocks: list[dict]) -> float:
    return statistics.median(b["n"] / b["wall"] for b in blocks)


def ratio(blocks: list[dict], raw: list[dict]) -> float:
    """Median over the rounds of raw's time over this block's (each round's blocks back to back)."""
    return statistics.median(r["wall"] / b["wall"] for b, r in zip(blocks, raw))


def cpu_ms(blocks: list[dict]) -> float:
    return statistics.median(b["cpu"] / b["n"] for b in blocks) * 1000


# -- over HTTP ---------------------------------------------------------------------------------------

def _client(port: int, pipe) -> None:
    """POST timer.add as told: ``n`` at a time, answering when the last one has come back."""
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    body = json.dumps({"type": "timer.add", "data": {"name": "turn", "seconds": 1}})
    while True:
        n = pipe.recv()
        if n is None:
            return
        for _ in range(n):
            conn.request("POST", "/api/actions", body, {"Content-Type": "application/json"})
            res = conn.getresponse()
            res.read()
            if res.status != 200:
                raise RuntimeError(f"POST answered {res.status}")
        pipe.send(time.perf_counter())


def _warm(server: Serve) -> None:
    """Past the journal's first checkpoint (see journal_driver.steady): large entries until
    its write-ahead log has grown to SQLite's checkpoint size, then a few small ones."""
    wal = Path(server.data.name, "journal.sqlite3-wal")
    label = "w" * 15000
    while not wal.exists() or wal.stat().st_size < 1010 * 4120:
        server.request("POST", "/api/actions", {"type": "timer.start", "data": {
            "name": "warm", "seconds": 60, "label": label}})
        server.request("POST", "/api/actions", {"type": "timer.cancel", "data": {"name": "warm"}})
    for _ in range(20):
        server.request("POST", "/api/actions", {"type": "timer.add",
                                                "data": {"name": "turn", "seconds": 1}})


# The floor: Flask on waitress as `companion serve` makes it (web/serving.py, 48 threads), with
# nothing behind the route.
BARE = """
import sys
from flask import Flask, request
from waitress import create_server
app = Flask("bare")
@app.post("/api/actions")
def act():
    request.get_json()
    return {"ok": True}
server = create_server(app, host="127.0.0.1", port=0, threads=48, channel_timeout=60)
print(server.effective_port, flush=True)
server.run()
"""


class Bare:
    """The floor's server in a child process: ``port``, ``cpu()`` and ``close()`` as Serve has."""

    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-c", BARE], stdout=subprocess.PIPE, text=True)
        self.port = int(self.proc.stdout.readline())

    def cpu(self) -> float:
        import psutil  # a test extra; only the benchmarks need it
        times = psutil.Process(self.proc.pid).cpu_times()
        return times.user + times.system

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def serve_warm(tree: Path | None) -> Serve:
    """A fresh serve of ``tree`` with a game, a running timer and its journal past the first
    checkpoint, ready for the clients' timer.add."""
    server = Serve(tree)
    try:
        server.request("POST", "/api/session", {"game": "incredibles", "players": ["dash"], "seed": 1})
        server.request("POST", "/api/actions", {"type": "timer.start",
                                                "data": {"name": "turn", "seconds": 3600}})
        _warm(server)
    except BaseException:
        server.close()
        raise
    return server


def http_rates(server, clients: int, raw: Raw) -> list[tuple[float, float, float]]:
    """(POSTs a second, raw commits a second, server CPU ms a POST) for each round: ``clients``
    processes POSTing at once to ``server`` (closed at the end), then a block of raw commits
    while it idles."""
    ctx = multiprocessing.get_context("fork")
    procs, pipes = [], []
    try:
        for _ in range(clients):
            ours, theirs = ctx.Pipe()
            proc = ctx.Process(target=_client, args=(server.port, theirs))
            proc.start()
            pipes.append(ours)
            procs.append(proc)
        each = HTTP_BLOCK // clients
        out = []
        for _ in range(HTTP_ROUNDS):
            raw_block = timed(raw.block, each * clients)
            cpu0 = server.cpu()
            started = time.perf_counter()
            for pipe in pipes:
                pipe.send(each)
            ended = max(pipe.recv() for pipe in pipes)
            cpu = server.cpu() - cpu0
            out.append((each * clients / (ended - started), raw_block["n"] / raw_block["wall"],
                        cpu / (each * clients) * 1000))
        return out
    finally:
        for pipe in pipes:
            pipe.send(None)
        for proc in procs:
            proc.join(10)
        server.close()


# -- start-up of a long game -------------------------------------------------------------------------

def starts(tree: Path | None, path: Path, times: int = 3) -> dict:
    walls = [drive(tree, "start", str(path))["wall"] for _ in range(times)]
    held = drive(tree, "start", str(path), "memory")["held"]
    return {"wall": statistics.median(walls), "walls": walls, "held": held}


# -- the run -----------------------------------------------------------------------------------------

def run():
    rows: list = []
    old = unpack(BEFORE)
    folder = tempfile.mkdtemp(prefix="companion-bench-journal-", dir=tempfile.gettempdir())
    try:
        for name, part in (("submit", _submits), ("http", _http), ("start", _start_up)):
            if name in PARTS:
                part(rows, old, Path(folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if old is not None:
            old.cleanup()
    return rows


def _trees(old) -> list[tuple[str, Path | None]]:
    return [("now", None)] + ([(BEFORE, Path(old.name))] if old is not None else [])


def _submits(rows: list, old, folder: Path) -> None:
    results = {}
    for label, tree in _trees(old):
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            results[label] = drive(tree, "submit", tmp, str(ROUNDS), str(BLOCK))
    now = results["now"]
    for kind in ("timer.add", "invincible moves", "Journal.append"):
        alone = kind == "Journal.append"      # no target of its own: the journal's share
        note = (f"{ratio(now[kind], now['raw']):.2f} of raw SQLite ({per_second(now['raw']):,.0f}/s "
                f"in the same rounds{'' if alone else '; target >= 0.8'}); CPU "
                f"{cpu_ms(now[kind]):.3f} ms an action")
        if BEFORE in results:
            was = results[BEFORE]
            note += (f"; {BEFORE}: {per_second(was[kind]):,.0f}/s, {ratio(was[kind], was['raw']):.2f} of "
                     f"raw ({per_second(was['raw']):,.0f}/s), CPU {cpu_ms(was[kind]):.3f} ms")
        if alone:
            note += ("; the journal alone, timer.add's entry with no session: what the session's "
                     "rules, undo history and view may add for 0.8 of raw is what this leaves, "
                     f"{1e6 * (1 / (0.8 * per_second(now['raw'])) - 1 / per_second(now[kind])):.0f} us")
        rows.append((kind if alone else f"Session.submit, {kind}",
                     f"{per_second(now[kind]):,.0f}/s",
                     note + f" (medians of {ROUNDS} interleaved blocks of {BLOCK})"))
    if "view" in now:
        # the journal's write and the change's view, each in its own block of the same round:
        # what no session of this design can do without (issue 17: one serialisation a change)
        both = [{"wall": a["wall"] + v["wall"], "n": a["n"]}
                for a, v in zip(now["Journal.append"], now["view"])]
        rows.append(("Journal.append + the change's view", f"{per_second(both):,.0f}/s",
                     f"{ratio(both, now['raw']):.2f} of raw SQLite: the journal's write plus the view "
                     "of a timer.add change made once (Views.change, the game's part kept), each "
                     f"timed in its own block of the same rounds; the view alone "
                     f"{statistics.median(v['wall'] / v['n'] for v in now['view']) * 1e6:.1f} us"))


def _http(rows: list, old, folder: Path) -> None:
    got: dict = {}
    raw = Raw(folder / "raw-http.sqlite3")
    for label, tree in _trees(old):
        for clients in (1, 4):
            got[label, clients] = http_rates(serve_warm(tree), clients, raw)
    got["floor", 1] = http_rates(Bare(), 1, raw)

    def rate(label, clients):
        return statistics.median(r[0] for r in got[label, clients])

    def of_raw(label, clients):
        return statistics.median(r[0] / r[1] for r in got[label, clients])

    def cpu(label, clients):
        return statistics.median(r[2] for r in got[label, clients])

    raws = [r[1] for rounds in got.values() for r in rounds]
    floor = statistics.median(raws) * 0.6
    rows.append(("HTTP floor: Flask on waitress, nothing behind it", f"{rate('floor', 1):,.0f}/s",
                 f"{of_raw('floor', 1):.2f} of raw SQLite, one client as below; server CPU "
                 f"{cpu('floor', 1):.2f} ms a POST; the 0.6 line asks {floor:,.0f} journaled "
                 f"POSTs a second, {1000 / floor:.3f} ms a POST with its commit"))
    for clients in (1, 4):
        note = (f"{of_raw('now', clients):.2f} of raw SQLite (median of each round's ratio; raw "
                f"{statistics.median(raws):,.0f}/s, blocks between the rounds); server CPU "
                f"{cpu('now', clients):.2f} ms a POST")
        note += "; target >= 0.6" if clients == 1 else (
            f"; {rate('now', 4) / rate('now', 1):.2f}x one client (target > 1)")
        if (BEFORE, clients) in got:
            note += (f"; {BEFORE}: {rate(BEFORE, clients):,.0f}/s, {of_raw(BEFORE, clients):.2f} of "
                     f"raw, CPU {cpu(BEFORE, clients):.2f} ms" + (
                         f", {rate(BEFORE, 4) / rate(BEFORE, 1):.2f}x its one client" if clients == 4 else ""))
        rows.append((f"HTTP POST /api/actions, {clients} client{'s' if clients > 1 else ''}",
                     f"{rate('now', clients):,.0f}/s",
                     note + f"; timer.add, {HTTP_ROUNDS} rounds of {HTTP_BLOCK}"))


def _start_up(rows: list, old, folder: Path) -> None:
    ours = folder / "built-now.sqlite3"
    built = drive(None, "build", str(ours), str(DEPTH))
    result = starts(None, ours)
    note = (f"{built['depth']:,} effective actions ({built['entries']:,} entries) journaled by this code; "
            f"target <= 0.3 s, <= 15 MB; held {result['held'] / 1e6:.1f} MB")
    if old is not None:
        theirs = folder / "built-before.sqlite3"
        drive(Path(old.name), "build", str(theirs), str(DEPTH))
        was = starts(Path(old.name), theirs)
        upgraded = folder / "upgraded.sqlite3"
        shutil.copy(theirs, upgraded)
        note += (f"; the same kind of game journaled by {BEFORE}: {BEFORE} starts in "
                 f"{was['wall']:.2f} s holding {was['held'] / 1e6:.1f} MB")
        try:
            first = drive(None, "start", str(upgraded))["wall"]
        except RuntimeError as exc:
            # The engine's rules have changed since BEFORE (its random games differ), so its
            # journal is no longer one this code replays: said, not a crash of the whole bench.
            refused = str(exc).strip().splitlines()[-1].split("cannot be replayed: ")[-1]
            note += f"; this code cannot replay that game ({refused[:160]})"
        else:
            after = starts(None, upgraded)
            note += (f"; this code's first start on it {first:.2f} s (full replay, keeps a "
                     f"snapshot), then {after['wall']:.3f} s holding {after['held'] / 1e6:.1f} MB")
    rows.append((f"a {DEPTH:,}-action game: start-up", f"{result['wall']:.3f} s", note))
