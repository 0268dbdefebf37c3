"""Event fan-out and start-up: many open streams against none, in one run, on fresh servers.

Each phase starts a real `companion serve` in a child process and makes CHANGES journaled changes
(`timer.add`, POSTed over HTTP) PACE seconds apart, while a reader process holds the streams (one
selector, so reading 200 streams takes no thread of the driver's and none of the server's).
Delivery runs from just before a POST is sent to the moment the reader has the frame with that
change's seq; both sides read CLOCK_MONOTONIC. Server CPU is the child's user+system time over the
changes. The reference is the same server with no stream open, measured in the same run; the
code before this work (BEFORE, a git ref) is measured too where the repository has it. The kinds
of phase take turns over ROUNDS rounds (a busy moment of a shared machine falls on each), and the
start-ups of both trees alternate too. Everything
talks only to 127.0.0.1, and every phase is bounded in count and time.
"""

from __future__ import annotations

import http.client
import multiprocessing
import os
import re
import selectors
import socket
import statistics
import struct
import tempfile
import time
from pathlib import Path

from trees import Serve, unpack

BEFORE = os.environ.get("STREAMS_BENCH_BEFORE", "f55824e")   # main before issue 17 (part A)
CHANGES = 100
PACE = 0.04
STARTS = 5
ROUNDS = int(os.environ.get("STREAMS_BENCH_ROUNDS", "3"))
FRAME_ID = re.compile(rb"(?:^|\n)id: (\d+)\n")


# -- the reader process -----------------------------------------------------------------------------

def _connect(port: int, selector, seen, count: int) -> list[socket.socket]:
    socks = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
        seen[sock] = {}
        socks.append(sock)
    return socks


def _read(selector, seen, tails, timeout: float) -> None:
    for key, _ in selector.select(timeout):
        sock = key.fileobj
        try:
            data = sock.recv(1 << 20)
        except BlockingIOError:
            continue
        now = time.monotonic()
        if not data:
            selector.unregister(sock)
            continue
        buf = tails.get(sock, b"") + data
        for m in FRAME_ID.finditer(buf):
            seen[sock].setdefault(int(m.group(1)), now)
        tails[sock] = buf[-32:]


def reader(port: int, count: int, churn: int, pipe) -> None:
    """Hold ``count`` streams (first closing and reopening them abruptly ``churn`` times) and,
    when told, send back when each stream got each seq."""
    selector = selectors.DefaultSelector()
    seen: dict = {}
    tails: dict = {}
    socks = _connect(port, selector, seen, count)
    for _ in range(churn):
        deadline = time.monotonic() + 10
        while not all(seen[s] for s in socks) and time.monotonic() < deadline:
            _read(selector, seen, tails, 0.1)
        for sock in socks:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            selector.unregister(sock)
            sock.close()
            del seen[sock]
        socks = _connect(port, selector, seen, count)
    deadline = time.monotonic() + 20
    while not all(seen[s] for s in socks) and time.monotonic() < deadline:
        _read(selector, seen, tails, 0.1)
    pipe.send(sum(1 for s in socks if seen[s]))
    while not pipe.poll():
        _read(selector, seen, tails, 0.05)
    pipe.recv()
    pipe.send([list(seen[s].items()) for s in socks])
    for sock in socks:
        sock.close()


# -- the driver --------------------------------------------------------------------------------------

def p95(values: list[float]) -> float:
    values = sorted(values)
    return values[max(0, int(len(values) * 0.95) - 1)]


def phase(streams: int, churn: int = 0, cwd: Path | None = None, changes: int = CHANGES) -> dict:
    server = Serve(cwd)
    ctx = multiprocessing.get_context("fork")
    ours, theirs = ctx.Pipe()
    proc = None
    try:
        server.request("POST", "/api/session", {"game": "incredibles", "players": ["dash", "violet"], "seed": 1})
        server.request("POST", "/api/actions", {"type": "timer.start", "data": {"seconds": 3600}})
        if streams:
            proc = ctx.Process(target=reader, args=(server.port, streams, churn, theirs), daemon=True)
            proc.start()
            if not ours.poll(60):
                raise RuntimeError("the reader never got its streams")
            ready = ours.recv()
            if ready != streams:
                raise RuntimeError(f"only {ready} of {streams} streams got their first frame")
        open_now = server.request("GET", "/api/health").get("streams")
        posts, sent = [], {}
        cpu0 = server.cpu()
        next_at = time.monotonic()
        for _ in range(changes):
            next_at += PACE
            time.sleep(max(0.0, next_at - time.monotonic()))
            t = time.monotonic()
            seq = server.request("POST", "/api/actions", {"type": "timer.add", "data": {"seconds": 1}})["seq"]
            posts.append(time.monotonic() - t)
            sent[seq] = t
        time.sleep(0.3)          # the last change reaches the streams
        cpu = server.cpu() - cpu0
        delivery, missing = [], 0
        if proc is not None:
            ours.send("done")
            if not ours.poll(30):
                raise RuntimeError("the reader did not report")
            for seen in ours.recv():
                got = dict(seen)
                missing += sum(1 for seq in sent if seq not in got)
                delivery += [got[seq] - t for seq, t in sent.items() if seq in got]
    finally:
        if proc is not None:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
        server.close()
    return {"post_p95": p95(posts) * 1000, "post_max": max(posts) * 1000,
            "post_median": statistics.median(posts) * 1000,
            "delivery_p95": p95(delivery) * 1000 if delivery else None,
            "delivery_median": statistics.median(delivery) * 1000 if delivery else None,
            "missing": missing, "deliveries": len(delivery), "open": open_now,
            "cpu_ms": cpu / changes * 1000}


def start_up(trees: list, *args: str) -> list[dict]:
    """For each tree (None: this one), serve to the first healthy answer and on to every adapter
    attached, STARTS times, the trees taking turns; then one more run each under ``-X importtime``
    counts the modules imported by the healthy answer."""
    runs = {i: {"healthy": [], "ready": [], "modules": None} for i in range(len(trees))}
    for run in range(STARTS + 1):
        for i, tree in enumerate(trees):
            server = Serve(tree, *args, imports=run == STARTS)
            try:
                first = None
                while True:
                    try:
                        health = server.request("GET", "/api/health")
                    except (OSError, http.client.HTTPException):
                        server.conn.close()
                        time.sleep(0.002)
                        continue
                    if first is None:
                        first = time.perf_counter()
                    if not health.get("starting"):
                        break
                    time.sleep(0.005)
                if run == STARTS:
                    runs[i]["modules"] = sum(1 for t in server.imported if t <= first)
                else:
                    runs[i]["healthy"].append(first - server.started)
                    runs[i]["ready"].append(time.perf_counter() - server.started)
            finally:
                server.close()
    return [{"healthy": statistics.median(r["healthy"]), "ready": statistics.median(r["ready"]),
             "modules": r["modules"]} for r in runs.values()]


def before_tree() -> tempfile.TemporaryDirectory | None:
    return unpack(BEFORE)


def combined(results: list[dict]) -> dict:
    """Rounds folded: medians, except counts (summed) and the slowest POST (the slowest of all)."""
    out = {}
    for key, value in results[0].items():
        values = [r[key] for r in results]
        if key in ("missing", "deliveries"):
            out[key] = sum(values)
        elif key == "post_max":
            out[key] = max(values)
        elif None in values:     # the code before has no stream count in its health answer
            out[key] = None
        elif key == "open":
            out[key] = min(values)
        else:
            out[key] = statistics.median(values)
    return out


def run():
    rows = []
    old = before_tree()
    try:
        _measure(rows, old)
    finally:
        if old is not None:
            old.cleanup()
    return rows


def _measure(rows: list, old) -> None:
    rounds: dict[str, list] = {"none": [], "fifty": [], "many": [], "churned": [], "past": []}
    for _ in range(ROUNDS):   # interleaved, so a busy moment of the machine falls on every kind
        rounds["none"].append(phase(0))
        rounds["fifty"].append(phase(50))
        rounds["many"].append(phase(200))
        rounds["churned"].append(phase(50, churn=10, changes=50))
        if old is not None:
            rounds["past"].append(phase(40, cwd=Path(old.name)))
    none, fifty, many, churned = (combined(rounds[k]) for k in ("none", "fifty", "many", "churned"))
    ratio = statistics.median(f["cpu_ms"] / n["cpu_ms"] for f, n in zip(rounds["fifty"], rounds["none"]))
    rows += [
        ("no stream open: POST median / p95", f"{none['post_median']:.1f} / {none['post_p95']:.1f} ms",
         f"reference; server CPU {none['cpu_ms']:.2f} ms a change ({CHANGES} changes, {PACE * 1000:.0f} ms "
         f"apart; medians of {ROUNDS} interleaved rounds here and below)"),
        ("200 streams: POST p95", f"{many['post_p95']:.1f} ms",
         f"target <= 20 ms; {many['post_p95'] / none['post_p95']:.2f}x the reference; median {many['post_median']:.1f} ms, "
         f"{many['open']} streams open at the server"),
        ("200 streams: every stream gets every change, p95", f"{many['delivery_p95']:.1f} ms",
         f"target <= 30 ms; median {many['delivery_median']:.1f} ms; {many['deliveries']} deliveries, "
         f"{many['missing']} missing"),
        ("50 streams: server CPU per change", f"{fifty['cpu_ms']:.2f} ms",
         f"target <= 3x none: {ratio:.2f}x (median of the rounds' ratios); delivery p95 {fifty['delivery_p95']:.1f} ms, "
         f"{fifty['missing']} missing"),
        ("200 streams: server CPU per change", f"{many['cpu_ms']:.2f} ms",
         f"{many['cpu_ms'] / none['cpu_ms']:.2f}x none"),
        ("50 streams reset and reopened 10x: slowest POST after", f"{churned['post_max']:.1f} ms",
         f"target <= 50 ms; slowest with no stream {none['post_max']:.1f} ms; 50 POSTs a round; "
         f"{churned['open']} streams open at the server (50 expected), {churned['missing']} deliveries missing"),
    ]
    if old is not None:
        past = combined(rounds["past"])
        rows.append((f"40 streams on {BEFORE} (a thread each): server CPU per change",
                     f"{past['cpu_ms']:.2f} ms",
                     f"now at 50 streams {fifty['cpu_ms'] / past['cpu_ms']:.2f}x of it; its POST p95 "
                     f"{past['post_p95']:.1f} ms, delivery p95 {past['delivery_p95']:.1f} ms (48 threads: "
                     "it cannot hold 50)"))
    trees = [None] + ([Path(old.name)] if old is not None else [])
    for label, args in (("no camera", ()), ("--simulate", ("--simulate",))):
        now, *was = start_up(trees, *args)
        note = (f"median of {STARTS}; every adapter attached at {now['ready'] * 1000:.0f} ms"
                if args else f"median of {STARTS}; target <= 500 ms")
        if was:
            note += (f"; {BEFORE}, interleaved: {was[0]['healthy'] * 1000:.0f} ms, {was[0]['modules']} "
                     f"modules (ratio {now['healthy'] / was[0]['healthy']:.2f})")
        rows.append((f"serve {label}: to healthy, modules then", f"{now['healthy'] * 1000:.0f} ms, "
                     f"{now['modules']}", note))


if __name__ == "__main__":
    for row in run():
        print(" | ".join(row))
