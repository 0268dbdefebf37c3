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
from pathlib import Path

CLIENTS = 10
CHANGES = 200
DRAWN = 50
CHROMIUM = "/usr/bin/chromium"
# Marks the wall-clock time at which the page has drawn each seq (the page sets data-rendered
# after drawing); the same machine's clock as the benchmark's, so the two can be subtracted.
MARK_RENDERS = """
new MutationObserver(() => {
  const seq = Number(document.body.dataset.rendered);
  (window.__rendered = window.__rendered || {})[seq] = Date.now() / 1000;
}).observe(document, {attributes: true, subtree: true, attributeFilter: ["data-rendered"]});
"""


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


def browser_page(port: int):
    """A real Chromium showing the table view, or None where there is none."""
    if not Path(CHROMIUM).exists():
        return None, None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None, None
    pw = sync_playwright().start()
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
    page = browser.new_page(viewport={"width": 800, "height": 480})
    page.add_init_script(MARK_RENDERS)
    page.goto(f"http://127.0.0.1:{port}/table")
    page.wait_for_selector("body[data-rendered]", timeout=10_000)

    def close():
        browser.close()
        pw.stop()
    return page, close


def measure() -> dict:
    import psutil  # a test extra; only this benchmark needs it

    with tempfile.TemporaryDirectory() as data:
        # ten phones from one address: past the default cap of streams per address (8)
        Path(data, "config.toml").write_text(f"[server]\nstreams_per_address = {CLIENTS + 2}\n")
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
            page, close_browser = browser_page(port)
            drawn = []
            if page is not None:
                # One change at a time, as a table makes them: POST, then wait until it is drawn.
                paced = {}
                for _ in range(DRAWN):
                    wall = time.time()
                    seq = _post(conn, "/api/actions", {"type": "timer.add", "data": {"seconds": 1}})["seq"]
                    paced[seq] = wall
                    page.wait_for_function(f"Number(document.body.dataset.rendered) >= {seq}",
                                           timeout=10_000, polling=5)
                marks = page.evaluate("window.__rendered")
                drawn = sorted(marks[str(n)] - t for n, t in paced.items() if str(n) in marks)
                close_browser()
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
        "drawn": drawn,
        "changes": DRAWN,
    }


def run():
    m = measure()
    rows = [
        (f"state change to {CLIENTS} SSE clients: median", f"{m['median_ms']:.1f} ms",
         f"{m['samples']} deliveries, POST to parsed event; the POST alone: median {m['post_median_ms']:.1f} ms"),
        (f"state change to {CLIENTS} SSE clients: p95", f"{m['p95_ms']:.1f} ms",
         f"target under 100 ms; slowest {m['max_ms']:.1f} ms"),
        (f"server memory (RSS) with {CLIENTS} clients connected", f"{m['rss_connected_mb']:.1f} MB",
         f"{m['rss_idle_mb']:.1f} MB before they connected"),
    ]
    drawn = m["drawn"]
    if drawn:
        rows.append(("state change drawn by a Chromium table view: median / p95",
                     f"{statistics.median(drawn) * 1000:.0f} / {drawn[int(len(drawn) * 0.95) - 1] * 1000:.0f} ms",
                     f"{len(drawn)} changes one at a time, POST to the page's drawing done "
                     "(board, timers, cards), with the 10 stream clients still connected"))
    else:
        rows.append(("state change drawn by a Chromium table view", "not measured",
                     f"no {CHROMIUM} or no playwright here"))
    return rows


if __name__ == "__main__":
    for row in run():
        print(" | ".join(row))
