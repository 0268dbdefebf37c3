"""Rolling backups through SQLite's backup API: at a game's end, every few minutes while the
journal changes, the newest few kept; a failure is reported, never raised into the session."""

import threading

import pytest

from companion.actions import Action
from companion.backups import Backups, listing, restore
from companion.errors import JournalError
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session

PLAYERS = {"players": ["dash"], "starting_problems": ["A", "B", "C"]}


class Clock:
    def __init__(self):
        self.now = 1_800_000_000.0

    def __call__(self):
        return self.now


@pytest.fixture
def table(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3")
    session = Session(journal, Catalog())
    clock = Clock()
    backups = Backups(tmp_path / "backups", journal, every=300, keep=3, clock=clock)
    taken = threading.Event()
    real_take = backups.take

    def take(why):
        out = real_take(why)
        taken.set()
        return out

    backups.take = take
    session.add_listener(backups.on_view)
    yield session, backups, clock, taken
    journal.close()


def test_a_game_put_away_for_another_is_backed_up(table):
    session, backups, clock, taken = table
    session.start("incredibles", PLAYERS, seed=1)
    session.submit(Action("roll", data={"face": "1"}))
    assert not taken.wait(0.3)                        # a move is no game's end
    session.close_game()
    assert taken.wait(5)
    newest = backups.newest()
    assert newest.seq == session.seq
    with Journal(newest.path) as copy:
        assert copy.check(full=True).ok and copy.last_seq() == session.seq


def test_every_few_minutes_while_the_journal_changes(table):
    session, backups, clock, _taken = table
    session.start("incredibles", PLAYERS, seed=1)
    backups.tick()
    assert backups.newest() is None                   # not yet five minutes
    clock.now += 301
    backups.tick()
    first = backups.newest()
    assert first is not None and first.seq == session.seq
    clock.now += 301
    backups.tick()                                    # nothing changed: no new backup
    assert backups.listing() == [first]
    for k in range(4):
        session.submit(Action("timer.start", data={"name": f"t{k}", "seconds": 60}))
        clock.now += 301
        backups.tick()
    assert [b.seq for b in backups.listing()] == [session.seq, session.seq - 1, session.seq - 2]


def test_the_partial_copies_of_backups_a_stop_cut_short_are_cleared(table):
    """A kill while a backup was written left journal-...sqlite3.tmp and its -journal in the
    backups folder, and nothing ever removed them: a small card filled slowly (found by a
    durability audit). The next backup clears them; other files are left alone."""
    session, backups, clock, _taken = table
    session.start("incredibles", PLAYERS, seed=1)
    backups.folder.mkdir()
    partial = ["journal-00000003-20270115-080000.sqlite3.tmp",
               "journal-00000003-20270115-080000.sqlite3.tmp-journal"]
    for name in [*partial, "notes.txt"]:
        (backups.folder / name).write_bytes(b"x" * 4096)
    taken = backups.take("a test")
    assert taken is not None
    assert sorted(p.name for p in backups.folder.iterdir()) == sorted([taken.path.name, "notes.txt"])


def test_a_failing_backup_is_reported_not_raised(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3")
    (tmp_path / "backups").write_text("a file where the folder should be")
    backups = Backups(tmp_path / "backups", journal)
    assert backups.take("test") is None and "the backup failed" in backups.last_error
    journal.close()


def test_restore_refuses_a_damaged_backup_and_keeps_the_journal(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3")
    session = Session(journal, Catalog())
    session.start("incredibles", PLAYERS, seed=1)
    backups = Backups(tmp_path / "backups", journal)
    taken = backups.take("test")
    journal.close()
    raw = bytearray(taken.path.read_bytes())
    at = raw.find(b'"game.start"')
    raw[at + 3] ^= 0x01
    taken.path.write_bytes(bytes(raw))
    with pytest.raises(JournalError, match="damaged"):
        restore(tmp_path / "journal.sqlite3", tmp_path / "backups")
    assert (tmp_path / "journal.sqlite3").exists() and not (tmp_path / "replaced").exists()
    assert [b.path for b in listing(tmp_path / "backups")] == [taken.path]
