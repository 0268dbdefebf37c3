"""Whole games of The Incredibles over real HTTP to a real `companion serve`: a win, each way
of losing, the event stream, and bad input that changes nothing.
"""

import http.client
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

WIN = [  # Dash alone, starting problems A (Strength), B (Defense), C (Agility); no Alarms.
    ("roll", {"face": "1"}), ("move", {"to": "1"}),                                 # rescues Jack-Jack
    ("roll", {"face": "2"}), ("move", {"to": "A"}), ("fix", {"power": "strength"}),
    ("roll", {"face": "3"}), ("move", {"to": "B"}), ("fix", {"power": "wild"}),
    ("roll", {"face": "3"}), ("move", {"to": "C"}), ("fix", {"power": "agility"}),
]


def start(server, **extra):
    body = {"game": "incredibles", "players": ["dash"], "seed": 7,
            "starting_problems": ["A", "B", "C"], **extra}
    status, view = server.post("/api/session", body)
    assert status == 201, view
    return view


def test_a_whole_game_to_a_win(server):
    start(server)
    for type_, data in WIN:
        status, view = server.act(type_, "dash", **data)
        assert status == 200, (type_, data, view)
    assert view["outcome"]["status"] == "won"
    status, state = server.get("/api/state")
    assert state["outcome"]["status"] == "won" and state["seq"] == view["seq"]
    status, history = server.get("/api/history")
    assert history["games"][0]["outcome"]["status"] == "won"


def test_losing_when_a_new_problem_pushes_an_open_one_to_too_late(server):
    start(server, deck=["problem-D"])
    status, view = server.act("roll", "dash", face="alarm")
    assert status == 200
    assert view["outcome"]["status"] == "lost" and "C" in view["outcome"]["reason"]
    status, err = server.act("move", "dash", to="start")
    assert status == 422 and "game is over" in err["error"]


def test_losing_when_alarms_slide_the_track_after_the_deck_runs_out(server_factory, tmp_path):
    """An owner's smaller deck (components override) runs out quickly: "If the cards run out, each
    time the Alarm symbol is rolled, slide all the cards on the Problem Track one space to the right.\""""
    data = tmp_path / "data"
    (data / "components").mkdir(parents=True)
    from companion.games.incredibles.data import SHIPPED
    text = SHIPPED.read_text()
    text = text.replace('road_destroyed = ["3", "6", "10", "13", "16"]', "road_destroyed = []")
    text = text.replace('frozone = ["strength", "defense", "agility", "speed"]', "frozone = []")
    text = text.replace('jackjack = ["4", "7", "9", "12", "14", "15"]', "jackjack = []")
    text = text.replace("edna = 3", "edna = 1")
    text = text.replace('problem = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"]',
                        'problem = ["A", "B", "C"]')
    (data / "components" / "incredibles.toml").write_text(text)
    server = server_factory(data=data)
    start(server)
    status, view = server.act("roll", "dash", face="alarm")          # Edna, the only card
    assert view["state"]["jackjack"] is None and view["state"]["deck_count"] == 0
    assert any("deck is empty" in r["text"] for r in view["reminders"])
    status, view = server.act("roll", "dash", face="alarm")
    assert view["outcome"]["status"] == "lost"


def test_undo_over_http_takes_back_the_last_action(server):
    start(server)
    server.act("roll", "dash", face="2")
    status, view = server.act("move", "dash", to="2")
    assert view["undo"]["action"]["type"] == "move"
    status, view = server.post("/api/actions", {"type": "undo"})
    assert status == 200 and view["expect"]["phase"] == "move"
    assert view["state"]["movers"][0]["space"] == "start"


def read_event(stream, kind="state"):
    """The next `event: <kind>` of a server-sent event stream, parsed."""
    event, data = None, []
    while True:
        line = stream.readline().decode()
        if not line:
            raise EOFError("stream closed")
        line = line.rstrip("\n")
        if line == "":
            if event == kind:
                return json.loads("".join(data))
            event, data = None, []
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())


def test_event_stream_sends_the_current_state_then_every_change(server):
    start(server)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", "/api/events")
    res = conn.getresponse()
    assert res.getheader("Content-Type").startswith("text/event-stream")
    first = read_event(res)
    server.act("roll", "dash", face="2")
    second = read_event(res)
    assert second["seq"] == first["seq"] + 1 and second["expect"]["phase"] == "move"
    conn.close()


def test_a_refused_action_is_heard_on_every_event_stream_and_moves_no_seq(server):
    """A phone's refused tap: its own answer has the reason; every other screen hears of it on
    its stream (``event: refusal``: the newest few, whole), tagged with the page that made it."""
    view = start(server)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", "/api/events")
    res = conn.getresponse()
    assert read_event(res)["seq"] == view["seq"]
    opening = read_event(res, "refusal")                     # what the stream opened with
    status, body = server.post("/api/actions", {"type": "move", "player": "dash", "data": {"to": "A"}},
                               headers={"X-Companion-Page": "phone-7"})
    assert status == 422
    board = read_event(res, "refusal")
    assert board["last"] == opening["last"] + 1
    refusal = board["recent"][-1]
    assert refusal["id"] == board["last"]
    assert refusal["text"] == body["error"] and refusal["rule"] == body["rule"]
    assert (refusal["source"], refusal["page"], refusal["kind"]) == ("dashboard", "phone-7", "refused")
    server.act("roll", "dash", face="2")
    assert read_event(res)["seq"] == view["seq"] + 1        # the refusal took no seq
    # two phones' taps crossing (the later one made on the state before): its phone looks again
    # and retries; no other screen is told of it
    status, body = server.post("/api/actions", {"type": "roll", "player": "dash", "data": {"face": "2"},
                                                "if_seq": view["seq"]})
    assert status == 409 and "the table changed" in body["error"]
    status, body = server.post("/api/actions", {"type": "move", "player": "dash", "data": {"to": "Z9"}})
    assert status in (400, 422)
    after = read_event(res, "refusal")                      # the next refusal heard: the move's
    assert after["last"] == board["last"] + 1 and after["recent"][-1]["text"] == body["error"], after
    conn.close()


@pytest.mark.parametrize("raw, status, words", [
    (b"{not json", 400, "not valid JSON"),
    (b"[1, 2]", 400, "JSON object"),
    (b'{"type": "teleport"}', 400, "unknown action"),
    (b'{"type": "roll", "colour": "red"}', 400, "unknown field"),
    (b'{"type": "roll", "data": {"face": "7"}}', 400, "not a face"),
    (b'{"type": "roll", "player": "violet", "data": {"face": "2"}}', 422, "Dash's turn"),
    (b'{"type": "move", "data": {"to": "2"}}', 422, "roll the Movement Die"),
    (b'{"type": "roll", "if_seq": 0}', 409, "changed since"),
    (b'{"type": "roll", "data": {"pad": "' + b"x" * 70000 + b'"}}', 413, "larger than"),
    # found by a hostile-input audit: a stale-looking 409 for a number no seq can be; Python's
    # advice to its programmer in the answer; a timer's label of any type and length
    (b'{"type": "roll", "if_seq": -1}', 400, "if_seq must be the seq number"),
    (b'{"type": "roll", "data": {"face": ' + b"1" * 5000 + b"}}", 400, "more than 4300 digits"),
    ('\ufeff{"type": "roll"}'.encode(), 400, "byte-order mark"),
    (b'{"type": "timer.start", "data": {"seconds": 60, "label": {"a": 1}}}', 400, "data.label"),
    (b'{"type": "timer.start", "data": {"seconds": 60, "label": "' + b"x" * 16001 + b'"}}', 400,
     "1 to 16000 characters"),
    (b'{"type": "timer.start", "data": {"seconds": 60, "label": "a\\u0000b"}}', 400,
     "no control characters"),
    (b'{"type": "timer.start", "data": {"name": "\\u0000", "seconds": 60}}', 400, "data.name"),
])
def test_bad_input_is_refused_clearly_and_changes_nothing(server, raw, status, words):
    start(server, players=["dash", "violet"])
    _, before = server.get("/api/state")
    got, body = server.post("/api/actions", raw=raw)
    assert got == status and words in body["error"], body
    _, after = server.get("/api/state")
    assert after["seq"] == before["seq"] and after["state"] == before["state"]


def test_an_action_against_a_rule_names_the_rule(server):
    start(server)
    status, body = server.act("move", "dash", to="1")
    assert status == 422 and body["rule"] == "On Your Turn › 1. Roll the Movement Die"


def test_bad_setups_are_refused(server):
    for body, words in [({"game": "chess"}, "unknown game"),
                        ({"game": "incredibles", "players": ["dash", "dash"]}, "already taken"),
                        ({"game": "incredibles", "players": []}, "players"),
                        ({"game": "incredibles", "players": ["dash"], "seed": "x"}, "seed")]:
        status, err = server.post("/api/session", body)
        assert status == 400 and words in err["error"], err
    status, err = server.act("roll", face="2")
    assert status == 409 and "no game" in err["error"]


def _serve_once(data):
    return subprocess.run([sys.executable, "-m", "companion", "serve", "--port", "0", "--data",
                           str(data)], capture_output=True, text=True, timeout=60)


def test_a_corrupt_journal_is_kept_aside_and_the_table_starts_saying_so(server_factory, tmp_path):
    """Issue 18: the service always starts; the damaged file is kept as it was."""
    data = tmp_path / "data"
    data.mkdir()
    journal = data / "journal.sqlite3"
    journal.write_bytes(b"this is not a database, it is a shopping list" * 100)
    before = journal.read_bytes()
    server = server_factory(data=data)
    status, view = server.get("/api/state")
    assert status == 200 and view["game"] is None
    assert "not a usable companion journal" in view["notices"][0]["text"]
    (kept,) = (data / "damaged").iterdir()
    assert (kept / "journal.sqlite3").read_bytes() == before


def test_a_foreign_sqlite_file_is_not_taken_for_a_journal(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    with sqlite3.connect(data / "journal.sqlite3") as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
    proc = _serve_once(data)
    assert proc.returncode == 2 and "another program" in proc.stderr


def test_a_broken_component_file_is_refused_naming_the_file(server_factory, tmp_path):
    data = tmp_path / "data"
    (data / "components").mkdir(parents=True)
    (data / "components" / "incredibles.toml").write_text("powers = [unclosed\n")
    server = server_factory(data=data)
    status, err = server.post("/api/session", {"game": "incredibles", "players": ["dash"]})
    assert status == 400 and "incredibles.toml" in err["error"] and "TOML" in err["error"]


def test_a_game_held_back_for_edited_data_is_said_on_every_screen_until_read(server_factory, tmp_path):
    """The owner edits a component file while a game is in progress. After the restart the
    game was held back, but every screen said 'No game in progress': start-up's empty list of
    recovery notices wiped the one saying why (found by an owner's-box audit)."""
    data = tmp_path / "data"
    first = server_factory(data=data)
    start(first)
    _, played = first.act("roll", "dash", face="2")
    first.stop()
    shipped = (REPO / "companion" / "games" / "incredibles" / "incredibles.toml").read_text()
    (data / "components").mkdir()
    (data / "components" / "incredibles.toml").write_text(shipped.replace("edna = 3", "edna = 2"))

    again = server_factory(data=data)
    _, view = again.get("/api/state")
    assert view["game"] is None and [n["kind"] for n in view["notices"]] == ["held"], view
    assert "is not what this game began with" in view["notices"][0]["text"]
    _, view = again.request("DELETE", "/api/notices")
    assert view["notices"] == []
    again.stop()
    (data / "components" / "incredibles.toml").unlink()
    _, view = server_factory(data=data).get("/api/state")      # the data put back: it goes on
    assert (view["seq"], view["state"]) == (played["seq"], played["state"])


@pytest.mark.parametrize("game, options", [
    ("xmen-alert", {"players": ["\u200b", "Ana"]}),
    ("xmen-alert", {"players": ["An\u0000a", "Ben"]}),
    ("incredibles", {"players": [{"hero": "dash", "name": "\u200b\u200b"}]}),
    ("invincible", {"heroes": [{"hero": "invincible", "name": "Mo\u001bm"}, "atom-eve"]}),
])
def test_a_name_no_screen_can_show_is_refused(server, game, options):
    """A player's name of zero-width spaces, or with a NUL or an escape in it, started a game
    whose screens showed a blank or garbled name (found by a hostile-input audit); a name with
    an emoji family's zero-width joiners is a name."""
    status, body = server.post("/api/session", {"game": game, "options": options, "seed": 1})
    assert status == 400 and "name" in body["error"], body
    ok = {"xmen-alert": {"players": ["\U0001F468\u200d\U0001F469\u200d\U0001F467", "Ana"]},
          "incredibles": {"players": [{"hero": "dash", "name": "Zo\u00eb"}]},
          "invincible": {"heroes": [{"hero": "invincible", "name": "Mom"}, "atom-eve"]}}[game]
    assert server.post("/api/session", {"game": game, "options": ok, "seed": 1})[0] == 201


def test_an_if_seq_ahead_of_the_table_is_refused_as_bad_input(server):
    """A seq no page can have seen (ahead of the table's) was answered 409 "the table changed
    since you looked (now at 7, you saw 10^30)", sending the client to look again, for ever
    (a hostile-input audit). It is bad input, said as such, and nothing is journaled."""
    view = start(server)
    for ahead in (view["seq"] + 1, 10 ** 30):
        status, body = server.post("/api/actions", {"type": "roll", "player": "dash",
                                                    "data": {"face": "1"}, "if_seq": ahead})
        assert status == 400 and "the table is at" in body["error"], body
    assert server.get("/api/state")[1]["seq"] == view["seq"]
    status, _ = server.post("/api/actions", {"type": "roll", "player": "dash",
                                             "data": {"face": "1"}, "if_seq": view["seq"]})
    assert status == 200
