"""`companion serve` as a newcomer meets it: the address phones open, printed plainly, and a
Ctrl-C that stops it cleanly even with pages connected and the camera watching (SIGTERM with
requests in flight: test_shutdown.py)."""

import http.client
import signal


def test_the_address_for_phones_is_printed_and_a_loopback_server_says_phones_cannot_reach_it(
        server_factory, tmp_path):
    server = server_factory()                                     # 127.0.0.1, as `companion serve`
    line = server.proc.stdout.readline()
    assert "phones cannot reach 127.0.0.1" in line and "--host 0.0.0.0" in line
    everywhere = server_factory("--host", "0.0.0.0", data=tmp_path / "lan")   # as `make run`
    line = everywhere.proc.stdout.readline()
    code = everywhere.get("/api/access")[1]["code"]
    if "no network found" not in line:
        assert f":{everywhere.port}/play and type the join code {code}" in line, line


def test_ctrl_c_with_an_open_event_stream_stops_without_a_traceback(server_factory):
    server = server_factory("--simulate")
    server.post("/api/session", {"game": "xmen-alert", "options": {"players": ["Ana", "Ben"]}, "seed": 1})
    streams = []
    for _ in range(2):                                            # a table and a phone, watching
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", "/api/events")
        res = conn.getresponse()
        assert res.status == 200 and res.read(6) == b"retry:"
        streams.append(conn)
    server.proc.send_signal(signal.SIGINT)
    assert server.proc.wait(20) == 0
    err = server.proc.stderr.read()
    assert "Traceback" not in err and "Exception" not in err, err[-2000:]
    assert "stopping on signal 2" in err
    for conn in streams:
        conn.close()


def test_a_connection_closed_between_the_loops_map_read_and_its_select_does_not_stop_serving():
    """A stream's connection leaves waitress's map and is closed from a request thread
    (web/handoff.py). Once in a whole-suite run that fell between the I/O loop's reading of the
    map and its select(): select() failed with EBADF and the server died. Here the same order of
    events is made certain, on waitress's own loop: the connection leaves and closes while the
    loop is reading the map."""
    import socket
    import threading
    import urllib.request

    from flask import Flask
    from waitress import wasyncore

    from web.serving import make_server, run_until

    app = Flask(__name__)
    app.add_url_rule("/", "hello", lambda: "hello")
    server = make_server(app, "127.0.0.1", 0, threads=2)
    left, right = socket.socketpair()

    class Leaving(wasyncore.dispatcher):
        def readable(self):               # asked while the loop reads the map, before select()
            self.del_channel()
            self.socket.close()
            return True

    Leaving(left, map=server._map)
    stopping = threading.Event()
    loop = threading.Thread(target=run_until, args=(server, stopping), daemon=True)
    loop.start()
    try:
        url = f"http://127.0.0.1:{server.effective_port}/"
        assert urllib.request.urlopen(url, timeout=10).read() == b"hello"
        assert loop.is_alive()
    finally:
        stopping.set()
        loop.join(10)
        right.close()


def test_a_hundred_half_sent_requests_do_not_lock_the_screens_out(server_factory):
    """110 connections each sending half a request and then nothing (a scan of the network,
    stuck tabs): at waitress's default 100 places held for 60 s, /api/health timed out for
    everyone until they were dropped. Now the screens are answered at once."""
    import socket
    import time

    server = server_factory()
    held = []
    try:
        for _ in range(110):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            held.append(s)
        time.sleep(0.5)
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", "/api/health")
        assert conn.getresponse().status == 200
        conn.close()
    finally:
        for s in held:
            s.close()
