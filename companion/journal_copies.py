"""The copies start-up recovery reads: every intact row each one holds, the longest intact prefix
taken game by game from whichever copy holds each entry, and that prefix written as a fresh
journal (companion/journal_recovery.py says when and why).
"""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from companion import journal_wal
from companion.errors import JournalError
from companion.journal import Journal
from companion.journal_rows import ENTRY_ROWS, GAME_ROWS, entry_crc, game_crc, read_entry, read_game

log = logging.getLogger(__name__)


@dataclass
class Copy:
    """The intact rows one copy of the journal holds."""

    label: str
    games: dict[int, tuple] = field(default_factory=dict)      # id -> raw row (texts decoded)
    entries: dict[int, tuple] = field(default_factory=dict)    # seq -> raw row
    seen: int = 0
    unread: bool = False       # not readable as SQLite at all: what it held cannot be counted



def scratch_copy(aside: Path, name: str, folder: Path, wal_fix: bool = False) -> Path:
    folder.mkdir()
    db = folder / name
    if (aside / name).exists():
        shutil.copyfile(aside / name, db)
    wal = aside / (name + "-wal")
    if wal.exists():
        if wal_fix:
            journal_wal.repair(wal, Path(str(db) + "-wal"))
        else:
            shutil.copyfile(wal, Path(str(db) + "-wal"))
    return db


def read_copy(path: Path, label: str) -> Copy:
    """Every intact game record and entry one file holds, as far as it can be read."""
    copy = Copy(label)
    if not path.exists():
        return copy
    try:
        db = sqlite3.connect(path)
    except sqlite3.DatabaseError:
        return copy
    try:
        for row in db.execute(GAME_ROWS + " ORDER BY id"):
            try:
                record = read_game(row)
            except ValueError:
                continue
            copy.games[record.id] = (record.id, record.game, row[2].decode(), record.seed,
                                     record.started_at, record.start_seq, record.closed_at,
                                     row[7].decode() if row[7] is not None else None)
        rows = 0
        try:
            for row in db.execute(ENTRY_ROWS + " ORDER BY seq"):
                rows += 1
                _take(copy, row, rows)
        except sqlite3.DatabaseError as exc:
            # the scan stops at the first damaged page; the rows on the pages past it can still
            # be read one by one, and the numbering says how far the journal went
            log.info("recovery: %s readable only in part (%s)", label, exc)
            _read_one_by_one(db, copy)
    except sqlite3.DatabaseError as exc:
        log.info("recovery: %s readable only in part (%s)", label, exc)
        copy.unread = not copy.games and not copy.entries
    finally:
        db.close()
    return copy


def _take(copy: Copy, row: tuple, rows: int) -> None:
    try:
        entry = read_entry(row)
    except ValueError:
        # a damaged row still says how far the journal went, unless its number is what the
        # damage hit
        if isinstance(row[0], int) and row[0] <= max(copy.entries, default=0) + rows:
            copy.seen = max(copy.seen, row[0])
        return
    copy.seen = max(copy.seen, entry.seq)
    copy.entries[entry.seq] = (entry.seq, entry.game_id, entry.kind, row[3].decode(), entry.at)


MAX_ONE_BY_ONE = 200_000     # a journal's entries read singly after a damaged page, at most


def _read_one_by_one(db: sqlite3.Connection, copy: Copy) -> None:
    """After a scan stopped by damage: the last number the journal gave out (AUTOINCREMENT's
    record of it, else the index's largest), then each entry not yet read, alone."""
    last = copy.seen
    for query in ("SELECT seq FROM sqlite_sequence WHERE name = 'entries'",
                  "SELECT MAX(seq) FROM entries"):
        try:
            found = db.execute(query).fetchone()
        except sqlite3.DatabaseError:
            continue
        if found and isinstance(found[0], int) and 0 < found[0] <= copy.seen + MAX_ONE_BY_ONE:
            last = max(last, found[0])
    copy.seen = last
    for seq in range(1, last + 1):
        if seq in copy.entries:
            continue
        try:
            row = db.execute(ENTRY_ROWS + " WHERE seq = ?", (seq,)).fetchone()
        except sqlite3.DatabaseError:
            continue
        if row is not None:
            _take(copy, row, seq)


def agrees(primary: Copy, other: Copy) -> bool:
    """A backup belongs to this journal when the entries both hold intact are the same."""
    return all(primary.entries[s] == row for s, row in other.entries.items() if s in primary.entries)


def prefix(copies: list[Copy], first_bad: int | None) -> tuple[dict, dict, set[str]]:
    """Game by game (each replays from its own start), the longest run of entries from the
    game's start, each from the first copy that holds it intact; a game whose record or start
    entry no copy holds intact is left out. ``first_bad`` (an entry the rules refused) ends
    its game's run."""
    records: dict[int, tuple] = {}
    for copy in copies:
        for gid, row in copy.games.items():
            records.setdefault(gid, row)
    games: dict[int, tuple] = {}
    entries: dict[int, tuple] = {}
    used: set[str] = set()
    for gid in sorted(records):
        seq = records[gid][5]
        while seq != first_bad:
            found = next(((c, c.entries[seq]) for c in copies
                          if seq in c.entries and c.entries[seq][1] == gid), None)
            if found is None:
                break
            copy, row = found
            if seq == records[gid][5] and json.loads(row[3]).get("type") != "game.start":
                break
            entries[seq] = row
            used.add(copy.label)
            seq += 1
        if seq > records[gid][5]:
            games[gid] = records[gid]
    return games, entries, used


def runs(numbers: set[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for n in sorted(numbers):
        if out and out[-1][1] == n - 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return out


def write_fresh(tmp: Path, games: dict[int, tuple], entries: dict[int, tuple]) -> None:
    """The kept prefix as a fresh journal (every row with its CRC, legacy rows too)."""
    for suffix in ("", "-wal", "-shm"):
        Path(str(tmp) + suffix).unlink(missing_ok=True)
    with Journal(tmp) as fresh:
        db = fresh._conn()
        db.execute("BEGIN IMMEDIATE")
        order = sorted(games)
        for i, gid in enumerate(order):
            _, game, options, seed, started_at, start_seq, closed_at, result = games[gid]
            last = i == len(order) - 1
            if last:
                end = max(s for s in entries if entries[s][1] == gid)
                closed = json.loads(entries[end][3]).get("type") == "game.close"
                closed_at = (closed_at or entries[end][4]) if closed else None
                if not closed:
                    result = None        # the game's outcome is the session's to work out again
            else:
                closed_at = closed_at or games[order[i + 1]][4]
            db.execute("INSERT INTO games (id, game, options, seed, started_at, start_seq, "
                       "closed_at, result, crc) VALUES (?,?,?,?,?,?,?,?,?)",
                       (gid, game, options, seed, started_at, start_seq, closed_at, result,
                        game_crc(gid, game, options, seed, started_at, start_seq)))
        for seq in sorted(entries):
            _, gid, kind, payload, at = entries[seq]
            db.execute("INSERT INTO entries (seq, game_id, kind, payload, at, crc) VALUES (?,?,?,?,?,?)",
                       (seq, gid, kind, payload, at, entry_crc(seq, gid, kind, payload, at)))
        db.execute("COMMIT")
        if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise JournalError(f"{tmp}: the rebuilt journal does not check out")
