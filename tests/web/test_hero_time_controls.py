"""Hero time's controls on a phone and at the table's Timer button, against a real
`companion serve --simulate` in a real headless Chromium.

Hero-Time Variant: 'set a 10-minute timer at the start of each Hero Phase, and when it runs out,
the phase ends immediately.' The timer is the Hero Phase's: outside it there is nothing to pause,
resume or add to (time added in a Villain Phase was lost with the next phase's fresh timer), and
setup switches it on (no "Stop").
"""

import time

import pytest

from browser_pages import WAIT, wait_rendered

pytestmark = pytest.mark.browser

HEROES = [{"hero": "invincible", "name": "Ana"}, {"hero": "atom-eve", "name": "Ben"}]


def controls(page) -> list[str]:
    return sorted(page.eval_on_selector_all('#timers [data-timer="hero_time"] [data-key]',
                                            "nodes => nodes.map(n => n.dataset.key)"))


def next_phase(page) -> str:
    """The time the hero-time face shows between Hero Phases (and that it says so)."""
    face = page.locator('#timers [data-timer="hero_time"]')
    assert "waiting" in face.get_attribute("class") and "Next phase" in face.inner_text()
    return face.locator(".timer-left").inner_text()


def timer_button(server) -> str:
    return server.get("/api/hardware")[1]["meanings"]["buttons"]["timer_toggle"]


def test_hero_time_offers_only_what_its_hero_phase_allows(server_factory, pages):
    server = server_factory("--simulate")      # the table's buttons, simulated
    server.wait_ready()
    status, view = server.post("/api/session", {"game": "invincible", "seed": 2, "options": {
        "heroes": HEROES, "episode": 1, "hero_time": 10}})
    assert status in (200, 201), view
    phone = pages(server.url + "/play")
    wait_rendered(phone, view["seq"])

    # Before the first Hero Phase: the timer's face, why it waits, and nothing to press.
    phone.wait_for_selector('#timers [data-why="hero_time"]', timeout=WAIT)
    assert controls(phone) == []
    assert phone.inner_text('#timers [data-why="hero_time"]') == \
        "Hero time runs only during the Hero Phase."
    assert next_phase(phone) == "10:00"
    status, body = server.act("timer.add", name="hero_time", seconds=60)
    assert status == 422 and "only during the Hero Phase" in body["error"], body
    assert timer_button(server) == "nothing now: hero time runs only during the Hero Phase"

    # The Hero Phase: pause or resume, and a minute more; never "Stop".
    _, view = server.act("advance")
    wait_rendered(phone, view["seq"])
    assert controls(phone) == ["add-hero_time", "pause-hero_time"]
    assert phone.locator('#timers [data-why="hero_time"]').count() == 0
    assert timer_button(server) == "pause or resume the hero time timer"
    phone.locator('[data-key="pause-hero_time"]').click()
    phone.wait_for_selector('[data-key="resume-hero_time"]', timeout=WAIT)
    assert server.get("/api/state")[1]["timers"]["hero_time"]["running"] is False
    status, body = server.act("timer.pause", name="hero_time")
    assert status == 422 and "paused already" in body["error"], body
    phone.locator('[data-key="add-hero_time"]').click()
    phone.wait_for_function("document.querySelector('[data-left=\"hero_time\"]').textContent.startsWith('10:5')"
                            " || document.querySelector('[data-left=\"hero_time\"]').textContent.startsWith('11:0')",
                            timeout=WAIT)
    assert server.get("/api/state")[1]["timers"]["hero_time"]["duration"] == 660

    # Both heroes done: the Hero Phase is over, and so are its controls, on the phone and at the
    # table's Timer button (the press is refused with the reason, and nothing is journaled).
    server.act("timer.resume", name="hero_time")
    for hero in ("invincible", "atom-eve"):
        status, view = server.act("done", hero=hero)
        assert status in (200, 201), view
    assert view["state"]["phase"] != "hero"
    wait_rendered(phone, view["seq"])
    phone.wait_for_selector('#timers [data-why="hero_time"]', timeout=WAIT)
    assert controls(phone) == []
    # the minute added was this phase's: the next starts with its 10 minutes, not "Paused 9:58"
    assert next_phase(phone) == "10:00"
    assert timer_button(server).startswith("nothing now: hero time runs only")
    assert server.post("/api/hardware/press", {"name": "timer"})[0] == 200
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not server.get("/api/state")[1].get("refusals"):
        time.sleep(0.05)
    after = server.get("/api/state")[1]
    assert after["seq"] == view["seq"]
    for kind in ("timer.pause", "timer.add"):
        status, body = server.act(kind, name="hero_time", seconds=60)
        assert status == 422 and "only during the Hero Phase" in body["error"], body


def test_a_turn_timer_beside_hero_time_keeps_every_control(server, pages):
    """A table's own turn timer is not hero time: the phone starts, pauses and stops it as in
    any game, while hero time beside it offers no "Stop"."""
    status, view = server.post("/api/session", {"game": "invincible", "seed": 2, "options": {
        "heroes": HEROES, "episode": 1, "hero_time": 5}})
    assert status in (200, 201), view
    server.act("advance")
    phone = pages(server.url + "/play")
    phone.wait_for_selector('[data-key="timer-start"]', timeout=WAIT)
    phone.select_option("#timer-minutes", "2")
    phone.locator('[data-key="timer-start"]').click()
    phone.wait_for_selector('[data-key="cancel-turn"]', timeout=WAIT)
    keys = controls(phone) + sorted(phone.eval_on_selector_all(
        '#timers [data-timer="turn"] [data-key]', "nodes => nodes.map(n => n.dataset.key)"))
    assert keys == ["add-hero_time", "pause-hero_time", "add-turn", "cancel-turn", "pause-turn"]
    phone.locator('[data-key="cancel-turn"]').click()
    phone.wait_for_function("!document.querySelector('#timers [data-timer=\"turn\"]')", timeout=WAIT)
    assert set(server.get("/api/state")[1]["timers"]) == {"hero_time"}


def test_the_setup_page_leaves_the_variant_off_until_a_length_is_chosen(server, pages):
    """Hero-Time Variant: 'For a faster-paced game, try playing in real time: set a 10-minute
    timer ...' -- a variant the table chooses; the setup page offers 5, 10 and 15 minutes."""
    phone = pages(server.url + "/setup")
    phone.locator('input[name="game"][value="invincible"]').check()
    phone.wait_for_selector('[name="inv-hero"]', timeout=WAIT)
    assert phone.eval_on_selector("#inv-time", "s => s.value") == ""
    assert phone.eval_on_selector_all("#inv-time option", "os => os.map(o => o.value)") == \
        ["", "5", "10", "15", "custom"]
    phone.locator('[name="inv-hero"][value="robot"]').check()
    phone.locator('[name="inv-hero"][value="invincible"]').check()
    phone.locator("#start").click()
    phone.wait_for_url("**/play", timeout=WAIT)
    view = server.get("/api/state")[1]
    assert view["game"] == "invincible" and view["timers"] == {}
    # the table's Timer button says why it does nothing (it said "not running now")
    assert view["timer_controls"] == {"hero_time": {
        "open": [], "why": "hero time is off in this game (a setup choice)"}}


def test_the_table_says_the_hero_phase_is_over_when_time_runs_out_mid_power(server, pages):
    """'when it runs out, the phase ends immediately. Heroes may finish resolving any power they
    were already in the middle of': a family play-through found the table saying only
    'Invincible: resolve Move', never that the Hero Phase was over."""
    status, view = server.post("/api/session", {"game": "invincible", "seed": 2, "options": {
        "heroes": HEROES, "episode": 1, "hero_time": {"seconds": 3}}})
    assert status in (200, 201), view
    table = pages(server.url + "/table", 800, 480)
    for type_, data in (("advance", {}),
                        ("pull", {"hero": "invincible", "cubes": ["blue", "yellow", "yellow"]}),
                        ("play", {"hero": "invincible", "cube": "blue", "power": "move"})):
        status, view = server.act(type_, **data)
        assert status == 200, view
    assert view["expect"]["resolving"]["name"] == "Move"
    table.wait_for_function("document.getElementById('banner').textContent.includes('Time\\'s up')",
                            timeout=WAIT)
    assert server.get("/api/state")[1]["state"]["phase"] == "hero_end"
    assert " ".join(table.inner_text("#banner").split()) == \
        "Time's up: the Hero Phase is over. Invincible: resolve Move on a phone."


def test_a_pull_mats_read_is_said_as_cubes(server, pages):
    """A family play-through read 'Undo: the camera's read of 3 dice' for a cube pull."""
    status, view = server.post("/api/session", {"game": "invincible", "seed": 2, "options": {
        "heroes": HEROES, "episode": 1}})
    phone = pages(server.url + "/play")
    wait_rendered(phone, view["seq"])
    said = phone.evaluate("""() => [Companion.describe(Companion.view, {type: "dice.read",
        data: {set: "invincible-cubes", dice: [{}, {}, {}]}}), Companion.describe(Companion.view,
        {type: "dice.read", data: {set: "invincible-crash", dice: [{}]}})]""")
    assert said == ["the camera's read of 3 cubes", "the camera's read of 1 die"]
