"""X-Men Alert's physical decks and Invincible's physical event deck named by the card camera
(vision/card_camera.py): real OpenCV on rendered draws of the stand-in cards, a real Session on
a real SQLite journal. The camera names the card; the engine checks it is still in the deck the
table draws from (Invincible: that the deck's build lets it come up now)."""

import re

import numpy as np
import pytest

from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from vision.card_camera import CardCamera, stand_in
from tests.companion.games.invincible_villain_phase import to_villain_phase
from vision.card_render import draw


@pytest.fixture
def session(tmp_path):
    with Journal(tmp_path / "j.sqlite3") as journal:
        s = Session(journal, Catalog())
        s.start("xmen-alert", {"players": ["Ana", "Ben"], "first_player": "Ana",
                               "stat_cards": {"Ana": ["wolverine"], "Ben": ["storm"]},
                               "physical_decks": True}, seed=3)
        yield s


def cards(game="xmen-alert"):
    return Catalog()(game).components()["cards"]


def test_the_alert_card_in_the_area_fills_the_empty_battle_zone(session, tmp_path):
    """ "If a Battle Zone is empty, draw the top X-Men Alert Card and place it face up on the
    large X in the Battle Zone." """
    camera = CardCamera(session, tmp_path / "data", simulate=True)
    expect = session.view()["expect"]
    assert (expect["phase"], expect["deck_name"], expect["zone"]) == ("draw", "alert", 1)
    got = camera.read_frame(draw(stand_in(cards(), "sabretooth"), 8101, "all"))
    assert got["drawn"] == "sabretooth", got
    view = session.view()
    assert view["state"]["zones"][0]["card"]["id"] == "sabretooth"
    assert view["expect"]["zone"] == 2 and view["expect"]["deck_count"] == expect["deck_count"] - 1
    # a card of the other deck, held up by mistake: the rules refuse it, nothing is applied
    seq = session.seq
    got = camera.read_frame(draw(stand_in(cards(), "medi-lab-2"), 8102, "tilt"))
    assert "Medi-Lab is a Training & Luck card, but the table draws from the X-Men Alert deck" \
        in got["refused"], got
    assert session.seq == seq
    # the same card again: it is in Battle Zone 1 now
    got = camera.read_frame(draw(stand_in(cards(), "sabretooth"), 8103, "glare"))
    assert "Sabretooth is not in the deck: it is in Battle Zone 1" in got["refused"], got
    assert session.refusals.since(0)[-1]["origin"] == "card area"
    # nothing in the card area: a tap is asked and nothing applied
    assert camera.read_frame(np.full((480, 640, 3), 90, np.uint8)).get("asked")
    assert session.seq == seq and session.view()["expect"]["zone"] == 2


def test_the_event_card_in_the_area_is_revealed_if_the_deck_build_allows_it(tmp_path):
    """Invincible's Villain Phase: 'Reveal the top card of the event deck'; with Normal's build
    ('... then a number of Level I events on top of that') a Level I card laid in the card area
    is revealed, a Level II card is refused with the rule."""
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = Session(journal, Catalog())
        session.start("invincible", {"heroes": ["invincible", "atom-eve"], "episode": 2,
                                     "difficulty": "normal"}, seed=5)
        to_villain_phase(session.view, session.submit)
        camera = CardCamera(session, tmp_path / "data", simulate=True)
        expect = session.view()["expect"]
        level_1 = [c["id"] for c in expect["deck"]]
        kinds = {c["id"]: c["kind"] for c in cards("invincible")}
        deck = session._top().game.decks["event"]          # the build, in the engine's state
        level_2 = next(c for c in deck if kinds[c] == "level 2")
        seq = session.seq
        got = camera.read_frame(draw(stand_in(cards("invincible"), level_2), 8201, "tilt"))
        assert "Level 2 event, but the normal event deck still has 2 Level 1" in got["refused"]
        assert session.seq == seq
        got = camera.read_frame(draw(stand_in(cards("invincible"), level_1[1]), 8202, "all"))
        assert got["drawn"] == level_1[1], got
        entry = session.journal.entries(session.view()["game_id"])[-1].payload
        assert (entry["type"], entry["data"]["card"], entry["source"]) == \
            ("reveal", level_1[1], "camera")



def test_an_owners_map_makes_the_card_button_read_the_event_card(tmp_path):
    """The shipped map's Card reveals the companion's own top card in the Villain Phase; an owner
    with the real event deck gives it "read_card" in their copy of the map, and a press of Card
    (gpiozero's MockFactory) reveals the card laid in the card area."""
    from companion.games.invincible.engine import Invincible
    from hardware.wiring import DEFAULT_GPIO, attach

    shipped = (Invincible.table_dir / "invincible.table.toml").read_text()
    at = shipped.index("[buttons.draw_card]")
    card_button, n = re.subn(r'(?m)^villain = \{ type = "reveal".*$', 'villain = "read_card"',
                             shipped[at:], count=1)
    assert n == 1 and Catalog()("invincible").table_map().meaning("draw_card", "villain").action
    owners = tmp_path / "components"
    owners.mkdir()
    (owners / "invincible.table.toml").write_text(shipped[:at] + card_button)
    assert Catalog(owners)("invincible").table_map().meaning("draw_card", "villain").own == \
        "read_card"
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = Session(journal, Catalog(owners))
        session.start("invincible", {"heroes": ["invincible", "atom-eve"], "episode": 2,
                                     "difficulty": "normal"}, seed=5)
        expect = to_villain_phase(session.view, session.submit)
        camera = CardCamera(session, tmp_path / "data", simulate=True)
        card = expect["deck"][0]["id"]
        frame = draw(stand_in(cards("invincible"), card), 8301, "glare")
        gpio = {**DEFAULT_GPIO, "hold_time": 0.2}
        handle = attach(session, {"gpio": gpio, "serial": {"enabled": False}}, simulate=True,
                        read_card=lambda: camera.read_now(frame))
        try:
            handle.press("card")
            assert handle.dispatcher.wait_idle(10)
        finally:
            handle.close()
        entry = session.journal.entries(session.view()["game_id"])[-1].payload
        assert (entry["type"], entry["data"]["card"], entry["source"]) == ("reveal", card, "camera")
