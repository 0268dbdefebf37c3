"""Undo takes back the latest move and never turns back the clocks (companion/undo.py).

Invincible, Hero-Time Variant: "set a 10-minute timer at the start of each Hero Phase, and when it
runs out, the phase ends immediately." An audit at the table found two ways undo broke it:
- hero time paused, then Undo ("pause the hero time timer") set the timer running from where it
  was before the pause, long past its end: the Hero Phase ended at once;
- once hero time ran out, Undo offered only "the timer running out", and the clock sent the
  expiry again a second later: the move before it could never be taken back.
Through a real session on a real journal, and again after a restart from that journal."""

import threading
import time

import pytest

from companion.actions import Action
from companion.errors import IllegalAction
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session

HEROES = {"heroes": ["invincible", "atom-eve"], "hero_time": 10}


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def hero_phase_begun(path, clock):
    """A session on the journal at ``path``: Invincible with hero time, in its first Hero Phase."""
    session = Session(Journal(path), Catalog(), clock)
    session.start("invincible", HEROES, seed=3)
    session.submit(Action("advance"))                    # the Hero Phase: hero time starts
    return session


@pytest.fixture
def table(tmp_path):
    clock = Clock()
    session = hero_phase_begun(tmp_path / "journal.sqlite3", clock)
    yield session, clock, tmp_path / "journal.sqlite3"
    session.journal.close()


def restarted(session, clock, path):
    session.journal.close()
    return Session(Journal(path), Catalog(), clock)


def hero_time(view):
    return view["timers"]["hero_time"]


def test_undo_while_hero_time_is_paused_takes_back_the_move_and_keeps_the_pause(table):
    session, clock, path = table
    clock.now += 100
    pulled = session.submit(Action("pull", "invincible", {"hero": "invincible"}))
    clock.now += 20
    paused = session.submit(Action("timer.pause", data={"name": "hero_time"}))
    assert hero_time(paused)["remaining"] == 480.0
    assert paused["undo"]["action"]["type"] == "pull"         # what Undo says it takes back
    clock.now += 700                                         # a long talk, the timer paused
    view = session.submit(Action("undo"))
    assert view["undone"]["seq"] == pulled["seq"]
    assert view["expect"]["phase"] == "hero" and view["state"]["heroes"][0]["ready"] == []
    assert hero_time(view)["running"] is False and hero_time(view)["remaining"] == 480.0
    session.tick()                                           # the clock finds nothing run out
    assert session.seq == view["seq"] and not hero_time(session.view())["expired"]
    again = restarted(session, clock, path)
    assert again.view()["state"] == view["state"] and hero_time(again.view()) == hero_time(view)
    again.submit(Action("timer.resume", data={"name": "hero_time"}))
    assert hero_time(again.view())["remaining"] == 480.0 and hero_time(again.view())["running"]
    again.journal.close()


def test_undo_after_hero_time_ran_out_takes_back_the_move_before_and_the_phase_stays_ended(table):
    session, clock, path = table
    clock.now += 100
    pulled = session.submit(Action("pull", "invincible", {"hero": "invincible"}))
    clock.now += 501
    session.tick()                                           # "the phase ends immediately"
    over = session.view()
    assert hero_time(over)["expired"] and over["expect"]["phase"] != "hero"
    assert over["undo"]["seq"] == pulled["seq"]              # not "the timer running out"
    view = session.submit(Action("undo"))
    assert view["undone"]["seq"] == pulled["seq"]
    assert hero_time(view)["expired"] and view["expect"]["phase"] == over["expect"]["phase"]
    clock.now += 5
    session.tick()
    assert session.seq == view["seq"]                        # no expiry again, no buzzer loop
    assert view["undo"]["action"]["type"] == "advance"
    again = restarted(session, clock, path)
    assert again.view()["state"] == view["state"] and again.view()["undone"] == view["undone"]
    again.journal.close()


def test_undoing_the_done_that_ended_the_hero_phase_gives_back_its_time(table):
    """'set a 10-minute timer at the start of each Hero Phase, and when it runs out, the phase
    ends immediately.' A hero's Done ended the Hero Phase with 480 s left and hero time stood
    still through the Training Phase; Undo brings the Hero Phase back with those 480 s, not less
    the Training Phase's minutes (which here would end it again at the next tick, the cubes in
    the ready area dropped). After a restart too, and a second undo keeps it."""
    session, clock, path = table
    clock.now += 100
    session.submit(Action("pull", "atom-eve", {"hero": "atom-eve"}))
    session.submit(Action("done", "invincible", {"hero": "invincible"}))
    clock.now += 20
    ended = session.submit(Action("done", "atom-eve", {"hero": "atom-eve"}))
    assert ended["expect"]["phase"] == "training" and hero_time(ended)["remaining"] == 480.0
    clock.now += 700                                         # the table talks over training
    view = session.submit(Action("undo"))
    assert view["undone"]["action"]["type"] == "done" and view["expect"]["phase"] == "hero"
    assert hero_time(view)["running"] and hero_time(view)["remaining"] == 480.0
    assert len(view["state"]["heroes"][1]["ready"]) == 3     # Atom Eve's pull, still hers
    clock.now += 10
    session.tick()                                           # nothing has run out
    assert session.seq == view["seq"] and hero_time(session.view())["remaining"] == 470.0
    again = restarted(session, clock, path)
    assert again.view()["state"] == session.view()["state"]
    assert hero_time(again.view())["remaining"] == 470.0
    undone = again.submit(Action("undo"))                    # Invincible's done: time kept
    assert undone["undone"]["action"]["type"] == "done"
    assert hero_time(undone)["remaining"] == 470.0 and undone["expect"]["phase"] == "hero"
    again.journal.close()


def test_a_timer_step_the_undone_move_made_possible_goes_with_it(table):
    """Hero time ran out in the Hero Phase the undone advance began: taken back to the Training
    Phase before it, the expiry has nothing to end and is dropped (the undo entry says so, and a
    restart drops it too)."""
    session, clock, path = table
    clock.now += 601
    session.tick()
    assert hero_time(session.view())["expired"]
    view = session.submit(Action("undo"))                    # the advance
    assert view["undone"]["action"]["type"] == "advance"
    assert not hero_time(view)["expired"] and not hero_time(view)["running"]
    assert view["undo"] is None
    with pytest.raises(IllegalAction, match="nothing to undo"):
        session.submit(Action("undo"))
    (entry,) = [e for e in session.journal.entries(session.journal.current_game().id)
                if e.kind == "undo"]
    assert entry.payload["drops"] == [view["seq"] - 1]
    again = restarted(session, clock, path)
    assert again.view()["state"] == view["state"] and hero_time(again.view()) == hero_time(view)
    again.journal.close()


def test_an_older_journals_undo_of_a_timer_step_replays_as_it_was_played(tmp_path):
    """Journals written before: an undo always took back the top step, a timer's too, and named
    it (``undoes``); start-up takes back exactly that step."""
    clock = Clock()
    path = tmp_path / "journal.sqlite3"
    session = hero_phase_begun(path, clock)
    with session.journal as journal:
        clock.now += 30
        session.submit(Action("timer.pause", data={"name": "hero_time"}))
        pause_seq = journal.last_seq()
        journal.append(journal.current_game().id, "undo",
                       {"type": "undo", "undoes": pause_seq, "source": "api"},
                       clock())                              # as the old code wrote it
    with Journal(path) as journal:
        view = Session(journal, Catalog(), clock).view()
        assert hero_time(view)["running"] and view["undone"]["seq"] == pause_seq


def test_hero_time_that_ran_out_while_the_companion_was_off_is_told_on_every_screen(tmp_path):
    """A service started again long after a power cut (hero time ran out while it was off) ended
    the Hero Phase at its first tick, and the table was told only "Hero time is up" (found by an
    audit of hero time): the ticker says why, in every view (a page opened later too) until the
    table says it read it."""
    from companion import ticker
    from companion.backups import Backups

    clock = Clock()
    path = tmp_path / "journal.sqlite3"
    hero_phase_begun(path, clock).journal.close()
    clock.now += 900                                 # off for a quarter of an hour
    with Journal(path) as journal:
        session = Session(journal, Catalog(), clock)
        assert session.view()["expect"]["phase"] == "hero"
        stopping = threading.Event()
        thread = threading.Thread(target=ticker.run,
                                  args=(session, Backups(tmp_path / "backups", journal), stopping))
        thread.start()
        try:
            end = time.monotonic() + 10
            while not session.view()["notices"] and time.monotonic() < end:
                time.sleep(0.05)
        finally:
            stopping.set()
            thread.join(5)
        (told,) = session.view()["notices"]
        assert told["kind"] == "timer", told
        assert told["text"].startswith("Hero time ran out at "), told
        assert "while the companion was off" in told["text"]
        assert hero_time(session.view())["expired"] and session.view()["expect"]["phase"] != "hero"
        session.set_notices([], read=True)               # "Understood"
        assert session.view()["notices"] == []


def _rewrite(path, seq, payload):
    """Entry ``seq``'s payload replaced by hand, with a checksum that vouches for it."""
    import json
    import sqlite3

    from companion.journal_rows import entry_crc

    text = payload if isinstance(payload, str) else json.dumps(payload)
    with sqlite3.connect(path) as db:
        gid, kind, at = db.execute("SELECT game_id, kind, at FROM entries WHERE seq = ?",
                                   (seq,)).fetchone()
        db.execute("UPDATE entries SET payload = ?, crc = ? WHERE seq = ?",
                   (text, entry_crc(seq, gid, kind, text, at), seq))
    db.close()


@pytest.mark.parametrize("edit, said", [
    (lambda s: {"undoes": str(s["pull"])}, "not as entry numbers"),
    (lambda s: {"undoes": s["pull"], "drops": s["pause"]}, "not as entry numbers"),
    (lambda s: {"undoes": 99999}, "says it took back entry 99999, but the latest move"),
    (lambda s: {"undoes": s["advance"]}, "but the latest move standing then was entry"),
    (lambda s: {"undoes": s["pull"], "drops": [s["advance"]]}, "is not a timer's step above"),
    (lambda s: {"undoes": s["pull"], "drops": [99998]}, "drops entry 99998"),
    # not an object: taken for the oldest kind of undo, it took back the pause, a timer's step
    (lambda s: "[1, 2]", "is not an undo entry"),
    (lambda s: "not json", "is not an undo entry"),
])
def test_an_undo_entry_that_does_not_match_the_journal_holds_the_game_back_naming_it(
        tmp_path, edit, said):
    """A hand-edited undo entry (its checksum made to match) stopped start-up with a Python
    traceback (a string where a number was: "'<' not supported"), or was obeyed or ignored in
    silence (a move deleted, an undo forgotten). Now the service starts, the game is held back
    and every screen names the undo entry and what is wrong with it."""
    clock = Clock()
    path = tmp_path / "journal.sqlite3"
    session = hero_phase_begun(path, clock)
    seqs = {"advance": session.view()["seq"]}
    seqs["pull"] = session.submit(Action("pull", data={"hero": "invincible",
                                                       "cubes": ["yellow", "yellow", "orange"]}))["seq"]
    seqs["pause"] = session.submit(Action("timer.pause", data={"name": "hero_time"}))["seq"]
    undo_seq = session.submit(Action("undo"))["seq"]
    session.journal.close()
    made = edit(seqs)
    _rewrite(path, undo_seq, made if isinstance(made, str) else {"type": "undo", "source": "api", **made})
    again = Session(Journal(path), Catalog(), clock)
    view = again.view()
    assert view["game"] is None
    held = [n for n in view["notices"] if n["kind"] == "held"]
    assert len(held) == 1 and f"undo entry {undo_seq} " in held[0]["text"], view["notices"]
    assert said in held[0]["text"] and "restore a backup" in held[0]["text"], held[0]["text"]
    again.journal.close()


def test_the_undo_entry_as_written_replays(tmp_path):
    clock = Clock()
    path = tmp_path / "journal.sqlite3"
    session = hero_phase_begun(path, clock)
    session.submit(Action("pull", data={"hero": "invincible", "cubes": ["yellow", "yellow", "orange"]}))
    session.submit(Action("timer.pause", data={"name": "hero_time"}))
    before = session.submit(Action("undo"))
    session.journal.close()
    again = Session(Journal(path), Catalog(), clock).view()
    assert again["state"] == before["state"] and again["undone"] == before["undone"]


def test_no_notice_tells_of_an_end_an_undo_took_back_before_the_first_tick(tmp_path):
    """Started long after a power cut, the ticker works out which timers ran out while it was
    off before its first tick; an undo in that moment took back the advance that began the Hero
    Phase, and every screen was still told 'Hero time ran out ...; its end is applied now' with
    no end applied (a hostile-input audit). Only a timer that did run out is told of."""
    from companion import ticker

    clock = Clock()
    path = tmp_path / "journal.sqlite3"
    hero_phase_begun(path, clock).journal.close()
    clock.now += 900
    with Journal(path) as journal:
        session = Session(journal, Catalog(), clock)
        late = ticker.ran_out_while_off(session)
        assert set(late) == {"hero_time"}
        session.submit(Action("undo"))                   # the advance: no Hero Phase, no timer running
        session.tick()
        ticker.tell(session, late)
        view = session.view()
        assert view["expect"]["phase"] != "hero" and not view["timers"]["hero_time"]["expired"]
        assert not [n for n in view["notices"] if n.get("kind") == "timer"]


def test_a_long_run_of_timer_steps_is_not_looked_through_again_for_each_one(table, monkeypatch):
    """What Undo would take back is the latest move below the timer steps. A table whose timer
    steps pile up (time added to a turn timer again and again, hero time paused and resumed) had
    every one of them read again for each new one: 1,200 timer steps cost 2.4 ms of CPU a step,
    growing without end. Counted (JSON reads of a step), not timed."""
    from companion import undo

    session, clock, path = table
    pulled = session.submit(Action("pull", "invincible", {"hero": "invincible"}))
    session.submit(Action("timer.start", data={"name": "turn", "seconds": 3600}))
    reads = []
    real = undo.is_timer
    monkeypatch.setattr(undo, "is_timer", lambda step: reads.append(step[0]) or real(step))
    for _ in range(1000):
        view = session.submit(Action("timer.add", data={"name": "turn", "seconds": 1}))
    assert view["undo"]["seq"] == pulled["seq"]
    assert len(reads) <= 10, f"{len(reads)} steps read again for 1,000 timer steps"
    session = restarted(session, clock, path)
    reads.clear()
    for _ in range(100):
        view = session.submit(Action("timer.add", data={"name": "turn", "seconds": 1}))
    assert view["undo"]["seq"] == pulled["seq"]
    assert len(reads) <= 1200, f"{len(reads)} steps read after a restart for 100 timer steps"
    undone = session.submit(Action("undo"))
    assert undone["undone"]["seq"] == pulled["seq"]
    assert undone["undo"]["action"]["type"] == "advance"
    assert session.submit(Action("timer.add", data={"name": "turn", "seconds": 1}))["undo"] \
        == undone["undo"]
    session.journal.close()


def test_start_up_reads_a_run_of_timer_steps_once_whatever_the_undos_above_it(tmp_path,
                                                                             monkeypatch):
    """Start-up takes back what each undo entry names. Each undo looked for the latest move by
    reading every timer step above it again: a long game ending in a run of a turn timer's time
    added, undos among it, took 8.5 s to start (a journal of older code, whose undos named the
    top step, a timer's) where 0.3 s is the line. Counted (JSON reads of a step), not timed; the
    table after the restart is the table before it."""
    import random

    from companion import undo

    clock = Clock()
    path = tmp_path / "journal.sqlite3"
    session = Session(Journal(path), Catalog(), clock)
    engine = session.catalog("invincible")
    rng = random.Random(7)
    session.start("invincible", HEROES, seed=7)
    moves = 0
    while moves < 30:
        clock.now += 1
        action = engine.sample_action(session._top().game, rng)
        clock.now = action.at if action.at is not None else clock.now
        session.submit(Action(action.type, action.player, action.data, "test"))
        moves += action.type not in ("timer.expire",)
    session.submit(Action("timer.start", data={"name": "turn", "seconds": 3600}))
    added = [session.submit(Action("timer.add", data={"name": "turn", "seconds": 1}))["seq"]
             for _ in range(200)]
    for _ in range(20):                         # undos under the timer run: the moves below it
        session.submit(Action("undo"))
    game_id = session.journal.current_game().id
    for top in reversed(added[100:]):           # an older companion's undos: the top step
        session.journal.append(game_id, "undo", {"type": "undo", "undoes": top}, clock.now)
    session.journal.close()
    expected = Session(Journal(path), Catalog(), clock)
    before = expected.view()
    expected.journal.close()

    reads = []
    real = undo.is_timer
    monkeypatch.setattr(undo, "is_timer", lambda step: reads.append(step[0]) or real(step))
    again = Session(Journal(path), Catalog(), clock)
    after = again.view()
    again.journal.close()
    assert after["state"] == before["state"] and after["undo"] == before["undo"]
    assert after["seq"] == before["seq"] and len(before["state"]["heroes"]) == 2
    assert len(reads) <= 450, f"{len(reads)} steps read at start-up (of some 250 on the stack)"
