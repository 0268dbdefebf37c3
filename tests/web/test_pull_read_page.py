"""A hero's pull read by camera with one unsure cube, corrected and confirmed from a phone in a
real headless Chromium over real HTTP: the page offers the cube colours of the read's own roll
(a pull is not one of expect's dice), and only the confirmed pull reaches the hero."""

import threading

import numpy as np
from waitress import create_server

from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from vision.cubes import DEFAULT_COLOURS
from vision.pull_area import render_pull, read_pull
from web import create_app


def test_a_phone_corrects_an_unsure_cube_of_a_pull_and_confirms_it(browser, tmp_path):
    session = Session(Journal(tmp_path / "journal.sqlite3"), Catalog())
    session.start("invincible", {"heroes": ["invincible", "atom-eve"]}, seed=4)
    session.submit({"type": "advance"})
    between = tuple((a + b) // 2 for a, b in zip(DEFAULT_COLOURS["yellow"], DEFAULT_COLOURS["orange"]))
    frame = render_pull(np.random.default_rng(3), ["blue", "amber", "black"],
                        {**DEFAULT_COLOURS, "amber": between})
    waiting = session.submit(read_pull(frame, "atom-eve"))["dice_read"]
    unsure = waiting["doubtful"][0]
    server = create_server(create_app(session), host="127.0.0.1", port=0, threads=4)
    threading.Thread(target=server.run, daemon=True).start()
    page = browser.new_page(viewport={"width": 412, "height": 915})
    try:
        page.set_default_timeout(8000)
        page.goto(f"http://127.0.0.1:{server.effective_port}/play")
        page.wait_for_selector("#dice .die")
        assert "unsure" in page.inner_text("#dice")
        page.locator(f'[data-key="change-{unsure}"]').click()
        page.locator(f'[data-key="face-{unsure}-yellow"]').click()
        assert "corrected" in page.inner_text("#dice")
        page.locator('[data-key="confirm-read"]').click()
        page.wait_for_function("() => !document.querySelector('#dice.waiting-read')")
        eve = next(h for h in session.view()["state"]["heroes"] if h["id"] == "atom-eve")
        assert sorted(eve["ready"]) == ["black", "blue", "yellow"]
    finally:
        page.close()
        server.close()
