"""One strict JSON boundary: no NaN or Infinity in, none out, every error a JSON 4xx naming the
field. Each reproduction of issue 18 over real HTTP to a real `companion serve`, and an engine of
our own that makes a NaN, to show it cannot reach a client whatever an engine does."""

import http.client
import json
import logging
import math

import pytest

from companion.games import Catalog
from companion.games.base import Game
from companion.journal import Journal
from companion.session import Session
from live_server import live_app

GAME = {"game": "incredibles", "players": ["dash", "violet"], "seed": 3,
        "starting_problems": ["A", "B", "C"]}


def strict(raw: bytes):
    """Parse as a browser's JSON.parse would: NaN, Infinity and -Infinity are errors."""
    def refuse(text):
        raise ValueError(f"{text} in an answer")
    return json.loads(raw, parse_constant=refuse)


def post_raw(server, path, raw: bytes):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("POST", path, body=raw, headers={"Content-Type": "application/json"})
    res = conn.getresponse()
    out = res.status, res.getheader("Content-Type"), res.read()
    conn.close()
    return out


@pytest.mark.parametrize("raw, field", [
    (b'{"type":"timer.start","data":{"seconds":60,"warn":NaN}}', "data.warn"),
    (b'{"type":"timer.start","data":{"seconds":Infinity}}', "data.seconds"),
    (b'{"type":"timer.start","data":{"seconds":60,"label":-Infinity}}', "data.label"),
    (b'{"type":"timer.start","data":{"seconds":1e400}}', "data.seconds"),     # inf in Python
    (b'{"type":"roll","player":"dash","data":{"face":"2","extra":NaN}}', "data.extra"),
])
def test_non_finite_numbers_are_refused_naming_the_field_and_never_journaled(server, raw, field):
    """Issue 18: `{"type":"timer.start","data":{"seconds":60,"warn":NaN}}` answered 200, the state
    then carried `"warn":NaN` and every dashboard's JSON.parse threw, even after a restart."""
    assert server.post("/api/session", GAME)[0] == 201
    before = server.get("/api/state")[1]["seq"]
    status, kind, body = post_raw(server, "/api/actions", raw)
    assert status == 400 and kind == "application/json"
    error = strict(body)["error"]
    assert error.startswith(field + ":") and "not a number JSON allows" in error
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", "/api/state")
    view = strict(conn.getresponse().read())
    conn.close()
    assert view["seq"] == before and view["timers"] == {}


@pytest.mark.parametrize("raw, words", [
    (b'{"type":"roll","data":' + b'{"a":' * 1000 + b"1" + b"}" * 1000 + b"}", "nested more than 32"),
    (b'{"type":"timer.start","data":{"seconds":60,"name":["turn"]}}', "timer.start"),
    (b'{"type":"timer.start","data":{"seconds":60,"name":{"a":1}}}', "timer.start"),
    (b'{"type":"timer.start","data":{"seconds":60,"warn":"abc"}}', "timer.start"),
    (b'{"type":"timer.start","data":{"seconds":60,"warn":null}}', "timer.start"),
    (b'{"type":"timer.start","data":{"seconds":60,"warn":[]}}', "timer.start"),
    (b'{"type":"roll","type":"move"}', "appears twice"),
    (b'{"type":"roll","player":"\\ud800"}', "player: text with an unpaired surrogate"),
    (b'{"type":"\xff"}', "not UTF-8"),
    (b"{roll", "not valid JSON"),
    (b"[1, 2]", "must be a JSON object"),
])
def test_odd_bodies_get_a_json_4xx_never_an_html_500(server, raw, words):
    """Issue 18: 1,152 of the grid answered with an HTML 500 (nesting 1,000 deep; a list or dict
    where a timer name goes; `warn` as "abc", null or [])."""
    assert server.post("/api/session", GAME)[0] == 201
    before = server.get("/api/state")[1]["seq"]
    status, kind, body = post_raw(server, "/api/actions", raw)
    assert 400 <= status < 500 and kind == "application/json", body[:200]
    assert words in strict(body)["error"]
    assert server.get("/api/state")[1]["seq"] == before


def test_every_error_path_answers_json(server):
    for method, path, raw in (("GET", "/no/such/page", None), ("PUT", "/api/state", None),
                              ("POST", "/api/actions", b"x" * (70 * 1024)),
                              ("POST", "/api/session", b'{"game": NaN}')):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request(method, path, body=raw, headers={"Content-Type": "application/json"})
        res = conn.getresponse()
        assert 400 <= res.status < 500 and res.getheader("Content-Type") == "application/json", path
        assert strict(res.read())["error"]
        conn.close()


class NaNGame(Game):
    """An engine with a bug: its state holds a NaN once a `spoil` action has been applied."""

    name = title = "nan"
    actions = {"spoil": "put a NaN into the state", "mend": "take it out again"}

    def setup(self, options, rng):
        return {"value": 1.0}

    def apply(self, state, action, rng):
        self.check_type(action)
        return {"value": math.nan if action.type == "spoil" else 2.0}

    def expect(self, state):
        return {"actions": list(self.actions), "prompt": "spoil it"}

    def outcome(self, state):
        return {"status": "playing"}

    def to_json(self, state):
        return dict(state)


def read_frames(live, count, timeout=5.0):
    """The first ``count`` blocks of /api/events, as sent (frames and comment lines)."""
    conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=timeout)
    conn.request("GET", "/api/events")
    res = conn.getresponse()
    blocks, buf = [], b""
    while len(blocks) < count:
        line = res.readline()
        if not line:
            break
        buf += line
        if line == b"\n":
            blocks.append(buf.decode())
            buf = b""
    conn.close()
    return blocks


def test_no_non_finite_number_reaches_a_client_whatever_the_engine_does(tmp_path, caplog):
    """A change's view is encoded once, strictly, before its entry is journaled
    (companion/views.py): an engine whose state would hold a NaN has that action refused, nothing
    is journaled, and every answer and frame goes on carrying the state as it was."""
    real = Catalog()
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = Session(journal, lambda name: NaNGame() if name == "nan" else real(name))
        session.start("nan", {}, seed=1)
        before = journal.last_seq()
        with live_app(session) as live, caplog.at_level(logging.ERROR):
            status, _h, body = live.json("POST", "/api/actions", {"type": "spoil"})
            assert status == 400 and "could not be used" in strict(body)["error"]
            assert journal.last_seq() == before, "the action was journaled"
            status, _h, body = live.request("GET", "/api/state")
            assert status == 200 and strict(body)["state"] == {"value": 1.0}
            assert any("Out of range float" in r.getMessage() or "Out of range float" in
                       str(r.exc_info) for r in caplog.records)
            blocks = read_frames(live, 2)        # the retry line, then the state as it was
            assert blocks[1].startswith("id: ") and "NaN" not in "".join(blocks)
            assert strict(blocks[1].split("data: ", 1)[1])["state"] == {"value": 1.0}
            status, _h, body = live.json("POST", "/api/actions", {"type": "mend"})
            assert status == 200 and strict(body)["state"] == {"value": 2.0}
            blocks = read_frames(live, 2)
            assert blocks[1].startswith("id: ") and strict(blocks[1].split("data: ", 1)[1])
