"""X-Men Alert's physical decks and Invincible's physical event deck named by the card camera
(vision/card_camera.py): real OpenCV on rendered draws of the stand-in cards, a real Session on
a real SQLite journal. The camera names the card; the engine checks it is still in the deck the
table draws from (Invincible: that the deck's build lets it come up now)."""

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
        to_villain_phase(session)
        camera = CardCamera(session, tmp_path / "data", simulate=True)
        expect = session.view()["expect"]
        level_1 = [c["id"] for c in expect["deck"]]
        level_2 = next(c["id"] for c in cards("invincible") if c["kind"] == "level 2")
        seq = session.seq
        got = camera.read_frame(draw(stand_in(cards("invincible"), level_2), 8201, "tilt"))
        assert "Level 2 event, but the normal event deck still has 2 Level 1" in got["refused"]
        assert session.seq == seq
        got = camera.read_frame(draw(stand_in(cards("invincible"), level_1[1]), 8202, "all"))
        assert got["drawn"] == level_1[1], got
        entry = session.journal.entries(session.view()["game_id"])[-1].payload
        assert (entry["type"], entry["data"]["card"], entry["source"]) == \
            ("reveal", level_1[1], "camera")


def to_villain_phase(session, limit=200):
    """The heroes do nothing but stop until the Villain Phase waits for its event card."""
    for _ in range(limit):
        e = session.view()["expect"]
        acts = e["actions"]
        if "reveal" in acts:
            return
        if "advance" in acts:
            action = {"type": "advance"}
        elif "choose" in acts:
            key = "villain" if e["pending"]["kind"] == "discard" else "zone"
            action = {"type": "choose", "data": {key: e["choices"][0]}}
        elif "resolved" in acts:
            action = {"type": "resolved"}
        else:
            waiting = [h for h in (e.get("heroes") or []) if isinstance(h, str)] or [
                h["hero"] for h in e.get("heroes", []) if not h.get("finished")]
            action = {"type": "done", "data": {"hero": waiting[0]}}
        session.submit(action)
    raise AssertionError("no Villain Phase came")
