"""A physical card named by the camera for The Incredibles' physical-deck draw
(vision/card_camera.py): real OpenCV on rendered draws (tilt, glare, a hand over part of the
card), a real Session on a real SQLite journal. "If you roll an Alarm symbol ... Draw a card and
follow the instructions for that card type." The camera names the card; the engine checks it is
still in the deck; a card the camera cannot name for sure asks for a tap and applies nothing."""

import cv2
import numpy as np
import pytest

from companion.errors import DataFileError, IllegalAction
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
# the physical-deck table of the engine's own tests: Dash, problems A, B, C on the track, its
# journal at tmp_path / "j.sqlite3"
from tests.companion.games.test_incredibles_physical_deck import session  # noqa: F401
from vision.card_camera import CardCamera, stand_in
from vision.card_render import card, draw
from vision.errors import BadImage, TeachError

AREA = (300, 120, 640, 480)         # where the marked card area lies in the camera's frame


def cards():
    return Catalog()("incredibles").components()["cards"]


def in_area(picture, seed):
    """The whole camera frame: a rendered draw in the card area, the rest of the table around."""
    frame = np.full((720, 1280, 3), 90, np.uint8)
    x, y, w, h = AREA
    frame[y:y + h, x:x + w] = draw(picture, seed, "all")
    return frame


def alarm(session):
    session.submit({"type": "roll", "player": "dash", "data": {"face": "alarm"}})
    assert session.view()["expect"]["phase"] == "draw"


def journaled_draws(path):
    """The draws the journal file holds, read back from disk: (card, source)."""
    import json

    with Journal(path) as journal:
        steps = journal.steps(journal.current_game())
        actions = [json.loads(text) for _, kind, text, _vouched in steps if kind != "undo"]
    return [(a["data"]["card"], a["source"]) for a in actions if a["type"] == "draw"]


def test_the_card_in_the_area_is_drawn_and_journaled(session, tmp_path):
    camera = CardCamera(session, tmp_path / "data", simulate=True, area=AREA)
    alarm(session)
    before = session.view()["state"]["deck_count"]
    got = camera.read_frame(in_area(stand_in(cards(), "frozone-speed"), 7001))
    assert got["drawn"] == "frozone-speed" and not got["read"]["ask"], got
    view = session.view()
    assert view["state"]["last_card"] == "frozone-speed"
    assert view["state"]["deck_count"] == before - 1
    assert journaled_draws(tmp_path / "j.sqlite3") == [("frozone-speed", "camera")]
    # a fresh session on the same file replays to the same card
    with Journal(tmp_path / "j.sqlite3") as again:
        replayed = Session(again, Catalog()).view()["state"]
    assert replayed["last_card"] == "frozone-speed" and replayed["deck_count"] == before - 1


def test_three_identical_cards_are_one_face_and_the_fourth_is_refused_by_the_rules(session, tmp_path):
    camera = CardCamera(session, tmp_path / "data", simulate=True)
    picture = stand_in(cards(), "edna-2")          # the three Edna cards print the same
    assert np.array_equal(picture, stand_in(cards(), "edna-3"))
    drawn = []
    for seed in (7101, 7102, 7103):
        alarm(session)
        got = camera.read_frame(draw(picture, seed, "all"))
        drawn.append(got["drawn"])
        assert session.view()["expect"]["phase"] == "roll"       # an Alarm moves no spaces
    assert drawn == ["edna-1", "edna-2", "edna-3"]
    alarm(session)
    seq = session.seq
    got = camera.read_frame(draw(picture, 7104, "all"))
    assert "Edna Rescues is not in the deck: it was drawn already" in got["refused"]
    assert session.seq == seq and session.view()["expect"]["phase"] == "draw"
    recent = session.refusals.latest()["recent"][-1]
    assert recent["source"] == "camera" and "drawn already" in recent["text"]
    # a card on the Problem Track is named, and refused with the engine's reason
    got = camera.read_frame(draw(stand_in(cards(), "problem-A"), 7105, "tilt"))
    assert "Problem A is not in the deck: it is on the Problem Track" in got["refused"]
    assert session.seq == seq


def test_the_card_drawn_last_left_in_the_area_is_not_drawn_again(session, tmp_path):
    """The players leave the card they drew in the card area, roll Alarm again and press Card
    before laying the new one: the camera named the card still lying there, and with three
    Edna Rescues alike the next Edna was drawn from the journal's deck while the real one stayed
    in the real deck. Now an unmoved area showing the card drawn last asks the players to lay
    the new card; a card of the same face laid anew is drawn."""
    camera = CardCamera(session, tmp_path / "data", simulate=True, area=AREA)
    frame = in_area(stand_in(cards(), "edna-1"), 7201)
    alarm(session)
    assert camera.read_frame(frame)["drawn"] == "edna-1"
    alarm(session)
    seq = session.seq
    noise = np.random.default_rng(1).integers(-2, 3, frame.shape)   # the camera's own noise
    again = np.clip(frame.astype(np.int16) + noise, 0, 255).astype(np.uint8)
    got = camera.read_frame(again)
    assert "still shows Edna Rescues, the card drawn last" in got["asked"], got
    assert session.seq == seq and session.view()["expect"]["phase"] == "draw"
    assert session.refusals.latest()["recent"][-1]["kind"] == "ask"
    got = camera.read_frame(in_area(stand_in(cards(), "edna-2"), 7202))   # laid anew
    assert got["drawn"] == "edna-2", got
    assert journaled_draws(tmp_path / "j.sqlite3") == [("edna-1", "camera"), ("edna-2", "camera")]
    # the draw undone, the card is back in the deck: the same card, unmoved, is the one to draw
    from companion.actions import Action

    session.submit(Action("undo"))
    assert session.view()["expect"]["phase"] == "draw"
    got = camera.read_frame(in_area(stand_in(cards(), "edna-2"), 7202))
    assert "drawn" in got and got["drawn"].startswith("edna-"), got


def test_a_card_not_taught_asks_for_a_tap_and_applies_nothing(session, tmp_path):
    data = tmp_path / "data"
    folder = data / "cards" / "incredibles"
    folder.mkdir(parents=True)
    for cid in ("jackjack-4", "road-3", "problem-D"):      # the owner's photos of three cards
        assert cv2.imwrite(str(folder / f"{cid}.png"), stand_in(cards(), cid))
    camera = CardCamera(session, data)                     # no stand-ins outside a simulation
    alarm(session)
    seq, deck = session.seq, session.view()["state"]["deck_count"]
    got = camera.read_frame(draw(stand_in(cards(), "frozone-speed"), 7201, "all"))
    assert got["read"]["card"] is None and "tap the card you drew" in got["asked"]
    assert session.seq == seq and session.view()["state"]["deck_count"] == deck
    notice = session.refusals.latest()["recent"][-1]
    assert notice["kind"] == "ask" and notice["origin"] == "card area"
    got = camera.read_frame(draw(card("villain-9", kind=3), 7202, "all"))   # not of this box
    assert "asked" in got and session.seq == seq
    got = camera.read_frame(draw(stand_in(cards(), "road-3"), 7203, "all"))  # a photographed one
    assert got["drawn"] == "road-3" and session.view()["state"]["last_card"] == "road-3"
    assert journaled_draws(tmp_path / "j.sqlite3") == [("road-3", "camera")]


def test_outside_a_draw_and_bad_inputs_are_refused_with_a_reason(session, tmp_path):
    camera = CardCamera(session, tmp_path / "data", simulate=True)
    with pytest.raises(IllegalAction, match="no card is to be named now"):
        camera.read_frame(draw(stand_in(cards(), "edna-1"), 7301, "all"))
    with pytest.raises(TeachError, match="no card of incredibles is taught"):
        alarm(session)
        CardCamera(session, tmp_path / "empty").read_frame(np.zeros((480, 640, 3), np.uint8))
    bad = tmp_path / "bad" / "cards" / "incredibles"
    bad.mkdir(parents=True)
    (bad / "edna-1.png").write_bytes(b"not a picture")
    with pytest.raises(BadImage, match="edna-1.png"):
        CardCamera(session, tmp_path / "bad").read_frame(np.zeros((480, 640, 3), np.uint8))
    with pytest.raises(ValueError, match="at least 32 pixels"):
        camera.read_frame(np.zeros((8, 8), np.uint8))
    for area in ((0, 0, 10, 10), (1, 2, 3), "all", (0, 0, 64.5, 64)):
        with pytest.raises(DataFileError, match="card_area"):
            CardCamera(session, tmp_path, area=area)


def test_the_card_button_names_the_card_in_the_area_and_is_refused_without_a_camera(session, tmp_path):
    """The Incredibles' table map: Card in the draw phase is "read_card" (the camera names the
    card in the card area); pressed through gpiozero's MockFactory."""
    from hardware.wiring import DEFAULT_GPIO, attach

    camera = CardCamera(session, tmp_path / "data", simulate=True, area=AREA)
    frames = [None]
    gpio = {**DEFAULT_GPIO, "hold_time": 0.2}
    handle = attach(session, {"gpio": gpio, "serial": {"enabled": False}}, simulate=True,
                    read_card=lambda: camera.read_now(frames[0]))
    bare = attach(session, {"gpio": gpio, "serial": {"enabled": False}}, simulate=True)
    try:
        def press(h):
            seq, seen = session.seq, session.refusals.last_id
            h.press("card")
            assert h.dispatcher.wait_idle(5)
            posted = session.refusals.since(seen)
            return session.seq > seq, posted[-1]["text"] if posted else None

        changed, why = press(handle)                       # the roll phase: nothing to name
        assert not changed and "the Card button means nothing now (roll phase)" in why
        alarm(session)
        changed, why = press(handle)                       # no frame yet
        assert not changed and "no picture of the card area yet" in why
        changed, why = press(bare)
        assert not changed and "no camera is wired to read the card area" in why
        frames[0] = in_area(stand_in(cards(), "jackjack-7"), 7401)
        changed, why = press(handle)
        assert changed and why is None and session.view()["state"]["last_card"] == "jackjack-7"
        assert journaled_draws(tmp_path / "j.sqlite3") == [("jackjack-7", "camera")]
        alarm(session)
        frames[0] = np.full((300, 400, 3), 90, np.uint8)    # smaller than the card area
        changed, why = press(handle)
        assert not changed and "lies outside the camera's 400 x 300 frame" in why
    finally:
        handle.close()
        bare.close()


def test_the_card_area_setting_is_checked_naming_the_key():
    from vision.table_camera import settings

    assert settings({"card_area": [10, 20, 300, 400]}, "c.toml")["source"] is None
    with pytest.raises(DataFileError, match="c.toml: camera.card_area: .x, y, width, height."):
        settings({"card_area": [10, 20]}, "c.toml")
