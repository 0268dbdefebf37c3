"""The durable journal: every game and every action, in SQLite, on disk before it is acknowledged.

WAL mode with ``synchronous=FULL`` and one transaction per entry: with NORMAL a committed
transaction can roll back after a power loss. History is never rewritten: undo is an entry too.

Damage is looked for where it would otherwise pass unseen. Each entry (and each game's record)
carries a CRC-32 of what it says (companion/journal_rows.py reads each row back, or refuses it
as damaged); a game's entries must follow each other without a gap. Reading raises
``JournalDamage`` naming the first bad entry, and start-up recovers the intact prefix
(companion/journal_recovery.py). Opening also reads the write-ahead log left by an unclean
shutdown (companion/journal_wal.py): committed transactions that SQLite would silently drop
because a frame before them is damaged are damage as well. ``check()`` looks at everything.
"""

from __future__ import annotations

import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from companion import journal_wal
from companion.errors import JournalDamage, JournalError
from companion.journal_rows import (APPLICATION_ID, ENTRY_ROWS, GAME_ROWS, KINDS, MARKERS,
                                    MIGRATIONS, SCHEMA, SCHEMA_VERSION, COLUMNS, Entry, GameRecord,
                                    Health, encode, entry_crc, game_crc, read_entry, read_game)

__all__ = ["APPLICATION_ID", "MARKERS", "Entry", "GameRecord", "Health", "Journal"]


class Journal:
    """An append-only log of games and their entries in one SQLite file (or ``:memory:``)."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self.wal: journal_wal.WalScan | None = None   # what the log of an unclean stop held
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                self.wal = journal_wal.scan(self.path + "-wal")
                if self.wal is not None and self.wal.lost_commits:
                    raise JournalDamage(f"{self.path}: {self.wal.describe()}")
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._prepare()
        except sqlite3.DatabaseError as exc:
            self.close()
            raise JournalDamage(f"{self.path} is not a usable companion journal ({exc})") from exc
        except Exception:
            self.close()
            raise

    def _prepare(self) -> None:
        db = self._db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app_id == 0 and not tables:
            db.executescript(
                "BEGIN IMMEDIATE;" + SCHEMA + f"PRAGMA application_id={APPLICATION_ID};"
                f"PRAGMA user_version={SCHEMA_VERSION}; COMMIT;"
            )
        elif app_id != APPLICATION_ID:
            if self._looks_like_ours():   # our tables under a damaged header
                raise JournalDamage(f"{self.path}: the file's header is damaged "
                                    f"(application id {app_id:#x})")
            raise JournalError(
                f"{self.path} is an SQLite file of another program (application_id {app_id:#x}), "
                "not a companion journal; choose another data folder"
            )
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            # A newer companion counts up by one; a number far beyond over our own tables is a
            # flipped bit in the header.
            if version > SCHEMA_VERSION + 64 and self._looks_like_ours():
                raise JournalDamage(f"{self.path}: the file's header is damaged (schema {version})")
            raise JournalError(
                f"{self.path} was written by a newer companion (schema {version}, "
                f"this one reads {SCHEMA_VERSION}); upgrade companion"
            )
        if self.path != ":memory:":
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode.lower() != "wal":
                raise JournalError(f"{self.path}: could not switch to WAL mode (got {mode})")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise JournalDamage(f"{self.path} is damaged ({check})")
        if 0 < version < SCHEMA_VERSION:
            db.executescript("BEGIN IMMEDIATE;" + "".join(MIGRATIONS[v] for v in
                                                           range(version, SCHEMA_VERSION))
                             + f"PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")

    def _looks_like_ours(self) -> bool:
        for table, columns in COLUMNS.items():
            found = [r[1] for r in self._db.execute(f"PRAGMA table_info({table})")]
            if found not in (columns, columns[:-1]):
                return False
        return True

    # -- writing: one transaction each ---------------------------------------------------

    def start_game(self, game: str, options: dict[str, Any], seed: int, at: float) -> GameRecord:
        """Close any open game and open a new one; returns its record."""
        options_text = encode(options, "the game's options")
        with self._write() as db:
            db.execute("UPDATE games SET closed_at = ? WHERE closed_at IS NULL", (at,))
            start_seq = self._next_seq(db)
            gid = (db.execute("SELECT MAX(id) FROM games").fetchone()[0] or 0) + 1
            db.execute(
                "INSERT INTO games (id, game, options, seed, started_at, start_seq, crc) "
                "VALUES (?,?,?,?,?,?,?)",
                (gid, game, options_text, seed, at, start_seq,
                 game_crc(gid, game, options_text, seed, at, start_seq)),
            )
            # The start takes a sequence number of its own, so every client sees the change.
            self._insert(db, gid, "action", {"type": "game.start", "source": "session"}, at)
        return self.game(gid)

    def append(
        self,
        game_id: int,
        kind: str,
        payload: dict[str, Any],
        at: float,
        result: dict[str, Any] | None = None,
    ) -> int:
        """Append one entry (and the game's result when it changes); returns its seq."""
        if kind not in KINDS:
            raise ValueError(f"unknown journal entry kind {kind!r}")
        result_text = encode(result, "the game's result") if result is not None else None
        with self._write() as db:
            seq = self._insert(db, game_id, kind, payload, at)
            db.execute("UPDATE games SET result = ? WHERE id = ?", (result_text, game_id))
            return seq

    def close_game(self, game_id: int, at: float) -> int:
        """Close (abandon or put away) a game; it stays in the history. Returns the new seq."""
        with self._write() as db:
            db.execute("UPDATE games SET closed_at = ? WHERE id = ?", (at, game_id))
            return self._insert(db, game_id, "action", {"type": "game.close", "source": "session"}, at)

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
        """The game's entries after its start, oldest first; JournalDamage at the first one
        that is damaged or missing."""
        record = self.game(game_id)
        out = []
        expected = record.start_seq
        for entry in self._game_entries(record):
            if entry.seq != expected:
                raise JournalDamage(f"{self.path}: entries {expected} to {entry.seq - 1} of game "
                                    f"{game_id} are missing", seq=expected)
            expected += 1
            if entry.seq == record.start_seq:
                if entry.payload.get("type") != "game.start":
                    raise JournalDamage(f"{self.path}: game {game_id} does not begin with its "
                                        "start", seq=entry.seq)
                continue
            if entry.payload.get("type") not in MARKERS:
                out.append(entry)
        if expected == record.start_seq:
            raise JournalDamage(f"{self.path}: game {game_id} has lost its start entry",
                                seq=record.start_seq)
        return out

    def last_seq(self) -> int:
        row = self._one("SELECT MAX(seq) FROM entries")
        return row[0] or 0

    def check(self, full: bool = False) -> Health:
        """Look at every game and every entry (and, with ``full``, every page of the file)."""
        health = Health()
        if self.wal is not None and self.wal.lost_commits:
            health.problems.append(self.wal.describe())
        pragma = "integrity_check" if full else "quick_check"
        try:
            with self._lock:
                rows = self._conn().execute(f"PRAGMA {pragma}").fetchall()
            if [r[0] for r in rows] != ["ok"]:
                health.problems.append("SQLite finds the file damaged: "
                                       + "; ".join(r[0] for r in rows[:3]))
            games = self.history(limit=1 << 30)
        except (sqlite3.DatabaseError, JournalDamage) as exc:
            health.problems.append(str(exc))
            return health
        health.games = len(games)
        for record in reversed(games):
            try:
                health.moves += len(self.entries(record.id))
            except JournalDamage as exc:
                health.problems.append(str(exc).replace(self.path + ": ", ""))
                health.first_damaged = min(filter(None, (health.first_damaged, exc.seq)),
                                           default=None)
        health.last_seq = self.last_seq()
        return health

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

    def _game_entries(self, record: GameRecord) -> Iterator[Entry]:
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
        for row in rows:
            try:
                entry = read_entry(row)
            except ValueError as exc:
                raise JournalDamage(f"{self.path}: entry {row[0]} is damaged ({exc})",
                                    seq=row[0]) from None
            if entry.game_id != record.id:
                raise JournalDamage(f"{self.path}: entry {row[0]} belongs to no game in order",
                                    seq=row[0])
            yield entry

    def _checked_game(self, row: tuple) -> GameRecord:
        try:
            return read_game(row)
        except ValueError as exc:
            raise JournalDamage(f"{self.path}: game {row[0]}'s record is damaged ({exc})",
                                seq=row[5] if isinstance(row[5], int) else None) from None

    def _insert(self, db: sqlite3.Connection, game_id: int, kind: str, payload: dict[str, Any],
                at: float) -> int:
        text = encode(payload, "the entry")
        seq = self._next_seq(db)
        db.execute("INSERT INTO entries (seq, game_id, kind, payload, at, crc) VALUES (?,?,?,?,?,?)",
                   (seq, game_id, kind, text, at, entry_crc(seq, game_id, kind, text, at)))
        return seq

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            db = self._conn()
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    @staticmethod
    def _next_seq(db: sqlite3.Connection) -> int:
        row = db.execute("SELECT MAX(seq) FROM entries").fetchone()
        return (row[0] or 0) + 1
