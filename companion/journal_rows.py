"""What the journal's rows say: its schema, the checksums, and each row read back (or refused as
damaged).

Each entry (and each game's record) carries a CRC-32 of what it says, so a flipped bit inside a
payload is damage, not a move the rules refuse; payloads are read as bytes and decoded here, so
bad UTF-8 is damage too, not an ``OperationalError``. companion/journal.py reads and writes the
rows; start-up recovery (companion/journal_recovery.py) reads them from every copy it has.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any

from companion import strict_json
from companion.errors import BadJSON, JournalError

APPLICATION_ID = 0x434D5031  # "CMP1": tells our journal from any other SQLite file
SCHEMA_VERSION = 2           # 2: a CRC-32 on every entry and game record
KINDS = ("action", "undo")
MARKERS = ("game.start", "game.close")   # entries of the session's own, not replayed

SCHEMA = """
CREATE TABLE games (
    id         INTEGER PRIMARY KEY,
    game       TEXT NOT NULL,
    options    TEXT NOT NULL,
    seed       INTEGER NOT NULL,
    started_at REAL NOT NULL,
    start_seq  INTEGER NOT NULL,
    closed_at  REAL,
    result     TEXT,
    crc        INTEGER
);
CREATE TABLE entries (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind    TEXT NOT NULL,
    payload TEXT NOT NULL,
    at      REAL NOT NULL,
    crc     INTEGER
);
CREATE INDEX entries_by_game ON entries(game_id, seq);
"""
MIGRATIONS = {1: "ALTER TABLE games ADD COLUMN crc INTEGER; ALTER TABLE entries ADD COLUMN crc INTEGER;"}
COLUMNS = {"games": ["id", "game", "options", "seed", "started_at", "start_seq", "closed_at",
                      "result", "crc"],
            "entries": ["seq", "game_id", "kind", "payload", "at", "crc"]}
GAME_ROWS = ("SELECT id, game, CAST(options AS BLOB), seed, started_at, start_seq, closed_at, "
              "CAST(result AS BLOB), crc FROM games")
ENTRY_ROWS = "SELECT seq, game_id, kind, CAST(payload AS BLOB), at, crc FROM entries"


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


@dataclass
class Health:
    """What ``check`` found; ``first_damaged`` is the first entry that cannot be trusted."""

    games: int = 0
    moves: int = 0               # entries the players made (starts and closes not counted)
    last_seq: int = 0
    problems: list[str] = field(default_factory=list)
    first_damaged: int | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


def entry_crc(seq: int, game_id: int, kind: str, payload: str, at: float) -> int:
    return zlib.crc32(f"{seq}\x1f{game_id}\x1f{kind}\x1f{at!r}\x1f{payload}".encode())


def game_crc(gid: int, game: str, options: str, seed: int, started_at: float, start_seq: int) -> int:
    return zlib.crc32(f"{gid}\x1f{game}\x1f{options}\x1f{seed}\x1f{started_at!r}\x1f{start_seq}".encode())


def read_entry(row: tuple) -> Entry:
    """An entry from its row, or ValueError saying what about it is damaged."""
    seq, game_id, kind, raw, at, crc = row
    if not isinstance(raw, bytes):
        raise ValueError("its payload is not text")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("its payload is not UTF-8") from None
    if crc is not None and crc != entry_crc(seq, game_id, kind, text, at):
        raise ValueError("its checksum does not match what it says")
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
        return strict_json.dumps(value, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise JournalError(f"{what} is not plain JSON ({exc}); nothing was written") from exc
