"""The "Your box" page in a real headless Chromium against a real `companion serve`: the owner
adds a road to the Incredibles board by tapping two spaces and changes a card's type; the next
game plays with both, and the game begun before the edits replays unchanged."""

import pytest

from browser_pages import words

pytestmark = pytest.mark.browser

OLD = {"game": "incredibles", "players": ["dash"], "seed": 7, "starting_problems": ["A", "B", "C"],
       "deck": ["jackjack-4"]}


def test_the_owner_edits_a_board_link_and_a_card_type_and_only_the_next_game_uses_them(
        server_factory, pages, tmp_path):
    data = tmp_path / "data"
    server = server_factory(data=data)
    assert server.post("/api/session", OLD)[0] == 201
    status, view = server.act("roll", "dash", face="alarm")
    assert status == 200 and view["state"]["last_card_info"]["kind"] == "jackjack"
    before = server.get("/api/state")[1]["state"]

    page = pages(server.url + "/box?game=incredibles", 800, 900)
    assert words(page, "#box-checklist").startswith("The Incredibles: Save the Day: board assumed")
    assert "0 of 30 cards confirmed" in words(page, "#box-checklist")
    # a road from Start to L: tap one space, then the other, then save
    assert page.locator('#board-graph line[data-link="start-L"]').count() == 0
    page.locator('#board-graph [data-space="start"]').click()
    page.locator('#board-graph [data-space="L"]').click()
    assert page.locator('#board-graph line[data-link="start-L"]').count() == 1
    with page.expect_navigation():
        page.locator("#board-save").click()
    assert "board confirmed" in words(page, "#box-checklist")
    assert page.locator('#board-graph line[data-link="start-L"]').count() == 1

    # the Jack-Jack card of space 4 is really a Road Destroyed card for space 4
    card = page.locator('form[data-key="card/jackjack-4"]')
    page.locator('details:has(form[data-key="card/jackjack-4"]) summary').click()
    card.locator('select[name="kind"]').select_option("road_destroyed")
    card.locator('input[name="names"]').fill("4")
    with page.expect_navigation():
        card.locator('button[value="save"]').click()
    assert page.locator('form[data-key="card/jackjack-4"]').count() == 0
    assert "confirmed" in words(page, 'details:has(form[data-key="card/road-4"]) summary')
    assert "1 of 30 cards confirmed" in words(page, "#box-checklist")

    # a bad edit names the field and changes nothing
    page.locator('details:has(form[data-key="card/road-4"]) summary').click()
    page.locator('form[data-key="card/road-4"] input[name="names"]').fill("99")
    page.locator('form[data-key="card/road-4"] button[value="save"]').click()
    page.wait_for_function("document.getElementById('box-error').textContent.length > 0")
    assert "deck.road_destroyed: '99' is not a numbered space" in words(page, "#box-error")

    # the game in progress is untouched, and so is its replay after a restart
    assert server.get("/api/state")[1]["state"] == before
    server.stop()
    server = server_factory(data=data)
    assert server.get("/api/state")[1]["state"] == before

    # the next game plays with the owner's box: the card and the road
    assert server.post("/api/session", {**OLD, "deck": ["road-4"]})[0] == 201
    status, view = server.act("roll", "dash", face="alarm")
    assert status == 200, view
    assert view["state"]["last_card_info"]["kind"] == "road_destroyed" and "4" in view["state"]["rubble"]
    status, view = server.act("roll", "dash", face="1")
    assert status == 200 and "L" in view["expect"]["reachable"], view
    status, view = server.act("move", "dash", to="L")
    assert status == 200 and view["state"]["movers"][0]["space"] == "L"
    assert not any("not confirmed" in line for line in view["state"]["log"])
    # ...with the rule's authority now: the board is confirmed, a move too far is refused
    assert server.post("/api/session", {**OLD, "deck": []})[0] == 201
    server.act("roll", "dash", face="1")
    status, body = server.act("move", "dash", to="K")
    assert status == 422 and "K is more than 1 space from Start" in body["error"]


def test_the_box_page_reads_on_a_small_phone_its_file_path_broken_only_at_a_slash(server_factory,
                                                                               pages, tmp_path):
    """The page names the owner's box file by its full path (where to find it by hand); on a
    320-pixel phone that path wraps between folders, never inside a name, and nothing scrolls
    sideways (the board's map of roads, 400 pixels drawn, fits the phone's width)."""
    from browser_pages import assert_words_whole

    server = server_factory(data=tmp_path / "data")
    for game in ("incredibles", "xmen-alert", "invincible"):
        page = pages(server.url + f"/box?game={game}", 320, 568)
        path = page.inner_text(".box-view .hint code.path")
        assert path.startswith("/") and path.endswith(".toml") and path.count("/") >= 3, path
        assert_words_whole(page)
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
