"""One truth for "last roll": whatever channel entered the newest roll (the camera, a tap, a
button, a replayed file), the view's ``last_roll`` is that roll, and it survives a restart."""

import pytest

from companion.actions import Action
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session


def read(face, confidence):
    return Action("dice.read", data={"id": f"r-{face}-{round(confidence * 100)}", "set": "incredibles-movement",
                                     "dice": [{"face": face, "confidence": confidence}]}, source="camera")


@pytest.fixture
def session(tmp_path):
    s = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    s.start("incredibles", {"players": ["dash", "violet"], "starting_problems": ["A", "B", "C"]}, seed=2)
    return s


def test_a_roll_tapped_after_a_camera_read_replaces_it_everywhere(session):
    view = session.submit(read("3", 0.97))
    assert view["last_roll"]["source"] == "camera" and view["last_roll"]["read"] == "r-3-97"
    assert [d["face"] for d in view["last_roll"]["dice"]] == ["3"]
    view = session.submit(Action("move", "dash", {"to": "3"}, source="dashboard"))
    assert view["last_roll"]["read"] == "r-3-97"            # a move is not a roll: it stays
    assert view["dice_read"]["id"] == "r-3-97"
    # Violet's turn: she taps "Alarm" on a phone. The camera's "3" is no longer the last roll.
    view = session.submit(Action("roll", "violet", {"face": "alarm"}, source="dashboard"))
    last = view["last_roll"]
    assert last["source"] == "dashboard" and last["player"] == "violet" and last["read"] is None
    assert [(d["die"], d["face"]) for d in last["dice"]] == [("movement", "alarm")]
    assert view["dice_read"] is None                        # no stale read left in the view


def test_a_doubtful_read_is_camera_made_and_player_confirmed(session):
    view = session.submit(read("2", 0.41))
    assert view["last_roll"] is None and view["dice_read"]["confirmed"] is False
    view = session.confirm_read("r-2-41", ["4"], source="dashboard")
    last = view["last_roll"]
    assert last["source"] == "camera" and last["confirmed_by"] == "dashboard"
    assert [d["face"] for d in last["dice"]] == ["4"]


def test_a_virtual_roll_says_what_the_engine_drew_and_undo_and_restart_keep_the_truth(session, tmp_path):
    view = session.submit(Action("roll", "dash", {"face": "2"}, source="button"))
    first = view["last_roll"]
    assert first["source"] == "button" and first["virtual"] is False
    session.submit(Action("move", "dash", {"to": "2"}))
    view = session.submit(Action("roll", "violet", source="dashboard"))     # "roll it for me"
    last = view["last_roll"]
    assert last["virtual"] is True and last["dice"] == []
    assert last["said"] == view["state"]["log"][-1] and "rolled" in last["said"]
    assert session.submit(Action("undo"))["last_roll"] == first               # undo brings it back
    session.journal.close()
    again = Session(Journal(tmp_path / "j.sqlite3"), Catalog())              # replayed journal
    assert again.view()["last_roll"] == first


def test_a_roll_several_heroes_may_make_counts_each_die_once(tmp_path):
    s = Session(Journal(tmp_path / "x.sqlite3"), Catalog())
    s.start("xmen-alert", {"players": ["Ana", "Ben"]}, seed=1)
    view = s.submit(Action("first.roll", "Ana", {"faces": ["marvel", "xmen", "blank", "blank", "xmen"]}))
    assert [d["face"] for d in view["last_roll"]["dice"]] == ["marvel", "xmen", "blank", "blank", "xmen"]
    assert view["last_roll"]["player"] == "Ana"


def test_the_rolls_own_line_is_found_in_a_full_log_of_repeated_lines():
    """A log keeps its newest lines only. Full of one Alarm after another ("rolled alarm",
    "drew Edna Rescues"), the last roll said "Alarm! Drew Edna Rescues." for a roll whose own
    line is "Dash rolled alarm." (found by a hostile-input audit)."""
    from companion.last_roll import _first_new

    pair = ["Dash rolled alarm.", "Alarm! Drew Edna Rescues."]
    full = pair * 15                                       # 30 lines: Incredibles' cap
    assert _first_new(full, (full + pair)[-30:]) == "Dash rolled alarm."
    assert _first_new(full[:4], full[:6]) == "Dash rolled alarm."          # not full yet
    assert _first_new(["a", "b"], ["a", "b", "c", "d"]) == "c"
    assert _first_new(["a", "b", "c"], ["c", "x"]) == "x"                     # capped at 2


def cube_read(hero, cubes, read_id):
    return Action("dice.read", hero, {"id": read_id, "set": "invincible-cubes",
                                      "dice": [{"face": c, "confidence": 0.99} for c in cubes]},
                  source="camera")


def test_an_invincible_pull_typed_on_a_phone_after_a_camera_pull_is_the_last_roll(tmp_path):
    """'Draw three random cubes from your bag at a time': Atom Eve's pull read by the camera,
    then Invincible's tapped on a phone. The Last roll kept the camera's pull (a pull is a read
    the engine may take, not a roll expect asks for), an older pull shown as the latest; and
    one the companion pulled ("Pull for me") was never shown either."""
    s = Session(Journal(tmp_path / "i.sqlite3"), Catalog())
    s.start("invincible", {"heroes": ["invincible", "atom-eve"]}, seed=4)
    s.submit(Action("advance"))
    view = s.submit(cube_read("atom-eve", ["blue", "blue", "yellow"], "pull-1"))
    camera = view["last_roll"]
    assert camera["source"] == "camera" and camera["player"] == "atom-eve"
    view = s.submit(Action("pull", data={"hero": "invincible", "cubes": ["yellow", "orange", "purple"]},
                           source="dashboard"))
    last = view["last_roll"]
    assert (last["type"], last["player"], last["source"], last["read"]) == ("pull", "invincible", "dashboard", None)
    assert [d["face"] for d in last["dice"]] == ["yellow", "orange", "purple"]
    assert view["dice_read"] is None                         # the camera's pull is put away
    assert s.submit(Action("undo"))["last_roll"] == camera   # undo brings the camera's back
    for cube in ("blue", "blue", "yellow"):
        s.submit(Action("drop", data={"hero": "atom-eve", "cube": cube}))
    view = s.submit(Action("pull", "atom-eve", {"hero": "atom-eve"}, source="dashboard"))  # Pull for me
    last = view["last_roll"]
    assert last["player"] == "atom-eve" and last["virtual"] and last["read"] is None
    assert last["said"].startswith("Atom Eve pulls "), last["said"]


def test_a_heros_pull_tapped_on_another_players_phone_is_that_heros(tmp_path):
    """A pull is the hero's whose pull area it names ("Draw three random cubes from your bag at a
    time"), whoever tapped it: Atom Eve's pull tapped on Invincible's phone was shown as
    "Invincible: pull" beside "Atom Eve pulls ..."."""
    s = Session(Journal(tmp_path / "i.sqlite3"), Catalog())
    s.start("invincible", {"heroes": ["invincible", "atom-eve"]}, seed=4)
    s.submit(Action("advance"))
    s.submit(cube_read("invincible", ["blue", "blue", "yellow"], "pull-1"))
    view = s.submit(Action("pull", "invincible", {"hero": "atom-eve"}, source="dashboard"))
    last = view["last_roll"]
    assert last["said"].startswith("Atom Eve pulls "), last["said"]
    assert last["player"] == "atom-eve", last
    s.journal.close()
    again = Session(Journal(tmp_path / "i.sqlite3"), Catalog())
    assert again.view()["last_roll"] == last


def test_defiances_fresh_cubes_are_the_last_roll_named_defiance(tmp_path):
    """Defiance: 'you may flip your defiance token face down to set that pull aside, pull three
    fresh cubes, and then return the first three to your ready area'; and to pull is to 'Draw
    three random cubes from your bag at a time'. The fresh three come out of the bag: they are
    the table's newest draw. The Last roll kept the camera's pull, set aside, while the hero
    held other cubes (found at the table)."""
    s = Session(Journal(tmp_path / "i.sqlite3"), Catalog())
    s.start("invincible", {"heroes": ["invincible", "atom-eve"]}, seed=4)
    s.submit(Action("advance"))
    camera = s.submit(cube_read("invincible", ["yellow", "yellow", "blue"], "pull-1"))["last_roll"]
    view = s.submit(Action("defiance", "invincible",
                           {"hero": "invincible", "cubes": ["orange", "purple", "yellow"]},
                           source="dashboard"))
    last = view["last_roll"]
    assert (last["type"], last["player"], last["source"], last["read"]) == (
        "defiance", "invincible", "dashboard", None)
    assert [d["face"] for d in last["dice"]] == ["orange", "purple", "yellow"]
    assert last["said"].startswith("Invincible flips defiance: sets aside yellow, yellow, blue"), last
    assert view["dice_read"] is None                         # the set-aside pull's read is put away
    assert s.submit(Action("undo"))["last_roll"] == camera
    view = s.submit(Action("defiance", "atom-eve", {"hero": "invincible"}, source="dashboard"))
    last = view["last_roll"]                                 # "Pull for me", tapped on Eve's phone
    assert (last["type"], last["player"], last["virtual"]) == ("defiance", "invincible", True)
    assert last["said"].startswith("Invincible flips defiance: "), last
    s.journal.close()
    again = Session(Journal(tmp_path / "i.sqlite3"), Catalog())    # replayed journal
    assert again.view()["last_roll"] == last
