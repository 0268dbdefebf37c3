"""The dashboard's hooks for the adapters that land later: hardware status and simulated
buttons, dice-read confirmation and the camera's photo.

FAKES: ``FakeHardware``, ``FakeCamera`` and ``ReadingSession`` stand in for the hardware
adapter, the camera and the core's ``Session.confirm_read`` until they land in main; replace
them with the real parts then (the real Session is used everywhere else here).
"""

import pytest

from companion.actions import Action
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from web import create_app

JPEG = bytes.fromhex("ffd8ffe000104a46494600010100000100010000ffd9")


class FakeHardware:
    def __init__(self):
        self.pressed = []

    def status(self):
        # the shape of hardware.wiring's status (work in progress on the hardware branch)
        return {"simulated": True, "serial": {"state": "lost", "reason": "no device on /dev/ttyACM0"},
                "leds": {"turn": {"mode": "on", "lit": True}}, "buzzer": {"sounding": False},
                "buttons": {"roll": {"pin": 17, "presses": 0}, "done": {"pin": 27, "presses": 0}}}

    def press(self, name, hold=False):
        self.pressed.append((name, hold))


class FakeCamera:
    def photo(self, read_id):
        return JPEG if read_id == "r1" else None


class ReadingSession(Session):
    """A real session plus the dice read the core will carry (fake until it lands)."""

    read = None

    def view(self):
        view = super().view()
        view["dice_read"] = self.read
        return view

    def confirm_read(self, read_id, faces):
        if self.read is None or read_id != self.read["id"] or self.read["confirmed"]:
            from companion.errors import Conflict
            raise Conflict("that dice read is no longer the latest")
        faces = faces or [d["face"] for d in self.read["dice"]]
        self.read = {**self.read, "confirmed": True,
                     "dice": [{**d, "face": f} for d, f in zip(self.read["dice"], faces)]}
        return self.submit(Action("roll", "dash", {"face": faces[0]}, source="camera"))


@pytest.fixture
def session():
    with Journal(":memory:") as journal:
        s = ReadingSession(journal, Catalog())
        s.start("incredibles", {"players": ["dash"], "starting_problems": ["A", "B", "C"]}, seed=1)
        s.read = {"id": "r1", "set": "incredibles-movement", "confirmed": False, "image": "/api/dice/r1.jpg",
                  "dice": [{"face": "3", "confidence": 0.62, "box": [10, 10, 40, 40]}],
                  "action": {"type": "roll", "player": "dash", "data": {"face": "3"}}}
        yield s


def client(session, **extras):
    hardware = extras.pop("hardware", None)
    return create_app(session, hardware=hardware, extras=extras).test_client()


def test_hardware_status_is_shown_and_buttons_pressed_only_in_simulation(session):
    hw = FakeHardware()
    c = client(session, hardware=hw)
    body = c.get("/api/hardware").get_json()
    assert body["status"]["serial"]["reason"] == "no device on /dev/ttyACM0" and not body["can_press"]
    res = c.post("/api/hardware/press", json={"name": "roll"})
    assert res.status_code == 409 and "simulation" in res.get_json()["error"] and hw.pressed == []

    c = client(session, hardware=hw, simulate=True)
    assert c.get("/api/hardware").get_json()["can_press"]
    assert c.post("/api/hardware/press", json={"name": "roll", "hold": True}).status_code == 200
    assert hw.pressed == [("roll", True)]
    for bad in ({"name": "Roll Die!"}, {"name": "roll", "hold": "yes"}, {}):
        assert c.post("/api/hardware/press", json=bad).status_code == 400
    assert hw.pressed == [("roll", True)]


def test_without_hardware_the_dashboard_says_so(session):
    body = client(session).get("/api/hardware").get_json()
    assert body == {"status": None, "simulate": False, "can_press": False}


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


def test_confirming_before_the_core_supports_it_is_a_clear_501():
    with Journal(":memory:") as journal:
        plain = Session(journal, Catalog())
        res = client(plain).post("/api/dice/confirm", json={"id": "r1", "faces": ["4"]})
        assert res.status_code == 501 and "confirm_read" in res.get_json()["error"]


def test_the_camera_photo_of_a_read(session):
    assert client(session).get("/api/dice/r1.jpg").status_code == 404      # no camera attached
    c = client(session, camera=FakeCamera())
    res = c.get("/api/dice/r1.jpg")
    assert res.status_code == 200 and res.mimetype == "image/jpeg" and res.data == JPEG
    assert c.get("/api/dice/r2.jpg").status_code == 404


@pytest.mark.browser
def test_a_phone_corrects_and_confirms_a_dice_read_with_taps(session):
    """The read says 3 at 62%: the phone shows it as unsure, a tap changes it to 4, one more
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

    hw = FakeHardware()
    app = create_app(session, hardware=hw, extras={"camera": FakeCamera(), "simulate": True})
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
            assert "62% sure" in page.inner_text("#dice") and "unsure" in page.inner_text("#dice")
            page.locator('[data-key="change-0"]').click()
            page.locator('[data-key="face-0-4"]').click()
            assert "corrected" in page.inner_text("#dice")
            before = int(page.evaluate("document.body.dataset.rendered"))
            page.locator('[data-key="confirm-read"]').click()
            page.wait_for_function(f"Number(document.body.dataset.rendered) > {before}")
            assert "Confirmed" in page.inner_text("#dice")
            assert session.read["confirmed"] and session.read["dice"][0]["face"] == "4"
            assert session.view()["state"]["roll"]["face"] == "4"
            # the hardware's status inline, and simulated buttons (simulation only)
            page.wait_for_selector("#hardware:not([hidden])")
            assert "Serial: lost (no device on /dev/ttyACM0)" in page.inner_text("#hardware")
            page.get_by_role("button", name="Press roll").click()
            deadline = time.monotonic() + 5
            while hw.pressed != [("roll", False)] and time.monotonic() < deadline:
                page.wait_for_timeout(50)
            assert hw.pressed == [("roll", False)]
            browser.close()
    finally:
        server.close()
