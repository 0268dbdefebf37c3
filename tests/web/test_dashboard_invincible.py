"""Invincible's own renderer in a real headless Chromium against a real `companion serve`: a
game started from the setup page, the table view checked against GET /api/state (zones,
heroes, episode track, the hero-time timer, decks, score), and a Hero Phase played from a phone.

One browser per module; every wait is bounded. Skips (with the reason) only where Debian's
chromium is absent and COMPANION_REQUIRE_SHARED is not "1".
"""


import pytest

from browser_pages import WAIT, play_random_games, rendered, tap, wait_rendered  # noqa: F401

pytestmark = pytest.mark.browser

GAME = "invincible"
SEEDS, STEPS, EVERY = (3, 9, 12), 150, 2  # random games for the smoke test




def start_from_setup(server, pages):
    phone = pages(server.url + "/setup")
    phone.locator('input[name="game"][value="invincible"]').check()
    phone.wait_for_selector('[name="inv-hero"]', timeout=WAIT)
    phone.locator('[name="inv-hero"][value="atom-eve"]').check()      # ticked first: plays first
    phone.locator('[name="inv-hero"][value="invincible"]').check()
    phone.fill('[name="inv-name-invincible"]', "Ana")
    phone.locator('[name="inv-diff"][value="hardcore"]').check()
    phone.select_option("#inv-episode", "1")
    phone.select_option("#inv-time", "5")
    phone.locator("#start").click()
    phone.wait_for_url("**/play", timeout=WAIT)
    phone.wait_for_selector("body[data-rendered]")
    return phone


def test_an_invincible_game_from_the_setup_page_shown_on_the_table_and_played_from_a_phone(server, pages):
    phone = start_from_setup(server, pages)
    table = pages(server.url + "/table", 800, 480)
    wait_rendered(table, rendered(phone))
    view = server.get("/api/state")[1]
    s = view["state"]
    assert [h["id"] for h in s["heroes"]] == ["atom-eve", "invincible"]
    assert s["heroes"][1]["player"] == "Ana" and s["difficulty"] == "hardcore"
    assert s["episode"]["number"] == 1 and view["timers"]["hero_time"]["duration"] == 300

    # The table, at a glance: each zone's civilians in danger and dead, its minions and villains,
    # each hero's health and black cubes, the round and the score. The phone's board has every
    # detail (civilians in safety, defiance, the whole episode track, the decks' discards).
    wait_rendered(phone, view["seq"])
    board = phone.inner_text("#board")
    for z in s["zones"]:
        c = z["civilians"]
        cells = table.locator(f'#board [data-zone="{z["name"]}"] > *').all_inner_texts()
        assert cells[1:4] == [str(c["danger"]), str(c["dead"]), f"{z['minions']}/3"], cells
        text = phone.inner_text(f'#board [data-zone="{z["name"]}"]').replace("\n", " ")
        assert f"safe {c['safety']}" in text and f"in danger {c['danger']}" in text and f"dead {c['dead']}" in text
        assert f"minions {z['minions']}/" in text
    for h in s["heroes"]:
        text = phone.inner_text(f'#board [data-hero="{h["id"]}"]')
        assert f"health {h['health']}/{h['max_health']}" in text
        assert f"{h['black_cubes']}/{h['crash_at']} black cubes toward a crash" in text
        assert f"defiance {h['defiance']}" in text
        assert f"{h['health']}/{h['max_health']}" in table.inner_text(f'#board [data-hero="{h["id"]}"]')
        assert table.locator(f'#board [data-hero="{h["id"]}"] .chip-dot.hit').count() == h["black_cubes"]
    assert f"Score so far {s['score']['total']}" in board.replace("\n", " ")
    assert f"Score {s['score']['total']}" in table.inner_text("#board")
    assert "now 1" in phone.inner_text("#board .inv-track .current")
    for deck, n in s["decks"].items():
        if n:
            assert f"{n} left" in phone.inner_text(f'#decks [data-deck="{deck}"]')
    assert "5:00" in table.inner_text('#timers [data-timer="hero_time"]')

    # Advance the round marker: its icons resolve and the Hero Phase (and hero time) starts.
    tap(phone, table, "advance")
    view = server.get("/api/state")[1]
    s = view["state"]
    assert s["phase"] == "hero" and view["timers"]["hero_time"]["running"] is True
    table.wait_for_function("document.querySelector('[data-state=\"hero_time\"]').textContent.includes('Running')",
                            timeout=WAIT)
    wait_rendered(phone, view["seq"])
    for z in s["zones"]:
        for v in z["villains"]:
            if v:
                text = phone.inner_text(f'#board [data-villain="{v["id"]}"]')
                assert v["name"] in text and f"{v['remaining']}/{v['health']} health" in text
                assert f"thwart {v['thwart']}/{v['thwart_spaces']}" in text
        first = next((v for v in z["villains"] if v), None)
        if first:      # the table shows at least each zone's first villain, with its health
            text = table.inner_text(f'#board [data-zone="{z["name"]}"] [data-villain="{first["id"]}"]')
            assert first["name"] in text and f"{first['remaining']}/{first['health']}" in text
        assert f"minions {z['minions']}/" in phone.inner_text(f'#board [data-zone="{z["name"]}"]')

    # "Continue pulling three cubes at a time, playing or dropping them, ...": Ana taps the three
    # colours she pulled; a black one counts toward the crash ("the moment they pull a fifth").
    tap(phone, table, "pull-invincible-yellow", "pull-invincible-black", "pull-invincible-blue",
        "pull-invincible-send")
    hero = server.get("/api/state")[1]["state"]["heroes"][1]
    assert hero["ready"] == ["yellow", "black", "blue"] and hero["black_cubes"] == 1
    assert "1/5 black cubes toward a crash" in phone.inner_text('#board [data-hero="invincible"]')
    assert table.locator('#board [data-hero="invincible"] .chip-dot.hit').count() == 1
    assert "Undo: Ana: pull yellow, black, blue" in phone.inner_text("#undo")

    # No typed effects in the Hero Phase: 'Filling a power means using its text'.
    assert phone.locator('#controls form[data-action]').count() == 0

    # "The Hero Phase ends once every player has either chosen to stop pulling or been forced to
    # stop by crashing ...": a "done" toggle for each hero; nobody crashed, so training begins.
    tap(phone, table, "done-invincible")
    s = server.get("/api/state")[1]["state"]
    assert s["heroes"][1]["done"] is True and s["heroes"][0]["done"] is False
    assert "done" in table.inner_text('#board [data-hero="invincible"]')
    tap(phone, table, "done-atom-eve")
    assert server.get("/api/state")[1]["state"]["phase"] == "training"


def _pull_and_play(phone, table, hero, cubes, plays):
    tap(phone, table, *(f"pull-{hero}-{c}" for c in cubes), f"pull-{hero}-send")
    for cube, power in plays:
        phone.select_option(f'#controls [data-key="play-{hero}-power"]', power)
        tap(phone, table, f"play-{hero}-{cube}")


def test_a_hero_phase_from_two_phones_each_power_changes_the_board(server, pages):
    """Two heroes on two phones, every effect a tap on what the card leaves open: 'Invincible
    pulls a blue cube and two yellow cubes. He plays the blue cube first, filling the single
    symbol on his basic Move power to shift into an adjacent zone. Then he plays both yellow cubes
    to complete his basic Attack, dealing 2 damage to the villain there.' Atom Eve's Rescue moves
    'a civilian from danger to safety'."""
    server.post("/api/session", {"game": "invincible", "seed": 2, "options": {
        "heroes": [{"hero": "invincible", "name": "Ana"}, {"hero": "atom-eve", "name": "Ben"}],
        "episode": 1}})
    _, view = server.act("advance")
    s = view["state"]
    assert [h["zone"] for h in s["heroes"]] == ["center", "left"]
    assert s["zones"][0]["villains"][0]["id"] == "bi-plane"            # Episode 1's fixed order
    ana, ben = pages(server.url + "/play"), pages(server.url + "/play")
    table = pages(server.url + "/table", 800, 480)
    for page in (ana, ben, table):
        wait_rendered(page, view["seq"])
    assert ana.locator('#controls form[data-action]').count() == 0     # nothing typed

    _pull_and_play(ana, table, "invincible", ["blue", "yellow", "yellow"], [("blue", "move")])
    assert "to Left" in ana.inner_text("#controls .inv-resolving")
    tap(ana, table, "effect-0-left-invincible")
    _pull_and_play(ben, table, "atom-eve", ["orange", "orange", "purple"],
                   [("orange", "rescue"), ("orange", "rescue")])
    wait_rendered(ana, rendered(ben))
    tap(ben, table, "effect-0-left")
    for _ in range(2):
        ana.select_option('#controls [data-key="play-invincible-power"]', "attack")
        tap(ana, table, "play-invincible-yellow")
    assert "Bi-Plane" in ana.inner_text("#controls .inv-resolving")
    seq = tap(ana, table, "effect-0-bi-plane")
    wait_rendered(ben, seq)

    s = server.get("/api/state")[1]["state"]
    left = s["zones"][0]
    bi_plane = left["villains"][0]
    assert s["heroes"][0]["zone"] == "left" and bi_plane["damage"] == 2
    assert (left["civilians"]["safety"], left["civilians"]["danger"]) == (4, 6)
    assert s["resolving"] is None and s["heroes"][1]["civilians_rescued"] == 1
    text = table.inner_text('#board [data-villain="bi-plane"]')
    assert f"{bi_plane['remaining']}/{bi_plane['health']}" in text and bi_plane['remaining'] == 3
    zone = table.inner_text('#board [data-zone="left"]')
    assert "6" in zone and "Bi-Plane 3/5" in zone           # the table shows danger 6 there
    assert "safe 4" in ben.inner_text('#board [data-zone="left"]')
    assert "Invincible" in ben.inner_text('#board [data-zone="left"] .here')


def test_invincible_controls_are_big_enough_and_worded(server, pages):
    _, view = server.post("/api/session", {"game": "invincible", "seed": 2,
                                           "options": {"heroes": ["invincible", "atom-eve"]}})
    _, view = server.act("advance")
    phone = pages(server.url + "/play")
    wait_rendered(phone, view["seq"])
    small = phone.evaluate("""() => [...document.querySelectorAll('#controls button, #controls summary')]
        .filter((b) => b.offsetParent !== null)
        .map((b) => [b.textContent.trim(), b.getBoundingClientRect().height])
        .filter(([, h]) => h < 47.5)""")
    assert small == []
    words = phone.inner_text("#controls")
    for word in ("yellow", "black", "Pull for me", "Pull these 3"):
        assert word in words
    for typed in ("Gain a cube", "Strengthen", "Endanger civilians"):   # only from a power
        assert typed not in words
    phone.focus('#controls [data-key="pull-invincible-virtual"]')
    phone.keyboard.press("Enter")                           # a virtual pull, from the keyboard
    wait_rendered(phone, view["seq"] + 1)
    assert len(server.get("/api/state")[1]["state"]["heroes"][0]["ready"]) == 3


def test_every_state_of_random_games_renders_without_a_script_error(server, pages):
    """Random legal games posted to the server; the phone and the table draw every state they see
    without a script error, and the phone always offers a control when one is expected."""
    play_random_games(server, pages(server.url + "/play"), pages(server.url + "/table", 800, 480),
                      GAME, SEEDS, STEPS, EVERY)
