"""Teaching the cards by camera on the "Your box" page, in a real headless Chromium against a real
`companion serve --simulate`: the walk-through names each card of the deck, the owner lays it in
the simulated card area (a rendered stand-in, real OpenCV finds and squares it up) and takes it;
a take with nothing laid is refused and keeps what was taught. Then, from the phone's simulator
panel, a taught card laid in the card area and the Card button pressed is named as The
Incredibles' physical-deck draw; a card not taught asks for a tap and changes nothing.

"If you roll an Alarm symbol ... Draw a card and follow the instructions for that card type."
(The Incredibles, On Your Turn › 2. Alarm) — with the table's own deck the players draw the real
card, and the camera names it.
"""

import pytest

from browser_pages import words

pytestmark = pytest.mark.browser

GAME = {"game": "incredibles", "players": ["dash"], "seed": 7, "physical_deck": True,
        "starting_problems": ["A", "B", "C"]}


def lay_and_take(page, card: str, taught: int):
    assert card in words(page, "#teach-next")
    with page.expect_response(lambda r: r.url.endswith("/api/camera/card")) as laid:
        page.locator("#teach-lay").click()
    assert laid.value.ok, laid.value.text()
    with page.expect_response(lambda r: r.url.endswith("/cards/take"), timeout=30_000) as took:
        page.locator("#teach-take").click()
    assert took.value.ok, took.value.text()
    page.wait_for_function(f"document.getElementById('teach-progress').textContent.startsWith('{taught} of 30')")
    assert page.locator("#teach-capture").get_attribute("data-card") == card
    # the capture shown is the card squared up, as the book is taught from it
    page.wait_for_function("document.querySelector('#teach-capture img').naturalWidth > 0")
    assert page.evaluate("document.querySelector('#teach-capture img').naturalWidth") == 240


def refused_take(page) -> str:
    with page.expect_response(lambda r: r.url.endswith("/cards/take"), timeout=30_000) as took:
        page.locator("#teach-take").click()
    assert took.value.status == 400
    page.wait_for_function("document.getElementById('teach-error').textContent.length > 0")
    return words(page, "#teach-error")


def test_three_cards_taught_by_the_simulated_camera_then_a_drawn_card_is_named(
        server_factory, pages, tmp_path):
    data = tmp_path / "data"
    server = server_factory("--simulate", data=data)
    page = pages(server.url + "/box?game=incredibles", 900, 1000)
    page.wait_for_selector("#teach:not([hidden])")
    assert words(page, "#teach-progress") == "0 of 30 taught"
    assert words(page, "#teach-next") == "Problem A (problem-A)"

    # nothing in the card area: refused with why, nothing taught
    assert "no card in the card area" in refused_take(page)
    assert words(page, "#teach-progress") == "0 of 30 taught"

    lay_and_take(page, "problem-A", 1)
    assert words(page, "#teach-next") == "Problem B (problem-B)"
    page.locator("#teach-skip").click()                       # the owner cannot find B now
    lay_and_take(page, "problem-C", 2)
    lay_and_take(page, "problem-D", 3)
    assert words(page, "#teach-retake") == "Retake Problem D"
    # Problem E named, but Problem D still lies in the area: refused by name, nothing changes
    assert words(page, "#teach-next") == "Problem E (problem-E)"
    assert "this is Problem D (taught already), not Problem E" in refused_take(page)
    assert words(page, "#teach-progress") == "3 of 30 taught"
    assert sorted(p.name for p in (data / "cards" / "incredibles").iterdir()) == [
        "problem-A.png", "problem-C.png", "problem-D.png"]
    # the page reloaded: the walk-through goes on from what is taught
    page.reload()
    page.wait_for_selector("#teach:not([hidden])")
    assert words(page, "#teach-progress") == "3 of 30 taught"
    assert words(page, "#teach-next") == "Problem B (problem-B)"

    # a game with the table's own deck; an Alarm waits for the card drawn
    assert server.post("/api/session", GAME)[0] == 201
    status, view = server.act("roll", "dash", face="alarm")
    assert status == 200 and view["expect"]["phase"] == "draw"
    deck = view["state"]["deck_count"]
    phone = pages(server.url + "/play", 412, 915)
    phone.wait_for_selector('#simulator [data-key="sim-card"] option[value="problem-D"]', state="attached")
    phone.locator('#simulator [data-key="sim-card"]').select_option("problem-D")
    with phone.expect_response(lambda r: r.url.endswith("/api/camera/card")) as laid:
        phone.locator('#simulator [data-key="sim-lay"]').click()
    assert laid.value.ok, laid.value.text()
    phone.locator('#simulator [data-key="press-card"]').click()
    phone.wait_for_function("() => document.body.dataset.rendered && "
                            f"Number(document.body.dataset.rendered) > {view['seq']}", timeout=30_000)
    state = server.get("/api/state")[1]
    assert state["state"]["last_card"] == "problem-D", state["state"]
    assert state["state"]["deck_count"] == deck - 1

    # a card the owner never taught asks for a tap, and nothing is drawn (a new game: Problem D
    # pushed Problem C to "Too Late!")
    assert server.post("/api/session", GAME)[0] == 201
    status, view = server.act("roll", "dash", face="alarm")
    assert status == 200 and view["expect"]["phase"] == "draw", view
    phone.locator('#simulator [data-key="sim-card"]').select_option("edna-1")
    with phone.expect_response(lambda r: r.url.endswith("/api/camera/card")):
        phone.locator('#simulator [data-key="sim-lay"]').click()
    phone.locator('#simulator [data-key="press-card"]').click()
    phone.wait_for_function("document.getElementById('notice').innerText.includes('tap the card you drew')",
                            timeout=30_000)
    after = server.get("/api/state")[1]
    assert after["seq"] == view["seq"] and after["expect"]["phase"] == "draw"
    assert after["state"]["last_card"] is None


def test_the_card_picked_on_the_phone_stays_picked_when_a_new_game_rebuilds_the_panel(
        server_factory, pages, tmp_path):
    """A new game rebuilds the simulator panel (its seats); the card list came back on its first
    card, so a card picked just before was not the one laid (the camera then named Problem A,
    "not in the deck": the test above failed so about one run in twenty)."""
    server = server_factory("--simulate", data=tmp_path / "data")
    assert server.post("/api/session", GAME)[0] == 201
    assert server.act("roll", "dash", face="alarm")[1]["expect"]["phase"] == "draw"
    phone = pages(server.url + "/play", 412, 915)
    pick = '#simulator [data-key="sim-card"]'
    phone.wait_for_selector(pick + ' option[value="edna-1"]', state="attached")
    phone.locator(pick).select_option("edna-1")
    phone.evaluate(f"document.querySelector('{pick}').dataset.before = 'yes'")
    assert server.post("/api/session", GAME)[0] == 201
    assert server.act("roll", "dash", face="alarm")[1]["expect"]["phase"] == "draw"
    phone.wait_for_function(f"(() => {{ const s = document.querySelector('{pick}'); "
                            "return s && !s.dataset.before && s.options.length > 0; })()")
    assert phone.locator(pick).input_value() == "edna-1"
    with phone.expect_response(lambda r: r.url.endswith("/api/camera/card")) as laid:
        phone.locator('#simulator [data-key="sim-lay"]').click()
    assert laid.value.ok and laid.value.json()["laid"] == "edna-1", laid.value.text()
