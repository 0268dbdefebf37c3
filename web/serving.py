"""Serving the app with waitress, and stopping it cleanly.

waitress's own ``close()`` from a signal handler shuts its trigger while request threads still
run, and each of them then logs an ``OSError: Bad file descriptor`` traceback. Instead the loop
here watches an Event: once it is set the server stops accepting, lets the requests in flight
finish and their answers go out (event streams end within a second, they watch the same
Event), and only then closes the threads and sockets.
"""

from __future__ import annotations

import logging
import threading
import time

from waitress import create_server
from waitress import wasyncore

log = logging.getLogger(__name__)
POLL = 0.2          # seconds between looks at the stop flag
DRAIN = 5.0         # seconds requests in flight get to finish


def make_server(app, host: str, port: int, threads: int):
    return create_server(app, host=host, port=port, threads=threads, channel_timeout=60,
                         ident="companion")


def run_until(server, stopping: threading.Event, drain: float = DRAIN) -> None:
    """Serve until ``stopping`` is set, then drain and close."""
    use_poll = server.adj.asyncore_use_poll
    try:
        while not stopping.is_set():
            wasyncore.loop(timeout=POLL, map=server._map, use_poll=use_poll, count=1)
    finally:
        # Close only the listening socket: the trigger must live on while answers go out.
        server.accepting = False
        wasyncore.dispatcher.close(server)
        deadline = time.monotonic() + drain
        while _busy(server) and time.monotonic() < deadline:
            wasyncore.loop(timeout=0.05, map=server._map, use_poll=use_poll, count=1)
        if _busy(server):
            log.warning("stopping with requests still running after %.0f s", drain)
        server.task_dispatcher.shutdown(timeout=1.0)
        wasyncore.close_all(map=server._map)


def _busy(server) -> bool:
    tasks = server.task_dispatcher
    if tasks.active_count or tasks.queue:
        return True
    return any(getattr(ch, "total_outbufs_len", 0) or getattr(ch, "requests", None)
               for ch in list(server._map.values()))
