"""Camera reads through the session: a confident read is the roll, a doubtful one waits for the
players, and both survive a restart because both are journaled."""

import pytest

from companion.actions import Action
from companion.errors import BadAction, Conflict, IllegalAction
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session


def read(*faces_conf):
    return Action("dice.read", data={"set": "incredibles-movement", "dice": [
        {"face": f, "confidence": c, "box": [10, 10, 40, 40]} for f, c in faces_conf]},
        source="camera")


@pytest.fixture
def session(tmp_path):
    s = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    s.start("incredibles", {"players": ["dash"], "starting_problems": ["A", "B", "C"]}, seed=2)
    return s


def test_a_confident_read_is_the_roll(session):
    view = session.submit(read(("3", 0.97)))
    assert view["expect"]["phase"] == "move" and view["state"]["roll"]["face"] == "3"
    assert view["dice_read"]["confirmed"] and view["dice_read"]["faces"] == ["3"]


def test_a_doubtful_read_waits_unconfirmed_rather_than_guessed(session, tmp_path):
    view = session.submit(read(("3", 0.41)))
    assert view["expect"]["phase"] == "roll", "a doubtful read must not be applied"
    waiting = view["dice_read"]
    assert waiting["confirmed"] is False and waiting["doubtful"] == [0]
    session.journal.close()
    again = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    assert again.view()["dice_read"] == waiting
    view = again.confirm_read(waiting["id"], ["2"])             # corrected with one tap
    assert view["state"]["roll"]["face"] == "2"
    shown = view["dice_read"]                                    # stays on show as the last roll
    assert shown["confirmed"] and shown["corrected"] == [0] and shown["dice"][0]["face"] == "2"
    with pytest.raises(Conflict):
        again.confirm_read(waiting["id"], ["2"])                 # already confirmed
    view = again.submit(Action("undo"))
    assert view["dice_read"] == waiting                          # undo brings the read back


def test_typing_the_roll_makes_a_waiting_read_stale(session):
    waiting = session.submit(read(("3", 0.2)))["dice_read"]
    session.submit(Action("roll", data={"face": "1"}))
    assert session.view()["dice_read"] is None
    with pytest.raises(Conflict, match="no longer waiting"):
        session.confirm_read(waiting["id"], ["3"])


def test_reads_that_do_not_fit_are_refused(session):
    with pytest.raises(BadAction, match="not a face"):
        session.submit(read(("skull", 0.99)))
    with pytest.raises(BadAction):
        session.submit(Action("dice.read", data={"dice": "3"}))
    with pytest.raises(IllegalAction):
        session.submit(Action("dice.dismiss"))


def test_a_sure_read_with_a_die_too_many_waits_for_a_tap_not_a_new_throw(session, tmp_path):
    """Two dice read, each surely, where the one Movement Die lies (a shadow or a stray die taken
    for one): nothing is applied and the read waits, marked miscounted; a confirmation with the
    count still wrong is refused and the read still waits; "not a die" on the stray one applies
    the roll, and the last roll says a player confirmed it. The waiting read survives a restart."""
    view = session.submit(read(("1", 0.99), ("4", 0.98)))
    waiting = view["dice_read"]
    assert view["expect"]["phase"] == "roll", "a read of two dice is not a roll of one"
    assert waiting["confirmed"] is False and waiting["miscounted"] and waiting["doubtful"] == []
    seq = session.seq
    with pytest.raises(IllegalAction, match="this roll is one die and the camera found 2"):
        session.confirm_read(waiting["id"], ["1", "4"])
    assert session.seq == seq and session.view()["dice_read"] == waiting
    session.journal.close()
    again = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    assert again.view()["dice_read"] == waiting
    view = again.confirm_read(waiting["id"], [None, "4"])
    assert view["expect"]["phase"] == "move" and view["state"]["roll"]["face"] == "4"
    assert view["dice_read"]["removed"] == [0]
    assert view["last_roll"]["confirmed_by"] is not None and view["last_roll"]["source"] == "camera"


def test_a_sure_read_of_the_right_count_is_not_marked(session):
    assert "miscounted" not in session.submit(read(("2", 0.99)))["dice_read"]


def test_an_unsure_read_with_a_die_too_many_is_marked_too(session):
    """An unsure read of two dice for the one Movement Die waits as unsure reads do, and is
    marked miscounted as well: Confirm alone would be refused for the count, so the table's
    display must send the players to a screen rather than to the Confirm button."""
    waiting = session.submit(read(("1", 0.4), ("4", 0.98)))["dice_read"]
    assert waiting["doubtful"] == [0] and waiting["miscounted"] is True
    with pytest.raises(IllegalAction, match="this roll is one die and the camera found 2"):
        session.confirm_read(waiting["id"], ["1", "4"])
    assert "miscounted" not in session.submit(read(("3", 0.4)))["dice_read"]


def test_many_dice_in_one_frame_become_one_roll_action(tmp_path):
    """X-Men Alert: "each player rolls five dice" to go first - one camera read of five dice is
    one first.roll action, for the player the engine names."""
    s = Session(Journal(tmp_path / "x.sqlite3"), Catalog())
    view = s.start("xmen-alert", {"players": ["Ana", "Ben"]}, seed=1)
    entry = view["expect"]["dice"][0]
    assert entry["count"] == 5 and entry["action"] == "first.roll"
    faces = ["xmen", "marvel", "blank", "evil_mutant", "xmen"]
    view = s.submit(Action("dice.read", data={"set": "xmen-alert", "dice": [
        {"face": f, "confidence": 0.95} for f in faces]}, source="camera"))
    last = s.journal.entries(s.journal.current_game().id)[-1]
    assert last.payload["type"] == "dice.read"
    assert view["seq"] == last.seq and view["dice_read"]["confirmed"]
    # "X-Men 1 point, Marvel 2": two X-Men and one Marvel make 4 points.
    assert view["state"]["last_roll"]["faces"] == faces
    assert view["state"]["going_first"]["rolls"] == {entry["player"]: 4}


@pytest.mark.parametrize("data, words", [
    ({"image": "http://evil.example/tracker.png"}, "own photo log"),
    ({"image": "/api/dice/../../etc/passwd.jpg"}, "own photo log"),
    ({"image": ["/api/dice/r1.jpg"]}, "own photo log"),
    ({"set": "xmen-alert"}, "not a set of the dice expected now (incredibles-movement)"),
    ({"set": {"a": 1}}, "not a set of the dice expected now"),
    ({"id": "../r1"}, "data.id"),
])
def test_a_read_names_only_our_own_photos_and_the_expected_set(session, data, words):
    """Issue 18: `dice.read` accepted any `image` URL (every dashboard then fetched it from
    anywhere) and any `set` string."""
    action = read(("3", 0.97))
    bad = Action("dice.read", data={**action.data, **data}, source="camera")
    seq = session.seq
    with pytest.raises(BadAction, match=words.replace("(", r"\(").replace(")", r"\)")):
        session.submit(bad)
    assert session.seq == seq
    ok = Action("dice.read", data={**action.data, "id": "20261201-r1", "image": "/api/dice/20261201-r1.jpg"},
                source="camera")
    assert session.submit(ok)["dice_read"]["image"] == "/api/dice/20261201-r1.jpg"
