"""The durable journal: every game and every action, in SQLite, on disk before it is acknowledged.

WAL mode with ``synchronous=FULL`` and one transaction per entry: with NORMAL a committed
transaction can roll back after a power loss. History is never rewritten: undo is an entry too.

Damage is looked for where it would otherwise pass unseen. Each entry (and each game's record)
carries a CRC-32 of what it says (companion/journal_rows.py reads each row back, or refuses it
as damaged); a game's entries must follow each other without a gap. Reading raises
``JournalDamage`` naming the first bad entry, and start-up recovers the intact prefix
(companion/journal_recovery.py). Opening also reads the write-ahead log left by an unclean
shutdown (companion/journal_wal.py): committed transactions that SQLite would silently drop
because a frame before them is damaged are damage as well.

What is checked when: after a clean stop (no write-ahead log beside the file) opening reads only
the header, and the session reads and checks what it will trust (the games' records, the game
in progress's entries, the snapshot it starts from); after an unclean stop SQLite's
``quick_check`` reads every page and start-up reads every entry of every game. ``check()``
looks at everything, on request (`companion journal check`, `companion doctor`).

Writers share fsyncs (companion/journal_commit.py); the ``games`` row is written only when the
game's result changes.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path
from typing import Any, Callable, Iterator

from companion import journal_health, journal_schema, journal_wal
from companion.errors import JournalDamage, JournalError
from companion.journal_commit import GroupCommit, Write
from companion.journal_rows import (ENTRY_ROWS, GAME_ROWS, KINDS, MARKERS, SNAPSHOT_ROWS, Entry,
                                    GameRecord, Health, Snapshot, encode, entry_text, game_crc,
                                    insert_entry, insert_snapshot, read_entry, read_game,
                                    read_snapshot, transaction)
from companion.journal_schema import APPLICATION_ID

__all__ = ["APPLICATION_ID", "KEEP", "MARKERS", "Entry", "GameRecord", "Health", "Journal",
           "Snapshot"]
log = logging.getLogger(__name__)
KEEP = object()     # append's result: the game's row stays as it is


class Journal:
    """An append-only log of games and their entries in one SQLite file (or ``:memory:``).

    ``check``: read every page when opening (None: only after an unclean stop)."""

    def __init__(self, path: str | Path, check: bool | None = None):
        self.path = str(path)
        self._lock = threading.Lock()          # the connection: one statement or transaction
        self._db: sqlite3.Connection | None = None
        self.wal: journal_wal.WalScan | None = None   # what the log of an unclean stop held
        try:
            if self.path != ":memory:":
                _not_a_folder(self.path)
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                self.wal = journal_wal.scan(self.path + "-wal")
                if self.wal is not None and self.wal.damaged:
                    raise JournalDamage(f"{self.path}: {self.wal.describe()}")
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            journal_schema.prepare(self._db, self.path,
                                   self.wal is not None if check is None else check)
            self._writes = GroupCommit(self._commit, self.last_seq())
        except sqlite3.DatabaseError as exc:
            self.close()
            raise JournalDamage(f"{self.path} is not a usable companion journal ({exc})") from exc
        except Exception:
            self.close()
            raise

    # -- writing: queued, then committed together (companion/journal_commit.py) ----------------

    @property
    def on_durable(self) -> Callable[[list[Any]], None]:
        """Called with the tokens of each committed batch, in order, before its writers return."""
        return self._writes.on_durable

    @on_durable.setter
    def on_durable(self, callback: Callable[[list[Any]], None]) -> None:
        self._writes.on_durable = callback

    def start_game(self, game: str, options: dict[str, Any], seed: int, at: float) -> GameRecord:
        """Close any open game and open a new one; returns its record."""
        options_text = encode(options, "the game's options")
        start = encode({"type": "game.start", "source": "session"}, "the entry")

        def run(db: sqlite3.Connection, seq: int) -> int:
            db.execute("UPDATE games SET closed_at = ? WHERE closed_at IS NULL", (at,))
            gid = (db.execute("SELECT MAX(id) FROM games").fetchone()[0] or 0) + 1
            db.execute(
                "INSERT INTO games (id, game, options, seed, started_at, start_seq, crc) "
                "VALUES (?,?,?,?,?,?,?)",
                (gid, game, options_text, seed, at, seq,
                 game_crc(gid, game, options_text, seed, at, seq)),
            )
            # The start takes a sequence number of its own, so every client sees the change.
            insert_entry(db, seq, gid, "action", start, at)
            return gid

        write = self._writes.add(run)
        self.sync(write.seq)
        return self.game(write.result)

    def append(self, game_id: int, kind: str, payload: dict[str, Any], at: float,
               result: Any = KEEP, snapshot: tuple[int, str, str] | None = None) -> int:
        """Append one entry and return its seq once it is on disk (see ``queue``)."""
        seq, _text = self.queue(game_id, kind, payload, at, result=result, snapshot=snapshot)
        self.sync(seq)
        return seq

    def queue(self, game_id: int, kind: str, payload: dict[str, Any], at: float, *,
              result: Any = KEEP, snapshot: tuple[int, str, str] | None = None,
              token: Any = None) -> tuple[int, str]:
        """Queue one entry; returns its seq and its text at once. It is on disk once
        ``sync(seq)`` returns. ``result``: the game's outcome to record now (KEEP: unchanged);
        ``snapshot``: (depth, made by, body) of the table after this entry; ``token`` goes to
        ``on_durable``."""
        if kind not in KINDS:
            raise ValueError(f"unknown journal entry kind {kind!r}")
        text = encode(payload, "the entry")
        result_text = (KEEP if result is KEEP else
                       None if result is None else encode(result, "the game's result"))

        def run(db: sqlite3.Connection, seq: int) -> None:
            crc = insert_entry(db, seq, game_id, kind, text, at)
            if result_text is not KEEP:
                db.execute("UPDATE games SET result = ? WHERE id = ?", (result_text, game_id))
            if snapshot is not None:
                insert_snapshot(db, seq, game_id, *snapshot, crc)

        return self._writes.add(run, token).seq, text

    def next_seq(self) -> int:
        """The seq the next queued entry gets."""
        return self._writes.queued_last + 1

    def sync(self, seq: int) -> None:
        """Return once entry ``seq`` is on disk; JournalError when its commit failed (then
        nothing more is taken until ``reset_writes``)."""
        self._writes.wait(seq)

    def flush(self) -> None:
        self._writes.flush()

    @property
    def broken(self) -> bool:
        """A commit failed: what was queued after the last good one is not in the journal."""
        return self._writes.broken

    def reset_writes(self) -> None:
        """Take writes again after a failed commit, numbered on from the journal's last entry."""
        self._writes.reset(self.last_seq())

    def close_game(self, game_id: int, at: float) -> int:
        """Close (abandon or put away) a game; it stays in the history. Returns the new seq."""
        close = encode({"type": "game.close", "source": "session"}, "the entry")

        def run(db: sqlite3.Connection, seq: int) -> None:
            db.execute("UPDATE games SET closed_at = ? WHERE id = ?", (at, game_id))
            insert_entry(db, seq, game_id, "action", close, at)

        write = self._writes.add(run)
        self.sync(write.seq)
        return write.seq

    def save_snapshot(self, seq: int, game_id: int, depth: int, made_by: str, body: str) -> None:
        """A snapshot after an entry already on disk (start-up keeps what its replay made)."""
        with self._lock:
            db = self._conn()
            crc = db.execute("SELECT crc FROM entries WHERE seq = ?", (seq,)).fetchone()
            if crc is None or crc[0] is None:
                return
            with transaction(db):
                db.execute("DELETE FROM snapshots WHERE seq = ?", (seq,))
                insert_snapshot(db, seq, game_id, depth, made_by, body, crc[0])

    def _commit(self, batch: list[Write]) -> None:
        with self._lock:
            db = self._conn()
            with transaction(db):
                for write in batch:
                    write.result = write.run(db, write.seq)

    # -- reading -------------------------------------------------------------------------

    def current_game(self) -> GameRecord | None:
        row = self._one(GAME_ROWS + " WHERE closed_at IS NULL ORDER BY id DESC LIMIT 1")
        return self._checked_game(row) if row else None

    def game(self, game_id: int) -> GameRecord:
        row = self._one(GAME_ROWS + " WHERE id = ?", (game_id,))
        if row is None:
            raise JournalError(f"{self.path}: no game {game_id}")
        return self._checked_game(row)

    def history(self, limit: int = 50) -> list[GameRecord]:
        with self._lock:
            rows = self._conn().execute(GAME_ROWS + " ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        return [self._checked_game(r) for r in rows]

    def entries(self, game_id: int) -> list[Entry]:
        """The game's entries after its start, oldest first, each parsed; JournalDamage at the
        first one that is damaged or missing."""
        record = self.game(game_id)
        return [_entry(self.path, row) for row in self._game_rows(record)]

    def steps(self, record: GameRecord) -> list[tuple[int, str, str, bool]]:
        """(seq, kind, payload text, vouched) of the game's entries after its start, checked as
        ``entries`` checks them but parsed only where no checksum vouches for the text (an
        older journal's): what start-up reads of a game of thousands of actions."""
        out = []
        for row in self._game_rows(record):
            seq, _gid, kind, _raw, _at, crc = row
            out.append((seq, kind, entry_text(row) if crc is not None else
                        encode(_entry(self.path, row).payload, "the entry"), crc is not None))
        return out

    def snapshots(self, game_id: int) -> dict[int, int]:
        """seq -> depth of the game's snapshots (their bodies are read by ``snapshot``)."""
        with self._lock:
            try:
                rows = self._conn().execute("SELECT seq, depth FROM snapshots WHERE game_id = ?",
                                            (game_id,)).fetchall()
            except sqlite3.DatabaseError as exc:
                log.warning("%s: the snapshots cannot be read (%s); replaying instead", self.path, exc)
                return {}
        return {seq: depth for seq, depth in rows if isinstance(seq, int) and isinstance(depth, int)}

    def snapshot(self, seq: int) -> Snapshot | None:
        """The snapshot after entry ``seq``, or None when there is none or it is damaged (a
        damaged one is never used: the entries are replayed instead)."""
        try:
            row = self._one(SNAPSHOT_ROWS + " WHERE s.seq = ?", (seq,))
            return read_snapshot(row) if row is not None else None
        except (ValueError, JournalDamage) as exc:
            log.warning("%s: the snapshot after entry %s is damaged (%s); replaying instead",
                        self.path, seq, exc)
            return None

    def last_seq(self) -> int:
        row = self._one("SELECT MAX(seq) FROM entries")
        return row[0] or 0

    def check(self, full: bool = False) -> Health:
        """Look at every game, entry and snapshot (with ``full``, every page of the file)."""
        return journal_health.check(self, full)

    def pragma(self, name: str) -> list[str]:
        """What SQLite answers to ``PRAGMA name`` (quick_check, integrity_check), a line a row."""
        with self._lock:
            return [str(r[0]) for r in self._conn().execute(f"PRAGMA {name}").fetchall()]

    def check_entries(self) -> None:
        """Read every game's entries (after an unclean stop); JournalDamage at the first bad one."""
        for record in self.history(limit=1 << 30):
            self.entries(record.id)

    def backup(self, target: str | Path) -> None:
        """A consistent copy through SQLite's backup API (never copy the file and its -wal)."""
        with self._lock:
            dest = sqlite3.connect(str(target))
            try:
                self._conn().backup(dest)
            finally:
                dest.close()

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "open" if self._db is not None else "closed"
        return f"<Journal {self.path} {state}>"

    # -- helpers ---------------------------------------------------------------------------

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise JournalError(f"{self.path}: the journal is closed")
        return self._db

    def _one(self, sql: str, args: tuple = ()) -> tuple | None:
        with self._lock:
            try:
                return self._conn().execute(sql, args).fetchone()
            except sqlite3.DatabaseError as exc:
                raise JournalDamage(f"{self.path}: cannot be read ({exc})") from exc

    def _game_rows(self, record: GameRecord) -> Iterator[tuple]:
        """The game's rows after its start, each one's checksum checked; JournalDamage at the
        first that is damaged, missing or out of its game."""
        # By seq (the table itself, not the index): the game's rows up to the next game's start.
        with self._lock:
            try:
                rows = self._conn().execute(
                    ENTRY_ROWS + " WHERE seq >= ? AND seq < COALESCE("
                    "(SELECT MIN(start_seq) FROM games WHERE id > ?), 1 << 62) ORDER BY seq",
                    (record.start_seq, record.id)).fetchall()
            except sqlite3.DatabaseError as exc:
                raise JournalDamage(f"{self.path}: the entries of game {record.id} cannot be "
                                    f"read ({exc})", seq=record.start_seq) from exc
        expected = record.start_seq
        for row in rows:
            seq = row[0]
            try:
                text = entry_text(row)
                if row[5] is None or seq == record.start_seq or '"type": "game.' in text:
                    kind = read_entry(row).payload["type"]   # no checksum, or perhaps a marker
                else:
                    kind = None
            except ValueError as exc:
                raise JournalDamage(f"{self.path}: entry {seq} is damaged ({exc})", seq=seq) from None
            if row[1] != record.id:
                raise JournalDamage(f"{self.path}: entry {seq} belongs to no game in order", seq=seq)
            if seq != expected:
                raise JournalDamage(f"{self.path}: entries {expected} to {seq - 1} of game "
                                    f"{record.id} are missing", seq=expected)
            expected += 1
            if seq == record.start_seq:
                if kind != "game.start":
                    raise JournalDamage(f"{self.path}: game {record.id} does not begin with its "
                                        "start", seq=seq)
            elif kind not in MARKERS:
                yield row
        if expected == record.start_seq:
            raise JournalDamage(f"{self.path}: game {record.id} has lost its start entry",
                                seq=record.start_seq)

    def _checked_game(self, row: tuple) -> GameRecord:
        try:
            return read_game(row)
        except ValueError as exc:
            raise JournalDamage(f"{self.path}: game {row[0]}'s record is damaged ({exc})",
                                seq=row[5] if isinstance(row[5], int) else None) from None


def _entry(path: str, row: tuple) -> Entry:
    """A row's entry; a row whose checksum holds but whose payload is no entry (written so by
    something else than the companion) is damage too, never a ValueError's traceback."""
    try:
        return read_entry(row)
    except ValueError as exc:
        raise JournalDamage(f"{path}: entry {row[0]} is damaged: {exc}", seq=row[0]) from None


def _not_a_folder(path: str) -> None:
    if Path(path).is_dir():         # no damage to recover: a mistake to put right
        raise JournalError(f"{path} is a folder, not a journal file: move it aside (or give "
                           "--data another folder)")
