"""The simulated camera drives the service end to end: dice thrown into the rendered tray are
seen settling, read with the set the game expects, and become the roll in the session."""

import threading
import time
import urllib.request

import pytest

from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from vision.simulated_tray import SimulatedTray
from vision.table_camera import TableCamera, settings, taught_set_for
from companion.errors import DataFileError, IllegalAction


@pytest.fixture(scope="module")
def taught_data(tmp_path_factory):
    """A data folder with the stand-in Incredibles set taught once for the module."""
    from vision.render import write_teaching_photos
    from vision.classical.sets import teach

    data = tmp_path_factory.mktemp("data")
    write_teaching_photos("incredibles", data / "photos")
    teach("incredibles", data / "photos", data)
    return data


def wait_for(predicate, timeout=60.0):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.05)


class HeldTray(SimulatedTray):
    """Scripted frames: once ``left`` more frames are read (a throw's tumble), the next read
    waits for ``hold``: the dice still roll while the test does what a table would meanwhile."""

    def __init__(self):
        super().__init__(seed=5, fps=0)
        self.hold, self.held, self.left = threading.Event(), threading.Event(), None

    def _read(self):
        if self.left is not None:
            self.left -= 1
            if self.left == 0:
                self.held.set()
                self.hold.wait(30)
        return super()._read()


def held_throw(session, taught_data, faces):
    """A camera over a ``HeldTray``, and a throw of ``faces`` seen moving and held there."""
    from vision.simulated_tray import TUMBLE_FRAMES

    tray = HeldTray()
    camera = TableCamera(session, tray, taught_data, settle_s=0.1).start()
    try:
        wait_for(lambda: camera.watcher.rolls >= 1)      # the empty tray, read once
        tray.left = TUMBLE_FRAMES + 1
        camera.throw(faces)
        assert tray.held.wait(30) and camera.watcher.settle.armed
    except BaseException:
        tray.hold.set()
        camera.close()
        raise
    return tray, camera


def test_engine_sets_map_to_the_boxs_taught_set():
    assert taught_set_for("incredibles-movement") == "incredibles"
    assert taught_set_for("incredibles-power-dash") == "incredibles"
    assert taught_set_for("xmen-alert") == "xmen"
    assert taught_set_for("invincible-crash") == "invincible"
    assert taught_set_for("xmen-alert", {"xmen-alert": "my-box"}) == "my-box"


def test_a_thrown_die_becomes_the_roll(taught_data, tmp_path):
    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    view = session.start("incredibles", {"players": ["dash"], "starting_problems": ["A", "B", "C"]},
                         seed=3)
    camera = TableCamera(session, SimulatedTray(seed=5, fps=30), taught_data, settle_s=0.2).start()
    try:
        assert camera.status()["expects"] == "incredibles-movement"
        landed = camera.throw(["3"])
        assert landed == ["3"]
        after = wait_for(lambda: session.seq > view["seq"] and session.view())
        read = after["dice_read"]
        assert read["set"] == "incredibles-movement" and read["faces"] == ["3"]
        if not read["confirmed"]:        # unsure: the players' one tap makes it the roll
            assert after["expect"]["phase"] == "roll"
            after = session.confirm_read(read["id"])
        assert after["state"]["roll"]["face"] == "3"
        assert camera.photo(read["id"])[:2] == b"\xff\xd8"          # the frame, as a JPEG
    finally:
        camera.close()


def test_read_dice_over_dice_already_read_is_refused_not_taken_for_the_next_roll(taught_data, tmp_path):
    """docs/hardware.md: 'Read dice | roll | the camera reads the tray now'. The camera reads a
    throw by itself once it settles; a Read-dice press after that read the same dice again as
    the next player's roll (Dash's alarm became Violet's too, and the game was lost on one
    press). Now the press is refused while the dice have not moved, and a new throw is read."""
    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    view = session.start("incredibles", {"players": ["dash", "violet"],
                                         "starting_problems": ["A", "B", "C"]}, seed=3)
    camera = TableCamera(session, SimulatedTray(seed=5, fps=30), taught_data, settle_s=0.2).start()
    try:
        camera.throw(["alarm"])                         # Dash's Alarm: a card, Violet's turn
        after = wait_for(lambda: session.seq > view["seq"] and session.view())
        if not after["dice_read"]["confirmed"]:
            after = session.confirm_read(after["dice_read"]["id"])
        assert after["expect"]["phase"] == "roll" and after["expect"]["player"] == "violet"
        seq = session.seq
        with pytest.raises(IllegalAction, match="read already and have not moved since"):
            camera.read_now()
        time.sleep(0.5)
        assert session.seq == seq                               # nothing read, nothing taken
        camera.throw(["2"])
        wait_for(lambda: camera.watcher.settle.armed)           # the camera sees them land
        camera.read_now()                                       # pressed while they roll
        wait_for(lambda: session.seq > seq)
        time.sleep(1.0)                                         # settled: not read a second time
        assert session.seq == seq + 1, session.view()["state"]["log"][-3:]
    finally:
        camera.close()


def test_a_face_the_expected_die_lacks_is_never_applied(taught_data, tmp_path):
    """The movement die has no Wild face: a read of one waits for the players instead."""
    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    view = session.start("incredibles", {"players": ["dash"]}, seed=3)
    camera = TableCamera(session, SimulatedTray(seed=6, fps=30), taught_data, settle_s=0.2).start()
    try:
        camera.throw(["wild"])
        after = wait_for(lambda: session.seq > view["seq"] and session.view())
        assert after["dice_read"]["confirmed"] is False
        assert after["expect"]["phase"] == "roll"              # nothing applied
    finally:
        camera.close()


def test_a_sure_read_with_a_die_too_many_waits_and_a_refused_one_is_heard_by_every_screen(
        taught_data, tmp_path):
    """Two dice in the tray when one Movement Die is expected, each read surely: the read waits
    for a tap (marked miscounted), nothing applied and nothing refused. A read the session
    refuses (the game moved on by a typed roll while the camera read the tray: the test stands
    in for that moment by the expectation the read was made under) is posted for the screens,
    since the camera has no screen of its own."""
    import numpy as np

    from companion.actions import Action
    from vision.reader import DieRead

    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    view = session.start("incredibles", {"players": ["dash"]}, seed=3)
    camera = TableCamera(session, SimulatedTray(seed=6, fps=1), taught_data, threshold=0.7)
    try:
        assert camera.status()["threshold"] == 0.7
        frame = np.zeros((120, 160, 3), np.uint8)
        two = [DieRead("3", 0.9, (10, 10, 20, 20), True), DieRead("2", 0.9, (50, 10, 20, 20), True)]
        camera._on_roll(two, frame)
        after = session.view()
        assert after["seq"] == view["seq"] + 1 and after["expect"]["phase"] == "roll"
        assert after["dice_read"]["miscounted"] and after["dice_read"]["faces"] == ["3", "2"]
        assert session.refusals.since(0) == [] and camera.status()["error"] is None
        stale = session.view()["expect"]
        session.submit(Action("roll", data={"face": "1"}))
        from companion.dice import readable
        camera._entry = lambda: readable(stale)           # read under the expectation before
        camera.throws.at = session.clock()                # of a throw after the typed roll
        seq = session.seq
        camera._on_roll(two[:1], frame)
        assert session.seq == seq                                   # nothing journaled
        refusal = session.refusals.since(0)[-1]
        assert refusal["source"] == "camera" and "no dice are expected" in refusal["text"]
        assert camera.status()["error"] == refusal["text"]
    finally:
        camera.close()


@pytest.mark.parametrize("pressed", [False, True])
def test_a_throw_whose_roll_was_entered_while_it_rolled_is_not_read_as_the_next_roll(
        taught_data, tmp_path, pressed):
    """Dash throws Alarm, and while the dice still roll a phone enters it ("Alarm": Violet's
    turn). The camera's read of the same throw, finishing a moment later, once became Violet's
    roll: one throw, two players' rolls. Now a read is of the throw that began before it, and a
    roll entered since then by another channel is that throw's: the read is not used, and every
    screen is told why. Frames are scripted: the tray holds its settled frames until the phone
    has entered the roll. ``pressed``: Read dice is pressed too, by habit, before the dice settle
    (the press once made the tray a new throw, read as the next player's roll)."""
    import threading

    from companion.actions import Action

    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    view = session.start("incredibles", {"players": ["dash", "violet"],
                                         "starting_problems": ["A", "B", "C"]}, seed=3)
    tray, camera = held_throw(session, taught_data, ["alarm"])
    try:
        session.submit(Action("roll", player="dash", data={"face": "alarm"}, source="dashboard"))
        entered = session.view()
        assert entered["expect"]["player"] == "violet" and entered["expect"]["phase"] == "roll"
        if pressed:
            camera.read_now()
        tray.hold.set()
        wait_for(lambda: camera.watcher.rolls >= 2)
        time.sleep(0.3)
        after = session.view()
        assert after["seq"] == entered["seq"] and after["dice_read"] is None, after["state"]["log"]
        told = session.refusals.since(0)[-1]
        assert "the roll was entered on a phone while the dice rolled" in told["text"], told
        with pytest.raises(IllegalAction, match="read already"):
            camera.read_now()                       # the same dice are not Violet's either
        assert session.seq == view["seq"] + 1
    finally:
        tray.hold.set()
        camera.close()


def test_the_dice_of_a_typed_roll_that_was_undone_are_read_at_a_press(taught_data, tmp_path):
    """Dash throws a 2 and, while the dice still roll, a phone enters Alarm by mistake (Violet's
    turn, her roll asked): the camera's read is not used, rightly. The table undoes the Alarm:
    the dice in the tray are Dash's roll again, and Read dice reads them. The press was refused
    "read already" (throw again): the throw's roll was no longer the table's."""
    from companion.actions import Action

    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    view = session.start("incredibles", {"players": ["dash", "violet"],
                                         "starting_problems": ["A", "B", "C"]}, seed=3)
    tray, camera = held_throw(session, taught_data, ["2"])
    try:
        session.submit(Action("roll", player="dash", data={"face": "alarm"}, source="dashboard"))
        assert session.view()["expect"]["player"] == "violet"
        tray.hold.set()
        wait_for(lambda: camera.watcher.rolls >= 2)
        time.sleep(0.3)
        assert session.seq == view["seq"] + 1               # the read was not used
        assert camera.press_refusal() is not None           # the dice are not Violet's
        session.submit(Action("undo", source="dashboard"))  # "that was not an Alarm"
        assert session.view()["expect"]["player"] == "dash"
        assert camera.press_refusal() is None               # the Devices page agrees
        camera.read_now()
        roll = wait_for(lambda: session.view()["last_roll"])
        assert roll["read"] is not None and roll["player"] == "dash", roll
        assert "Dash rolled 2." in session.view()["state"]["log"], session.view()["state"]["log"]
    finally:
        tray.hold.set()
        camera.close()


def test_read_dice_pressed_the_moment_after_a_throw_is_not_refused_as_read_already(
        taught_data, tmp_path):
    """A player throws and presses Read dice at once, before the camera has looked at a frame
    of the dice moving: the press was refused, "the dice in the tray were read already and
    have not moved since". Now a press over dice already read looks at the frames taken after
    it before it says so. Scripted: the camera gets no frame until a moment after the press."""
    import threading

    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    view = session.start("incredibles", {"players": ["dash", "violet"],
                                         "starting_problems": ["A", "B", "C"]}, seed=3)

    class LateTray(SimulatedTray):
        gate = threading.Event()

        def _read(self):
            self.gate.wait(30)
            return super()._read()

    tray = LateTray(seed=5, fps=0)
    tray.gate.set()
    camera = TableCamera(session, tray, taught_data, settle_s=0.1).start()
    camera.throws.seen_s = 10.0             # the press waits for the frames, however loaded
    try:
        camera.throw(["alarm"])
        after = wait_for(lambda: session.seq > view["seq"] and session.view())
        if not after["dice_read"]["confirmed"]:
            after = session.confirm_read(after["dice_read"]["id"])
        assert after["expect"]["player"] == "violet"
        time.sleep(0.3)
        tray.gate.clear()                   # the camera falls a moment behind the table
        seq = session.seq
        camera.throw(["2"])
        threading.Timer(0.2, tray.gate.set).start()
        camera.read_now()                   # pressed before the camera saw the dice move
        wait_for(lambda: session.seq > seq)
        read = session.view()["dice_read"]
        assert read["faces"] == ["2"], read
    finally:
        tray.gate.set()
        camera.close()


def test_a_read_die_the_players_mark_not_a_die_is_logged_so_and_never_taught(taught_data, tmp_path):
    """Two dice read where one Movement Die lies (a shadow read as a die, unsure): the players
    mark it "not a die" and correct the other; the photo log records their faces in the read's
    order, null for the one that is no die, and teaching copies only the real die's crop."""
    import numpy as np

    from vision.reader import DieRead

    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    session.start("incredibles", {"players": ["dash"]}, seed=3)
    data = tmp_path / "data"
    camera = TableCamera(session, SimulatedTray(seed=6, fps=1), data)
    try:
        camera._on_roll([DieRead("3", 0.9, (10, 10, 20, 20), True),
                         DieRead("2", 0.3, (50, 10, 20, 20), True)], np.zeros((120, 160, 3), np.uint8))
        read = session.view()["dice_read"]
        assert read["confirmed"] is False
        session.confirm_read(read["id"], ["4", None])
        entry = wait_for(lambda: camera.photolog.get(read["id"])["corrected"])
        assert entry == ["4", None]
        (data / "dice" / "sets" / "incredibles" / "photos").mkdir(parents=True)
        assert camera.photolog.add_to_teaching(read["id"], reteach=False) == 1
        taught = data / "dice" / "sets" / "incredibles" / "photos"
        assert [p.parent.name for p in taught.rglob("*.png")] == ["4"]
    finally:
        camera.close()


def test_camera_settings_name_the_key():
    assert settings({}, "c.toml")["threshold"] == 0.6
    for bad, words in [({"sorce": 0}, "unknown key"), ({"threshold": 2}, "camera.threshold"),
                       ({"sets": {"a": 1}}, "camera.sets"), ({"source": True}, "camera.source")]:
        with pytest.raises(DataFileError, match=words):
            settings(bad, "c.toml")


@pytest.mark.browser
def test_serve_simulate_reads_a_thrown_roll_and_the_dashboard_shows_it(server_factory, browser, tmp_path):
    # A threshold the stand-in set always clears: the read is applied, whatever frame the watcher
    # happened to read under load (a read that waits for a tap: tests/web/test_table_view.py).
    # The classical recognizer, named: the fused one (the default) asks for a die its two
    # readers read differently, whatever the threshold, and asks on this throw (the right
    # face, confidence 0.04: its asking read).
    data = tmp_path / "data"
    data.mkdir()
    (data / "config.toml").write_text('[camera]\nthreshold = 0.05\nrecognizer = "classical"\n')
    server = server_factory("--simulate", data=data)
    status, view = server.post("/api/session", {"game": "incredibles", "players": ["dash"],
                                                "starting_problems": ["A", "B", "C"], "seed": 2})
    assert status == 201
    status, thrown = server.post("/api/camera/throw", {})
    assert status == 200 and len(thrown["thrown"]) == 1

    def changed():
        _, now = server.get("/api/state")
        return now if now["seq"] > view["seq"] else None

    after = wait_for(changed, timeout=90)    # the first read teaches the stand-in set
    read = after["dice_read"]
    assert read["dice"][0]["face"] == thrown["thrown"][0] and read["confirmed"], read
    assert after["state"]["roll"]["face"] == thrown["thrown"][0]
    with urllib.request.urlopen(server.url + read["image"], timeout=10) as res:
        assert res.headers["Content-Type"] == "image/jpeg"
    status, hw = server.get("/api/hardware")
    assert hw["camera"]["reads"] == 1 and hw["can_throw"]

    page = browser.new_page(viewport={"width": 800, "height": 480})
    try:
        page.goto(server.url + "/table")
        page.wait_for_function("document.querySelector('#dice') && "
                               "document.querySelector('#dice').innerText.length > 0",
                               timeout=10_000)
        shown = page.inner_text("#dice").lower()
        assert thrown["thrown"][0] in shown                       # the face, and who read it
        assert "read by the camera" in shown                      # applied at once: sure
    finally:
        page.close()


def test_the_power_die_and_the_jackjack_die_in_one_frame_are_one_fix_attempt(taught_data, tmp_path):
    """"If Jack-Jack has been rescued, you may roll the Jack-Jack Die in addition to your Power
    Die. If you roll the required Power symbol or a Wild on either ... you've fixed the problem."
    Both dice thrown together, one frame read: one fix action with both faces."""
    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    session.start("incredibles", {"players": ["dash"], "starting_problems": ["A", "B", "C"]}, seed=3)
    session.submit({"type": "roll", "player": "dash", "data": {"face": "1"}})
    session.submit({"type": "move", "player": "dash", "data": {"to": "1"}})    # Jack-Jack rescued
    for _ in range(40):
        view = session.view()
        if view["expect"]["phase"] == "fix":
            break
        if view["expect"]["phase"] == "roll":
            session.submit({"type": "roll", "player": "dash", "data": {"face": "4"}})
        elif view["expect"]["phase"] == "move":
            reach = view["expect"]["reachable"]
            problems = [s for s in reach if view["state"]["tiles"].get(s) == "problem"]
            session.submit({"type": "move", "player": "dash", "data": {"to": (problems or reach)[-1]}})
        else:
            pending = view["expect"]["pending"]
            key = "space" if pending["kind"] == "displace" else "tile"
            session.submit({"type": "choose", "data": {key: pending["options"][0]}})
    view = session.view()
    assert view["state"]["jackjack"] is None and view["expect"]["phase"] == "fix"
    roll = view["expect"]["dice"]
    assert len(roll) == 1 and [roll[0]["die"], roll[0]["also"][0]["die"]] == ["power", "jackjack"]
    camera = TableCamera(session, SimulatedTray(seed=8, fps=0), taught_data)
    try:
        assert camera.throw(["speed", "defense"]) == ["speed", "defense"]
        frame = [camera.source.read() for _ in range(8)][-1]          # past the tumbling frames
        seq = session.seq
        camera.read_frame(frame)
        view = session.view()
        read = view["dice_read"]
        assert sorted(read["faces"]) == ["defense", "speed"], read
        if not read["confirmed"]:
            view = session.confirm_read(read["id"])
        fix = view["state"]["last_fix"]
        assert sorted([fix["power"], fix["jackjack"]]) == ["defense", "speed"]
        entries = session.journal.entries(view["game_id"])[-2:]
        assert [e.payload["type"] for e in entries if e.seq > seq][0] == "dice.read"
        assert view["last_roll"]["type"] == "fix" and len(view["last_roll"]["dice"]) == 2
    finally:
        camera.close()


def test_a_throw_lands_where_it_lands_however_many_frames_were_read_before():
    """``companion serve --simulate``'s tray is read by the camera thread at its own pace: where
    the dice landed once came from the frames' generator, so a throw depended on how many frames
    had been read before it (a read under load came out unsure). Now the n-th throw of a seed
    lands the same way, whenever it comes."""
    import numpy as np

    from vision.simulated_tray import TUMBLE_FRAMES

    def thrown(seed, frames_before):
        tray = SimulatedTray(seed=seed, fps=0)
        for _ in range(frames_before):
            tray.read()
        tray.throw(["1", "4"])
        tray.throw(["3", "5", "6"])
        for _ in range(TUMBLE_FRAMES + 1):        # tumbling, then the dice lying still
            frame = tray.read()
        return frame.astype(np.int16)

    first = thrown(5, 0)
    # the same dice in the same places: only the camera's noise (1.5 grey levels) differs
    assert np.abs(thrown(5, 9) - first).max() < 30
    assert np.abs(thrown(6, 0) - first).max() > 100          # another seed: other places


def test_a_read_just_after_the_change_that_asks_for_dice_is_not_lost(taught_data, tmp_path):
    """The Read-dice button pressed just after the change that asks for dice, before the
    event bus has told the camera of it (the bus runs on its own thread, late under load):
    the read is the roll. The camera once went by the bus's copy of the view, took the press
    for one with no dice expected and dropped it without a word
    (tests/hardware/test_physical_games.py failed so under load)."""
    import threading

    from vision.simulated_tray import TUMBLE_FRAMES

    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    held, seen = threading.Event(), threading.Event()

    def slow_screen(view):  # a listener before the camera's, holding the bus
        seen.set()
        held.wait(30)

    session.add_listener(slow_screen)
    tray = SimulatedTray(seed=5, fps=0)
    camera = TableCamera(session, tray, taught_data)
    try:
        view = session.start("incredibles", {"players": ["dash"],
                                             "starting_problems": ["A", "B", "C"]}, seed=3)
        assert seen.wait(10) and view["expect"]["dice"]      # the bus is held at this change
        tray.throw(["3"])
        for _ in range(TUMBLE_FRAMES + 1):
            frame = tray.read()
        camera.read_frame(frame)
        assert session.seq > view["seq"], camera.status()
        assert session.view()["dice_read"]["faces"] == ["3"]
    finally:
        held.set()
        camera.close()


def test_read_dice_over_a_tray_with_nothing_readable_says_so_on_every_screen(tmp_path):
    """A settled tray with nothing on it is dice picked up and stays quiet; but a player who
    presses Read dice over it hears why nothing came of it (issue 14: a frame is "flagged,
    never dropped quietly"), as an ask on the board every screen shows."""
    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    view = session.start("incredibles", {"players": ["dash"]}, seed=3)
    camera = TableCamera(session, SimulatedTray(seed=6, fps=30), tmp_path / "data",
                         settle_s=0.2, sets={"incredibles-movement": "d6"}).start()
    try:
        wait_for(lambda: camera.watcher.rolls >= 1)          # the empty tray settled, read
        assert session.refusals.since(0) == []
        camera.read_now()
        ask = wait_for(lambda: session.refusals.since(0))[-1]
        assert ask["kind"] == "ask" and ask["source"] == "camera"
        assert ask["text"] == "no die in the tray could be read; throw the dice, or enter the roll"
        assert session.seq == view["seq"]                    # nothing journaled
    finally:
        camera.close()


def test_read_dice_with_no_set_to_read_with_says_which_and_how_to_teach_it(tmp_path):
    """The game's die maps to a set this table never taught: Read dice says so, naming it."""
    import numpy as np

    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    session.start("incredibles", {"players": ["dash"]}, seed=3)
    camera = TableCamera(session, SimulatedTray(seed=6, fps=1), tmp_path / "data",
                         sets={"incredibles-movement": "our-box"})
    try:
        camera.read_frame(np.full((240, 320, 3), 200, np.uint8))
        ask = session.refusals.since(0)[-1]
        assert ask["kind"] == "ask"
        assert ask["text"].startswith("the dice cannot be read: unknown dice set 'our-box'")
        assert "companion dice teach our-box" in ask["text"]
    finally:
        camera.close()


def test_read_dice_over_a_die_like_mark_it_cannot_read_names_it(shared, tmp_path):
    """A real tray photo's corner (the rig's grey dot beside the tray, no die): the reader
    finds something die-like and reads no die; Read dice says so rather than nothing, and the
    camera's status does not call it a fault (a fixed mark is left unread every roll)."""
    import cv2

    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    view = session.start("incredibles", {"players": ["dash"]}, seed=3)
    camera = TableCamera(session, SimulatedTray(seed=6, fps=1), tmp_path / "data",
                         sets={"incredibles-movement": "d6"})
    try:
        photo = cv2.imread(str(shared / "data" / "dice-real" / "byler_d6" / "images"
                               / "IMG_20191208_111919.jpg"))
        camera.read_frame(photo[717:, :640])
        ask = session.refusals.since(0)[-1]
        assert ask["kind"] == "ask"
        assert ask["text"].startswith("1 die-like thing in the tray could not be read;")
        assert session.seq == view["seq"]
        # the camera works: what it left unread is no fault of it (the Devices page)
        assert camera.status()["error"] is None and camera.status()["left_unread"] == 1
    finally:
        camera.close()


def test_read_dice_pressed_on_a_phone_over_an_empty_tray_shows_on_the_table_screen(
        server_factory, browser, tmp_path):
    """Through the channels a family uses: the Read dice press over HTTP, the answer on the
    800x480 table screen; a press when no dice are expected is refused, saying so."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "config.toml").write_text('[camera]\nsets = { "incredibles-movement" = "d6" }\n')
    server = server_factory("--simulate", data=data)
    status, refused = server.post("/api/camera/read", {})          # no game: the press is refused
    assert status == 422 and refused["error"] == "no dice are to be read now: no game is in progress"
    status, view = server.post("/api/session", {"game": "incredibles", "players": ["dash"],
                                                "seed": 2})
    assert status == 201
    page = browser.new_page(viewport={"width": 800, "height": 480})
    try:
        page.goto(server.url + "/table")
        page.wait_for_function(f"Number(document.body.dataset.rendered) >= {view['seq']}",
                               timeout=10_000)              # its event stream is open
        status, _ = server.post("/api/camera/read", {})
        assert status == 200
        page.wait_for_selector("#notice:not([hidden])", timeout=20_000)
        shown = " ".join(page.inner_text("#notice").split())
        assert "The camera did nothing" in shown and "no die in the tray could be read" in shown
    finally:
        page.close()


def test_read_dice_while_the_stand_in_set_is_taught_says_the_camera_is_busy_not_idle(
        server_factory, browser, tmp_path):
    """`companion serve --simulate`, the first X-Men throw: a Read dice press while the stand-in
    dice are being taught was shown on the table and the phones as "The camera did nothing: the
    simulated tray's stand-in dice are being taught ...: the read follows". The camera is busy and
    the read follows: the screens say so, not that it did nothing."""
    data = tmp_path / "data"
    data.mkdir()
    server = server_factory("--simulate", data=data)
    status, view = server.post("/api/session", {"game": "xmen-alert", "seed": 4,
                                                "options": {"players": ["Ana", "Ben"]}})
    assert status == 201
    table = browser.new_page(viewport={"width": 800, "height": 480})
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        for page, path in ((table, "/table"), (phone, "/play")):
            page.goto(server.url + path)
            page.wait_for_function(f"Number(document.body.dataset.rendered) >= {view['seq']}",
                                   timeout=10_000)          # its event stream is open
        assert server.post("/api/camera/throw", {})[0] == 200
        assert server.post("/api/camera/read", {})[0] == 200
        for page in (table, phone):
            page.wait_for_selector("#notice:not([hidden])", timeout=20_000)
            shown = " ".join(page.inner_text("#notice").split())
            assert shown.startswith("The camera is busy: the simulated tray's stand-in dice are "
                                    "being taught"), shown
            assert "did nothing" not in shown
    finally:
        table.close()
        phone.close()


def test_a_press_while_the_stand_in_set_is_taught_is_answered_by_the_thrown_dice(tmp_path):
    """The first throw of a simulated game lands while the camera teaches the stand-in set on
    the tray's earlier, empty frame (a minute on a Pi). A Read dice press then was answered by
    that frame: "no die in the tray could be read; throw the dice", said on every screen while
    the dice just thrown lay in the tray, and read a moment later. The read of the thrown dice
    answers the press (the roll, or a read waiting for a tap), with no such word."""
    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    view = session.start("xmen-alert", {"players": ["Ana", "Ben"]}, seed=4)
    camera = TableCamera(session, SimulatedTray(seed=0, fps=15), tmp_path / "data",
                         simulate=True, settle_s=0.3)
    camera.start()
    try:
        wait_for(camera._teaching.locked, timeout=20)       # reading the empty tray, teaching
        thrown = camera.throw()
        camera.read_now()
        assert camera._teaching.locked(), "the set was taught before the press: no test"
        read = wait_for(lambda: session.view()["dice_read"], timeout=120)
        assert read["dice"] and len(read["dice"]) <= len(thrown) and session.seq > view["seq"]
        said = [r["text"] for r in session.refusals.since(0)]
        assert not [t for t in said if "no die in the tray" in t], said
    finally:
        camera.close()


def test_read_dice_when_the_camera_gives_no_picture_says_so(tmp_path):
    """A camera that stopped giving frames (here a folder of one photo, replayed to its end):
    a Read dice press is refused with why, rather than waiting for a frame that never comes."""
    import cv2
    import numpy as np

    from companion.errors import IllegalAction
    from vision.sources import open_source

    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "0.png"), np.full((240, 320, 3), 200, np.uint8))
    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    session.start("incredibles", {"players": ["dash"]}, seed=3)
    camera = TableCamera(session, open_source(str(folder)), tmp_path / "data",
                         sets={"incredibles-movement": "d6"})
    camera.no_frame_s = 0.3
    camera.start()
    try:
        wait_for(lambda: camera.watcher.last_frame_at is not None)
        time.sleep(0.5)
        with pytest.raises(IllegalAction, match="the camera gives no picture now"):
            camera.read_now()
    finally:
        camera.close()


def test_read_dice_while_the_camera_is_busy_reading_is_not_taken_for_a_silent_camera(tmp_path):
    """In simulation the first read teaches the box's stand-in set (seconds, with no new frame
    taken meanwhile): a press then is queued, not refused as a camera that gives no picture."""
    from companion.errors import IllegalAction

    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    session.start("incredibles", {"players": ["dash"]}, seed=3)
    camera = TableCamera(session, SimulatedTray(seed=6, fps=30), tmp_path / "data",
                         simulate=True, settle_s=0.1)
    camera.no_frame_s = 0.3
    camera.start()
    try:
        wait_for(lambda: camera.watcher.looking, timeout=10)
        time.sleep(0.5)
        if camera.watcher.looking:         # still teaching, well past no_frame_s
            camera.read_now()
        else:
            pytest.fail("the first read (teaching the stand-in set) ended within 0.5 s")
        camera.watcher.stop(timeout=60)    # once the read ends, the thread is gone
        assert not camera.watcher.running
        with pytest.raises(IllegalAction, match="the camera gives no picture now"):
            camera.read_now()
    finally:
        camera.close()


def test_read_dice_while_the_stand_in_set_is_first_taught_says_so_at_once(tmp_path):
    """In simulation the first read of a game's dice teaches the stand-in set (about 10 to 25 s
    on this machine, a minute or more on a Pi): a Read dice press then hears at once, on every
    screen, why nothing comes yet, and the read still follows."""
    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    session.start("incredibles", {"players": ["dash"]}, seed=3)
    camera = TableCamera(session, SimulatedTray(seed=6, fps=30), tmp_path / "data",
                         simulate=True, settle_s=0.1)
    camera.start()
    try:
        wait_for(lambda: camera.watcher.last_frame_at is not None, timeout=10)
        camera.read_now()
        said = session.refusals.since(0)[-1]
        assert (said["kind"], said["origin"]) == ("wait", "dice tray")
        assert "stand-in dice are being taught" in said["text"]
        # the read follows: the empty tray's answer comes once the set is taught
        wait_for(lambda: "no die in the tray" in session.refusals.since(0)[-1]["text"], timeout=120)
        before = session.refusals.last_id
        camera.read_now()                  # taught now, just after that long read: no notice, no
        # "the camera gives no picture" either (its last frame was taken before the teaching)
        assert all("being taught" not in r["text"] for r in session.refusals.since(before))
    finally:
        camera.close()


def test_a_read_dice_press_while_a_read_is_being_journaled_does_not_read_the_dice_again(
        taught_data, tmp_path):
    """A storm of Read dice presses took one throw as two players' rolls (found by a hostile-
    input audit): a press landing while the camera's read was being journaled found the dice
    "not read yet", and the same still dice were read again as the next roll. A press and a read
    now take turns: this press, sent from inside the read's submission, is refused."""
    import threading

    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    view = session.start("incredibles", {"players": ["dash", "violet"],
                                         "starting_problems": ["A", "B", "C"]}, seed=3)
    camera = TableCamera(session, SimulatedTray(seed=5, fps=30), taught_data, settle_s=0.2)
    real, outcome = session.submit, []

    def press():
        try:
            camera.read_now()
            outcome.append("accepted")
        except IllegalAction as exc:
            outcome.append(str(exc))

    def submit(action, if_seq=None):
        if action.type == "dice.read" and not outcome:
            presser = threading.Thread(target=press)
            presser.start()
            presser.join(0.5)              # it lands while the read is in flight
            outcome.append("sent")
        return real(action, if_seq=if_seq)

    session.submit = submit
    camera.start()
    try:
        camera.throw(["alarm"])
        wait_for(lambda: len(outcome) >= 2, timeout=90)
        time.sleep(1.5)                     # a second read would come within a few frames
        reads = [e.payload["type"] for e in session.journal.entries(view["game_id"])
                 if e.seq > view["seq"]]
        assert reads == ["dice.read"], (reads, outcome)
        assert "read already" in outcome[-1], outcome
    finally:
        camera.close()


def test_a_storm_of_read_dice_presses_waits_for_the_camera_once(taught_data, tmp_path):
    """A press over dice already read looks at two frames taken after it before it refuses (a
    throw a moment before might not be seen yet). On the table buttons' one worker, a storm of
    such presses waited in turn and held Next and Confirm up for seconds (found by a hostile-
    input audit). After a refusal, the next presses within a second are refused at once: the
    waits are counted here, not timed."""
    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    view = session.start("incredibles", {"players": ["dash", "violet"],
                                         "starting_problems": ["A", "B", "C"]}, seed=3)
    camera = TableCamera(session, SimulatedTray(seed=5, fps=30), taught_data, settle_s=0.2).start()
    try:
        camera.throw(["alarm"])
        wait_for(lambda: session.seq > view["seq"])
        wait_for(lambda: camera.throws.taken)
        looks, real = [], camera.watcher.moving_now
        camera.watcher.moving_now = lambda timeout: looks.append(timeout) or real(timeout)
        refused = 0
        for _ in range(20):
            with pytest.raises(IllegalAction, match="read already"):
                camera.read_now()
            refused += 1
        assert refused == 20 and len(looks) == 1, looks
    finally:
        camera.close()


def test_on_a_tray_that_never_looks_still_each_pressed_throw_is_read(taught_data, tmp_path):
    """'"read now" pressed while the dice still roll waits ... (a tray that never looks still,
    flickering light, is read anyway after it)'. Every read there is over "moving" dice, and the
    throw stayed open after the first one was confirmed: every later throw was set aside as "read
    already" (found by a verification audit). Now a press once the throw's roll was taken is a
    new throw."""
    import numpy as np

    class Flicker(SimulatedTray):            # the light flickers: no two frames alike
        n = 0

        def _read(self):
            frame = super()._read()
            self.n += 1
            return np.clip(frame.astype(np.int16) + (12 if self.n % 2 else -12), 0, 255).astype(np.uint8)

    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    session.start("incredibles", {"players": ["dash", "violet"],
                                  "starting_problems": ["A", "B", "C"]}, seed=3)
    camera = TableCamera(session, Flicker(seed=5, fps=15), taught_data, settle_s=0.2)
    camera.watcher.ask_patience_s = 0.5
    camera.start()
    try:
        wait_for(lambda: camera.watcher.last_frame_at is not None)
        for player in ("dash", "violet"):
            assert session.view()["expect"]["player"] == player
            seq = session.seq
            camera.throw(["alarm"])
            time.sleep(0.5)
            camera.read_now()
            read = wait_for(lambda: session.seq > seq and session.view()["dice_read"])
            assert not read["confirmed"] and read["faces"] == ["alarm"], read   # over "moving" dice
            session.confirm_read(read["id"])
    finally:
        camera.close()


def test_a_throw_from_a_game_put_away_is_not_read_into_the_next(taught_data, tmp_path):
    """Dice thrown in one game, the game put away and a new one begun while they rolled: the
    settled read became the new game's first roll, with nothing said (found by a verification
    audit). It is not used, and every screen is told why."""
    import threading

    from vision.simulated_tray import TUMBLE_FRAMES

    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    options = {"players": ["dash"], "starting_problems": ["A", "B", "C"]}
    session.start("incredibles", options, seed=3)
    tray, camera = held_throw(session, taught_data, ["3"])
    try:
        session.close_game()
        fresh = session.start("incredibles", options, seed=4)
        tray.hold.set()
        wait_for(lambda: camera.watcher.rolls >= 2)
        time.sleep(0.3)
        assert session.seq == fresh["seq"] and session.view()["dice_read"] is None
        told = session.refusals.since(0)[-1]["text"]
        assert "thrown before this game began" in told, told
    finally:
        tray.hold.set()
        camera.close()
