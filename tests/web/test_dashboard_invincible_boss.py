"""Episode 7's boss in a real headless Chromium against a real `companion serve`: a random game
posted action by action until Omni-Man has entered and been hit by a power; the phone's zone and
the table view's zone row show him with the health GET /api/state gives, and the phone's answer
for a power's damage names him.

Every wait is bounded. Skips (with the reason) only where Debian's chromium is absent and
COMPANION_REQUIRE_SHARED is not "1".
"""

import random

import pytest

from browser_pages import assert_fits, wait_rendered

pytestmark = pytest.mark.browser


def test_omni_man_is_drawn_on_the_phone_and_the_table_as_he_enters_and_is_hit(server, pages):
    from companion.games import Catalog
    from companion.rng import rng_for

    engine = Catalog()("invincible")
    seed, options = 7, {"heroes": ["invincible", "rex-splode"], "episode": 7}
    rng = random.Random(seed)
    state = engine.setup(options, rng_for(seed, "setup"))
    status, view = server.post("/api/session", {"game": "invincible", "options": options,
                                                "seed": seed})
    assert status in (200, 201), view
    phone = pages(server.url + "/play")
    table = pages(server.url + "/table", 800, 480)
    offered = entered = hit = False
    for step in range(400):
        if engine.outcome(state)["status"] != "playing" or hit:
            break
        action = engine.sample_action(state, rng)
        if action.type == "timer.expire":
            continue
        state = engine.apply(state, action, rng_for(seed, step))
        status, view = server.post("/api/actions", {"type": action.type, "player": action.player,
                                                    "data": action.data})
        assert status == 200 and view["state"] == engine.to_json(state)
        boss = view["state"]["boss"]
        if boss is None or boss["defeated"]:
            continue
        options_now = [o for r in view["state"]["resolutions"] for st in r["steps"]
                       for o in st["options"] if o.get("target") == "boss"]
        first = not entered
        entered, hit = True, boss["damage"] > 0
        if not (first or hit or (options_now and not offered)):
            continue
        wait_rendered(phone, view["seq"])
        wait_rendered(table, view["seq"])
        z = boss["zone"]
        text = " ".join(phone.inner_text(f'#board [data-zone="{z}"] [data-boss="omni-man"]').split())
        assert "Boss: Omni-Man" in text and f"{boss['remaining']}/{boss['health']} health" in text
        row = " ".join(table.inner_text(f'#board [data-zone="{z}"] [data-villain="boss"]').split())
        assert row == f"Boss: Omni-Man {boss['remaining']}/{boss['health']}", row
        assert_fits(table)
        if options_now and not offered:
            offered = True
            assert "Omni-Man" in " ".join(phone.inner_text("#controls").split())
    assert entered and hit and offered, (entered, hit, offered)
    assert not phone.errors and not table.errors


def test_omni_mans_own_card_drawn_from_the_real_deck_is_named_with_a_tap(server, pages):
    """Episode 7: Omni-Man acts from his own event deck after the event card. A table drawing
    both from the real decks could name the event card but not his (reveal took data.boss_card,
    the phone offered no button), so the companion drew its own and drifted from the table."""
    from companion.games import Catalog
    from companion.rng import rng_for

    engine = Catalog()("invincible")
    seed, options = 7, {"heroes": ["invincible", "rex-splode"], "episode": 7}
    rng = random.Random(seed)
    state = engine.setup(options, rng_for(seed, "setup"))
    assert server.post("/api/session", {"game": "invincible", "options": options,
                                        "seed": seed})[0] == 201
    step = 0
    while not (state.phase == "villain" and state.pending is None
               and engine.expect(state).get("boss_deck")):
        assert engine.outcome(state)["status"] == "playing" and step < 600
        action = engine.sample_action(state, rng)
        if action.type == "timer.expire":
            continue
        state = engine.apply(state, action, rng_for(seed, step))
        status, view = server.post("/api/actions", {"type": action.type, "player": action.player,
                                                    "data": action.data})
        assert status == 200, view
        step += 1
    expect = engine.expect(state)
    assert "then Omni-Man's own event card" in expect["prompt"]
    card, event = expect["boss_deck"][-1], expect["deck"][0]   # not his deck's top card
    phone = pages(server.url + "/play")
    wait_rendered(phone, view["seq"])
    phone.locator(f'#controls [data-key="boss-{card["id"]}"]').click()
    phone.locator(f'#controls [data-key="reveal-{event["id"]}"]').click()
    wait_rendered(phone, view["seq"] + 1)
    log = server.get("/api/state")[1]["state"]["log"]
    assert f"Omni-Man's event: {card['title']}." in log
    assert not phone.errors
