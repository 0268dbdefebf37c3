"""Invincible's event card revealed from the table's own deck, named on a phone in a real
headless Chromium against a real `companion serve`: 'Reveal the top card of the event deck';
the phone lists the cards the difficulty's deck build lets come up now ('... then a number of
Level I events on top of that'), one tap names the card revealed, and a card the build does not
allow is refused over HTTP with the reason."""

import pytest

from browser_pages import tap, wait_rendered
from tests.companion.games.invincible_villain_phase import to_villain_phase

pytestmark = pytest.mark.browser


def test_an_event_card_revealed_from_the_real_deck_is_named_with_one_tap(server, pages):
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
    assert status == 422 and "Level 1 event(s) on top" in body["error"]
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
