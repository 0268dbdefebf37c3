"""What the journal's rows say: its schema, the checksums, and each row read back (or refused as
damaged).

Each entry (and each game's record) carries a CRC-32 of what it says, so a flipped bit inside a
payload is damage, not a move the rules refuse; payloads are read as bytes and decoded here, so
bad UTF-8 is damage too, not an ``OperationalError``. companion/journal.py reads and writes the
rows; start-up recovery (companion/journal_recovery.py) reads them from every copy it has.
"""

from __future__ import annotations

import sqlite3
import zlib
from dataclasses import dataclass, field
from typing import Any

from companion import strict_json
from companion.errors import BadJSON, JournalError

KINDS = ("action", "undo")
MARKERS = ("game.start", "game.close")   # entries of the session's own, not replayed

GAME_ROWS = ("SELECT id, game, CAST(options AS BLOB), seed, started_at, start_seq, closed_at, "
              "CAST(result AS BLOB), crc FROM games")
ENTRY_ROWS = "SELECT seq, game_id, kind, CAST(payload AS BLOB), at, crc FROM entries"
SNAPSHOT_ROWS = ("SELECT s.seq, s.game_id, s.depth, s.made_by, CAST(s.body AS BLOB), s.crc, e.crc "
                 "FROM snapshots s LEFT JOIN entries e ON e.seq = s.seq")




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
    game_id: int = 0


@dataclass(frozen=True)
class Snapshot:
    seq: int
    game_id: int
    depth: int
    made_by: str
    body: str


@dataclass
class Health:
    """What ``check`` found; ``first_damaged`` is the first entry that cannot be trusted."""

    games: int = 0
    moves: int = 0               # entries the players made (starts and closes not counted)
    last_seq: int = 0
    problems: list[str] = field(default_factory=list)
    first_damaged: int | None = None
    snapshots: int = 0
    snapshots_damaged: list[int] = field(default_factory=list)   # ignored: the entries replay

    @property
    def ok(self) -> bool:
        return not self.problems


def entry_crc(seq: int, game_id: int, kind: str, payload: str, at: float) -> int:
    return zlib.crc32(f"{seq}\x1f{game_id}\x1f{kind}\x1f{at!r}\x1f{payload}".encode())


def game_crc(gid: int, game: str, options: str, seed: int, started_at: float, start_seq: int) -> int:
    return zlib.crc32(f"{gid}\x1f{game}\x1f{options}\x1f{seed}\x1f{started_at!r}\x1f{start_seq}".encode())


def snapshot_crc(seq: int, game_id: int, depth: int, made_by: str, body: str,
                 entry: int | None) -> int:
    return zlib.crc32(f"{seq}\x1f{game_id}\x1f{depth}\x1f{made_by}\x1f{entry}\x1f{body}".encode())


def read_snapshot(row: tuple) -> Snapshot:
    """A snapshot from its row (``SNAPSHOT_ROWS``), or ValueError saying what about it is
    damaged: its checksum, its text, or the entry it was made after."""
    seq, game_id, depth, made_by, raw, crc, entry = row
    if entry is None:
        raise ValueError("the entry it was made after is missing or has no checksum")
    try:
        body = raw.decode("utf-8")
    except (AttributeError, UnicodeDecodeError):
        raise ValueError("its body is not UTF-8 text") from None
    if crc != snapshot_crc(seq, game_id, depth, made_by, body, entry):
        raise ValueError("its checksum does not match what it says or the entry it follows")
    return Snapshot(seq, game_id, depth, made_by, body)


def entry_text(row: tuple) -> str:
    """The payload's text of an entry row (``ENTRY_ROWS``), or ValueError when it is not the text
    its checksum was taken of. A row with a checksum that holds was written, strict JSON, by us;
    one without (an older journal's) is only trusted once ``read_entry`` has parsed it."""
    seq, game_id, kind, raw, at, crc = row
    if not isinstance(raw, bytes):
        raise ValueError("its payload is not text")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("its payload is not UTF-8") from None
    if crc is not None and crc != entry_crc(seq, game_id, kind, text, at):
        raise ValueError("its checksum does not match what it says")
    return text


def read_entry(row: tuple) -> Entry:
    """An entry from its row, or ValueError saying what about it is damaged."""
    seq, game_id, kind, _raw, at, _crc = row
    text = entry_text(row)
    try:
        payload = strict_json.loads(text, what="its payload")
    except BadJSON as exc:
        raise ValueError(str(exc)) from None
    if kind not in KINDS or not isinstance(payload, dict) or not isinstance(payload.get("type"), str):
        raise ValueError("it is not a companion entry")
    return Entry(seq, kind, payload, at, game_id)


def read_game(row: tuple) -> GameRecord:
    """A game's record from its row, or ValueError saying what about it is damaged."""
    gid, game, options, seed, started_at, start_seq, closed_at, result, crc = row
    try:
        options_text = options.decode("utf-8")
        result_text = result.decode("utf-8") if result is not None else None
    except (AttributeError, UnicodeDecodeError):
        raise ValueError("its options are not UTF-8 text") from None
    if crc is not None and crc != game_crc(gid, game, options_text, seed, started_at, start_seq):
        raise ValueError("its checksum does not match what it says")
    try:
        opts = strict_json.loads(options_text, what="its options")
        outcome = strict_json.loads(result_text, what="its result") if result_text else None
    except BadJSON as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(opts, dict) or not isinstance(seed, int):
        raise ValueError("it is not a companion game record")
    return GameRecord(gid, game, opts, seed, started_at, start_seq, closed_at, outcome)



def encode(value: Any, what: str) -> str:
    """Strict JSON for the journal: what cannot be sent to a client is never written."""
    try:
        return strict_json.sorted_keys(value)
    except (TypeError, ValueError) as exc:
        raise JournalError(f"{what} is not plain JSON ({exc}); nothing was written") from exc


def insert_entry(db: sqlite3.Connection, seq: int, game_id: int, kind: str, text: str, at: float) -> int:
    """Write an entry with its checksum; returns the checksum (a snapshot after it covers it)."""
    crc = entry_crc(seq, game_id, kind, text, at)
    db.execute("INSERT INTO entries (seq, game_id, kind, payload, at, crc) VALUES (?,?,?,?,?,?)",
               (seq, game_id, kind, text, at, crc))
    return crc


def insert_snapshot(db: sqlite3.Connection, seq: int, game_id: int, depth: int, made_by: str,
                     body: str, entry: int) -> None:
    db.execute("INSERT INTO snapshots (seq, game_id, depth, made_by, body, crc) VALUES (?,?,?,?,?,?)",
               (seq, game_id, depth, made_by, body,
                snapshot_crc(seq, game_id, depth, made_by, body, entry)))


class transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any error (a failed COMMIT included)."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind, exc, tb) -> None:
        if kind is None:
            try:
                self.db.execute("COMMIT")
                return
            except BaseException:
                self._rollback()
                raise
        self._rollback()

    def _rollback(self) -> None:
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")
