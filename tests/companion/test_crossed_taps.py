"""Taps that crossed other players' moves on their way (companion/crossed_taps.py).

Invincible's Hero Phase: 'The Hero Phase ends once every player has either chosen to stop
pulling or been forced to stop by crashing or attempting a crash rescue — players can stop
independently, so one hero may keep pulling while another has already finished.' A hero's tap
made on the table before another hero's move stands while nothing it was chosen on changed;
every other stale tap is refused as before."""

import pytest

from companion.actions import Action
from companion.crossed_taps import MOST
from companion.errors import Stale
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session


@pytest.fixture
def hero_phase(tmp_path):
    session = Session(Journal(tmp_path / "j"), Catalog())
    session.start("invincible", {"heroes": ["invincible", "atom-eve", "robot"]}, seed=7)
    view = session.submit(Action("advance"))
    assert view["state"]["phase"] == "hero"
    yield session, view["seq"]
    session.journal.close()


def pull(hero):
    return Action("pull", hero, {"hero": hero})


def ready(view, hero):
    return next(h["ready"] for h in view["state"]["heroes"] if h["id"] == hero)


def test_heroes_pulling_at_the_same_moment_each_get_their_pull(hero_phase):
    session, seen = hero_phase
    session.submit(pull("invincible"), if_seq=seen)
    session.submit(pull("robot"), if_seq=seen)
    view = session.submit(pull("atom-eve"), if_seq=seen)        # two moves behind, both others'
    assert view["seq"] == seen + 3
    assert all(len(ready(view, hero)) == 3 for hero in ("invincible", "atom-eve", "robot"))


def test_a_tap_made_before_a_move_of_the_same_hero_is_refused_as_stale(hero_phase):
    """Two taps of one phone on the same buttons (a double tap, or a second phone on the same
    hero): the second was chosen on a board that has changed since."""
    session, seen = hero_phase
    session.submit(pull("invincible"), if_seq=seen)
    with pytest.raises(Stale, match="the table changed"):
        session.submit(Action("drop", "invincible", {"hero": "invincible"}), if_seq=seen)


def test_a_tap_made_before_an_undo_is_refused_as_stale(hero_phase):
    session, seen = hero_phase
    session.submit(pull("invincible"), if_seq=seen)
    session.submit(Action("undo"))
    with pytest.raises(Stale):
        session.submit(pull("atom-eve"), if_seq=seen)


def test_a_table_move_or_a_tap_from_long_ago_is_refused_as_stale(hero_phase):
    session, seen = hero_phase
    view = session.submit(pull("invincible"), if_seq=seen)
    with pytest.raises(Stale):                           # not a hero's own move
        session.submit(Action("declare_win"), if_seq=seen)
    view = session.submit(pull("robot"))
    for hero in ("invincible", "robot"):
        for cube in ready(view, hero):
            view = session.submit(Action("drop", hero, {"hero": hero, "cube": cube}))
    view = session.submit(Action("done", "robot", {"hero": "robot"}))
    assert view["seq"] - seen == MOST + 1
    with pytest.raises(Stale):
        session.submit(pull("atom-eve"), if_seq=seen)
    assert len(ready(session.submit(pull("atom-eve"), if_seq=seen + 1), "atom-eve")) == 3
