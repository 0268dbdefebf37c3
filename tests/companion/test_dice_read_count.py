"""A flagged read with a die too few or too many, put right with a tap: the players add the dice
the camera missed and mark what is not a die (issue 14's gap). A refusal leaves the read
waiting and journals nothing; replay and undo give the same table."""

import pytest

from companion.actions import Action
from companion.dice_reads import MAX_DICE
from companion.errors import BadAction, IllegalAction
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session

SHOWN = ("state", "expect", "dice_read", "last_roll", "undo")


def five_dice_read(faces_conf, read_id="cam-1"):
    """X-Men Alert's first roll ("each player rolls five dice"), read by the camera."""
    return Action("dice.read", source="camera", data={"id": read_id, "set": "xmen-alert", "dice": [
        {"face": f, "confidence": c, "box": [10 + 50 * i, 10, 40, 40]}
        for i, (f, c) in enumerate(faces_conf)]})


@pytest.fixture
def xmen(tmp_path):
    s = Session(Journal(tmp_path / "x.sqlite3"), Catalog())
    s.start("xmen-alert", {"players": ["Ana", "Ben"]}, seed=1)
    return s


def shown(view):
    return {k: view[k] for k in SHOWN}


def test_a_die_the_camera_missed_is_added_with_a_tap(xmen, tmp_path):
    # two dice touching read as one: four dice found, the last one unsure
    four = [("xmen", 0.9), ("marvel", 0.95), ("blank", 0.9), ("xmen", 0.4)]
    waiting = xmen.submit(five_dice_read(four))["dice_read"]
    assert waiting["confirmed"] is False and waiting["doubtful"] == [3]
    player = xmen.view()["expect"]["dice"][0]["player"]
    # confirmed as read, the roll is refused: why, and how to put it right; the read still waits
    seq = xmen.seq
    with pytest.raises(IllegalAction, match="this roll is 5 dice and the camera found 4: add each die"):
        xmen.confirm_read("cam-1")
    assert xmen.seq == seq and xmen.view()["dice_read"] == waiting
    view = xmen.confirm_read("cam-1", added=["marvel"])
    read = view["dice_read"]
    assert read["confirmed"] and read["added"] == ["marvel"] and "removed" not in read
    assert read["faces"] == ["xmen", "marvel", "blank", "xmen", "marvel"] and read["corrected"] == []
    # "X-Men 1 point, Marvel 2": two X-Men and two Marvel make 6 points
    assert view["state"]["going_first"]["rolls"] == {player: 6}
    assert [d["face"] for d in view["last_roll"]["dice"]] == read["faces"]
    assert view["last_roll"]["confirmed_by"] == "dashboard"
    entry = xmen.journal.entries(view["game_id"])[-1].payload
    assert entry["type"] == "dice.confirm" and entry["data"] == {"id": "cam-1", "added": ["marvel"]}
    # the journal replays to the same table; undo brings the waiting read back
    xmen.journal.close()
    again = Session(Journal(tmp_path / "x.sqlite3"), Catalog())
    assert shown(again.view()) == shown(view)
    back = again.submit(Action("undo"))
    assert back["dice_read"] == waiting and back["state"]["going_first"]["rolls"] == {}


def test_something_that_is_not_a_die_is_marked_so_and_a_face_corrected_at_once(xmen):
    # a tray feature read as a sixth die; one real die read wrong
    six = [("xmen", 0.9), ("blank", 0.35), ("marvel", 0.9), ("evil_mutant", 0.9),
           ("blank", 0.9), ("xmen", 0.9)]
    xmen.submit(five_dice_read(six))
    seq = xmen.seq
    with pytest.raises(IllegalAction, match="this roll is 5 dice and the camera found 6: mark each one"):
        xmen.confirm_read("cam-1")
    assert xmen.seq == seq
    view = xmen.confirm_read("cam-1", ["xmen", None, "marvel", "evil_mutant", "blank", "marvel"])
    read = view["dice_read"]
    assert read["removed"] == [1] and read["corrected"] == [5] and "added" not in read
    assert read["faces"] == ["xmen", "marvel", "evil_mutant", "blank", "marvel"]
    assert read["dice"][1]["face"] == "blank"         # what the camera took it for, kept
    assert len(view["last_roll"]["dice"]) == 5


def test_removing_and_adding_together_and_a_count_still_wrong_is_refused_in_its_words(xmen):
    waiting = xmen.submit(five_dice_read([("xmen", 0.9), ("blank", 0.3), ("marvel", 0.9)]))["dice_read"]
    seq = xmen.seq
    with pytest.raises(IllegalAction, match="with your changes the read has 4: add each die"):
        xmen.confirm_read("cam-1", ["xmen", None, "marvel"], added=["blank", "blank"])
    assert xmen.seq == seq and xmen.view()["dice_read"] == waiting
    view = xmen.confirm_read("cam-1", ["xmen", None, "marvel"], added=["blank", "blank", "xmen"])
    assert view["dice_read"]["faces"] == ["xmen", "marvel", "blank", "blank", "xmen"]
    assert view["dice_read"]["removed"] == [1] and view["dice_read"]["added"] == ["blank", "blank", "xmen"]


@pytest.mark.parametrize("data, error, words", [
    ({"faces": ["xmen", "marvel"]}, BadAction, "data.faces has 2 entries and the read 4 dice"),
    ({"faces": ["xmen", "marvel", "blank", 4]}, BadAction, "one entry for each die read"),
    ({"faces": "xmen"}, BadAction, "one entry for each die read"),
    ({"faces": ["xmen", "marvel", "blank", ""]}, BadAction, "one entry for each die read"),
    ({"added": "marvel"}, BadAction, "data.added must be a list"),
    ({"added": [None]}, BadAction, "data.added must be a list"),
    ({"added": ["x" * 41]}, BadAction, "data.added must be a list"),
    ({"added": ["marvel"] * (MAX_DICE + 1)}, BadAction, "data.added must be a list"),
    ({"added": ["skull"]}, BadAction, "skull is not a face of the alert"),
    ({"faces": [None] * 4}, IllegalAction, "none is added"),
    ({"faces": ["xmen", "marvel", "blank", "skull"], "added": ["xmen"]}, BadAction, "not a face"),
    ({"added": ["xmen", "xmen"]}, IllegalAction, "this roll is 5 dice and with your changes the read has 6"),
    # what the dashboard's endpoint refuses, the action refuses in the same words (it was taken
    # and journaled with the stray field)
    ({"add": ["marvel"]}, BadAction, "confirm takes id, faces and added, not add"),
])
def test_a_confirmation_that_does_not_fit_is_refused_and_the_read_still_waits(xmen, data, error, words):
    waiting = xmen.submit(five_dice_read([("xmen", 0.9), ("marvel", 0.9), ("blank", 0.9),
                                          ("xmen", 0.4)]))["dice_read"]
    seq = xmen.seq
    with pytest.raises(error, match=words):
        xmen.submit(Action("dice.confirm", data={"id": "cam-1", **data}, source="dashboard"))
    assert xmen.seq == seq and xmen.view()["dice_read"] == waiting
    assert xmen.confirm_read("cam-1", added=["xmen"])["dice_read"]["confirmed"]   # nothing lost


def test_a_single_die_read_twice_is_put_right_by_marking_one_not_a_die(tmp_path):
    """The Incredibles' Movement Die: the camera found two (one a shadow), one unsure."""
    s = Session(Journal(tmp_path / "i.sqlite3"), Catalog())
    s.start("incredibles", {"players": ["dash"], "starting_problems": ["A", "B", "C"]}, seed=2)
    s.submit(Action("dice.read", source="camera", data={"id": "r2", "set": "incredibles-movement", "dice": [
        {"face": "3", "confidence": 0.9}, {"face": "1", "confidence": 0.3}]}))
    with pytest.raises(IllegalAction, match="this roll is one die and the camera found 2: mark each one"):
        s.confirm_read("r2")
    view = s.confirm_read("r2", ["3", None])
    assert view["state"]["roll"]["face"] == "3" and view["expect"]["phase"] == "move"
    assert view["dice_read"]["removed"] == [1]
