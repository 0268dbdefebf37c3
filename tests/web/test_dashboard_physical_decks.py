"""Cards drawn from the table's own decks, named on a phone in a real headless Chromium against a
real `companion serve`: the phone lists what may come up, one tap names the card, and a card not
in the deck is refused over HTTP with the reason. Invincible's event and villain cards, The
Incredibles' deck ticked on the setup page (X-Men's: tests/web/test_dashboard_xmen.py)."""

import pytest

from browser_pages import start_from_setup, tap, wait_rendered
from tests.companion.games.invincible_villain_phase import to_villain_phase

pytestmark = pytest.mark.browser


def test_an_event_card_revealed_from_the_real_deck_is_named_with_one_tap(server, pages):
    """'Reveal the top card of the event deck'; the phone lists the cards the difficulty's deck
    build lets come up now ('... then a number of Level I events on top of that')."""
    server.post("/api/session", {"game": "invincible", "seed": 5, "options": {
        "heroes": ["invincible", "atom-eve"], "episode": 2, "difficulty": "normal"}})
    expect = to_villain_phase(lambda: server.get("/api/state")[1],
                              lambda action: server.post("/api/actions", action))
    view = server.get("/api/state")[1]
    phone = pages(server.url + "/play")
    table = pages(server.url + "/table", 800, 480)
    wait_rendered(phone, view["seq"])
    offered = [c["id"] for c in expect["deck"]]
    assert len(offered) == 2 and {c["level"] for c in expect["deck"]} == {1}
    controls = phone.inner_text("#controls")
    assert f"revealed from the real deck ({expect['deck_count']} left)" in controls
    assert phone.locator('#controls [data-key^="reveal-"]').count() == len(offered)
    for c in expect["deck"]:
        assert f"{c['title']} (Level 1)" in controls
    cards = server.get("/api/games/invincible")[1]["components"]["cards"]
    level_2 = next(c["id"] for c in cards if c["kind"] == "level 2")
    status, body = server.post("/api/actions", {"type": "reveal", "data": {"card": level_2},
                                                "if_seq": view["seq"]})
    # a Level II card: later in this build, or (episode 2 deals only some) not in it at all
    assert status == 422 and ("Level 1 event(s) on top" in body["error"]
                              or "deck was built without it" in body["error"])
    tap(phone, table, f"reveal-{offered[1]}")
    state = server.get("/api/state")[1]["state"]
    assert state["discards"]["event"] == 1 and state["last_event"]["id"] == offered[1]
    assert state["decks"]["event"] == expect["deck_count"] - 1


def test_villain_cards_drawn_from_the_real_decks_are_named_with_a_tap_each(server, pages):
    """'Move the round marker one space along the episode card's track ... Each space lists icons
    underneath it that you resolve in order': the phone lists, for the space's Level I villain
    icon, the cards of that deck; the one tapped is the villain that arrives."""
    _, view = server.post("/api/session", {"game": "invincible", "seed": 5, "options": {
        "heroes": ["invincible", "atom-eve"], "episode": 2}})
    phone = pages(server.url + "/play")
    table = pages(server.url + "/table", 800, 480)
    wait_rendered(phone, view["seq"])
    deck = view["expect"]["villains"][0]["deck"]
    assert phone.locator('#controls [data-key^="villain0-"]').count() == len(deck) >= 2
    assert all(v["title"] in phone.inner_text("#controls") for v in deck)
    tap(phone, table, "villain0-magmaniac", "advance")
    state = server.get("/api/state")[1]["state"]
    arrived = [v["id"] for z in state["zones"] for v in z["villains"] if v]
    assert arrived == ["magmaniac"] and state["decks"]["villain1"] == view["state"]["decks"]["villain1"] - 1


def test_the_incredibles_own_deck_ticked_at_setup_and_an_alarm_named_with_one_tap(server, pages):
    """"If you roll an Alarm symbol ... Draw a card and follow the instructions for that card
    type." Ticked on the setup page, the table draws the real card and the phone names it."""
    phone = start_from_setup(pages, server.url, 'input[name="hero"][value="dash"]',
                             'input[name="inc-physical"]')
    table = pages(server.url + "/table", 800, 480)
    # Set Up: "Randomly select three Problem Cards ... Place the three starting Problem Cards
    # face-up on the three spaces of the Problem Track next to the Alarm space": the table's own
    # three, named in the order they lie (the companion picked three others, and every screen
    # showed a track the table did not have)
    wait_rendered(table, server.get("/api/state")[1]["seq"])
    for page in (phone, table):
        assert "Set up: pick a Problem Card at random" in page.inner_text("#banner")
    assert phone.locator('#controls [data-key^="draw-"]').count() == 12     # the Problem Cards
    for card in ("problem-J", "problem-E", "problem-L"):
        tap(phone, table, f"draw-{card}")
    for page in (phone, table):
        track = [t.split()[0] for t in page.locator(".track .slot.up").all_inner_texts()]
        assert track == ["J", "E", "L"], track
        assert "Dash: roll the Movement Die" in page.inner_text("#banner")
    tap(phone, table, "roll-alarm")
    view = server.get("/api/state")[1]
    expect = view["expect"]
    assert expect["phase"] == "draw"                    # ticked: the companion does not draw
    assert phone.locator('#controls [data-key^="draw-"]').count() == len(expect["deck"])
    on_track = view["state"]["track"][0]
    status, body = server.post("/api/actions", {"type": "draw", "data": {"card": on_track["card"]}})
    assert status == 422 and "is not in the deck: it is on the Problem Track" in body["error"]
    card = expect["deck"][0]["id"]
    tap(phone, table, f"draw-{card}")
    state = server.get("/api/state")[1]["state"]
    assert state["last_card"] == card and state["deck_count"] == expect["deck_count"] - 1
