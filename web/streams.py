"""Every open event stream served by one writer thread, however many phones are watching.

A request thread only admits a stream (a cap per client address and one in all) and hands its
connection over; from then on the writer thread owns the socket: non-blocking writes, readiness
from one selector, no thread held per stream. Each change is encoded once into a frame and the
same bytes go to every stream.

A slow stream never queues: for each event name it keeps only the newest frame it has not begun
to send (every event carries a whole value, so the newest is all a client needs; an event kind
that sends deltas does not belong on this stream). A stream the client closed is released as
soon as the close arrives (the selector reports it readable and the read finds its end); one
that vanished without a word (a phone out of Wi-Fi) is ended by TCP keepalive and a send timeout
within about ten seconds; one that stops reading for ``stall`` seconds is dropped.
"""

from __future__ import annotations

import logging
import selectors
import socket
import threading
import time
from collections import Counter
from typing import Any

from companion import strict_json

log = logging.getLogger(__name__)

KEEPALIVE = b": keepalive\n\n"   # a comment line keeps proxies and phones from timing out
TICK = 1.0                       # how often the writer looks for quiet and stuck streams
READ_LIMIT = 4096                # a stream's client sends nothing after its request; drain and drop


class Refused(Exception):
    """A stream not admitted: ``status`` is 429 (this address has enough) or 503 (the table has)."""

    def __init__(self, status: int, message: str, limit: int, open_now: int):
        super().__init__(message)
        self.status, self.limit, self.open = status, limit, open_now


def encode(event: str, data: Any, id: int | None = None) -> bytes:
    """One server-sent event, its data strict JSON (no NaN or Infinity: ValueError instead)."""
    text = strict_json.dumps(data, separators=(",", ":"))
    head = f"id: {id}\n" if id is not None else ""
    return f"{head}event: {event}\ndata: {text}\n\n".encode()


class _Stream:
    """One open stream, touched only by the writer thread (after ``Ticket.start``)."""

    __slots__ = ("ticket", "sock", "out", "pending", "blocked_since", "last_sent", "events")

    def __init__(self, ticket: "Ticket", sock: socket.socket, first: bytes, now: float):
        self.ticket, self.sock = ticket, sock
        self.out = memoryview(first)          # the frame being written, from where it got to
        self.pending: dict[str, bytes] = {}   # event name -> newest frame not yet begun
        self.blocked_since: float | None = None
        self.last_sent = now
        self.events = selectors.EVENT_READ

    def queue(self, event: str, frame: bytes) -> None:
        if not self.out:
            self.out = memoryview(frame)
        else:
            self.pending.pop(event, None)     # latest wins, and goes to the back of the line
            self.pending[event] = frame


class Ticket:
    """A place among the open streams, reserved at admission; ``start`` hands the socket over."""

    def __init__(self, hub: "StreamHub", address: str):
        self.hub, self.address = hub, address
        self._done = False

    def start(self, sock: socket.socket, head: bytes) -> None:
        """From here the hub owns ``sock``: it writes ``head`` and then the current frames."""
        self.hub._start(self, sock, head)

    def cancel(self) -> None:
        self.hub._release(self)


class StreamHub:
    def __init__(self, *, per_address: int = 8, total: int = 256, keepalive: float = 15.0,
                 stall: float = 20.0, retry_ms: int = 1000, clock=None):
        self.per_address, self.total = per_address, total
        # the server's clock, sent after a new stream's first frames: theirs is as old as the
        # change they show (a page opened minutes after it counted its timers from then)
        self.clock = clock
        self.keepalive, self.stall = keepalive, stall
        self.retry = f"retry: {int(retry_ms)}\n\n".encode()
        self._lock = threading.Lock()
        self._latest: dict[str, tuple[int | None, bytes]] = {}   # event -> (id, frame)
        self._dirty: dict[str, bytes] = {}     # frames published since the writer last looked
        self._incoming: list[tuple[Ticket, socket.socket, bytes]] = []
        self._admitted: Counter[str] = Counter()
        self._open = 0
        self._closed = False
        self._thread: threading.Thread | None = None
        self._wake_r = self._wake_w = None
        self.frames_skipped = 0

    # -- any thread -------------------------------------------------------------------------------

    def publish(self, event: str, data: Any, id: int | None = None) -> bool:
        """The newest value of ``event`` for every stream, encoded here once. False (and logged)
        when it is not strict JSON: the streams then get a comment saying it was held back, since
        a frame the pages' JSON.parse throws on would freeze every screen."""
        frame = self._encode(event, data, id)
        sent = frame is not None
        if frame is None:
            frame = f": {event} {id} held back: not strict JSON\n\n".encode()
        self._put(event, id, frame)
        return sent

    def publish_encoded(self, event: str, data: bytes, id: int | None = None) -> None:
        """``publish`` for a value already encoded as strict JSON on one line (a session's
        change, companion/views.py): the same bytes, framed, go to every stream."""
        head = f"id: {id}\nevent: {event}\ndata: " if id is not None else f"event: {event}\ndata: "
        self._put(event, id, b"".join((head.encode(), data, b"\n\n")))

    def admit(self, address: str) -> Ticket:
        """Reserve a stream for ``address`` or raise Refused with the reason."""
        with self._lock:
            if self._closed:
                raise Refused(503, "the table service is stopping: reconnect in a moment", self.total, self._open)
            mine = self._admitted[address]
            if mine >= self.per_address:
                raise Refused(429, f"this device already has {mine} live views of the table open "
                                   f"(at most {self.per_address}): close a tab, or wait a few "
                                   "seconds for closed ones to drop", self.per_address, mine)
            if self._open >= self.total:
                raise Refused(503, f"the table already has {self._open} live views open (at most "
                                   f"{self.total}): close some and try again", self.total, self._open)
            self._admitted[address] += 1
            self._open += 1
        return Ticket(self, address)

    def opening(self) -> bytes:
        """What a new stream is sent first: the retry delay and the newest frame of each event."""
        with self._lock:
            return (self.retry + b"".join(frame for _id, frame in self._latest.values())
                    + self._clock_frame())

    def count(self, address: str | None = None) -> int:
        with self._lock:
            return self._open if address is None else self._admitted[address]

    def close(self) -> None:
        """Stop the writer and close every stream (each client reconnects to the next service).
        Safe to call twice; streams admitted afterwards are refused."""
        with self._lock:
            self._closed = True
            thread = self._thread
        if thread is not None:
            self._wake()
            thread.join(5)

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"{self._open} open"
        return f"<StreamHub {state}, at most {self.per_address} per address, {self.total} in all>"

    # -- internals shared with the request threads ------------------------------------------------

    def _clock_frame(self) -> bytes:
        return encode("clock", {"now": self.clock()}) if self.clock is not None else b""

    def _encode(self, event: str, data: Any, id: int | None) -> bytes | None:
        try:
            return encode(event, data, id)
        except (TypeError, ValueError) as exc:
            self.frames_skipped += 1
            log.error("not sending the %s event (id %s): it is not strict JSON (%s)", event, id, exc)
            return None

    def _put(self, event: str, id: int | None, frame: bytes) -> None:
        with self._lock:
            old = self._latest.get(event)
            if id is not None and old is not None and old[0] is not None and id < old[0]:
                return               # overtaken by a newer value already out: nothing to send
            self._latest[event] = (id, frame)
            self._dirty[event] = frame
        self._wake()

    def _start(self, ticket: Ticket, sock: socket.socket, head: bytes) -> None:
        with self._lock:
            if self._closed:
                refused = True
            else:
                refused = False
                self._incoming.append((ticket, sock, head))
                if self._thread is None:
                    self._wake_r, self._wake_w = socket.socketpair()
                    for end in (self._wake_r, self._wake_w):
                        end.setblocking(False)
                    self._thread = threading.Thread(target=self._run, name="event-streams", daemon=True)
                    self._thread.start()
        if refused:
            sock.close()
            self._release(ticket)
        else:
            self._wake()

    def _release(self, ticket: Ticket) -> None:
        with self._lock:
            if ticket._done:
                return
            ticket._done = True
            self._open -= 1
            self._admitted[ticket.address] -= 1
            if self._admitted[ticket.address] <= 0:
                del self._admitted[ticket.address]

    def _wake(self) -> None:
        if self._wake_w is not None:
            try:
                self._wake_w.send(b"\0")
            except (BlockingIOError, OSError):
                pass             # a wake-up is already waiting, or the hub is closing

    # -- the writer thread ------------------------------------------------------------------------

    def _run(self) -> None:
        selector = selectors.DefaultSelector()
        selector.register(self._wake_r, selectors.EVENT_READ, None)
        streams: dict[int, _Stream] = {}
        next_tick = time.monotonic() + TICK
        try:
            while True:
                for key, mask in selector.select(max(0.0, next_tick - time.monotonic())):
                    stream = key.data
                    if stream is None:
                        self._drain_wake()
                        continue
                    if mask & selectors.EVENT_READ and not self._still_open(stream):
                        self._drop(selector, streams, stream)
                    elif mask & selectors.EVENT_WRITE:
                        self._flush(selector, streams, stream)
                with self._lock:
                    if self._closed:
                        return
                    incoming, self._incoming = self._incoming, []
                    updates, self._dirty = self._dirty, {}
                    current = [frame for _id, frame in self._latest.values()] if incoming else []
                for stream in list(streams.values()):
                    for event, frame in updates.items():
                        stream.queue(event, frame)
                    if updates:
                        self._flush(selector, streams, stream)
                now = time.monotonic()
                for ticket, sock, head in incoming:
                    first = head + self.retry + b"".join(current) + self._clock_frame()
                    self._register(selector, streams, _Stream(ticket, sock, first, now))
                if now >= next_tick:
                    next_tick = now + TICK
                    self._tend(selector, streams, now)
        except Exception:   # the writer must not die silently: log, close the streams, refuse new ones
            log.exception("the event stream writer failed; the pages will reconnect")
            with self._lock:
                self._closed = True
        finally:
            for stream in list(streams.values()):
                self._drop(selector, streams, stream)
            with self._lock:
                leftover, self._incoming = self._incoming, []
            for ticket, sock, _head in leftover:
                sock.close()
                self._release(ticket)
            selector.close()
            self._wake_r.close()
            self._wake_w.close()

    def _drain_wake(self) -> None:
        try:
            while self._wake_r.recv(4096):
                pass
        except (BlockingIOError, InterruptedError):
            pass

    def _register(self, selector, streams, stream: _Stream) -> None:
        sock = stream.sock
        try:
            sock.setblocking(False)
            _tune(sock)
            selector.register(sock, selectors.EVENT_READ, stream)
        except (OSError, ValueError):
            sock.close()
            self._release(stream.ticket)
            return
        streams[sock.fileno()] = stream
        self._flush(selector, streams, stream)

    @staticmethod
    def _still_open(stream: _Stream) -> bool:
        try:
            return bool(stream.sock.recv(READ_LIMIT))
        except (BlockingIOError, InterruptedError):
            return True
        except OSError:
            return False

    def _flush(self, selector, streams, stream: _Stream) -> None:
        sock = stream.sock
        while True:
            if not stream.out:
                if not stream.pending:
                    break
                event = next(iter(stream.pending))
                stream.out = memoryview(stream.pending.pop(event))
            try:
                sent = sock.send(stream.out)
            except (BlockingIOError, InterruptedError):
                sent = 0
            except OSError:
                self._drop(selector, streams, stream)
                return
            if sent:
                stream.last_sent = time.monotonic()
                stream.out = stream.out[sent:]
            if stream.out:     # the socket's buffer is full: wait until the selector says writable
                break
        waiting = bool(stream.out)
        if waiting and stream.blocked_since is None:
            stream.blocked_since = time.monotonic()
        elif not waiting:
            stream.blocked_since = None
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if waiting else 0)
        if events != stream.events:
            stream.events = events
            selector.modify(sock, events, stream)

    def _tend(self, selector, streams, now: float) -> None:
        for stream in list(streams.values()):
            if stream.blocked_since is not None and now - stream.blocked_since > self.stall:
                log.info("dropping an event stream to %s: it read nothing for %.0f s",
                         stream.ticket.address, now - stream.blocked_since)
                self._drop(selector, streams, stream)
            elif not stream.out and now - stream.last_sent >= self.keepalive:
                stream.queue(":", KEEPALIVE)
                self._flush(selector, streams, stream)

    def _drop(self, selector, streams, stream: _Stream) -> None:
        sock = stream.sock
        if streams.pop(sock.fileno(), None) is not None:
            try:
                selector.unregister(sock)
            except (KeyError, ValueError):
                pass
        sock.close()
        self._release(stream.ticket)


def _tune(sock: socket.socket) -> None:
    """Frames leave at once, and a peer that vanished is noticed within about ten seconds even
    when nothing is being sent (keepalive probes) or when sends go unacknowledged."""
    options = [(socket.IPPROTO_TCP, getattr(socket, "TCP_NODELAY", None), 1),
               (socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1),
               (socket.IPPROTO_TCP, getattr(socket, "TCP_KEEPIDLE", None), 5),
               (socket.IPPROTO_TCP, getattr(socket, "TCP_KEEPINTVL", None), 2),
               (socket.IPPROTO_TCP, getattr(socket, "TCP_KEEPCNT", None), 3),
               (socket.IPPROTO_TCP, getattr(socket, "TCP_USER_TIMEOUT", None), 10_000)]
    for level, name, value in options:
        if name is None:
            continue
        try:
            sock.setsockopt(level, name, value)
        except OSError:
            pass   # not a TCP socket (a test's socketpair), or an option this system lacks
