"""The journal file's schema: made in an empty file, told apart from another program's file, a
newer companion's or a damaged header, and migrated from an older companion's.
"""

from __future__ import annotations

import sqlite3

from companion.errors import JournalDamage, JournalError

APPLICATION_ID = 0x434D5031  # "CMP1": tells our journal from any other SQLite file
SCHEMA_VERSION = 3           # 2: a CRC-32 on every entry and game record; 3: snapshots

# The table as it stood right after entry ``seq`` (companion/snapshots.py): ``depth`` effective
# actions since the game's start, that entry's included; ``made_by`` names the engine, its code
# and data; the checksum covers the row and the entry's own checksum, so a snapshot only ever
# stands for the entry it was made after.
SNAPSHOTS = """
CREATE TABLE snapshots (
    seq     INTEGER PRIMARY KEY REFERENCES entries(seq),
    game_id INTEGER NOT NULL REFERENCES games(id),
    depth   INTEGER NOT NULL,
    made_by TEXT NOT NULL,
    body    TEXT NOT NULL,
    crc     INTEGER NOT NULL
);
"""
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
""" + SNAPSHOTS
MIGRATIONS = {1: "ALTER TABLE games ADD COLUMN crc INTEGER; ALTER TABLE entries ADD COLUMN crc INTEGER;",
              # no query reads entries by game (a game's are a range of seq): one b-tree less to
              # write in every commit
              2: SNAPSHOTS + "DROP INDEX IF EXISTS entries_by_game;"}
COLUMNS = {"games": ["id", "game", "options", "seed", "started_at", "start_seq", "closed_at",
                      "result", "crc"],
            "entries": ["seq", "game_id", "kind", "payload", "at", "crc"]}


def prepare(db: sqlite3.Connection, path: str, check: bool) -> None:
    """Make the schema in an empty file, refuse another program's or a newer companion's, tell a
    damaged header from either, set WAL and full sync, ``quick_check`` with ``check``, migrate."""
    app_id = db.execute("PRAGMA application_id").fetchone()[0]
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if app_id == 0 and not tables:
        db.executescript(
            "BEGIN IMMEDIATE;" + SCHEMA + f"PRAGMA application_id={APPLICATION_ID};"
            f"PRAGMA user_version={SCHEMA_VERSION}; COMMIT;"
        )
    elif app_id != APPLICATION_ID:
        if _looks_like_ours(db):   # our tables under a damaged header
            raise JournalDamage(f"{path}: the file's header is damaged "
                                f"(application id {app_id:#x})")
        raise JournalError(
            f"{path} is an SQLite file of another program (application_id {app_id:#x}), "
            "not a companion journal; choose another data folder"
        )
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        # A newer companion counts up by one; a number far beyond over our own tables is a
        # flipped bit in the header.
        if version > SCHEMA_VERSION + 64 and _looks_like_ours(db):
            raise JournalDamage(f"{path}: the file's header is damaged (schema {version})")
        raise JournalError(
            f"{path} was written by a newer companion (schema {version}, "
            f"this one reads {SCHEMA_VERSION}); upgrade companion"
        )
    if path != ":memory:":
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode.lower() != "wal":
            raise JournalError(f"{path}: could not switch to WAL mode (got {mode})")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    if check:
        found = db.execute("PRAGMA quick_check").fetchone()[0]
        if found != "ok":
            raise JournalDamage(f"{path} is damaged ({found})")
    if 0 < version < SCHEMA_VERSION:
        db.executescript("BEGIN IMMEDIATE;" + "".join(MIGRATIONS[v] for v in
                                                       range(version, SCHEMA_VERSION))
                         + f"PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")

def _looks_like_ours(db: sqlite3.Connection) -> bool:
    for table, columns in COLUMNS.items():
        found = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
        if found not in (columns, columns[:-1]):
            return False
    return True
