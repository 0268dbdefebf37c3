"""The hero-time variant: the timer lives in the journaled state, expires through the session's
ticker, and comes back with the right time left after a restart.

'set a 10-minute timer at the start of each Hero Phase, and when it runs out, the phase ends
immediately. Heroes may finish resolving any power they were already in the middle of, but any
cubes still sitting in their ready area count as dropped, and any hero who crashed and wasn't
rescued rolls crash damage as usual at that point.'
"""

import random

import pytest

from companion.actions import Action
from companion.errors import BadAction, IllegalAction, SetupError
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from invincible_helpers import engine  # noqa: F401 (fixtures)

EMPTY_ROUND_1 = {"villain1": ["thug-a"]}


class Clock:
    def __init__(self, now=1_000_000.0):
        self.now = now

    def __call__(self):
        return self.now


def _session(path, clock):
    return Session(Journal(path), Catalog(), clock=clock)


def test_timer_starts_with_the_hero_phase_and_expires_through_the_session(tmp_path):
    """'set a 10-minute timer at the start of each Hero Phase, and when it runs out, the phase
    ends immediately'."""
    clock = Clock()
    path = tmp_path / "journal.sqlite3"
    session = _session(path, clock)
    session.start("invincible", {"heroes": ["invincible", "atom-eve"], "hero_time": 10}, seed=7)
    assert session.view()["timers"]["hero_time"]["running"] is False
    clock.now += 5
    view = session.submit({"type": "advance"})
    timer = view["timers"]["hero_time"]
    assert view["state"]["phase"] == "hero"
    assert timer["running"] and timer["duration"] == 600 and timer["remaining"] == 600
    assert session.running_timers() == {"hero_time": clock.now + 600}
    clock.now += 100
    session.submit({"type": "pull", "data": {"hero": "invincible",
                                             "cubes": ["yellow", "yellow", "orange"]}})
    session.submit({"type": "play", "data": {"hero": "invincible", "cube": "yellow",
                                             "power": "attack"}})
    clock.now += 499
    session.tick()                                   # one second left: nothing happens
    assert session.view()["state"]["phase"] == "hero"
    with pytest.raises(IllegalAction, match="still has"):
        session.submit(Action("timer.expire", data={"name": "hero_time"}))
    clock.now += 1.5
    session.tick()
    view = session.view()
    state = view["state"]
    assert state["phase"] == "training"
    inv = next(h for h in state["heroes"] if h["id"] == "invincible")
    assert inv["ready"] == [] and sorted(inv["dropped"]) == ["orange", "yellow"]
    assert view["timers"]["hero_time"]["expired"] is True
    assert view["timers"]["hero_time"]["running"] is False
    session.journal.close()


def test_restart_comes_back_with_the_right_time_left(tmp_path):
    """The timer lives in the journal: a new Journal and Session on the same file replay to the
    same timer, and the time left is measured from the server clock."""
    clock = Clock()
    path = tmp_path / "journal.sqlite3"
    session = _session(path, clock)
    session.start("invincible", {"heroes": ["robot", "rex-splode"], "hero_time": 5}, seed=3)
    session.submit({"type": "advance"})
    clock.now += 120
    session.submit({"type": "timer.pause", "data": {"name": "hero_time"}})
    clock.now += 1000                               # paused time does not count
    session.submit({"type": "timer.resume", "data": {"name": "hero_time"}})
    clock.now += 30
    session.submit({"type": "timer.add", "data": {"name": "hero_time", "seconds": 60}})
    clock.now += 10
    before = session.view()
    assert before["timers"]["hero_time"]["remaining"] == pytest.approx(300 - 120 - 30 + 60 - 10)
    session.journal.close()          # the process dies here; nothing else is saved

    clock.now += 25                  # the service is down for 25 seconds
    again = _session(path, clock)
    after = again.view()
    assert after["state"] == before["state"]
    assert after["timers"]["hero_time"]["remaining"] == pytest.approx(200 - 25)
    assert again.running_timers()["hero_time"] == pytest.approx(clock.now + 175)
    clock.now += 175
    again.tick()
    assert again.view()["state"]["phase"] == "training"
    again.journal.close()


def test_expiry_lets_a_resolving_power_finish_then_crash_damage(engine):
    """'Heroes may finish resolving any power they were already in the middle of' and 'any hero
    who crashed and wasn't rescued rolls crash damage as usual at that point.'"""
    state = engine.setup({"heroes": ["invincible", "atom-eve"], "hero_time": {"seconds": 60}},
                         random.Random(1))
    state.track[0] = []
    rng = random.Random(2)
    s = engine.apply(state, Action("advance", at=0.0), rng)
    eve = s.hero("atom-eve")
    eve.dropped, eve.bag["black"] = ["black"] * 4, 2
    s = engine.apply(s, Action("pull", data={"hero": "atom-eve", "cubes": ["black", "blue", "blue"]},
                               at=10.0), rng)
    assert s.hero("atom-eve").crashed
    s = engine.apply(s, Action("pull", data={"hero": "invincible",
                                             "cubes": ["blue", "yellow", "yellow"]}, at=20.0), rng)
    s = engine.apply(s, Action("play", data={"hero": "invincible", "cube": "blue",
                                             "power": "move"}, at=30.0), rng)
    assert s.resolving is not None
    s = engine.apply(s, Action("timer.expire", data={"name": "hero_time"}, at=60.0), rng)
    assert s.phase == "hero_end" and s.resolving["name"] == "Move"
    assert sorted(s.hero("invincible").dropped) == ["yellow", "yellow"]
    with pytest.raises(IllegalAction):
        engine.apply(s, Action("pull", data={"hero": "invincible"}, at=61.0), rng)
    s = engine.apply(s, Action("effect", data={"hero": "invincible", "to": "left"}, at=62.0), rng)
    assert s.phase == "crash"
    s = engine.apply(s, Action("crash_roll", data={"hero": "atom-eve", "faces": ["2"]}, at=64.0), rng)
    assert s.hero("atom-eve").damage == 2 and s.phase == "training"


def test_timer_actions_are_checked(engine):
    """The hero-time timer starts by itself; only pause, resume, add and expire reach it."""
    s = engine.setup({"heroes": ["invincible", "atom-eve"], "hero_time": 15}, random.Random(1))
    assert engine.timers(s)["hero_time"].duration == 900
    with pytest.raises(IllegalAction, match="starts by itself"):
        engine.apply(s, Action("timer.start", data={"name": "hero_time", "seconds": 5}, at=1.0),
                     random.Random(0))
    with pytest.raises(BadAction):
        engine.apply(s, Action("timer.pause", data={"name": "turn"}, at=1.0), random.Random(0))
    with pytest.raises(IllegalAction, match="Hero Phase"):
        engine.apply(s, Action("timer.resume", data={"name": "hero_time"}, at=1.0), random.Random(0))
    with pytest.raises(IllegalAction, match="not running"):
        engine.apply(s, Action("timer.expire", data={"name": "hero_time"}, at=1.0), random.Random(0))
    plain = engine.setup({"heroes": ["invincible", "atom-eve"]}, random.Random(1))
    assert engine.timers(plain) == {}
    for bad in (7, "10", {"seconds": 0}, {"minutes": 3}, True):
        with pytest.raises(SetupError):
            engine.setup({"heroes": ["invincible", "atom-eve"], "hero_time": bad}, random.Random(1))


def test_timer_add_refuses_non_finite_seconds(engine):
    s = engine.setup({"heroes": ["invincible", "atom-eve"], "hero_time": 5}, random.Random(1))
    for bad in (float("nan"), float("inf"), 4000, "60"):
        with pytest.raises(BadAction):
            engine.apply(s, Action("timer.add", data={"name": "hero_time", "seconds": bad}, at=1.0),
                         random.Random(0))


def test_heroes_resolve_powers_independently_in_hero_time(engine):
    """Hero-Time Variant: 'try playing in real time'; 'Heroes pull and play independently — you
    don't need to sync your pulls with teammates': one hero resolving a power does not hold up
    another, who may fill and resolve a power meanwhile. Without the variant the table resolves
    one power at a time ('each power must fully resolve before the next begins')."""
    for hero_time in (10, None):
        options = {"heroes": ["invincible", "atom-eve"], **({"hero_time": hero_time} if hero_time else {})}
        state = engine.setup(options, random.Random(1))
        state.track[0] = []
        rng = random.Random(2)
        s = engine.apply(state, Action("advance", at=0.0), rng)
        s.zone("left").danger = 7
        for hero, cubes in (("invincible", ["blue", "yellow", "yellow"]),
                            ("atom-eve", ["orange", "orange", "blue"])):
            s = engine.apply(s, Action("pull", data={"hero": hero, "cubes": cubes}, at=1.0), rng)
        s = engine.apply(s, Action("play", data={"hero": "invincible", "cube": "blue",
                                                 "power": "move"}, at=2.0), rng)
        assert s.resolving["name"] == "Move"
        eve = Action("play", data={"hero": "atom-eve", "cube": "orange", "power": "rescue"}, at=3.0)
        if hero_time is None:
            with pytest.raises(IllegalAction, match="fully resolve"):
                engine.apply(s, eve, rng)
            continue
        s = engine.apply(s, eve, rng)
        s = engine.apply(s, Action("play", data={"hero": "atom-eve", "cube": "orange",
                                                 "power": "rescue"}, at=4.0), rng)
        assert set(s.resolutions) == {"invincible", "atom-eve"}
        heroes = [r["hero"] for r in engine.expect(s)["resolutions"]]
        assert heroes == ["invincible", "atom-eve"]
        s = engine.apply(s, Action("effect", data={"hero": "atom-eve", "zone": "left"}, at=5.0), rng)
        assert (s.zone("left").safety, s.zone("left").danger) == (4, 6)
        assert list(s.resolutions) == ["invincible"]
        s = engine.apply(s, Action("effect", data={"hero": "invincible", "to": "left"}, at=6.0), rng)
        assert not s.resolutions and s.hero("invincible").zone == "left"


def test_hero_time_is_paused_and_added_to_only_in_its_hero_phase(tmp_path):
    """'set a 10-minute timer at the start of each Hero Phase': the timer is the Hero Phase's. A
    new game records hero_time_controls = "hero_phase": a pause or more time before the Hero
    Phase, after it, or once time ran out is refused (more time was lost with the next phase's
    fresh timer); a pause of a paused timer is refused rather than journaled as nothing."""
    clock = Clock()
    session = _session(tmp_path / "journal.sqlite3", clock)
    session.start("invincible", {"heroes": ["invincible", "atom-eve"], "hero_time": 10}, seed=7)
    assert session.view()["timer_controls"] == {"hero_time": {
        "open": [], "why": "hero time runs only during the Hero Phase", "next": 600}}
    for kind in ("timer.pause", "timer.add", "timer.resume"):
        with pytest.raises(IllegalAction, match="only during the Hero Phase"):
            session.submit(Action(kind, data={"name": "hero_time", "seconds": 60}))
    session.submit({"type": "advance"})
    assert session.view()["timer_controls"]["hero_time"]["open"] == ["pause", "add"]
    with pytest.raises(IllegalAction, match="running already"):
        session.submit(Action("timer.resume", data={"name": "hero_time"}))
    session.submit(Action("timer.pause", data={"name": "hero_time"}))
    assert session.view()["timer_controls"]["hero_time"]["open"] == ["resume", "add"]
    with pytest.raises(IllegalAction, match="paused already"):
        session.submit(Action("timer.pause", data={"name": "hero_time"}))
    session.submit(Action("timer.add", data={"name": "hero_time", "seconds": 60}))
    session.submit(Action("timer.resume", data={"name": "hero_time"}))
    clock.now += 661
    session.tick()                                   # time ran out: the phase ended
    view = session.view()
    assert view["timers"]["hero_time"]["expired"] and view["state"]["phase"] != "hero"
    assert view["timer_controls"]["hero_time"] == {         # the next Hero Phase: afresh
        "open": [], "why": "hero time has run out: the Hero Phase is over", "next": 600}
    for kind in ("timer.pause", "timer.add"):
        with pytest.raises(IllegalAction, match="run out"):
            session.submit(Action(kind, data={"name": "hero_time", "seconds": 60}))
    session.journal.close()


def test_the_next_rounds_advance_does_not_say_hero_time_has_run_out(tmp_path):
    """'set a 10-minute timer at the start of each Hero Phase': once round 1's time ran out,
    the phones and the Devices page (the table's Timer button) still said "hero time has run
    out: the Hero Phase is over" at round 2's advance, the next Hero Phase's 10 minutes not yet
    begun (a family play-through): the coming phase seemed to have no time. By then the reason
    is the phase's, as before any Hero Phase; the phase that ran out keeps saying so."""
    clock = Clock()
    session = _session(tmp_path / "journal.sqlite3", clock)
    session.start("invincible", {"heroes": ["invincible", "atom-eve"], "hero_time": 10}, seed=7)
    session.submit({"type": "advance"})
    clock.now += 601
    session.tick()
    ended = session.view()
    assert ended["timers"]["hero_time"]["expired"] and ended["state"]["phase"] == "training"
    assert "run out" in ended["timer_controls"]["hero_time"]["why"]
    for hero in ("invincible", "atom-eve"):
        session.submit({"type": "done", "data": {"hero": hero}})
    view = session.submit({"type": "reveal"})
    assert view["state"]["phase"] == "advance" and view["state"]["round"] == 2, view["expect"]
    assert view["timer_controls"] == {"hero_time": {
        "open": [], "why": "hero time runs only during the Hero Phase", "next": 600}}
    with pytest.raises(IllegalAction, match="only during the Hero Phase"):
        session.submit(Action("timer.pause", data={"name": "hero_time"}))
    session.journal.close()


def test_a_game_begun_before_the_reading_keeps_its_pauses_in_any_phase(engine):
    """A journal whose options lack hero_time_controls replays as it was played: a pause and more
    time in the Training Phase were accepted then (setup.HERO_TIME_CONTROLS)."""
    s = engine.setup({"heroes": ["invincible", "atom-eve"], "hero_time": 5}, random.Random(1))
    assert s.phase != "hero"
    s = engine.apply(s, Action("timer.pause", data={"name": "hero_time"}, at=1.0), random.Random(0))
    s = engine.apply(s, Action("timer.add", data={"name": "hero_time", "seconds": 30}, at=2.0),
                     random.Random(0))
    assert s.timer.duration == 330
    assert engine.timer_controls(s)["hero_time"]["open"] == []      # the screens offer neither
    for bad in ("sometimes", 1, None):
        with pytest.raises(SetupError, match="hero_time_controls"):
            engine.setup({"heroes": ["invincible", "atom-eve"], "hero_time": 5,
                          "hero_time_controls": bad}, random.Random(1))


@pytest.mark.parametrize("hero_time, said", [
    (10, "Hero time: 10 minutes on the clock."),
    ({"seconds": 40}, "Hero time: 40 seconds on the clock."),
    ({"seconds": 90}, "Hero time: 1 minute 30 seconds on the clock."),
])
def test_the_log_tells_a_custom_hero_time_in_minutes_and_seconds(tmp_path, hero_time, said):
    """A hero time set in seconds was logged as "Hero time: 0.666667 minutes on the clock." (40 s)
    on every screen's log (found playing the variant with a short timer)."""
    session = _session(tmp_path / "journal.sqlite3", Clock())
    session.start("invincible", {"heroes": ["invincible", "atom-eve"], "hero_time": hero_time},
                  seed=7)
    view = session.submit({"type": "advance"})
    assert said in view["state"]["log"], view["state"]["log"][-3:]
