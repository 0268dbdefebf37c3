"""The SQLite journal: durable settings, history kept, foreign and damaged files refused."""

import sqlite3

import pytest

from companion.errors import JournalDamage, JournalError
from companion.journal import APPLICATION_ID, Journal
from companion.journal_schema import SCHEMA_VERSION


def test_wal_and_full_sync_with_our_application_id(tmp_path):
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        db = journal._conn()
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_entries_and_history_survive_reopening(tmp_path):
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        first = journal.start_game("incredibles", {"players": ["dash"]}, 5, at=1.0)
        s1 = journal.append(first.id, "action", {"type": "roll"}, at=2.0)
        s2 = journal.append(first.id, "undo", {"type": "undo", "undoes": s1}, at=3.0,
                            result={"status": "playing"})
        second = journal.start_game("incredibles", {"players": ["violet"]}, 6, at=4.0)
    with Journal(path) as journal:
        assert journal.current_game().id == second.id
        assert [e.seq for e in journal.entries(first.id)] == [s1, s2]
        assert [g.id for g in journal.history()] == [second.id, first.id]
        assert journal.game(first.id).closed_at == 4.0       # closed, not deleted
        assert journal.last_seq() > s2


def test_a_garbage_file_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"\x00garbage" * 500)
    with pytest.raises(JournalError, match="not a usable companion journal"):
        Journal(path)
    assert path.read_bytes() == b"\x00garbage" * 500


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "j.sqlite3"
    Journal(path).close()
    with sqlite3.connect(path) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(JournalError, match="newer companion"):
        Journal(path)
    with sqlite3.connect(path) as raw:      # a flipped bit, not a companion from the future
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION | 1 << 20}")
    with pytest.raises(JournalDamage, match="header is damaged"):
        Journal(path)


def test_a_damaged_entry_names_its_seq(tmp_path):
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        game = journal.start_game("incredibles", {}, 1, at=1.0)
        seq = journal.append(game.id, "action", {"type": "roll"}, at=2.0)
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE entries SET payload = '{oops' WHERE seq = ?", (seq,))
    with Journal(path) as journal, pytest.raises(JournalError, match=f"entry {seq}"):
        journal.entries(game.id)


def test_backup_is_a_consistent_copy(tmp_path):
    with Journal(tmp_path / "j.sqlite3") as journal:
        game = journal.start_game("incredibles", {}, 1, at=1.0)
        journal.append(game.id, "action", {"type": "roll"}, at=2.0)
        journal.backup(tmp_path / "copy.sqlite3")
    with Journal(tmp_path / "copy.sqlite3") as copy:
        assert len(copy.entries(game.id)) == 1


def test_close_twice_and_repr(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    assert "open" in repr(journal)
    journal.close()
    journal.close()
    assert "closed" in repr(journal)
    with pytest.raises(JournalError, match="closed"):
        journal.last_seq()
