"""Writers share fsyncs (companion/journal_commit.py), and nothing is answered or shown before
it is on disk.

To make the sharing happen every time rather than when the machine is busy, a sink (which the
committing thread calls once a change is on disk, before it lets go of the commit) holds the
first commit open until the other writers have queued behind it: a real SQLite file, real
threads, and the order they meet in fixed by the test, not by timing.
"""

import sqlite3
import threading
import time

import pytest

from companion.actions import Action
from companion.errors import Conflict, JournalError
from companion.games import Catalog
from companion.games.base import Game
from companion.journal import Journal
from companion.session import Session

ADD = Action("timer.add", data={"name": "t", "seconds": 1})


class Gate:
    """Holds the next change's commit open (in its sink) until released."""

    def __init__(self, session):
        self.armed, self.holding, self.release = False, threading.Event(), threading.Event()
        session.add_sink(self)

    def __call__(self, change):
        if self.armed:
            self.armed = False
            self.holding.set()
            assert self.release.wait(10), "never released"


def wait_for(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.002)


def on_disk(path):
    with sqlite3.connect(path) as db:
        return db.execute("SELECT MAX(seq) FROM entries").fetchone()[0]


@pytest.fixture
def table(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    session = Session(journal, Catalog())
    session.start("incredibles", {"players": ["dash", "violet"]}, seed=4)
    session.submit(Action("timer.start", data={"name": "t", "seconds": 600}))
    yield session, Gate(session), tmp_path / "j.sqlite3"
    journal.close()


def submit_in_thread(session, action, out, **kw):
    def run():
        try:
            out.append(session.submit(action, **kw))
        except Exception as exc:  # noqa: BLE001 - the test looks at what came back
            out.append(exc)
    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_writers_queued_behind_a_commit_share_the_next_and_wait_for_it(table):
    session, gate, path = table
    first = session.seq
    commits = session.journal._writes.commits
    gate.armed = True
    results = [[] for _ in range(4)]
    threads = [submit_in_thread(session, ADD, results[0])]
    assert gate.holding.wait(10)                     # the first is on disk, its commit held
    threads += [submit_in_thread(session, ADD, results[i]) for i in (1, 2, 3)]
    wait_for(lambda: session.journal.next_seq() == first + 5)   # the three queued behind it
    time.sleep(0.05)
    # queued, applied, but not on disk: not answered, not shown, not in the file
    assert [len(r) for r in results[1:]] == [0, 0, 0]
    assert session.seq == first + 1 == session.view()["seq"] == on_disk(path)
    gate.release.set()
    for thread in threads:
        thread.join(10)
    seqs = sorted(r[0]["seq"] for r in results)
    assert seqs == [first + 1, first + 2, first + 3, first + 4] == sorted(set(seqs))
    assert session.journal._writes.commits == commits + 2        # four writes, two fsyncs
    assert on_disk(path) == first + 4 == session.seq
    durations = [r[0]["timers"]["t"]["duration"] for r in results]
    assert sorted(durations) == [601.0, 602.0, 603.0, 604.0]     # each on top of the one before


def test_an_if_seq_waits_for_what_it_is_compared_with_then_conflicts(table):
    session, gate, _path = table
    seen = session.seq
    gate.armed = True
    a, b, c = [], [], []
    threads = [submit_in_thread(session, ADD, a)]
    assert gate.holding.wait(10)
    # a is on disk and shown; b is queued behind it, not on disk yet
    threads.append(submit_in_thread(session, ADD, b))
    wait_for(lambda: session.journal.next_seq() == seen + 3)
    # c saw a's view: its if_seq is only judged once b is on disk, and b changed the table
    threads.append(submit_in_thread(session, ADD, c, if_seq=seen + 1))
    time.sleep(0.05)
    assert c == []
    gate.release.set()
    for thread in threads:
        thread.join(10)
    assert isinstance(c[0], Conflict) and f"now at {seen + 2}" in str(c[0])
    assert session.submit(ADD, if_seq=seen + 2)["seq"] == seen + 3


def test_an_undo_of_an_action_still_waiting_for_its_fsync(table):
    session, gate, path = table
    before = session.view()
    gate.armed = True
    out = [[], [], []]
    threads = [submit_in_thread(session, ADD, out[0])]
    assert gate.holding.wait(10)
    threads.append(submit_in_thread(session, Action("roll", data={"face": "2"}), out[1]))
    wait_for(lambda: session.journal.next_seq() == before["seq"] + 3)
    threads.append(submit_in_thread(session, Action("undo"), out[2]))
    wait_for(lambda: session.journal.next_seq() == before["seq"] + 4)
    gate.release.set()
    for thread in threads:
        thread.join(10)
    assert out[1][0]["state"]["phase"] == "move" and out[2][0]["state"] == before["state"]
    session.journal.close()
    with Journal(path) as journal:                   # the journal says the same
        again = Session(journal, Catalog())
        assert again.view()["state"] == before["state"] and again.seq == before["seq"] + 3


def test_a_failed_commit_fails_every_action_after_the_last_good_one(table):
    session, gate, path = table
    db = session.journal._conn()
    good = session.view()
    big = Action("timer.start", data={"name": "big", "seconds": 60, "label": "x" * 12000})
    gate.armed = True
    out = [[], [], []]
    threads = [submit_in_thread(session, ADD, out[0])]
    assert gate.holding.wait(10)
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")  # the card is full: big needs new pages
    threads.append(submit_in_thread(session, big, out[1]))
    wait_for(lambda: session.journal.next_seq() == good["seq"] + 3)
    threads.append(submit_in_thread(session, ADD, out[2]))      # applied on top of big
    wait_for(lambda: session.journal.next_seq() == good["seq"] + 4)
    gate.release.set()
    for thread in threads:
        thread.join(10)
    assert out[0][0]["seq"] == good["seq"] + 1
    assert all(isinstance(r[0], JournalError) for r in out[1:]), out
    assert on_disk(path) == good["seq"] + 1 == session.view()["seq"]
    assert "big" not in session.view()["timers"]
    db.execute("PRAGMA max_page_count = 1073741823")        # room again
    view = session.submit(big)                       # read the journal again, then go on
    assert view["seq"] == good["seq"] + 2 and view["timers"]["t"]["duration"] == 601.0
    session.journal.close()
    with Journal(path) as journal:
        kept = Session(journal, Catalog()).view()["timers"]
        assert {n: (t["duration"], t["started_at"]) for n, t in kept.items()} == {
            n: (t["duration"], t["started_at"]) for n, t in view["timers"].items()}


class Counter(Game):
    """Won once counted to three."""

    name = title = "counter"
    actions = {"count": "count one more"}

    def setup(self, options, rng):
        return {"n": 0}

    def apply(self, state, action, rng):
        self.check_type(action)
        return {"n": state["n"] + 1}

    def expect(self, state):
        return {"actions": ["count"], "prompt": "count"}

    def outcome(self, state):
        return {"status": "won" if state["n"] >= 3 else "playing"}

    def to_json(self, state):
        return dict(state)


def test_the_games_row_is_written_only_when_the_result_changes(tmp_path):
    engine = Counter()
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = Session(journal, lambda name: engine)
        session.start("counter", {}, seed=1)
        updates = []
        journal._conn().set_trace_callback(
            lambda sql: updates.append(sql) if sql.startswith("UPDATE games") else None)
        session.submit(Action("timer.start", data={"seconds": 60}))   # playing: written once
        for _ in range(10):
            session.submit(Action("timer.add", data={"seconds": 1}))
        assert len(updates) == 1
        for _ in range(3):
            session.submit(Action("count"))          # won at the third
        assert len(updates) == 2 and journal.history()[0].result == {"status": "won"}
        session.submit(Action("undo"))                # playing again
        assert len(updates) == 3 and journal.history()[0].result == {"status": "playing"}
