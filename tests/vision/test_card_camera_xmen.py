"""X-Men Alert's physical decks named by the card camera (vision/card_camera.py): real OpenCV on
rendered draws of the stand-in cards, a real Session on a real SQLite journal. "If a Battle Zone
is empty, draw the top X-Men Alert Card and place it face up on the large X in the Battle Zone."
The camera names the card; the engine checks it is still in the deck the table draws from."""

import numpy as np
import pytest

from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from vision.card_camera import CardCamera, stand_in
from vision.card_render import draw


@pytest.fixture
def session(tmp_path):
    with Journal(tmp_path / "j.sqlite3") as journal:
        s = Session(journal, Catalog())
        s.start("xmen-alert", {"players": ["Ana", "Ben"], "first_player": "Ana",
                               "stat_cards": {"Ana": ["wolverine"], "Ben": ["storm"]},
                               "physical_decks": True}, seed=3)
        yield s


def cards():
    return Catalog()("xmen-alert").components()["cards"]


def test_the_alert_card_in_the_area_fills_the_empty_battle_zone(session, tmp_path):
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
