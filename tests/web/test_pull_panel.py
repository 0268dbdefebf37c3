"""Invincible's pulls from the phone's simulator panel (`make run`): a tap lays a hero's cubes,
drawn from their bag, in their area of the simulated pull mat; the pull camera (its own watcher
thread, real OpenCV) reads them once they lie still and the session journals that hero's pull."""

import os
import threading
import time
from pathlib import Path

import pytest

from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from vision.pull_camera import PullCamera, SimulatedPullMat
from web import create_app


@pytest.fixture
def session(tmp_path):
    with Journal(tmp_path / "journal.sqlite3") as journal:
        s = Session(journal, Catalog())
        s.start("invincible", {"heroes": ["invincible", "atom-eve"]}, seed=4)
        s.submit({"type": "advance"})
        yield s


@pytest.fixture
def pulls(session):
    camera = PullCamera(session, SimulatedPullMat(fps=20), simulate=True, settle_s=0.3).start()
    yield camera
    camera.close()


def pulls_of(session, hero_id):
    return next(h for h in session.view()["state"]["heroes"] if h["id"] == hero_id)["pulls"]


def wait_for(predicate, timeout=15.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_pull_is_laid_over_http_only_in_simulation(session, pulls):
    c = create_app(session, extras={"pulls": pulls}).test_client()
    assert c.get("/api/hardware").get_json()["pulls"]["seats"][1]["hero"] == "atom-eve"
    res = c.post("/api/camera/pull", json={"hero": "atom-eve"})
    assert res.status_code == 409 and "simulated pull mat" in res.get_json()["error"]
    c = create_app(session, extras={"pulls": pulls, "simulate": True}).test_client()
    for bad in ({"hero": "atom eve"}, {"hero": 2}):
        assert c.post("/api/camera/pull", json=bad).status_code == 400
    res = c.post("/api/camera/pull", json={"hero": "omni-man"})
    assert res.status_code == 422 and "not a hero of this game" in res.get_json()["error"]
    body = c.post("/api/camera/pull", json={"hero": "atom-eve"}).get_json()
    assert body["seat"] == 2 and len(body["laid"]) == 3
    wait_for(lambda: pulls_of(session, "atom-eve") == 1)
    ready = next(h for h in session.view()["state"]["heroes"] if h["id"] == "atom-eve")["ready"]
    assert sorted(ready) == sorted(body["laid"])


@pytest.mark.browser
def test_the_phones_simulator_panel_lays_a_heros_pull(session, pulls):
    """The newcomer's way (README, "Try it"): the phone's panel has a Pull button per hero."""
    chromium = "/usr/bin/chromium"
    if not Path(chromium).exists():
        if os.environ.get("COMPANION_REQUIRE_SHARED") == "1":
            pytest.fail(f"{chromium} is missing; COMPANION_REQUIRE_SHARED=1 requires the browser tests")
        pytest.skip(f"{chromium} is not installed")
    from playwright.sync_api import sync_playwright
    from waitress import create_server

    app = create_app(session, extras={"pulls": pulls, "simulate": True})
    server = create_server(app, host="127.0.0.1", port=0, threads=8)
    threading.Thread(target=server.run, daemon=True).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 412, "height": 915})
            page.set_default_timeout(8000)
            page.goto(f"http://127.0.0.1:{server.effective_port}/play")
            page.wait_for_selector('#simulator [data-key="sim-pull-invincible"]')
            # the hero's name as the table reads it ("Atom eve": its id made readable), once the
            # first state is in (a panel drawn before it is drawn again then: simulator.js)
            page.wait_for_function("(document.querySelector('#simulator [data-key=\"sim-pull-atom-eve\"]')"
                                   " || {}).textContent === 'Pull: Atom Eve'", polling=50)
            assert page.inner_text('#simulator [data-key="sim-pull-atom-eve"]').strip() == "Pull: Atom Eve"
            page.locator('#simulator [data-key="sim-pull-invincible"]').click()
            deadline = time.monotonic() + 15
            while pulls_of(session, "invincible") == 0 and time.monotonic() < deadline:
                page.wait_for_timeout(50)
            assert pulls_of(session, "invincible") == 1 and pulls_of(session, "atom-eve") == 0
            assert session.view()["last_roll"]["source"] == "camera"
            browser.close()
    finally:
        server.close()
