"""One validator for every timer action: the table's turn timer and Invincible's hero time refuse
the same bad seconds with the same clear error, and nothing is journaled."""

import math

import pytest

from companion.actions import Action
from companion.errors import BadAction
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from companion.timers import MAX_SECONDS

BAD = [float("nan"), float("inf"), -float("inf"), -30, 0, MAX_SECONDS + 1, 1e300, True, "60",
       None, [60]]


class Clock:
    def __init__(self, now=1000.0):
        self.now = now

    def __call__(self):
        return self.now


@pytest.fixture
def table(tmp_path):
    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog(), Clock())
    session.start("incredibles", {"players": ["dash"]}, seed=1)
    session.submit(Action("timer.start", data={"name": "turn", "seconds": 300}))
    return session


@pytest.fixture
def hero_time(tmp_path):
    session = Session(Journal(tmp_path / "h.sqlite3"), Catalog(), Clock())
    session.start("invincible", {"heroes": ["invincible", "atom-eve"], "hero_time": 5}, seed=1)
    return session


def _refused(session, action, words):
    before = session.seq, session.view()["timers"]
    with pytest.raises(BadAction) as err:
        session.submit(action)
    assert words in str(err.value)
    assert (session.seq, session.view()["timers"]) == before   # nothing journaled, nothing moved
    return str(err.value)


@pytest.mark.parametrize("bad", BAD, ids=repr)
def test_bad_seconds_are_refused_for_every_timer(table, hero_time, bad):
    data = {} if bad is None else {"seconds": bad}
    for kind in ("timer.add", "timer.start"):
        message = _refused(table, Action(kind, data={"name": "turn", **data}), "data.seconds")
        assert "at most 3600" in message
    _refused(hero_time, Action("timer.add", data={"name": "hero_time", **data}), "data.seconds")


def test_a_nan_add_no_longer_zeroes_the_turn_timer(table):
    """It used to be accepted, journaled, and leave the turn timer at NaN seconds (read as 0)."""
    with pytest.raises(BadAction, match="not nan"):
        table.submit({"type": "timer.add", "data": {"name": "turn", "seconds": math.nan}})
    assert table.view()["timers"]["turn"]["remaining"] == 300.0


def test_good_seconds_are_taken_up_to_the_limit(table, hero_time):
    table.submit(Action("timer.add", data={"name": "turn", "seconds": 0.5}))
    table.submit(Action("timer.start", data={"name": "long", "seconds": MAX_SECONDS, "warn": 0}))
    timers = table.view()["timers"]
    assert timers["turn"]["duration"] == 300.5 and timers["long"]["duration"] == MAX_SECONDS
    view = hero_time.submit(Action("advance"))
    before = view["timers"]["hero_time"]["duration"]
    view = hero_time.submit(Action("timer.add", data={"name": "hero_time", "seconds": 60}))
    assert view["timers"]["hero_time"]["duration"] == before + 60


@pytest.mark.parametrize("warn", [-1, float("nan"), "soon", MAX_SECONDS * 2])
def test_a_bad_warning_is_refused_naming_it(table, warn):
    _refused(table, Action("timer.start", data={"name": "x", "seconds": 60, "warn": warn}),
             "data.warn")


@pytest.mark.parametrize("bad", [[], ["turn"], {"a": 1}, 7, "", "x" * 201], ids=repr)
def test_a_timer_name_that_is_not_a_name_is_refused_naming_the_field(table, hero_time, bad):
    """Found by the boundary fuzzer: a list as the name reached the engine's timer lookup and was
    answered by the session's last-resort guard ("the data could not be used")."""
    for session in (table, hero_time):
        for kind in ("timer.start", "timer.add", "timer.pause"):
            message = _refused(session, Action(kind, data={"name": bad, "seconds": 60}), "data.name")
            assert "could not be used" not in message


def test_a_timer_in_a_view_shows_every_field_it_has():
    """Timer.to_json is written out by hand (it runs for every view): a field added to Timer
    must show up in it too."""
    import dataclasses

    from companion.timers import Timer
    timer = Timer("turn", "Turn", 300.0).start(10.0)
    shown = timer.to_json(40.0)
    assert {f.name: shown[f.name] for f in dataclasses.fields(Timer)} == dataclasses.asdict(timer)
    assert shown["remaining"] == 270.0 and shown["running"] and not shown["warning"]
