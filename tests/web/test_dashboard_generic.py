"""A game the dashboard has no renderer for, played in a real Chromium: what X-Men Alert and
Invincible get the day their engines land. Also the phone's timer controls and the "done"
toggles, which only such a game offers today.

FAKE: ``Relay`` is a tiny stand-in engine (a phase every player ends with "done", points to
win) until Invincible, whose Hero Phase has per-player "done", lands in main; then replace it
with a browser test on the real engine.
"""

import threading

import pytest

from companion.errors import IllegalAction
from companion.games import Catalog
from companion.games.base import Game, field
from companion.journal import Journal
from companion.session import Session
from web import create_app

pytestmark = pytest.mark.browser
CHROMIUM = "/usr/bin/chromium"


class Relay(Game):
    name = "relay"
    title = "Relay (a test game)"
    actions = {"done": "Say you are done with this phase.",
               "score": "Score for the team: data.points is how many points (a whole number)."}

    def setup(self, options, rng):
        return {"players": options["players"], "done": [], "points": 0, "round": 1}

    def expect(self, s):
        if s["points"] >= 3:
            return {"phase": "over", "actions": [], "prompt": "The game is over."}
        waiting = [p for p in s["players"] if p not in s["done"]]
        return {"phase": "heroes", "actions": ["done", "score"], "players": s["players"],
                "done": s["done"], "prompt": "Waiting for " + ", ".join(waiting) + "."}

    def apply(self, s, action, rng):
        self.check_type(action)
        s = self.evolve(s)
        if action.type == "done":
            if action.player not in s["players"] or action.player in s["done"]:
                raise IllegalAction(f"{action.player} cannot say done now")
            s["done"].append(action.player)
            if len(s["done"]) == len(s["players"]):
                s["done"], s["round"] = [], s["round"] + 1
        else:
            s["points"] += field(action.data, "points", int, "score")
        return s

    def outcome(self, s):
        return {"status": "won", "reason": "3 points", "score": s["points"]} if s["points"] >= 3 \
            else {"status": "playing"}

    def to_json(self, s):
        return dict(s)




@pytest.fixture
def served():
    from waitress import create_server

    real = Catalog()
    with Journal(":memory:") as journal:
        session = Session(journal, lambda name: Relay() if name == "relay" else real(name))
        session.start("relay", {"players": ["ana", "ben"]}, seed=1)
        server = create_server(create_app(session), host="127.0.0.1", port=0, threads=8)
        threading.Thread(target=server.run, daemon=True).start()
        try:
            yield session, f"http://127.0.0.1:{server.effective_port}"
        finally:
            server.close()


def test_an_unknown_game_is_shown_and_played_with_generic_controls(browser, served):
    session, url = served
    page = browser.new_page(viewport={"width": 412, "height": 915})
    page.set_default_timeout(8000)
    page.goto(url + "/play")
    page.wait_for_selector('[data-key="done-ana"]')
    assert "Waiting for ana, ben" in page.inner_text("#banner")
    assert "Points" in page.inner_text("#board") and "Players" in page.inner_text("#board")

    page.locator('[data-key="done-ana"]').click()
    page.wait_for_selector('[data-key="done-ana"][aria-pressed="true"]')
    assert "ana is done" in page.inner_text("#controls")
    assert session.view()["state"]["done"] == ["ana"]

    form = page.locator('form[data-action="score"]')
    assert "how many points" in form.inner_text()
    form.locator("summary").click()
    form.locator('input[name="points"]').fill("3")
    form.locator('button[type="submit"]').click()
    page.wait_for_function("document.getElementById('banner').textContent.includes('You won')")
    assert session.view()["state"]["points"] == 3       # sent as the number 3, not "3"
    assert "Undo: score 3" in page.inner_text("#undo")
    page.close()


def test_the_phone_starts_pauses_and_extends_a_timer_and_warns_in_the_last_minute(browser, served):
    session, url = served
    page = browser.new_page(viewport={"width": 412, "height": 915})
    page.set_default_timeout(8000)
    page.goto(url + "/play")
    page.wait_for_selector('[data-key="timer-start"]')
    page.select_option("#timer-minutes", "1")
    page.locator('[data-key="timer-start"]').click()
    page.wait_for_selector('[data-state="turn"]')
    assert session.view()["timers"]["turn"]["duration"] == 60
    page.wait_for_function("document.querySelector('[data-state=\"turn\"]').textContent.includes('Last minute')", polling=100)
    assert "warning" in page.get_attribute('[data-timer="turn"]', "class")
    page.locator('[data-key="pause-turn"]').click()
    page.wait_for_function("document.querySelector('[data-state=\"turn\"]').textContent.includes('Paused')", polling=100)
    page.locator('[data-key="add-turn"]').click()
    page.wait_for_function("document.querySelector('[data-left=\"turn\"]').textContent.match(/^(1:5[0-9]|2:00)$/)", polling=100)
    timer = session.view()["timers"]["turn"]
    assert not timer["running"] and 60 < timer["remaining"] <= 120
    # a clock is not a move: Undo never names a timer's step or turns it back (companion/undo.py)
    preview = session.undo_preview()
    assert preview is None or not preview["action"]["type"].startswith("timer.")
    assert "timer" not in page.inner_text("#undo")
    page.close()
