"""The dashboard with the other adapters, all real: the simulated hardware (mock pins and a
simulated serial device on a pty), camera reads journaled by the session, and the table camera
over the simulated tray with its photo log.
"""

import pytest

from companion.actions import Action
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from hardware.wiring import attach
from web import create_app

JPEG = bytes.fromhex("ffd8ffe000104a46494600010100000100010000ffd9")


@pytest.fixture
def session(tmp_path):
    with Journal(tmp_path / "journal.sqlite3") as journal:
        s = Session(journal, Catalog())
        s.start("incredibles", {"players": ["dash"], "starting_problems": ["A", "B", "C"]}, seed=1)
        # The camera is unsure of the Movement Die: the read waits for the players.
        s.submit(Action("dice.read", data={"id": "r1", "set": "incredibles-movement",
                                           "image": "/api/dice/r1.jpg",
                                           "dice": [{"face": "3", "confidence": 0.42,
                                                     "box": [10, 10, 40, 40]}]},
                        source="camera"))
        yield s


@pytest.fixture
def camera(session, tmp_path):
    from vision.simulated_tray import SimulatedTray
    from vision.table_camera import TableCamera

    cam = TableCamera(session, SimulatedTray(fps=10), tmp_path)
    cam.photolog.folder.mkdir(parents=True)
    (cam.photolog.folder / "r1.jpg").write_bytes(JPEG)       # the frame the read "r1" came from
    yield cam.start()
    cam.close()


@pytest.fixture
def hardware(session):
    handle = attach(session, {}, simulate=True)
    yield handle
    handle.close()


def client(session, **extras):
    hardware = extras.pop("hardware", None)
    return create_app(session, hardware=hardware, extras=extras).test_client()


def wait_for(predicate, timeout=5.0):
    import time
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_hardware_status_is_shown_and_buttons_pressed_only_in_simulation(session, hardware):
    c = client(session, hardware=hardware)
    body = c.get("/api/hardware").get_json()
    assert body["status"]["backend"] == "mock pins (simulation)" and not body["can_press"]
    res = c.post("/api/hardware/press", json={"name": "timer"})
    assert res.status_code == 409 and "simulation" in res.get_json()["error"]

    c = client(session, hardware=hardware, simulate=True)
    assert c.get("/api/hardware").get_json()["can_press"]
    assert c.post("/api/hardware/press", json={"name": "timer"}).status_code == 200
    wait_for(lambda: "turn" in session.view()["timers"])       # timer_toggle started the turn timer
    for bad in ({"name": "Roll Die!"}, {"name": "timer", "hold": "yes"}, {}):
        assert c.post("/api/hardware/press", json=bad).status_code == 400
    res = c.post("/api/hardware/press", json={"name": "nosuch"})
    assert res.status_code == 400 and "no button called" in res.get_json()["error"]


def test_without_hardware_the_dashboard_says_so(session):
    body = client(session).get("/api/hardware").get_json()
    assert body == {"status": None, "simulate": False, "can_press": False, "starting": []}
    # While `serve` is still attaching them (after the dashboard answers) the page keeps asking.
    body = client(session, starting={"hardware", "camera"}).get("/api/hardware").get_json()
    assert body["status"] is None and body["starting"] == ["camera", "hardware"]


def test_the_event_stream_answers_once_where_it_cannot_leave_the_request_thread(session):
    """Flask's test client is no waitress: the stream's opening frames, then the end; the page
    reconnects after `retry:`, and the place it took is free again."""
    c = client(session)
    res = c.get("/api/events")
    assert res.status_code == 200 and res.mimetype == "text/event-stream"
    seq = session.seq
    assert res.data.startswith(f"retry: 1000\n\nid: {seq}\nevent: state\ndata: {{".encode())
    # the state, then the newest refusals (none yet): each event's newest frame, once; then
    # the server's clock (the state is as old as its change)
    assert b'event: refusal\ndata: {"last":0,"recent":[]}\n\nevent: clock\ndata: {"now":' in res.data
    assert res.data.count(b"event: ") == 3
    assert c.head("/api/events").status_code == 200
    assert c.get("/api/health").get_json()["streams"] == 0


def test_confirming_a_read_passes_the_faces_to_the_session(session):
    c = client(session)
    res = c.post("/api/dice/confirm", json={"id": "r1", "faces": ["4"]})
    assert res.status_code == 200
    view = res.get_json()
    assert view["dice_read"]["confirmed"] and view["state"]["roll"]["face"] == "4"
    assert c.post("/api/dice/confirm", json={"id": "r1"}).status_code == 409   # already confirmed
    for bad in ({"faces": ["4"]}, {"id": "../etc", "faces": ["4"]}, {"id": "r1", "faces": "4"},
                {"id": "r1", "faces": [4]}):
        assert c.post("/api/dice/confirm", json=bad).status_code == 400


def test_the_camera_photo_of_a_read(session, camera):
    assert client(session).get("/api/dice/r1.jpg").status_code == 404      # no camera attached
    c = client(session, camera=camera)
    res = c.get("/api/dice/r1.jpg")
    assert res.status_code == 200 and res.mimetype == "image/jpeg" and res.data == JPEG
    assert c.get("/api/dice/r2.jpg").status_code == 404


@pytest.mark.browser
def test_a_phone_corrects_and_confirms_a_dice_read_with_taps(session, hardware, camera):
    """The read says 3 at 42%: the phone shows it as unsure, a tap changes it to 4, one more
    confirms; then the hardware's status and a simulated button. The app runs in-process
    (waitress) so the fakes can be attached."""
    import os
    import threading
    import time
    from pathlib import Path

    from waitress import create_server

    chromium = "/usr/bin/chromium"
    if not Path(chromium).exists():
        if os.environ.get("COMPANION_REQUIRE_SHARED") == "1":
            pytest.fail(f"{chromium} is missing; COMPANION_REQUIRE_SHARED=1 requires the browser tests")
        pytest.skip(f"{chromium} is not installed")
    from playwright.sync_api import sync_playwright

    app = create_app(session, hardware=hardware, extras={"camera": camera, "simulate": True})
    server = create_server(app, host="127.0.0.1", port=0, threads=8)
    threading.Thread(target=server.run, daemon=True).start()
    url = f"http://127.0.0.1:{server.effective_port}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 412, "height": 915})
            page.set_default_timeout(8000)
            page.goto(url + "/play")
            page.wait_for_selector("#dice .die")
            assert "42% sure" in page.inner_text("#dice") and "unsure" in page.inner_text("#dice")
            page.locator('[data-key="change-0"]').click()
            page.locator('[data-key="face-0-4"]').click()
            assert "corrected" in page.inner_text("#dice")
            before = int(page.evaluate("document.body.dataset.rendered"))
            page.locator('[data-key="confirm-read"]').click()
            page.wait_for_function(f"Number(document.body.dataset.rendered) > {before}")
            assert "confirmed on a phone" in page.inner_text("#dice")      # the last roll now
            read = session.view()["dice_read"]
            assert read["confirmed"] and read["dice"][0]["face"] == "4" and read["corrected"] == [0]
            assert session.view()["state"]["roll"]["face"] == "4"
            # the simulated table's buttons (simulation only); their state is on the Devices page
            page.wait_for_selector("#simulator:not([hidden])")
            page.locator('#simulator [data-key="press-timer"]').click()
            deadline = time.monotonic() + 5
            while "turn" not in session.view()["timers"] and time.monotonic() < deadline:
                page.wait_for_timeout(50)
            assert "turn" in session.view()["timers"]
            # a token on a reader, from the same panel: the table map makes it Dash's move
            page.locator('#simulator [data-key="sim-piece"]').fill("dash")
            page.locator('#simulator [data-key="sim-space"]').fill("2")
            page.locator('#simulator [data-key="sim-token"]').click()
            deadline = time.monotonic() + 5
            while session.view()["state"]["movers"][0]["space"] != "2" and time.monotonic() < deadline:
                page.wait_for_timeout(50)
            assert session.view()["state"]["movers"][0]["space"] == "2"
            browser.close()
    finally:
        server.close()


def test_a_token_placed_from_the_simulator_panel_is_the_maps_move(session, hardware):
    """In simulation a piece's token goes on the reader under a space as a TAG event over the
    simulated device's pseudo-terminal; The Incredibles' table map makes it the mover's move."""
    c = client(session, hardware=hardware)
    assert c.post("/api/hardware/token", json={"piece": "dash", "space": "2"}).status_code == 409
    c = client(session, hardware=hardware, simulate=True)
    assert hardware.link.wait_for("ready", 5)
    session.confirm_read("r1", ["2"])                          # Dash rolled a 2: move phase
    for bad in ({"piece": "dash"}, {"piece": "da sh", "space": "2"}, {"piece": "dash", "space": 2}):
        assert c.post("/api/hardware/token", json=bad).status_code == 400
    assert c.post("/api/hardware/token", json={"piece": "dash", "space": "2"}).status_code == 200
    wait_for(lambda: session.view()["state"]["movers"][0]["space"] == "2")
    last = session.journal.entries(session.view()["game_id"])[-1].payload
    assert (last["type"], last["player"], last["source"]) == ("move", "dash", "token")
    # now it means nothing (roll phase): refused with why, on the board every screen shows
    assert c.post("/api/hardware/token", json={"piece": "dash", "space": "3"}).status_code == 200
    wait_for(lambda: any("token on a reader means nothing now" in r["text"]
                         for r in session.refusals.since(0)))


def test_a_serial_device_turned_off_in_the_config_is_said_so_on_the_devices_page(
        server_factory, pages, tmp_path):
    """`[serial] enabled = false` (deploy/config.example.toml's switch) was shown as "none
    configured ... add a [serial] section", sending the owner to add the section they have.
    The Devices page of a real server in a real Chromium now says it is turned off, and how to
    turn it on."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "config.toml").write_text("[serial]\nenabled = false\n")
    server = server_factory("--simulate", data=data)
    page = pages(server.url + "/devices", 390, 844)
    page.wait_for_function("document.body.dataset.rendered && document.querySelector('main')"
                           " && document.querySelector('main').innerText.includes('USB')",
                           timeout=30_000)
    text = " ".join(page.inner_text("main").split())
    assert "Table controller (USB)" in text and "turned off" in text, text
    assert "set enabled = true" in text and "none configured" not in text, text
    assert "Next button: press to go on" in text, text          # not "press to next"


def test_each_buttons_meaning_says_when_a_press_would_be_refused_now(tmp_path):
    """docs/hardware.md: each button means 'what the running game's table map says it means in
    the current phase'. The Devices page said Confirm "the camera read waiting for a tap is
    right as read" with none waiting and Undo "take back the last action" right after the start,
    and both presses were refused. Over real HTTP: what GET /api/hardware says of each table
    command agrees with what a press of it does, before and after a camera read waits."""
    import json

    from companion.cli import _confirm_waiting_read
    from live_server import live_app

    with Journal(tmp_path / "journal.sqlite3") as journal:
        session = Session(journal, Catalog())
        session.start("incredibles", {"players": ["dash"], "starting_problems": ["A", "B", "C"]},
                      seed=1)
        handle = attach(session, {}, simulate=True, confirm=lambda: _confirm_waiting_read(session))
        try:
            with live_app(session, hardware=handle, extras={"simulate": True}) as live:
                def meanings():
                    status, _, body = live.json("GET", "/api/hardware")
                    assert status == 200
                    return json.loads(body)["meanings"]["buttons"]

                def press(name):
                    seq = session.seq
                    status, _, body = live.json("POST", "/api/hardware/press", {"name": name})
                    assert status == 200, body
                    assert handle.dispatcher.wait_idle(5)
                    return session.seq > seq

                now = meanings()
                assert now["confirm"] == "nothing now: no camera read waits for a tap", now
                assert now["undo"] == "nothing now: there is nothing to take back", now
                assert now["timer_toggle"] == "start the turn timer", now    # none runs yet
                assert not press("confirm") and not press("undo")          # refused, as said
                session.submit(Action("dice.read", source="camera", data={
                    "set": "incredibles-movement", "dice": [{"face": "3", "confidence": 0.3}]}))
                now = meanings()
                assert now["confirm"] == "the camera read waiting for a tap is right as read", now
                assert now["undo"] == "take back the last move", now
                assert press("confirm")                                     # it works, as said
                assert session.view()["state"]["roll"]["face"] == "3"
                assert press("timer") and "turn" in session.view()["timers"]
                assert meanings()["timer_toggle"] == "pause or resume the turn timer"
        finally:
            handle.close()


def test_read_dice_is_said_to_do_nothing_while_the_dice_in_the_tray_were_read_already(tmp_path):
    """The Devices page listed Read dice as "the camera reads the tray now" while a press was
    refused, the dice read already and not moved since (found by a hostile-input audit). Over
    real HTTP, with the camera over the simulated tray: what it says and what a press does agree."""
    import json
    import time

    from live_server import live_app
    from vision.classical.sets import teach
    from vision.render import write_teaching_photos
    from vision.simulated_tray import SimulatedTray
    from vision.table_camera import TableCamera

    write_teaching_photos("incredibles", tmp_path / "photos")
    teach("incredibles", tmp_path / "photos", tmp_path)
    with Journal(tmp_path / "journal.sqlite3") as journal:
        session = Session(journal, Catalog())
        view = session.start("incredibles", {"players": ["dash", "violet"],
                                             "starting_problems": ["A", "B", "C"]}, seed=3)
        camera = TableCamera(session, SimulatedTray(seed=5, fps=30), tmp_path, settle_s=0.2).start()
        handle = attach(session, {}, simulate=True, read_dice=camera.read_now)
        try:
            with live_app(session, hardware=handle, extras={"simulate": True, "camera": camera}) as live:
                def read_dice():
                    status, _, body = live.json("GET", "/api/hardware")
                    assert status == 200
                    return json.loads(body)["meanings"]["buttons"]["read_dice"]

                deadline = time.monotonic() + 30
                while camera.watcher.last_frame_at is None:    # the camera's first picture
                    assert time.monotonic() < deadline
                    time.sleep(0.05)
                assert read_dice() == "the camera reads the tray now"
                camera.throw(["alarm"])                        # Dash's Alarm: Violet's roll next
                deadline = time.monotonic() + 60
                while not camera.throws.taken:
                    assert time.monotonic() < deadline
                    time.sleep(0.05)
                said = read_dice()
                assert said == ("nothing now: the dice in the tray were read already and have "
                                "not moved since"), said
                seq = session.seq
                status, _, body = live.json("POST", "/api/hardware/press", {"name": "dice"})
                assert status == 200 and handle.dispatcher.wait_idle(5)
                assert session.seq == seq and "read already" in json.loads(
                    live.json("GET", "/api/hardware")[2])["status"]["actions"]["last_refusal"]["reason"]
        finally:
            handle.close()
            camera.close()


def test_the_devices_page_shows_the_serial_displays_line_as_the_display_shows_it(server_factory,
                                                                                   pages):
    """docs/serial-protocol.md: TEXT is 'one line for the device's display: at most
    display_width characters, whole words, asides in brackets left out first, `>` at the end
    where the prompt goes on'. The owner saw only that a controller was connected; the Devices
    page of a real server now shows the line the simulated device received over its
    pseudo-terminal, fitted to the 16 characters of deploy/config.example.toml's display."""
    import json

    from hardware.display_line import fit

    server = server_factory("--simulate")
    server.wait_ready()
    status, view = server.post("/api/session", {"game": "incredibles", "seed": 1, "players": [
        {"hero": "mrs-incredible", "name": "Alexandra"}, {"hero": "dash", "name": "Bo"}]})
    assert status in (200, 201), view
    prompt = view["expect"]["prompt"]
    assert len(prompt) > 16
    page = pages(server.url + "/devices", 390, 844)
    want = f"Its display (16 characters) shows: \u201c{fit(prompt, 16)}\u201d."
    page.wait_for_function(f"document.querySelector('main') && document.querySelector('main')"
                           f".innerText.includes({json.dumps(want)})", timeout=30_000)
    assert len(fit(prompt, 16)) <= 16
