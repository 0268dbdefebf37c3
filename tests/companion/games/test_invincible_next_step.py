"""The next step of the Hero Phase, read from the Session's view (what every phone and the table
show), checked against what the rules then accept."""

import pytest

from companion.errors import IllegalAction
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session

READY = "play or drop the ready cubes, then pull again or done"


@pytest.fixture
def session(tmp_path):
    s = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    s.start("invincible", {"heroes": ["invincible", "atom-eve"], "hero_time": 10}, seed=7)
    return s


def act(session, kind, **data):
    return session.submit({"type": kind, "data": data})


def test_a_hero_with_cubes_ready_is_told_to_play_them_not_to_pull(session):
    """ "All three cubes from a pull must be either played or dropped before you pull again."
    Invincible's pull sits in his ready area: the next step said he might "pull and play cubes"
    and a pull was refused. It says what his open moves are, and that he pulls again after."""
    view = act(session, "advance")
    assert view["expect"]["prompt"] == "Hero Phase: Invincible, Atom Eve pull and play cubes, then done."
    view = act(session, "pull", hero="invincible", cubes=["yellow", "yellow", "orange"])
    mine = next(h for h in view["expect"]["heroes"] if h["hero"] == "invincible")
    assert "pull" not in mine["actions"] and "play" in mine["actions"]
    assert view["expect"]["prompt"] == (f"Hero Phase: Invincible {READY}; Atom Eve pull and play "
                                        "cubes, then done.")
    with pytest.raises(IllegalAction, match="still has 3 cube"):
        act(session, "pull", hero="invincible", cubes=["blue", "blue", "blue"])


def test_meanwhile_names_what_the_other_hero_may_do_now(session):
    """Hero time: "Heroes pull and play independently", so while Atom Eve's Move resolves the next
    step tells Invincible what he may do meanwhile: with his pull still in the ready area, play
    or drop it ("before you pull again"), never "pull". Once it is played and dropped he pulls."""
    act(session, "advance")
    act(session, "pull", hero="invincible", cubes=["yellow", "yellow", "orange"])
    act(session, "pull", hero="atom-eve", cubes=["blue", "yellow", "orange"])
    view = act(session, "play", hero="atom-eve", cube="blue", power="move")
    assert view["expect"]["prompt"] == ("Atom Eve: resolve Move: move (tap a choice). Meanwhile "
                                        f"Invincible {READY}.")
    for cube in ("yellow", "yellow", "orange"):
        view = act(session, "drop", hero="invincible", cube=cube)
    assert view["expect"]["prompt"].endswith("Meanwhile Invincible pull and play cubes, then done.")
    act(session, "pull", hero="invincible", cubes=["blue", "blue", "blue"])
