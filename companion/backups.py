"""Rolling backups of the journal, through SQLite's backup API (a consistent copy while the
service runs; never a copy of the file and its -wal).

One is taken when a game ends (won, lost, or put away for another), every BACKUP_EVERY_S while
the journal changes, and when the service stops; the newest KEEP are kept in
``<data>/backups/journal-<last seq>-<time>.sqlite3``. Damage on an SD card therefore loses
minutes at most: start-up recovery (companion/journal_recovery.py) takes whatever the newest
intact backup holds that the journal no longer does. ``restore`` puts a backup back by hand.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from companion.errors import JournalError
from companion.journal import Journal
from companion.paths import fsync

log = logging.getLogger(__name__)
BACKUP_EVERY_S = 300.0
KEEP = 12
_NAME = re.compile(r"^journal-(\d{8,})-(\d{8}-\d{6})\.sqlite3$")
# a backup a stop cut short: its copy and SQLite's journal of that copy
_PARTIAL = re.compile(r"^journal-\d{8,}-\d{8}-\d{6}\.sqlite3\.tmp(-journal)?$")


@dataclass(frozen=True)
class BackupFile:
    path: Path
    seq: int             # the last entry it holds
    taken_at: float


def listing(folder: str | Path) -> list[BackupFile]:
    """The backups in ``folder``, newest (highest seq) first."""
    out = []
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return []
    except OSError as exc:           # not a folder, unreadable: no backups to count on
        log.warning("journal backups in %s cannot be listed: %s", folder, exc)
        return []
    for name in names:
        m = _NAME.match(name)
        if m:
            taken = time.mktime(time.strptime(m.group(2), "%Y%m%d-%H%M%S"))
            out.append(BackupFile(Path(folder) / name, int(m.group(1)), taken))
    return sorted(out, key=lambda b: (b.seq, b.taken_at), reverse=True)


class Backups:
    def __init__(self, folder: str | Path, journal: Journal | None = None, *,
                 every: float = BACKUP_EVERY_S, keep: int = KEEP,
                 clock: Callable[[], float] = time.time):
        self.folder = Path(folder)
        self.journal = journal
        self.every, self.keep, self.clock = every, keep, clock
        self._lock = threading.Lock()
        newest = self.newest()
        self._last_at = self.clock()
        self._last_seq = newest.seq if newest else 0
        self._game: tuple[Any, str] | None = None
        self.last_error: str | None = None

    def listing(self) -> list[BackupFile]:
        return listing(self.folder)

    def newest(self) -> BackupFile | None:
        found = self.listing()
        return found[0] if found else None

    def newest_seq(self) -> int:
        """The last entry the newest backup (taken or found) holds."""
        return self._last_seq

    def take(self, why: str) -> BackupFile | None:
        """One backup now; a failure (a full card) is logged and kept in ``last_error``."""
        with self._lock:
            try:
                seq = self.journal.last_seq()
                now = self.clock()
                stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
                self.folder.mkdir(parents=True, exist_ok=True)
                target = self.folder / f"journal-{seq:08d}-{stamp}.sqlite3"
                tmp = target.with_name(target.name + ".tmp")
                tmp.unlink(missing_ok=True)
                self.journal.backup(tmp)
                fsync(tmp)
                os.replace(tmp, target)
                fsync(self.folder)
            except (OSError, JournalError) as exc:
                self.last_error = f"the backup failed: {exc}"
                log.warning("journal %s", self.last_error)
                return None
            self._last_at, self._last_seq, self.last_error = now, seq, None
            self._prune()
            log.info("journal backed up (%s): %s", why, target.name)
            return BackupFile(target, seq, now)

    def tick(self) -> None:
        """Called every moment by the service's ticker: a backup every ``every`` seconds while
        the journal has changed."""
        if self.clock() - self._last_at >= self.every and self.journal.last_seq() != self._last_seq:
            self.take(f"every {self.every / 60:.0f} minutes")

    def on_view(self, view: dict[str, Any]) -> None:
        """A session listener: a game's end (won or lost, or put away for another) is backed up."""
        outcome = (view.get("outcome") or {}).get("status", "none")
        now = (view.get("game_id"), outcome)
        before, self._game = self._game, now
        if before is None or before == now:
            return
        ended = (before[0] is not None and now[0] != before[0]) or (
            now[0] == before[0] and before[1] == "playing" and outcome not in ("playing", "none"))
        if ended:
            self.take("a game ended")

    def _prune(self) -> None:
        """The newest ``keep`` backups stay; older ones go, and so do the partial copies of
        backups a stop cut short (only this service takes backups, under ``_lock``: none is
        being written now), which nothing else would ever clear from a small card."""
        for old in self.listing()[self.keep:]:
            old.path.unlink(missing_ok=True)
        for name in os.listdir(self.folder):
            if _PARTIAL.match(name):
                (self.folder / name).unlink(missing_ok=True)


def restore(journal_path: str | Path, folder: str | Path, backup: str | Path | None = None,
            now: Callable[[], float] = time.time) -> dict[str, Any]:
    """Put a backup (the newest, else the one named) in the journal's place; the service must
    be stopped. The journal as it was, and every backup newer than the one restored, go to
    ``<data>/replaced/<time>/`` (kept, never deleted)."""
    journal_path = Path(journal_path)
    found = listing(folder)
    if backup is None:
        if not found:
            raise JournalError(f"there is no backup in {folder} to restore")
        chosen = found[0].path
    else:
        chosen = Path(backup)
        if not chosen.is_file():
            raise JournalError(f"{chosen}: no such backup")
    with Journal(chosen) as check:            # opens it as a journal: refuses a damaged one
        health = check.check(full=True)
        if not health.ok:
            raise JournalError(f"{chosen} is damaged itself: {'; '.join(health.problems)}")
    aside = journal_path.parent / "replaced" / time.strftime("%Y%m%d-%H%M%S", time.localtime(now()))
    aside.mkdir(parents=True, exist_ok=True)
    moved = []
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(journal_path) + suffix)
        if src.exists():
            shutil.move(str(src), aside / src.name)
            moved.append(src.name)
    chosen_seq = health.last_seq
    for newer in found:
        if newer.seq > chosen_seq and newer.path != chosen:
            (aside / "backups").mkdir(exist_ok=True)
            shutil.move(str(newer.path), aside / "backups" / newer.path.name)
            moved.append(f"backups/{newer.path.name}")
    tmp = journal_path.with_name(journal_path.name + ".restoring")
    shutil.copyfile(chosen, tmp)
    fsync(tmp)
    os.replace(tmp, journal_path)
    fsync(journal_path.parent)
    return {"restored": str(chosen), "last_seq": chosen_seq, "games": health.games,
            "moved_aside": str(aside), "moved": moved}
