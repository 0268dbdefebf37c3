"""The dashboard in a real headless Chromium against a real `companion serve` over real HTTP.

One browser per module; every wait is bounded. Skips (with the reason) only where Debian's
chromium is absent and COMPANION_REQUIRE_SHARED is not "1"; CI sets it and installs chromium.
"""

import re
import socket
import threading
import time
from pathlib import Path

import pytest

from browser_pages import (WAIT, play_random_games, rendered, scan_qr, start_from_setup,  # noqa: F401
                           tap, wait_rendered)

pytestmark = pytest.mark.browser

FIXED_DASH = {"game": "incredibles", "players": ["dash"], "seed": 7,
              "starting_problems": ["A", "B", "C"]}




def test_a_whole_incredibles_game_from_a_phone_while_the_table_follows(server, pages):
    phone = start_from_setup(pages, server.url, 'input[name="hero"][value="dash"]',
                             'input[name="order"][value="fixed"]')
    table = pages(server.url + "/table", 800, 480)
    wait_rendered(table, rendered(phone))
    assert "Dash: roll the Movement Die" in table.inner_text("#banner")
    assert server.get("/api/state")[1]["state"]["track"][0]["tile"] == "A"  # fixed order: A, B, C

    tap(phone, table, "roll-1")
    assert "Undo: Dash: roll 1" in phone.inner_text("#undo")
    tap(phone, table, "move-1")
    assert "rescued" in table.inner_text("#board")                          # Jack-Jack
    tap(phone, table, "roll-2")
    tap(phone, table, "move-A")
    assert "needs" in phone.inner_text("#controls") and "Strength" in phone.inner_text("#controls")
    tap(phone, table, "power-strength", "fix-send")
    assert "fixed" in table.inner_text("#dice")                              # the last roll, large
    tap(phone, table, "roll-3")
    tap(phone, table, "move-B")
    tap(phone, table, "power-wild", "fix-send")
    tap(phone, table, "roll-3")
    tap(phone, table, "move-C")
    seq = tap(phone, table, "power-agility", "fix-send")

    for page in (phone, table):
        assert "You won" in page.inner_text("#banner")
    assert "Undo: Dash: fix with Agility" in phone.inner_text("#undo")
    status, view = server.get("/api/state")
    assert view["seq"] == seq and view["outcome"]["status"] == "won"
    assert rendered(table) == seq
    history = server.get("/api/history")[1]["games"]
    assert history[0]["outcome"]["status"] == "won"


def test_an_undo_from_a_held_table_button_says_on_every_screen_what_it_took_back(server_factory, pages):
    """docs/hardware.md: 'An `undo` button usually has only `hold = "undo"`'. Held, it took back
    the last move, and the screens just changed back without a word of what was undone (the
    table kept showing an older refusal); now each says it."""
    server = server_factory("--simulate")         # the table's buttons, simulated
    _, view = server.post("/api/session", FIXED_DASH)
    _, view = server.act("roll", "dash", face="2")
    phone, table = pages(server.url + "/play"), pages(server.url + "/table", 800, 480)
    for page in (phone, table):
        wait_rendered(page, view["seq"])
    status, _ = server.post("/api/hardware/press", {"name": "confirm", "hold": True})
    assert status == 200
    deadline = time.monotonic() + WAIT / 1000
    while (after := server.get("/api/state")[1])["seq"] == view["seq"]:
        assert time.monotonic() < deadline, "the held button undid nothing"
        time.sleep(0.05)
    assert after["undone"]["action"]["type"] == "roll" and after["expect"]["phase"] == "roll"
    for page in (phone, table):
        wait_rendered(page, after["seq"])
    assert "Undone: Dash: roll 2" in table.inner_text("#notice")
    assert "Undone: Dash: roll 2" in phone.inner_text("#notice")
    _, later = server.act("roll", "dash", face="1")               # news of that change alone
    assert later["undone"] is None
    wait_rendered(table, later["seq"])
    assert table.locator("#notice").is_hidden()       # the undo is old news once the game moves on


def test_a_refused_press_leaves_the_table_once_the_game_moves_on(server_factory, pages):
    """An audit's family pressed the Card button when it meant nothing, then played on: for 10 s
    the table went on saying the press did nothing and why, under a next step that no longer
    matched it (and a phone for 12 s, into the next player's turn). The refusal stays on both
    until the game changes, and no longer."""
    server = server_factory("--simulate")
    server.wait_ready()
    _, view = server.post("/api/session", FIXED_DASH)
    table, phone = pages(server.url + "/table", 800, 480), pages(server.url + "/play")
    for page in (table, phone):
        wait_rendered(page, view["seq"])
    assert server.post("/api/hardware/press", {"name": "card"})[0] == 200
    for page in (table, phone):
        page.wait_for_selector("#notice:not([hidden])", timeout=WAIT)
        assert "did nothing" in page.inner_text("#notice")
    table.wait_for_timeout(1500)
    for page in (table, phone):
        assert page.locator("#notice").is_visible()   # still there while the table is as it was
    started = time.monotonic()
    _, later = server.act("roll", "dash", face="2")
    for page in (table, phone):
        wait_rendered(page, later["seq"])
        assert page.locator("#notice").is_hidden()
    assert time.monotonic() - started < 5


class Cable:
    """A TCP relay between the browser and the server that a test can unplug, like a phone's
    Wi-Fi dropping: open connections are cut and new ones fail until it is plugged back in."""

    def __init__(self, target_port: int):
        self.target = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.plugged = True
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.plugged:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            with self.lock:
                self.open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src, dst):
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def unplug(self):
        self.plugged = False
        with self.lock:
            for s in self.open:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                    s.close()
                except OSError:
                    pass
            self.open.clear()

    def plug(self):
        self.plugged = True

    def close(self):
        self.unplug()
        self.listener.close()


def shown_seconds(page, name: str) -> int:
    text = page.inner_text(f'[data-left="{name}"]')
    minutes, seconds = re.fullmatch(r"(\d+):(\d\d)", text.strip()).groups()
    return int(minutes) * 60 + int(seconds)


def test_a_timer_that_expires_while_a_client_is_away_is_right_when_it_returns(server, pages):
    """The page's own clock is 10 minutes fast: timers must count on the server's clock."""
    server.post("/api/session", FIXED_DASH)
    cable = Cable(server.port)
    try:
        skew = "(() => { const real = Date.now; Date.now = () => real() + 600000; })();"
        table = pages(f"http://127.0.0.1:{cable.port}/table", 800, 480, init_script=skew)
        table.wait_for_selector("body[data-rendered]")
        server.post("/api/actions", {"type": "timer.start", "data": {"name": "turn", "seconds": 4}})
        started = time.monotonic()
        _, view = server.post("/api/actions", {"type": "timer.start",
                                               "data": {"name": "long", "seconds": 120, "label": "Long"}})
        wait_rendered(table, view["seq"])
        # 120 s on the server's clock less the time this took, however long under load (the
        # page's own clock, 10 minutes fast, would show it run out)
        shown, took = shown_seconds(table, "long"), time.monotonic() - started
        assert 120 - took - 1 <= shown <= 120, (shown, took)
        beeps = int(table.evaluate("Number(document.body.dataset.beeps || 0)"))

        cable.unplug()
        table.wait_for_selector("#stale:not([hidden])", timeout=WAIT)
        assert "Not connected" in table.inner_text("#stale")
        # While the page is away: the turn timer runs out (journaled by the server's ticker)
        # and the long one is paused with time added.
        deadline = time.monotonic() + 8
        while not server.get("/api/state")[1]["timers"]["turn"]["expired"]:
            assert time.monotonic() < deadline, "the server never journaled the expiry"
            time.sleep(0.1)
        server.post("/api/actions", {"type": "timer.pause", "data": {"name": "long"}})
        _, view = server.post("/api/actions", {"type": "timer.add", "data": {"name": "long", "seconds": 60}})
        assert rendered(table) < view["seq"]            # it really did not hear of it

        cable.plug()
        wait_rendered(table, view["seq"])
        table.wait_for_selector("#stale", state="hidden", timeout=WAIT)
        assert table.inner_text('[data-state="turn"]').strip() == "Time's up!"
        assert table.inner_text('[data-left="turn"]') == "0:00"
        long_left = server.get("/api/state")[1]["timers"]["long"]["remaining"]
        assert abs(shown_seconds(table, "long") - long_left) <= 1
        assert "Paused" in table.inner_text('[data-state="long"]')
        # the table view has sound on by default and beeps once for the run-out timer
        table.wait_for_function(f"Number(document.body.dataset.beeps) > {beeps}", timeout=WAIT)
    finally:
        cable.close()


def test_two_phones_acting_at_once_get_a_clear_answer_each(server, pages):
    _, view = server.post("/api/session", FIXED_DASH)
    a = pages(server.url + "/play")
    b = pages(server.url + "/play")
    for page in (a, b):
        wait_rendered(page, view["seq"])
    # Both tap "roll" on the same state: dispatch both before either hears of the other.
    a.evaluate("() => { window.answer = Companion.act('roll', {face: '2'}); }")
    b.evaluate("() => { window.answer = Companion.act('roll', {face: '3'}); }")
    statuses = sorted(p.evaluate("async () => (await window.answer).status") for p in (a, b))
    assert statuses[0] == 200 and statuses[1] in (409, 422), statuses
    _, after = server.get("/api/state")
    assert after["seq"] == view["seq"] + 1                  # exactly one roll landed
    loser = a if a.evaluate("async () => (await window.answer).status") != 200 else b
    wait_rendered(loser, after["seq"])                      # the loser sees the new state ...
    message = loser.inner_text("#error")                    # ... and is told why nothing happened
    assert "table changed" in message or "not possible now" in message
    if statuses[1] == 409:
        assert "The table changed" in loser.inner_text("#notice")


def test_a_tap_on_a_button_drawn_for_the_state_before_is_made_against_that_state(server, pages):
    """A tap sent the newest seq the page had received, not the one its buttons were drawn from:
    in the moment between a new state arriving and the redraw, a button of the old state was
    taken as a choice made on the new one (found by reading the code in a two-phone audit). The
    tap's request is caught on its way out and its if_seq read."""
    import json

    _, view = server.post("/api/session", FIXED_DASH)
    phone = pages(server.url + "/play")
    wait_rendered(phone, view["seq"])
    sent = []

    def catch(route):
        sent.append(json.loads(route.request.post_data))
        route.abort()

    phone.route("**/api/actions", catch)
    phone.evaluate("""() => {
        Companion.receive(Object.assign({}, Companion.view, {seq: Companion.view.seq + 1}));
        document.querySelector('#controls [data-key="roll-1"]').click();   // before the redraw
    }""")
    for _ in range(100):
        if sent:
            break
        phone.wait_for_timeout(20)
    assert sent and sent[0]["type"] == "roll" and sent[0]["if_seq"] == view["seq"], sent


def test_a_wrong_join_code_is_refused_and_the_right_one_lets_a_phone_play(server_factory, tmp_path, pages):
    data = tmp_path / "data"
    data.mkdir()
    (data / "config.toml").write_text('[server]\njoin_code = "TABLE4242"\ntrust_loopback = false\n')
    server = server_factory(data=data)
    server.post("/api/session", FIXED_DASH, headers={"X-Join-Code": "TABLE4242"})
    phone = pages(server.url + "/play")
    phone.wait_for_selector("#join:not([hidden])")
    phone.wait_for_selector("body[data-rendered]")          # watching needs no code
    assert "Join the table" in phone.inner_text("#controls")
    assert phone.locator('[data-key="roll-2"]').count() == 0
    phone.fill("#join-code", "WRONG9")
    phone.locator("#join-form button").click()
    phone.wait_for_function("document.getElementById('join-error').textContent.length > 0")
    assert "not right" in phone.inner_text("#join-error")
    assert server.get("/api/state")[1]["seq"] == rendered(phone)

    phone.fill("#join-code", "table4242")
    phone.locator("#join-form button").click()
    phone.wait_for_selector("#join", state="hidden")
    phone.wait_for_selector('#controls [data-key="roll-2"]')
    before = rendered(phone)
    phone.locator('#controls [data-key="roll-2"]').click()
    wait_rendered(phone, before + 1)
    assert server.get("/api/state")[1]["expect"]["phase"] == "move"


def test_a_cross_site_form_post_changes_nothing(server, pages):
    """Another site's page posting a form at the trusted table is refused."""
    _, view = server.post("/api/session", FIXED_DASH)
    evil = pages("about:blank")
    evil.set_content(
        f'<form method="post" enctype="text/plain" action="{server.url}/api/actions">'
        '<input name=\'{"type":"roll","player":"dash","data":{"face":"2"},"x":"\' value=\'"}\'>'
        "</form>")
    with evil.expect_navigation(timeout=WAIT):
        evil.evaluate("document.forms[0].submit()")
    assert "refused" in evil.content()
    assert server.get("/api/state")[1]["seq"] == view["seq"]


def test_the_table_shows_the_join_code_with_a_qr_code_that_scans(server, pages, tmp_path):
    table = pages(server.url + "/table", 1920, 1080)
    table.wait_for_selector("#join-chip:not([hidden])")
    code = server.get("/api/access")[1]["code"]
    assert table.inner_text("#chip-code") == code                       # the corner chip ...
    table.locator("#join-chip").click()                                 # ... opens full screen
    table.wait_for_function("document.getElementById('qr').naturalWidth > 0")
    assert table.inner_text("#join-code-shown") == code
    shot = tmp_path / "qr.png"
    table.locator("#qr").screenshot(path=str(shot))
    text = scan_qr(shot)
    assert text.endswith(f"/play?code={code}") and text.startswith("http://")


def test_a_game_without_its_own_renderer_is_shown_and_playable_generically(server, pages):
    """What X-Men and Invincible get until their renderers land: state as data, controls from
    expect["actions"] and the engine's action descriptions, data fields read from them."""
    _, view = server.post("/api/session", FIXED_DASH)
    phone = pages(server.url + "/play?renderer=generic")
    wait_rendered(phone, view["seq"])
    assert "Movers" in phone.inner_text("#board") and "Jackjack" in phone.inner_text("#board")
    form = phone.locator('form[data-action="roll"]')
    assert "movement die" in form.inner_text().lower()
    form.locator("summary").click()
    form.locator('select[name="face"]').select_option("2")     # a picker of the die's faces
    form.locator('button[type="submit"]').click()
    wait_rendered(phone, view["seq"] + 1)
    assert server.get("/api/state")[1]["state"]["roll"]["face"] == "2"
    form = phone.locator('form[data-action="move"]')
    form.locator("summary").click()
    form.locator('input[name="to"]').fill("2")
    form.locator('button[type="submit"]').click()
    wait_rendered(phone, view["seq"] + 2)
    assert server.get("/api/state")[1]["state"]["movers"][0]["space"] == "2"


def test_controls_are_keyboard_operable_and_big_enough_to_tap(server, pages):
    _, view = server.post("/api/session", FIXED_DASH)
    phone = pages(server.url + "/play")
    wait_rendered(phone, view["seq"])
    small = phone.evaluate("""() => [...document.querySelectorAll('button:not([hidden]), a[href]')]
        .filter((b) => b.offsetParent !== null)
        .map((b) => [b.textContent.trim(), b.getBoundingClientRect().height])
        .filter(([, h]) => h < 47.5)""")
    assert small == []
    phone.focus('#controls [data-key="roll-1"]')
    phone.keyboard.press("Tab")                              # to the next face, "2"
    phone.keyboard.press("Enter")
    wait_rendered(phone, view["seq"] + 1)
    assert server.get("/api/state")[1]["state"]["roll"]["face"] == "2"


def test_a_table_that_asks_the_code_even_to_watch(server_factory, tmp_path, pages):
    data = tmp_path / "data"
    data.mkdir()
    (data / "config.toml").write_text('[server]\njoin_code = "TABLE4242"\ntrust_loopback = false\n'
                                      "watch_requires_code = true\n")
    server = server_factory(data=data)
    _, view = server.post("/api/session", FIXED_DASH, headers={"X-Join-Code": "TABLE4242"})
    table = pages(server.url + "/table", 800, 480)
    table.wait_for_selector("#join:not([hidden])")
    assert "even to watch" in table.inner_text("#join-why")
    table.wait_for_timeout(300)
    assert table.evaluate("document.body.dataset.rendered") is None     # nothing shown yet
    table.fill("#join-code", "TABLE4242")
    table.locator("#join-form button").click()
    wait_rendered(table, view["seq"])
    assert "roll the Movement Die" in table.inner_text("#banner")
    assert table.inner_text("#chip-code") == "TABLE4242"                # joined: may show it


def test_sound_is_on_for_the_table_and_off_for_phones_and_kid_mode_sticks(server, pages):
    table = pages(server.url + "/table", 800, 480)
    phone = pages(server.url + "/play")
    for page in (table, phone):
        page.wait_for_selector("body[data-seq]")
    # the table wants sound (it may wait for a first tap: test_table_view.py); phones do not
    assert table.get_attribute("#sound-toggle", "data-sound") in ("on", "blocked")
    assert phone.get_attribute("#sound-toggle", "data-sound") == "off"
    phone.locator("#kid-toggle").click()
    assert phone.evaluate("document.body.classList.contains('kid')")
    phone.reload()
    phone.wait_for_selector("body[data-seq]")
    assert phone.evaluate("document.body.classList.contains('kid')")
    assert phone.get_attribute("#kid-toggle", "aria-pressed") == "true"


def test_setup_puts_a_game_away_and_lists_it_in_the_history(server, pages):
    server.post("/api/session", FIXED_DASH)
    page = pages(server.url + "/setup", 800, 900)
    page.wait_for_selector("#abandon")
    assert "The Incredibles" in page.inner_text("#current-body")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#abandon").click()
    page.wait_for_function("document.getElementById('current-body').textContent.includes('No game')")
    page.wait_for_function("document.getElementById('history').textContent.includes('Put away')")
    assert server.get("/api/state")[1]["game"] is None


def test_the_setup_page_says_which_heros_power_is_assumed(server, pages):
    """The rulebook prints no hero's own power ('each character has a different Power symbol
    that they are better at rolling'); the setup page showed each as a fact. Each hero whose
    component data is an assumption now carries its note, word for word."""
    from companion.games import Catalog

    notes = Catalog()("incredibles").components()["assumptions"]
    page = pages(server.url + "/setup", 390, 844)
    page.locator('input[name="game"][value="incredibles"]').check()
    page.wait_for_selector('[name="hero"]')
    for hero in ("mr-incredible", "mrs-incredible", "violet", "dash"):
        said = page.inner_text(f'[data-assumed="{hero}"]').strip()
        assert said == notes[f"hero {hero}"], (hero, said)
    assert "Own power (Agility) assumed." in page.inner_text('li:has([value="mrs-incredible"])')


def test_the_setup_page_says_each_ticked_heros_place_in_the_playing_order(server, pages):
    """'The youngest player goes first.' The page asks to tick the heroes in playing order, and
    numbered them by the list's printed order: ticked Violet, Dash, Mrs. Incredible read "2. Mrs.
    Incredible, 3. Violet, 4. Dash" while the game played Violet, Dash, Mrs. Incredible (found
    by a family play-through). Each ticked hero now says its place, which the game keeps."""
    page = pages(server.url + "/setup", 390, 844)
    page.locator('input[name="game"][value="incredibles"]').check()
    page.wait_for_selector('[name="hero"]')
    for hero in ("violet", "dash", "mrs-incredible"):
        page.locator(f'[name="hero"][value="{hero}"]').check()
    said = {hero: page.inner_text(f'label:has([name="hero"][value="{hero}"]) .play-order')
            for hero in ("violet", "dash", "mrs-incredible")}
    assert {k: v.strip() for k, v in said.items()} == {
        "violet": "plays 1st", "dash": "plays 2nd", "mrs-incredible": "plays 3rd"}, said
    page.locator('[name="hero"][value="dash"]').uncheck()
    assert "plays 2nd" in page.inner_text('label:has([name="hero"][value="mrs-incredible"])')
    assert page.eval_on_selector("ul.hero-picks", "u => getComputedStyle(u).listStyleType") == "none"
    page.locator('[name="hero"][value="dash"]').check()
    page.locator("#start").click()
    page.wait_for_url("**/play", timeout=WAIT)
    movers = server.get("/api/state")[1]["state"]["movers"]
    assert [m["hero"] for m in movers] == ["violet", "mrs-incredible", "dash"]


def test_a_page_never_steps_back_to_an_older_state(server, pages):
    server.post("/api/session", FIXED_DASH)
    _, view = server.act("roll", "dash", face="2")
    table = pages(server.url + "/table", 800, 480)
    wait_rendered(table, view["seq"])
    # an older state arriving late (a slow response overtaken by the stream) is ignored
    table.evaluate("""() => Companion.receive(Object.assign({}, Companion.view,
        {seq: Companion.view.seq - 1, expect: {prompt: 'OLD', actions: []}}))""")
    assert table.evaluate("Companion.view.seq") == view["seq"]
    assert "OLD" not in table.inner_text("#banner") and "move up to 2" in table.inner_text("#banner")


def test_every_state_of_random_incredibles_games_renders_on_the_phone_and_the_table(server, pages):
    """Random legal Incredibles games posted to the server: the phone and the 800x480 table draw
    every state, fit it, show no "undefined" or "NaN", and the phone offers a control whenever
    one is expected (as the X-Men and Invincible dashboards' tests do)."""
    play_random_games(server, pages(server.url + "/play"), pages(server.url + "/table", 800, 480),
                      "incredibles", (1, 2, 3), 60, 1)


def test_one_games_broken_file_leaves_the_other_games_startable_from_setup(server_factory, tmp_path, pages):
    """An owner's copy of the Incredibles file with a typo made the setup page's list of games
    empty, so no game could be started from it (found by an owner's-box audit). The broken game
    stays listed, cannot be picked, and says why; the others start as before."""
    data = tmp_path / "data"
    (data / "components").mkdir(parents=True)
    (data / "components" / "incredibles.toml").write_text("powers = [unclosed\n")
    server = server_factory(data=data)
    page = pages(server.url + "/setup", 800, 900)
    broken = page.locator('#game-pick input[value="incredibles"]')
    broken.wait_for(state="attached", timeout=WAIT)
    assert broken.is_disabled()
    said = page.inner_text("#game-pick")
    assert "cannot start: " in said and "incredibles.toml" in said and "not valid TOML" in said
    page.locator('#game-pick input[value="invincible"]').check()
    page.wait_for_selector('[name="inv-hero"]', timeout=WAIT)
    for hero in ("atom-eve", "invincible"):
        page.locator(f'[name="inv-hero"][value="{hero}"]').check()
    page.locator("#start").click()
    page.wait_for_url("**/play", timeout=WAIT)
    assert server.get("/api/state")[1]["game"] == "invincible"
    status, box = server.get("/api/box")
    assert status == 200 and [g["game"] for g in box["games"] if "error" in g] == ["incredibles"]


def test_a_held_back_game_is_said_on_the_setup_page_and_a_new_game_asks_first(server_factory, tmp_path, pages):
    """A game held back after its data changed: the table and phones said why, but the setup
    page said 'No game in progress', listed it as 'Put away' and started a new game without a
    word, which put it away for good; and on a phone the notice (a long file path) made the page
    scroll sideways (found by a verification audit)."""
    data = tmp_path / "data" / "home" / "someone" / ".local" / "share" / "companion" / "data"
    first = server_factory(data=data)
    first.post("/api/session", FIXED_DASH)
    _, played = first.act("roll", "dash", face="2")
    first.stop()
    shipped = Path(__file__).resolve().parents[2] / "companion" / "games" / "incredibles" / "incredibles.toml"
    (data / "components").mkdir()
    (data / "components" / "incredibles.toml").write_text(shipped.read_text().replace("edna = 3", "edna = 2"))
    server = server_factory(data=data)

    phone = pages(server.url + "/play")
    phone.wait_for_selector("#alerts:not([hidden])", timeout=WAIT)
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth"), "the phone scrolls sideways"
    setup = pages(server.url + "/setup", 800, 900)
    setup.wait_for_selector("#held", timeout=WAIT)
    assert "is not what this game began with" in setup.inner_text("#held")
    setup.wait_for_function("document.getElementById('history').textContent.includes('Held back')")
    asked = []
    setup.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    setup.locator('#game-pick input[value="incredibles"]').wait_for(state="attached", timeout=WAIT)
    setup.locator("#start").click()
    setup.wait_for_function("true")
    assert asked and "A game is held back" in asked[0] and "for good" in asked[0], asked
    server.stop()
    (data / "components" / "incredibles.toml").unlink()       # nothing was put away: it goes on
    assert server_factory(data=data).get("/api/state")[1]["seq"] == played["seq"]


def test_a_game_over_times_nothing_more(server, pages):
    """An audit of the table found "Turn 4:44 Running" under "Ana wins!", and the timer would
    still run out and sound "Time's up!" after the game was over. Once it is over the ticker
    lets its timers be and the table leaves them out (a phone may still stop them)."""
    _, view = server.post("/api/session", {"game": "xmen-alert", "seed": 1,
                                           "options": {"players": ["Ana", "Ben"]}})
    table = pages(server.url + "/table", 800, 480)
    _, view = server.act("timer.start", name="turn", seconds=2, label="Turn")
    wait_rendered(table, view["seq"])
    assert table.locator('#timers [data-timer="turn"]').is_visible()
    status, view = server.act("game.abandon")
    assert status == 200 and view["outcome"]["status"] == "lost", view
    wait_rendered(table, view["seq"])
    assert table.locator("#timers").is_hidden()
    time.sleep(3)                                        # past the timer's deadline
    after = server.get("/api/state")[1]
    assert after["seq"] == view["seq"] and not after["timers"]["turn"]["expired"]


def test_a_warning_that_the_game_is_about_to_be_lost_stays_on_the_table(server, pages):
    """'If a face-up Problem Card slides onto the "Too Late!" space, the game is over.' The
    table's reminders were the first thing its side left out at 800x480: 'Problem C is one
    slide from Too Late!' was in no capture of an audit. It now comes first, marked, and stays
    while anything on the side does."""
    _, view = server.post("/api/session", {"game": "incredibles", "seed": 2, "starting_problems": ["A", "B", "C"],
                                           "players": ["mr-incredible", "mrs-incredible", "violet", "dash"]})
    urgent = [r["text"] for r in view["reminders"] if r.get("urgent")]
    assert len(urgent) == 1 and "one slide from" in urgent[0], view["reminders"]
    _, view = server.act("timer.start", name="turn", seconds=120, label="Turn")
    table = pages(server.url + "/table", 800, 480)
    wait_rendered(table, view["seq"])
    first = table.locator("#reminders li").first
    assert first.is_visible() and "one slide from" in first.inner_text()
    assert "warn" in first.get_attribute("class")
    assert table.locator('#timers [data-timer="turn"]').is_visible()


def test_the_tables_urgent_reminder_cut_in_two_reads_as_two_sentences(server, pages):
    """The table cuts an urgent reminder at its colon, so that its second half can go for room
    first: 'Problem C (Agility) is one slide from "Too Late!". fix it before the next problem
    arrives.' was on the table at the start of every game, the second sentence in lower case."""
    _, view = server.post("/api/session", {"game": "incredibles", "seed": 2, "players": ["dash"],
                                           "starting_problems": ["A", "B", "C"]})
    table = pages(server.url + "/table", 800, 480)
    wait_rendered(table, view["seq"])
    first = table.locator("#reminders li").first
    assert first.locator("span").is_visible()              # the second half had the room
    assert " ".join(first.inner_text().split()) == (
        'Problem C (Agility) is one slide from "Too Late!". Fix it before the next problem arrives.')
