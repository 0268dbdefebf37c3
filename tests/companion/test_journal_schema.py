"""The entries are read by their number alone (a game's entries are a range of seq), so schema 3
keeps no index of entries by game: one b-tree less written in every commit. A journal of schema
2 (the golden ones, which have that index) loses it when migrated, and every query the journal
makes on its entries still finds them by the primary key, never by a scan of the table."""

import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.journal_rows import ENTRY_ROWS
from companion.journal_schema import SCHEMA_VERSION

# a journal of schema 2 (the Incredibles one: the Invincible journals were re-recorded in schema 3)
GOLDEN = Path(__file__).with_name("golden") / "incredibles.journal.sqlite3"
# every query of companion/journal*.py on the entries table (grep "FROM entries")
QUERIES = [ENTRY_ROWS + " WHERE seq >= ? AND seq < COALESCE("
           "(SELECT MIN(start_seq) FROM games WHERE id > ?), 1 << 62) ORDER BY seq",
           "SELECT MAX(seq) FROM entries", "SELECT crc FROM entries WHERE seq = ?"]


def indexes(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        return [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index' "
                                         "AND name NOT LIKE 'sqlite_autoindex%'")]


@pytest.mark.parametrize("made", ["fresh", "migrated from schema 2"])
def test_no_index_of_entries_by_game_and_no_scan_of_the_entries(tmp_path, made):
    path = tmp_path / "journal.sqlite3"
    if made != "fresh":
        shutil.copy(GOLDEN, path)
        assert "entries_by_game" in indexes(path)     # what the older schema had
    with Journal(path) as journal:
        if made != "fresh":
            record = journal.current_game() or journal.history(1)[0]
            assert len(journal.entries(record.id)) > 5      # still read, game by game
    assert indexes(path) == []
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        for query in QUERIES:
            plan = " / ".join(r[3] for r in db.execute("EXPLAIN QUERY PLAN " + query,
                                                       (1, 1)[:query.count("?")]))
            assert "SCAN entries" not in plan, (query, plan)
            assert "SEARCH entries" in plan, (query, plan)


def test_every_page_is_read_at_start_only_after_an_unclean_stop(tmp_path, monkeypatch):
    """Start-up after a clean stop reads no page it does not need: SQLite's ``quick_check`` (the
    whole file, from the SD card on a Pi) runs only where a write-ahead log says the last stop
    was not clean, or when asked for."""
    from companion import journal_schema
    asked, prepare = [], journal_schema.prepare

    def recorded(db, path, check):
        asked.append(check)
        prepare(db, path, check)
    monkeypatch.setattr(journal_schema, "prepare", recorded)
    clean, crashed = tmp_path / "clean.sqlite3", tmp_path / "crashed" / "journal.sqlite3"
    crashed.parent.mkdir()
    with Journal(clean) as journal:
        journal.start_game("incredibles", {"players": ["dash"]}, 1, 1.0)
        # a copy of the file and its log while it is open: what a power cut leaves
        shutil.copy(clean, crashed)
        shutil.copy(str(clean) + "-wal", str(crashed) + "-wal")
    assert not Path(str(clean) + "-wal").exists()
    Journal(clean).close()
    Journal(crashed).close()
    Journal(clean, check=True).close()
    assert asked == [False, False, True, True]
