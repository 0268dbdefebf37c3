"""Serving the app with waitress, and stopping it cleanly.

waitress's own ``close()`` from a signal handler shuts its trigger while request threads still
run, and each of them then logs an ``OSError: Bad file descriptor`` traceback. Instead the loop
here watches an Event: once it is set the server stops accepting, lets the requests in flight
finish and their answers go out (event streams end within a second, they watch the same
Event), and only then closes the threads and sockets.
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time

from waitress import create_server
from waitress import wasyncore

from companion.config import host_ok
from companion.errors import SetupError
from web.access import is_loopback, lan_address

log = logging.getLogger(__name__)
POLL = 0.2          # seconds between looks at the stop flag
DRAIN = 5.0         # seconds requests in flight get to finish


# A connection that never finishes its request holds one of waitress's places until it has
# been idle channel_timeout: at the default 100 places and 60 s, a hundred of them (a phone's
# stuck tabs, a scan of the network) locked every screen out for a minute. Event streams are
# handed off (web/handoff.py) and take no place; a request is short.
CONNECTIONS = 500
IDLE_S = 15


def make_server(app, host: str, port: int, threads: int):
    return create_server(app, host=host, port=port, threads=threads, channel_timeout=IDLE_S,
                         connection_limit=CONNECTIONS, ident="companion")


def listen(app, host: str, port: int, threads: int):
    """The web server, or a message saying why it cannot listen (a port taken, a host that is
    no address), never a traceback."""
    if not 1 <= threads <= 256:
        raise SetupError(f"--threads {threads}: give 1 to 256 (the default is 48)")
    if not host_ok(host):
        raise SetupError(f"--host {host!r}: not a host name or address (0.0.0.0: every network)")
    try:
        return make_server(app, host, port, threads)
    except OSError as exc:
        raise SetupError(f"cannot listen on {host}:{port}: {exc.strerror or exc} (another "
                         "companion, or another service, may hold the port: --port picks "
                         "another)") from None
    except ValueError as exc:
        raise SetupError(f"cannot listen on {host}:{port}: {exc}") from None


def phones_line(app, host: str, port: int) -> str:
    """How a phone at the table joins, in plain words: the address to open and the code."""
    ext = app.extensions["companion"]
    code = ext["access"].code
    public = ext["dashboard"].public_url
    if public:
        return f"  phones at the table open {public.rstrip('/')}/play (join code {code})"
    if host == "localhost" or is_loopback(host):
        return (f"  phones cannot reach {host}: to let phones join, start with --host 0.0.0.0 "
                "(make run does)")
    address = lan_address() if host in ("0.0.0.0", "::") else host
    if is_loopback(address):
        return "  no network found: phones can join once this computer is on the table's Wi-Fi"
    return (f"  phones on the same Wi-Fi open http://{address}:{port}/play and type the join code "
            f"{code} (or scan the QR code on the table view)")


def run_until(server, stopping: threading.Event, drain: float = DRAIN) -> None:
    """Serve until ``stopping`` is set, then drain and close."""
    use_poll = server.adj.asyncore_use_poll
    try:
        while not stopping.is_set():
            _loop_once(server, POLL, use_poll)
    finally:
        # Close only the listening socket: the trigger must live on while answers go out.
        server.accepting = False
        wasyncore.dispatcher.close(server)
        deadline = time.monotonic() + drain
        while _busy(server) and time.monotonic() < deadline:
            _loop_once(server, 0.05, use_poll)
        if _busy(server):
            log.warning("stopping with requests still running after %.0f s", drain)
        server.task_dispatcher.shutdown(timeout=1.0)
        wasyncore.close_all(map=server._map)


def _loop_once(server, timeout: float, use_poll: bool) -> None:
    """One turn of waitress's I/O loop. A connection handed to an event stream (web/handoff.py)
    leaves the map and has its socket closed from a request thread; when that falls between the
    loop's reading of the map and its select(), select() fails with EBADF for a descriptor the
    map no longer holds. That turn is simply taken again from the map as it is now."""
    try:
        wasyncore.loop(timeout=timeout, map=server._map, use_poll=use_poll, count=1)
    except OSError as exc:
        if exc.errno != errno.EBADF or not _all_open(server._map):
            raise
        log.debug("a connection left the I/O loop during its select(); looking again")


def _all_open(channels: dict) -> bool:
    """Every descriptor in the map is still open (else the EBADF is a real fault: raise it)."""
    for fd in list(channels):
        try:
            os.fstat(fd)
        except OSError:
            return False
    return True


def _busy(server) -> bool:
    tasks = server.task_dispatcher
    if tasks.active_count or tasks.queue:
        return True
    return any(getattr(ch, "total_outbufs_len", 0) or getattr(ch, "requests", None)
               for ch in list(server._map.values()))
