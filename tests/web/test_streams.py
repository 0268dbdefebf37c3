"""Event streams: many at once without a thread each, every change to every stream, dead ones
released, a cap per address refused with a reason, strict frames, latest-wins for slow readers.

The first tests hold real streams on a real `companion serve` over real HTTP; the rest drive the
hub directly over real socket pairs. Every wait is bounded, and what is asserted is counts.
"""

from __future__ import annotations

import http.client
import json
import re
import selectors
import socket
import struct
import subprocess
import sys
import time

import pytest

from web.streams import Refused, StreamHub, encode

FRAME_ID = re.compile(rb"(?:^|\n)id: (\d+)\n")
GAME = {"game": "incredibles", "players": ["dash"], "seed": 7, "starting_problems": ["A", "B", "C"]}


def configured(server_factory, tmp_path, text: str, *args: str):
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    (data / "config.toml").write_text(text)
    return server_factory(*args, data=data)


class Streams:
    """Many raw event streams read by one selector in the test's own thread (no client threads)."""

    def __init__(self, port: int):
        self.port = port
        self.selector = selectors.DefaultSelector()
        self.seen: dict[socket.socket, list[int]] = {}
        self.raw: dict[socket.socket, bytes] = {}

    def open(self, count: int) -> list[socket.socket]:
        opened = []
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
            sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.seen[sock], self.raw[sock] = [], b""
            opened.append(sock)
        return opened

    def pump(self, until, timeout: float = 20.0) -> bool:
        deadline = time.monotonic() + timeout
        while not until():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            for key, _ in self.selector.select(min(left, 0.2)):
                sock = key.fileobj
                try:
                    data = sock.recv(1 << 20)
                except BlockingIOError:
                    continue
                if not data:
                    self.selector.unregister(sock)
                    continue
                buf = self.raw[sock] + data
                self.seen[sock] += [int(m.group(1)) for m in FRAME_ID.finditer(buf)]
                self.raw[sock] = buf[buf.rfind(b"\n\n") + 2:] if b"\n\n" in buf else buf
        return True

    def everyone_has(self, seq: int) -> bool:
        return all(seq in seen for seen in self.seen.values())

    def close(self, socks=None, abrupt: bool = False) -> None:
        for sock in list(socks if socks is not None else self.seen):
            if abrupt:  # a reset, as a phone's browser killed mid-stream leaves it
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            try:
                self.selector.unregister(sock)
            except (KeyError, ValueError):
                pass
            sock.close()
            self.seen.pop(sock, None)


def open_streams(server) -> int:
    return server.get("/api/health")[1]["streams"]


def wait_for(predicate, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


@pytest.fixture
def held(server_factory, tmp_path):
    """``hold(count, per_address, *serve_args)``: a server and ``count`` streams that have each
    had their first frame; the streams are closed afterwards."""
    opened = []

    def hold(count: int, per_address: int, *args: str):
        server = configured(server_factory, tmp_path, f"[server]\nstreams_per_address = {per_address}\n",
                            *args)
        streams = Streams(server.port)
        opened.append(streams)
        socks = streams.open(count)
        assert streams.pump(lambda: streams.everyone_has(0))
        assert open_streams(server) == count
        return server, streams, socks
    yield hold
    for streams in opened:
        streams.close()


def test_a_hundred_streams_each_get_every_change_and_writes_still_succeed(held):
    # Four request threads for a hundred streams: a stream that held one would stop every POST.
    server, streams, _ = held(100, 100, "--threads", "4")
    status, view = server.post("/api/session", GAME)
    assert status == 201
    seqs = [view["seq"]]
    assert streams.pump(lambda: streams.everyone_has(view["seq"]))
    for n in range(15):
        status, view = server.post("/api/actions", {"type": "timer.add" if n else "timer.start",
                                                    "data": {"seconds": 60}})
        assert status == 200, view
        seqs.append(view["seq"])
        assert streams.pump(lambda: streams.everyone_has(view["seq"]))
    assert len(seqs) == 16
    for seen in streams.seen.values():
        assert seen == [0] + seqs      # each change once, in order, on every stream
    assert open_streams(server) == 100


def test_the_answer_and_every_frame_carry_the_same_bytes_of_a_change(held):
    """One serialisation per change (companion/views.py): the POST's answer is the change's view
    as encoded once, and each stream's frame for it carries those very bytes."""
    server, streams, socks = held(3, 3)
    server.post("/api/session", GAME)
    for body in ({"type": "timer.start", "data": {"seconds": 60}},
                 {"type": "timer.add", "data": {"seconds": 5}}):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("POST", "/api/actions", json.dumps(body), {"Content-Type": "application/json"})
        answer = conn.getresponse().read()
        conn.close()
        seq = json.loads(answer)["seq"]
        frames = {sock: b"" for sock in socks}

        def framed() -> bool:
            for sock in socks:
                try:
                    frames[sock] += sock.recv(1 << 20)
                except BlockingIOError:
                    pass
            return all(f"id: {seq}\n".encode() in f and f.endswith(b"\n\n")
                       for f in frames.values())
        assert wait_for(framed, 10), "a stream lacks the change"
        for got in frames.values():
            frame = got[got.index(f"id: {seq}\n".encode()):].split(b"\n\n", 1)[0]
            assert frame.split(b"data: ", 1)[1] == answer


def test_streams_closed_abruptly_are_released_within_seconds(held):
    server, streams, socks = held(40, 40)
    streams.close(socks[:20], abrupt=True)     # reset
    streams.close(socks[20:30])                # closed politely
    assert wait_for(lambda: open_streams(server) == 10), open_streams(server)
    streams.close(abrupt=True)
    assert wait_for(lambda: open_streams(server) == 0), open_streams(server)
    # the places are free again, and the server still answers changes at once
    streams.open(40)
    assert streams.pump(lambda: streams.everyone_has(0))
    assert server.post("/api/session", GAME)[0] == 201


def test_the_cap_per_address_refuses_with_a_reason_and_frees_up(held):
    server, streams, socks = held(3, 3)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", "/api/events")
    res = conn.getresponse()
    body = json.loads(res.read())
    assert res.status == 429 and res.getheader("Retry-After") == "5"
    assert "already has 3 live views" in body["error"] and body["limit"] == 3 and body["open"] == 3
    conn.close()
    assert open_streams(server) == 3           # the refusal took no place
    streams.close(socks[:1], abrupt=True)
    assert wait_for(lambda: open_streams(server) == 2)
    streams.open(1)
    assert streams.pump(lambda: streams.everyone_has(0))


def test_a_stream_after_an_answer_on_a_kept_alive_connection(server):
    server.post("/api/session", GAME)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", "/api/state")           # an ordinary answer first, then the stream
    seq = json.loads(conn.getresponse().read())["seq"]
    conn.request("GET", "/api/events")
    res = conn.getresponse()
    assert res.status == 200 and res.getheader("Content-Type").startswith("text/event-stream")
    assert res.getheader("Content-Length") is None and res.getheader("Connection") == "close"
    text = b""
    while f"id: {seq}\n".encode() not in text:
        text += res.fp.readline()
    assert text.startswith(b"retry: 1000\n\n")
    server.act("roll", "dash", face="2")
    while f"id: {seq + 1}\n".encode() not in text:
        text += res.fp.readline()
    res.close()                                 # the response holds the socket, not only conn
    conn.close()
    assert wait_for(lambda: open_streams(server) == 0)


def test_stream_settings_are_checked(tmp_path):
    (tmp_path / "config.toml").write_text("[server]\nstreams_per_address = 0\n")
    proc = subprocess.run([sys.executable, "-m", "companion", "serve", "--port", "0", "--data",
                           str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "server.streams_per_address" in proc.stderr
    assert "between 1 and 1000" in proc.stderr and "Traceback" not in proc.stderr


# -- the hub itself, over real socket pairs --------------------------------------------------------

@pytest.fixture
def hub():
    hubs = []

    def make(**kw):
        h = StreamHub(**kw)
        hubs.append(h)
        return h
    yield make
    for h in hubs:
        h.close()


def attach(hub: StreamHub, address="10.0.0.2"):
    ours, theirs = socket.socketpair()
    hub.admit(address).start(ours, b"HEAD\n")
    theirs.settimeout(5)
    return theirs


def read_until(sock, marker: bytes, limit: float = 5.0) -> bytes:
    got, deadline = b"", time.monotonic() + limit
    while marker not in got and time.monotonic() < deadline:
        try:
            chunk = sock.recv(1 << 16)
        except TimeoutError:
            break
        if not chunk:
            break
        got += chunk
    return got


def test_a_frame_that_is_not_strict_json_is_skipped_and_logged(hub, caplog):
    h = hub()
    h.publish("state", {"seq": 1}, id=1)
    client = attach(h)
    assert b"id: 1\n" in read_until(client, b"id: 1\n")
    with pytest.raises(ValueError):
        encode("state", {"x": float("nan")})
    assert h.publish("state", {"seq": 2, "x": float("inf")}, id=2) is False
    assert "not strict JSON" in caplog.text and h.frames_skipped == 1
    assert h.publish("state", {"seq": 3}, id=3)
    got = read_until(client, b"id: 3\n")
    assert b"id: 3\n" in got and b"id: 2\n" not in got and b"Infinity" not in got


def test_a_slow_reader_gets_the_newest_frame_not_a_queue(hub):
    h = hub()
    client = attach(h)
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    big = "x" * 50_000
    for seq in range(1, 201):                 # 10 MB published; the reader is not reading
        h.publish("state", {"seq": seq, "pad": big}, id=seq)
    h.publish("log", {"line": "last"})
    time.sleep(0.3)
    got = read_until(client, b'"line":"last"', limit=10)
    ids = [int(m.group(1)) for m in FRAME_ID.finditer(got)]
    assert ids and ids[-1] == 200 and len(ids) < 50, ids   # skipped ahead, newest last
    assert ids == sorted(ids) and b"event: log" in got


def test_a_new_stream_starts_with_the_newest_of_each_event_and_keepalives_when_quiet(hub):
    h = hub(keepalive=0.3)
    h.publish("state", {"seq": 4}, id=4)
    h.publish("state", {"seq": 3}, id=3)      # overtaken: never sent
    h.publish("table", {"layout": "wide"})
    client = attach(h)
    got = read_until(client, b": keepalive")
    assert got.startswith(b"HEAD\nretry: 1000\n\n")
    assert b"id: 4\nevent: state\n" in got and b"id: 3" not in got
    assert b'event: table\ndata: {"layout":"wide"}' in got and b": keepalive\n\n" in got


def test_a_stream_that_stops_reading_is_dropped_after_the_stall_time(hub):
    h = hub(stall=0.5)
    client = attach(h)
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    # Keep frames coming until the socket buffers on both sides are full and the writer blocks
    # (how much the kernel buffers varies, so a fixed number of frames can fit in them all).
    seq, deadline = 0, time.monotonic() + 20
    while h.count() and time.monotonic() < deadline:
        seq += 1
        h.publish("state", {"seq": seq, "pad": "x" * 200_000}, id=seq)
        time.sleep(0.02)
    assert h.count() == 0, f"still open after {seq} frames it never read"
    client.close()


def test_caps_per_address_and_in_all(hub):
    h = hub(per_address=2, total=3)
    held = [attach(h, "a"), attach(h, "a")]     # held: a client socket let go closes its stream
    with pytest.raises(Refused) as refused:
        h.admit("a")
    assert refused.value.status == 429 and "at most 2" in str(refused.value)
    held.append(attach(h, "b"))
    with pytest.raises(Refused) as refused:
        h.admit("c")
    assert refused.value.status == 503 and "at most 3" in str(refused.value)
    assert h.count() == 3 and h.count("a") == 2


def test_closing_the_hub_ends_every_stream_and_refuses_new_ones(hub):
    h = hub()
    h.publish("state", {"seq": 1}, id=1)
    clients = [attach(h) for _ in range(3)]
    for c in clients:
        read_until(c, b"id: 1\n")
    h.close()
    for c in clients:
        read_until(c, b"never")                  # to the end of the stream (or 5 s)
        assert c.recv(10) == b""                 # the end: a stream still open would time out
    with pytest.raises(Refused) as refused:
        h.admit("a")
    assert refused.value.status == 503 and h.count() == 0
    h.close()   # twice is fine
