"""The durable journal: every game and every action, in SQLite, on disk before it is acknowledged.

WAL mode with ``synchronous=FULL`` and one transaction per entry: with NORMAL a committed
transaction can roll back after a power loss. History is never rewritten: undo is an entry too.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from companion.errors import JournalError

APPLICATION_ID = 0x434D5031  # "CMP1": tells our journal from any other SQLite file
SCHEMA_VERSION = 1
KINDS = ("action", "undo")

_SCHEMA = """
CREATE TABLE games (
    id         INTEGER PRIMARY KEY,
    game       TEXT NOT NULL,
    options    TEXT NOT NULL,
    seed       INTEGER NOT NULL,
    started_at REAL NOT NULL,
    start_seq  INTEGER NOT NULL,
    closed_at  REAL,
    result     TEXT
);
CREATE TABLE entries (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind    TEXT NOT NULL,
    payload TEXT NOT NULL,
    at      REAL NOT NULL
);
CREATE INDEX entries_by_game ON entries(game_id, seq);
"""


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    options: dict[str, Any]
    seed: int
    started_at: float
    start_seq: int
    closed_at: float | None
    result: dict[str, Any] | None


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str
    payload: dict[str, Any]
    at: float


class Journal:
    """An append-only log of games and their entries in one SQLite file (or ``:memory:``)."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._prepare()
        except sqlite3.DatabaseError as exc:
            self.close()
            raise JournalError(
                f"{self.path} is not a usable companion journal ({exc}); "
                "move it aside to start a fresh one"
            ) from exc
        except Exception:
            self.close()
            raise

    def _prepare(self) -> None:
        db = self._db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app_id == 0 and not tables:
            db.executescript(
                "BEGIN IMMEDIATE;" + _SCHEMA + f"PRAGMA application_id={APPLICATION_ID};"
                f"PRAGMA user_version={SCHEMA_VERSION}; COMMIT;"
            )
        elif app_id != APPLICATION_ID:
            raise JournalError(
                f"{self.path} is an SQLite file of another program (application_id {app_id:#x}), "
                "not a companion journal; choose another data folder"
            )
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
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
            raise JournalError(f"{self.path} is damaged ({check}); restore a backup")

    # -- writing: one transaction each ---------------------------------------------------

    def start_game(self, game: str, options: dict[str, Any], seed: int, at: float) -> GameRecord:
        """Close any open game and open a new one; returns its record."""
        with self._write() as db:
            db.execute("UPDATE games SET closed_at = ? WHERE closed_at IS NULL", (at,))
            start_seq = self._next_seq(db)
            cur = db.execute(
                "INSERT INTO games (game, options, seed, started_at, start_seq) VALUES (?,?,?,?,?)",
                (game, json.dumps(options, sort_keys=True), seed, at, start_seq),
            )
            # The start takes a sequence number of its own, so every client sees the change.
            db.execute(
                "INSERT INTO entries (game_id, kind, payload, at) VALUES (?, 'action', ?, ?)",
                (cur.lastrowid, json.dumps({"type": "game.start", "source": "session"}), at),
            )
            gid = cur.lastrowid
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
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO entries (game_id, kind, payload, at) VALUES (?,?,?,?)",
                (game_id, kind, json.dumps(payload, sort_keys=True), at),
            )
            db.execute(
                "UPDATE games SET result = ? WHERE id = ?",
                (json.dumps(result, sort_keys=True) if result is not None else None, game_id),
            )
            return cur.lastrowid

    def close_game(self, game_id: int, at: float) -> int:
        """Close (abandon or put away) a game; it stays in the history. Returns the new seq."""
        with self._write() as db:
            db.execute("UPDATE games SET closed_at = ? WHERE id = ?", (at, game_id))
            cur = db.execute(
                "INSERT INTO entries (game_id, kind, payload, at) VALUES (?, 'action', ?, ?)",
                (game_id, json.dumps({"type": "game.close", "source": "session"}), at),
            )
            return cur.lastrowid

    # -- reading -------------------------------------------------------------------------

    def current_game(self) -> GameRecord | None:
        with self._lock:
            row = self._conn().execute(
                "SELECT * FROM games WHERE closed_at IS NULL ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return self._game(row) if row else None

    def game(self, game_id: int) -> GameRecord:
        with self._lock:
            row = self._conn().execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"{self.path}: no game {game_id}")
        return self._game(row)

    def history(self, limit: int = 50) -> list[GameRecord]:
        with self._lock:
            rows = self._conn().execute(
                "SELECT * FROM games ORDER BY id DESC LIMIT ?", (limit,)
            ).fetchall()
        return [self._game(r) for r in rows]

    def entries(self, game_id: int) -> list[Entry]:
        """The game's entries after its start, oldest first."""
        with self._lock:
            rows = self._conn().execute(
                "SELECT seq, kind, payload, at FROM entries WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        out = []
        for seq, kind, payload, at in rows:
            try:
                data = json.loads(payload)
            except ValueError as exc:
                raise JournalError(f"{self.path}: entry {seq} is not valid JSON ({exc})") from exc
            if kind not in KINDS or not isinstance(data, dict):
                raise JournalError(f"{self.path}: entry {seq} is not a companion entry")
            if data.get("type") in ("game.start", "game.close"):
                continue
            out.append(Entry(seq, kind, data, at))
        return out

    def last_seq(self) -> int:
        with self._lock:
            row = self._conn().execute("SELECT MAX(seq) FROM entries").fetchone()
        return row[0] or 0

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

    def _game(self, row) -> GameRecord:
        gid, game, options, seed, started_at, start_seq, closed_at, result = row
        try:
            return GameRecord(
                gid, game, json.loads(options), seed, started_at, start_seq, closed_at,
                json.loads(result) if result else None,
            )
        except ValueError as exc:
            raise JournalError(f"{self.path}: game {gid} has a damaged record ({exc})") from exc
