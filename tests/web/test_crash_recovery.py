"""SIGKILL mid-game: no acknowledged action lost, the same state, the same next card."""

import threading

from companion.actions import Action
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session

SETUP = {"game": "incredibles", "players": ["dash", "violet"], "seed": 11}
MOVES = [("roll", "dash", {"face": "2"}), ("move", "dash", {"to": "start"}),
         ("roll", "violet", {"face": "alarm"})]


def reference_next_card():
    """The card the next Alarm draws, from an in-memory session fed the same actions."""
    with Journal(":memory:") as journal:
        session = Session(journal, Catalog())
        session.start("incredibles", {"players": SETUP["players"]}, seed=SETUP["seed"])
        for type_, player, data in MOVES:
            session.submit(Action(type_, player, data))
        view = session.submit(Action("roll", "dash", {"face": "alarm"}))
        return view["state"]["last_card"]


def test_sigkill_mid_game_loses_nothing_and_draws_the_same_next_card(server_factory, tmp_path):
    data = tmp_path / "data"
    server = server_factory(data=data)
    assert server.post("/api/session", SETUP)[0] == 201
    for type_, player, data_ in MOVES:
        status, view = server.act(type_, player, **data_)
        assert status == 200, view
    before = view
    server.kill()

    server = server_factory(data=data)
    status, after = server.get("/api/state")
    assert after["seq"] == before["seq"]
    assert after["state"] == before["state"] and after["expect"] == before["expect"]
    status, drawn = server.act("roll", "dash", face="alarm")
    assert drawn["state"]["last_card"] == reference_next_card()


def test_every_acknowledged_action_survives_a_sigkill_under_load(server_factory, tmp_path):
    data = tmp_path / "data"
    server = server_factory(data=data)
    server.post("/api/session", SETUP)
    status, view = server.post("/api/actions", {"type": "timer.start", "data": {"seconds": 600}})
    assert status == 200
    acked: list[int] = []
    stop = threading.Event()

    def hammer():
        while not stop.is_set():
            try:
                status, view = server.post("/api/actions", {"type": "timer.add", "data": {"seconds": 1}})
            except OSError:
                return  # the server died mid-request: that one was never acknowledged
            if status == 200:
                acked.append(view["seq"])

    worker = threading.Thread(target=hammer)
    worker.start()
    while len(acked) < 30:
        threading.Event().wait(0.01)
    server.kill()
    stop.set()
    worker.join(30)

    server = server_factory(data=data)
    _, after = server.get("/api/state")
    assert after["seq"] >= max(acked)
    added = after["timers"]["turn"]["duration"] - 600
    # Every acknowledged add is there; at most one more was on disk when the reply was cut off.
    assert len(acked) <= added <= len(acked) + 1


def test_what_an_undo_took_back_is_still_said_after_a_power_cut(server_factory, tmp_path):
    """Every screen says "Undone: Dash: roll 2" after an undo; a real `companion serve` killed
    right after it came back without the line (start-up shows its notices after the game is
    loaded, and that view dropped it; found by a verification audit)."""
    data = tmp_path / "data"
    server = server_factory(data=data)
    assert server.post("/api/session", SETUP)[0] == 201
    assert server.act("roll", "dash", face="2")[0] == 200
    status, undone = server.post("/api/actions", {"type": "undo"})
    assert status == 200 and undone["undone"]["action"]["type"] == "roll"
    server.kill()

    server = server_factory(data=data)
    status, after = server.get("/api/state")
    assert after["seq"] == undone["seq"] and after["undone"] == undone["undone"], after["undone"]


def test_hero_time_that_ran_out_while_off_is_told_until_read_across_restarts(server_factory,
                                                                             tmp_path):
    """A power cut in a Hero Phase; hero time ran out while the companion was off. The first
    start-up told every screen so, but a second restart before anyone tapped Understood said
    nothing (the journal's expiry no longer looked late), the very table the notice is for (a
    hostile-input audit). Now it is told until read, and never after."""
    import time

    data = tmp_path / "data"
    server = server_factory(data=data)
    status, _ = server.post("/api/session", {"game": "invincible", "seed": 3, "options": {
        "heroes": ["invincible", "atom-eve"], "hero_time": {"seconds": 2}}})
    assert status == 201
    assert server.act("advance")[0] == 200
    server.kill()                                      # the power cut
    time.sleep(2.5)                                    # hero time runs out meanwhile

    def timer_notices(server):
        deadline = time.monotonic() + 10
        while True:
            said = [n["text"] for n in server.get("/api/state")[1]["notices"]
                    if n.get("kind") == "timer"]
            if said or time.monotonic() > deadline:
                return said
            time.sleep(0.1)

    server = server_factory(data=data)
    first = timer_notices(server)
    assert len(first) == 1 and "Hero time ran out at" in first[0], first
    assert server.get("/api/state")[1]["state"]["phase"] != "hero"
    server.stop()
    server = server_factory(data=data)                 # restarted again, nobody read it yet
    assert timer_notices(server) == first
    assert server.request("DELETE", "/api/notices")[0] == 200
    server.stop()
    server = server_factory(data=data)
    time.sleep(1)                                      # the ticker has ticked
    assert not [n for n in server.get("/api/state")[1]["notices"] if n.get("kind") == "timer"]


def test_a_notices_file_that_cannot_be_read_or_written_stops_nothing(server_factory, tmp_path):
    """A hostile-input audit: with <data>/notices.json a folder, telling of a timer that ran out
    while the service was off killed the ticker (no timer ran out again, no backup was taken)
    and each 'Understood' answered 500; a deeply nested one stopped start-up with a traceback.
    Now each is logged, the notice is still shown, the clock goes on and the tap is answered."""
    import time

    data = tmp_path / "data"
    server = server_factory(data=data)
    server.post("/api/session", {"game": "incredibles", "players": ["dash"], "seed": 7})
    assert server.act("timer.start", name="turn", seconds=1)[0] == 200
    server.stop()
    time.sleep(1.5)                                    # the turn timer runs out while it is off
    (data / "notices.json").mkdir()
    server = server_factory(data=data)
    deadline = time.monotonic() + 10
    while not [n for n in server.get("/api/state")[1]["notices"] if n.get("kind") == "timer"]:
        assert time.monotonic() < deadline, "the late timer was never told"
        time.sleep(0.1)
    assert server.act("timer.start", name="turn", seconds=1)[0] == 200
    deadline = time.monotonic() + 10
    while not server.get("/api/state")[1]["timers"]["turn"]["expired"]:
        assert time.monotonic() < deadline, "the ticker stopped"
        time.sleep(0.1)
    assert server.request("DELETE", "/api/notices")[0] == 200
    server.stop()
    (data / "notices.json").rmdir()
    (data / "notices.json").write_text("[" * 100_000 + "]" * 100_000)
    server = server_factory(data=data)
    assert server.get("/api/health")[0] == 200



def late_hero_time(server_factory, data):
    """Invincible with a 2 s hero time, a power cut in the Hero Phase, hero time run out while
    the companion was off: the service started again, once it has told every screen so."""
    import time

    server = server_factory(data=data)
    assert server.post("/api/session", {"game": "invincible", "seed": 3, "options": {
        "heroes": ["invincible", "atom-eve"], "hero_time": {"seconds": 2}}})[0] == 201
    assert server.act("advance")[0] == 200
    server.kill()                                      # the power cut
    time.sleep(2.5)                                    # hero time runs out meanwhile
    server = server_factory(data=data)
    deadline = time.monotonic() + 10
    while not [n for n in server.get("/api/state")[1]["notices"] if n.get("kind") == "timer"]:
        assert time.monotonic() < deadline, "the late timer was never told"
        time.sleep(0.1)
    return server


def told_in_file(data):
    import json

    path = data / "notices.json"
    return [n["text"] for n in json.loads(path.read_text())] if path.exists() else []


def test_a_late_timers_notice_goes_when_undo_takes_its_expiry_back(server_factory, tmp_path):
    """At a real table (Invincible, hero-time variant): hero time ran out while the companion was
    off, start-up ran it out and told every screen; the players pressed Undo, the expiry was
    taken back with the advance (hero time back to its full time), but every screen still said
    hero time had run out until someone tapped Understood, and a restart said it again. The
    notice tells of the expiry's journal entry: when the game no longer has that entry, the
    notice is gone from every view and from <data>/notices.json, restart or not."""
    import time

    data = tmp_path / "data"
    server = late_hero_time(server_factory, data)
    assert "Hero time ran out" in told_in_file(data)[0]

    status, undone = server.post("/api/actions", {"type": "undo"})
    assert status == 200 and undone["undone"]["action"]["type"] == "advance", undone
    hero_time = undone["timers"]["hero_time"]
    assert not hero_time["expired"] and hero_time["remaining"] == 2, hero_time
    assert undone["notices"] == [], undone["notices"]      # the undo's own answer
    assert server.get("/api/state")[1]["notices"] == []    # and every view after it
    deadline = time.monotonic() + 5
    while told_in_file(data):
        assert time.monotonic() < deadline, told_in_file(data)
        time.sleep(0.05)
    server.stop()

    server = server_factory(data=data)                 # nobody tapped Understood
    time.sleep(1)                                      # the ticker has ticked
    assert server.get("/api/state")[1]["notices"] == []


def test_a_power_cut_before_the_notices_file_caught_up_brings_no_notice_back(server_factory,
                                                                             tmp_path):
    """The undo is in the journal, but the power went before notices.json was written again:
    start-up asks the journal whether the expiry a notice tells of is still in the game."""
    import time

    data = tmp_path / "data"
    server = late_hero_time(server_factory, data)
    as_it_was = (data / "notices.json").read_text()
    assert server.post("/api/actions", {"type": "undo"})[0] == 200
    server.kill()
    (data / "notices.json").write_text(as_it_was)      # the file as the power cut left it

    server = server_factory(data=data)
    time.sleep(1)                                      # the ticker has ticked
    assert server.get("/api/state")[1]["notices"] == []
    assert told_in_file(data) == []
