"""Dashboard figures: how long a state change takes to reach 10 connected dashboards over
server-sent events, and the server's memory with them connected.

A real `companion serve` runs in a child process; 10 threads each hold a real HTTP event stream
(as 10 phones and the table screen would). Each change is a journaled action POSTed over HTTP;
latency runs from just before the POST is sent to the moment each client has parsed the event
carrying that change's seq. The next change waits until every client has the previous one, so no
update is coalesced away (the stream sends the latest state, never a queue).
"""

from __future__ import annotations

import http.client
import json
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

CLIENTS = 10
CHANGES = 200


class Client(threading.Thread):
    def __init__(self, port: int, arrivals: dict, cond: threading.Condition):
        super().__init__(daemon=True)
        self.port, self.arrivals, self.cond = port, arrivals, cond
        self.ready = threading.Event()
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def run(self) -> None:
        self.conn.request("GET", "/api/events")
        res = self.conn.getresponse()
        data = []
        try:
            while True:
                line = res.readline()
                if not line:
                    return
                line = line.decode().rstrip("\n")
                if line.startswith("data:"):
                    data.append(line[5:])
                elif line == "" and data:
                    seq = json.loads("".join(data))["seq"]
                    now = time.perf_counter()
                    data = []
                    with self.cond:
                        self.arrivals.setdefault(seq, []).append(now)
                        self.cond.notify_all()
                    self.ready.set()
        except OSError:
            return

    def close(self) -> None:
        try:
            self.conn.sock.shutdown(2)
        except (OSError, AttributeError):
            pass
        self.conn.close()


def _post(conn: http.client.HTTPConnection, path: str, body: dict) -> dict:
    conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    res = conn.getresponse()
    out = json.loads(res.read())
    if res.status >= 300:
        raise RuntimeError(f"{path}: {res.status} {out}")
    return out


def measure() -> dict:
    import psutil  # a test extra; only this benchmark needs it

    with tempfile.TemporaryDirectory() as data:
        proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", "0",
                                 "--data", data], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True)
        try:
            port = int(re.search(r":(\d+)/", proc.stdout.readline()).group(1))
            server = psutil.Process(proc.pid)
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            _post(conn, "/api/session", {"game": "incredibles", "players": ["dash", "violet"], "seed": 1})
            _post(conn, "/api/actions", {"type": "timer.start", "data": {"seconds": 3600}})
            rss_idle = server.memory_info().rss
            arrivals: dict[int, list[float]] = {}
            cond = threading.Condition()
            clients = [Client(port, arrivals, cond) for _ in range(CLIENTS)]
            for c in clients:
                c.start()
            for c in clients:
                c.ready.wait(10)
            latencies, posts = [], []
            for _ in range(CHANGES):
                sent = time.perf_counter()
                seq = _post(conn, "/api/actions", {"type": "timer.add", "data": {"seconds": 1}})["seq"]
                posts.append(time.perf_counter() - sent)
                with cond:
                    if not cond.wait_for(lambda: len(arrivals.get(seq, [])) >= CLIENTS, 10):
                        raise RuntimeError(f"only {len(arrivals.get(seq, []))} clients saw seq {seq}")
                    latencies += [t - sent for t in arrivals[seq]]
            rss_connected = server.memory_info().rss
            for c in clients:
                c.close()
            conn.close()
        finally:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
    latencies.sort()
    return {
        "median_ms": statistics.median(latencies) * 1000,
        "p95_ms": latencies[int(len(latencies) * 0.95) - 1] * 1000,
        "max_ms": latencies[-1] * 1000,
        "post_median_ms": statistics.median(posts) * 1000,
        "rss_idle_mb": rss_idle / 2**20,
        "rss_connected_mb": rss_connected / 2**20,
        "samples": len(latencies),
    }


def run():
    m = measure()
    return [
        (f"state change to {CLIENTS} SSE clients: median", f"{m['median_ms']:.1f} ms",
         f"{m['samples']} deliveries, POST to parsed event; the POST alone: median {m['post_median_ms']:.1f} ms"),
        (f"state change to {CLIENTS} SSE clients: p95", f"{m['p95_ms']:.1f} ms",
         f"target under 100 ms; slowest {m['max_ms']:.1f} ms"),
        (f"server memory (RSS) with {CLIENTS} clients connected", f"{m['rss_connected_mb']:.1f} MB",
         f"{m['rss_idle_mb']:.1f} MB before they connected"),
    ]


if __name__ == "__main__":
    for row in run():
        print(" | ".join(row))
