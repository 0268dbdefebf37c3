"""SIGTERM with requests in flight: the service answers them, exits 0, and logs no traceback."""

import signal
import threading
import urllib.error
import urllib.request

SETUP = {"game": "incredibles", "players": ["dash", "violet"], "seed": 11}


def test_sigterm_with_requests_in_flight_exits_cleanly(server):
    """Issue 18: "SIGTERM with a request in flight logs a traceback" (waitress's trigger was
    closed under the request threads: OSError: [Errno 9] Bad file descriptor)."""
    assert server.post("/api/session", SETUP)[0] == 201
    assert server.post("/api/actions", {"type": "timer.start", "data": {"seconds": 600}})[0] == 200
    stop = threading.Event()
    answered, started = [], threading.Barrier(7)
    stream = urllib.request.urlopen(server.url + "/api/events", timeout=30)   # a live dashboard

    def hammer():
        started.wait()
        while not stop.is_set():
            try:
                status, _ = server.post("/api/actions", {"type": "timer.add", "data": {"seconds": 1}})
            except (OSError, urllib.error.URLError):
                return               # the server stopped listening: this one was never taken
            answered.append(status)

    workers = [threading.Thread(target=hammer) for _ in range(6)]
    for w in workers:
        w.start()
    started.wait()
    while len(answered) < 20:
        threading.Event().wait(0.01)
    server.proc.send_signal(signal.SIGTERM)
    _out, stderr = server.proc.communicate(timeout=30)
    stop.set()
    for w in workers:
        w.join(30)
    stream.close()
    assert server.proc.returncode == 0
    assert set(answered) == {200}
    assert "Traceback" not in stderr and "Exception" not in stderr, stderr[-2000:]
