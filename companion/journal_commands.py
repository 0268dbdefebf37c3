"""`companion journal check|recover|export|restore`, and the journal's lines in `companion doctor`.

check and export read a copy, never the live file: while the service runs, a consistent
snapshot through SQLite's backup API (the log was read by the service when it started); when it
is stopped, the files as they are, the write-ahead log included. recover and restore change
the journal and so need the service stopped (it holds ``<data>/companion.lock``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from companion import backups as backups_mod
from companion.errors import CompanionError, JournalDamage, JournalError
from companion.journal import MARKERS, Health, Journal
from companion.journal_copies import read_copy
from companion.journal_recovery import DataLock, RecoveryLog, open_journal

JOURNAL = "journal.sqlite3"


def journal_path(data: Path) -> Path:
    return Path(data) / JOURNAL


@contextmanager
def _snapshot(path: Path) -> Iterator[tuple[Path, bool]]:
    """(a scratch copy of the journal, whether its write-ahead log came with it)."""
    with tempfile.TemporaryDirectory(prefix="companion-check-") as scratch:
        copy = Path(scratch) / path.name
        live = DataLock.held(path.parent)
        if live:
            src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            dst = sqlite3.connect(copy)
            try:
                src.backup(dst)
            finally:
                src.close()
                dst.close()
        else:
            for suffix in ("", "-wal"):
                if Path(str(path) + suffix).exists():
                    shutil.copyfile(str(path) + suffix, str(copy) + suffix)
        yield copy, not live


def check(path: Path, full: bool = True) -> tuple[Health, str]:
    """What the journal at ``path`` holds and what is wrong with it; and how it was looked at."""
    if not path.exists():
        return Health(), "no journal yet (one is made when the service first starts)"
    if path.is_dir():
        return Health(problems=[f"{path} is a folder, not a journal file: move it aside"]), "not read"
    with _snapshot(path) as (copy, with_log):
        how = ("the files as they are, the write-ahead log included" if with_log else
               "a snapshot of the running service's journal (it read the log when it started)")
        try:
            with Journal(copy) as journal:
                return journal.check(full=full), how
        except JournalDamage as exc:
            health = Health(problems=[str(exc).replace(str(copy), path.name)])
            return health, how


def doctor_findings(data: Path) -> list[dict[str, str]]:
    """The journal's health, its newest backup, and a recovery the table has not seen yet."""
    path = journal_path(data)
    out = []
    mendable = not path.is_dir()
    try:
        health, how = check(path, full=False)
    except (CompanionError, sqlite3.DatabaseError, OSError) as exc:
        health, how = Health(problems=[str(exc)]), "could not be copied"
        # a folder, a foreign file, a newer companion's journal: nothing recovery mends
        mendable = not isinstance(exc, JournalError) or isinstance(exc, JournalDamage)
    if health.ok:
        out.append({"check": "journal", "status": "ok",
                    "detail": f"{health.games} game(s), {health.last_seq} entries, every entry "
                              f"intact ({how})"})
    else:
        out.append({"check": "journal", "status": "fail", "detail": "; ".join(health.problems),
                    "fix": "stop the service and run `companion journal recover` (the service "
                           "also recovers by itself when it starts)" if mendable else
                           "not damage that recovery mends: do what the message says"})
    newest = backups_mod.listing(Path(data) / "backups")
    if not newest:
        out.append({"check": "journal backup", "status": "warn", "detail": "no backup yet",
                    "fix": "the service takes one when a game ends and every few minutes"})
    else:
        age = max(0.0, time.time() - newest[0].taken_at)
        behind = health.last_seq - newest[0].seq
        out.append({"check": "journal backup", "status": "ok",
                    "detail": f"{newest[0].path.name}, {_ago(age)}, up to entry {newest[0].seq}"
                              + (f" ({behind} entries since)" if behind > 0 else "")
                              + f"; {len(newest)} kept"})
    for record in RecoveryLog(data).records():
        if not record.acknowledged:
            out.append({"check": "journal recovered", "status": "warn",
                        "detail": f"{record.text()} ({record.damaged_copy})",
                        "fix": "tap Understood on the table screen once you have read it"})
    return out


def held_finding(data: Path, catalog) -> list[dict[str, str]]:
    """Whether the game in progress will be held back at the next start (its component data
    changed since it began, its game gone from this version, an undo entry that does not match
    the journal): said before the family finds it so at the table. Replaying its moves is left
    to start-up."""
    from companion import resume
    from companion.errors import Unplayable

    path = journal_path(data)
    if not path.is_file():
        return []
    try:
        with _snapshot(path) as (copy, _with_log), Journal(copy) as journal:
            record = journal.current_game()
            if record is not None:
                resume.set_up_again(catalog, record)
                rows = journal.steps(record)                                 # its undo entries
                resume.steps(path, record, rows, {seq for seq, _k, _t, vouched in rows if not vouched})
    except JournalDamage as exc:
        return [{"check": "game in progress", "status": "warn", "detail": str(exc),
                 "fix": "the next start recovers the journal from that entry's intact prefix "
                        "and the backups, and says what was lost"}]
    except Unplayable as exc:
        fix = ("restore a backup from before that undo entry (companion journal restore), or "
               "start a new game" if "undo entry" in str(exc) else
               "put the data back before the table plays on (or start a new game)")
        return [{"check": "game in progress", "status": "warn", "detail": str(exc), "fix": fix}]
    except (CompanionError, sqlite3.DatabaseError, OSError):
        return []                  # the journal's own finding says why
    return []


def _ago(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s ago"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min ago"
    return f"{seconds / 3600:.1f} h ago"


def export(path: Path, out, game: int | None = None) -> list[str]:
    """Every intact game and entry as JSON lines (with ``game``: that game as a replay file for
    `companion replay`). Returns notes on what could not be read."""
    notes = []
    with _snapshot(path) as (copy, _log):
        rows = read_copy(copy, path.name)
    if game is not None and game not in rows.games:
        raise JournalError(f"{path}: no intact game {game} (games: {', '.join(map(str, rows.games))})")
    for gid in sorted(rows.games):
        if game is not None and gid != game:
            continue
        _, name, options, seed, started_at, start_seq, closed_at, _result = rows.games[gid]
        head = {"setup": json.loads(options), "seed": seed}
        if game is not None:
            head["recorded"] = True     # `companion replay`: these options as they were, not a new game's
        else:
            head.update(game=name, id=gid, started_at=started_at, closed_at=closed_at)
        out.write(json.dumps(head) + "\n")
        for seq in sorted(s for s, r in rows.entries.items() if r[1] == gid):
            _, _gid, kind, payload, at = rows.entries[seq]
            body = json.loads(payload)
            if game is not None:
                if body.get("type") in MARKERS:
                    continue
                body = {"type": "undo"} if kind == "undo" else body
            else:
                body = {"seq": seq, "kind": kind, "at": at, "payload": body}
            out.write(json.dumps(body) + "\n")
    missing = sorted(set(range(1, rows.seen + 1)) - set(rows.entries))
    if missing:
        notes.append(f"{len(missing)} entries could not be read intact (first: {missing[0]})")
    return notes


def run(argv: list[str], data: Path, load_session) -> int:
    """The `companion journal` command; ``load_session(journal)`` builds the session (recover
    replays the game in progress, as start-up does)."""
    parser = argparse.ArgumentParser(prog="companion journal",
                                     description="check, recover, export or restore the journal")
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("check", help="look at every entry (and every page with --full)")
    p.add_argument("--quick", action="store_true", help="SQLite's quick check, not the full one")
    sub.add_parser("recover", help="rebuild a damaged journal from its intact prefix and backups")
    p = sub.add_parser("export", help="every intact game and entry as JSON lines")
    p.add_argument("--game", type=int, help="only this game, as a file for `companion replay`")
    p.add_argument("--out", help="write here instead of to standard output")
    p = sub.add_parser("restore", help="put a backup in the journal's place (service stopped)")
    p.add_argument("backup", nargs="?", help="the backup file (default: the newest)")
    args = parser.parse_args(argv)
    path = journal_path(data)
    if args.what == "check":
        health, how = check(path, full=not args.quick)
        for line in health.problems:
            print(f"DAMAGED  {line}")
        print(f"{'OK' if health.ok else 'DAMAGED'}: {path}: {health.games} game(s), "
              f"{health.last_seq} entries ({how})")
        return 0 if health.ok else 1
    if args.what == "export":
        out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout
        try:
            for note in export(path, out, args.game):
                print(f"companion journal export: {note}", file=sys.stderr)
        finally:
            if args.out:
                out.close()
        return 0
    lock = DataLock(data)
    try:
        if args.what == "restore":
            done = backups_mod.restore(path, data / "backups", args.backup)
            print(f"restored {done['restored']} (entries up to {done['last_seq']}, "
                  f"{done['games']} game(s)); the journal as it was is in {done['moved_aside']}")
            return 0
        journal, _session, report = open_journal(
            path, load_session, backups=lambda: [(b.path, b.seq) for b in
                                                 backups_mod.listing(data / "backups")])
        journal.close()
        if report is None:
            print(f"{path}: intact, nothing to recover")
            return 0
        RecoveryLog(data).add(report)
        print(report.text())
        return 0
    finally:
        lock.release()
