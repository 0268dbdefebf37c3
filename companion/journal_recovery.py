"""Start-up with a damaged journal: keep the damaged files aside, rebuild the journal from the
longest intact prefix, say plainly what was lost.

Each game replays from its own start, so the prefix is taken game by game: from the game's
start, entry by entry, from whichever copy holds that entry intact (its CRC, its JSON, its
place in its game): the journal as SQLite reads it, the journal with its write-ahead log mended
(journal_wal.repair: committed frames SQLite would drop), and the rolling backups, newest first
(companion/backups.py). A game's run ends at the first entry no copy holds intact, or before an
entry the rules refuse on replay; damage in a finished game never costs the game in progress.
So nothing that the newest intact backup or the prefix holds is lost; what comes after is
kept, as it was, in the damaged copy.

Recovery writes a fresh journal beside the damaged one and swaps it in (the damaged file, its
-wal and -shm go to ``<data>/damaged/<time>/``, with every older backup: entries after the
cut get numbers again, and an old backup must never be mistaken for this journal's past).
A record of it goes to ``<data>/recoveries.json``, for the table's notice and `companion doctor`.
Reading the copies, choosing the prefix and writing it are companion/journal_copies.py's part.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from companion import journal_wal
from companion.errors import JournalDamage, JournalError
from companion.journal import Journal
from companion.journal_copies import (Copy, agrees, prefix, read_copy, runs, scratch_copy,
                                      write_fresh)
from companion.notices import Told, read_list, write_list
from companion.paths import fsync

log = logging.getLogger(__name__)
RECORDS = "recoveries.json"


@dataclass
class Recovery:
    """What one start-up found and did; ``text`` says it in plain words."""

    at: float
    reason: str
    damaged_copy: str
    kept: int                          # entries kept
    kept_through: int                  # the last entry kept (0: none)
    seen_through: int                  # the last entry any copy showed, intact or not
    lost: list[list[int]]              # [first, last] runs of entries no intact copy held
    games: int
    sources: list[str] = field(default_factory=list)   # the copies entries were taken from
    acknowledged: bool = False
    untold: str = ""                   # what could not be counted, in words (an unreadable copy)

    @property
    def lost_count(self) -> int:
        return sum(b - a + 1 for a, b in self.lost)

    def text(self) -> str:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.at))
        kept = (f"kept {self.games} game(s), {self.kept} entries up to entry {self.kept_through}"
                if self.kept else "no entry could be kept")
        runs = ", ".join(f"{a} to {b}" if a != b else f"{a}" for a, b in self.lost)
        lost = (f"Lost: entries {runs} ({self.lost_count}), which no intact copy held; they "
                "are still in the damaged copy." if self.lost else
                "" if self.untold else "Nothing was lost.")
        lost = " ".join(filter(None, (lost, self.untold)))
        return (f"The journal was found damaged at start-up ({when}): {self.reason}. "
                f"Recovered from {' and '.join(self.sources) or 'nothing'}: {kept}. {lost} "
                f"The damaged files are kept in the data folder, in {self.where}.")

    @property
    def where(self) -> str:
        """The damaged copy's folder, from the data folder (no absolute path on every screen)."""
        copy = Path(self.damaged_copy)
        return f"{copy.parent.name}/{copy.name}"


def recover(path: str | Path, reason: str, *, first_bad: int | None = None,
            backups: list[Path] = (), found: Path | None = None,
            now: Callable[[], float] = time.time) -> Recovery:
    """Rebuild the journal at ``path`` from what its copies hold intact (see the module's
    docstring). The journal must not be open. ``found``: a folder holding the files as they were
    found, before SQLite opened them (opening and closing moves the log into the main file).
    Returns what was done."""
    path = Path(path)
    at = now()
    aside = _aside(path.parent / "damaged", at)
    for suffix in ("", "-wal", "-shm"):
        src = (found / (path.name + suffix)) if found is not None else Path(str(path) + suffix)
        if src.exists():
            shutil.copy2(src, aside / src.name)
    copies, lost_commits, mended_seen = [], 0, 0
    with tempfile.TemporaryDirectory(prefix="companion-recover-") as scratch:
        native = scratch_copy(aside, path.name, Path(scratch) / "native")
        copies.append(read_copy(native, "the journal"))
        wal = aside / (path.name + "-wal")
        scan = journal_wal.scan(wal) if wal.exists() else None
        if scan is not None and (scan.lost_commits or scan.valid < scan.frames):
            lost_commits = scan.lost_commits
            mended = scratch_copy(aside, path.name, Path(scratch) / "mended", wal_fix=True)
            copies.append(read_copy(mended, "its write-ahead log, mended"))
            mended_seen = copies[-1].seen
        for backup in backups:
            copy = read_copy(Path(backup), f"the backup {Path(backup).name}")
            if agrees(copies[0], copy):
                copies.append(copy)
            else:
                log.warning("recovery: %s disagrees with the journal; not used", backup)
        games, entries, used = prefix(copies, first_bad)
        tmp = path.with_name(path.name + ".recovering")
        write_fresh(tmp, games, entries)
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)   # copied aside above
    os.replace(tmp, path)
    fsync(path.parent)
    for backup in backups:                                  # another numbering from here on
        if Path(backup).exists():
            (aside / "backups").mkdir(exist_ok=True)
            shutil.move(str(backup), aside / "backups" / Path(backup).name)
    seen = max([c.seen for c in copies] + [max(entries, default=0)])
    if lost_commits and mended_seen <= copies[0].seen:
        # the mended log held nothing readable: count its lost commits as lost entries
        seen = max(seen, copies[0].seen + lost_commits)
    result = Recovery(at, reason, str(aside), len(entries), max(entries, default=0), seen,
                      runs(set(range(1, seen + 1)) - set(entries)), len(games),
                      [c.label for c in copies if c.label in used],
                      untold=_untold(aside / path.name, copies[0], scan, max(entries, default=0)))
    (aside / "REPORT.txt").write_text(result.text() + "\n", encoding="utf-8")
    log.warning("%s", result.text())
    return result


def _untold(damaged: Path, native: Copy, scan: journal_wal.WalScan | None, kept: int) -> str:
    """What no copy let us count: a journal file past reading, a log past reading."""
    after = f"after entry {kept}" if kept else "of any game"
    if damaged.exists() and damaged.stat().st_size == 0:
        return (f"The moves after entry {kept} it held, if any, cannot be counted: check the "
                "board against the game shown." if kept else "What it held cannot be counted or "
                "brought back: if a game was in progress, set it up again from the board.")
    if native.unread and damaged.exists() and damaged.stat().st_size > 0:
        return (f"The journal itself could not be read, so the moves {after} it may have held "
                "cannot be counted: check the board against the game shown.")
    if scan is not None and scan.unreadable:
        return (f"The write-ahead log could not be read, so the moves {after} it may have held "
                "(those entered just before the stop) cannot be counted: check the board "
                "against the game shown.")
    return ""


def open_journal(path: str | Path, load: Callable[[Journal], Any], *,
                 backups: Callable[[], list[tuple[Path, int]]] = lambda: [],
                 attempts: int = 4) -> tuple[Journal, Any, Recovery | None]:
    """Open the journal and build what reads it (``load``: the session); on damage, recover
    and try again. ``backups()`` lists (file, last seq) newest first. Always returns a usable
    journal, or raises JournalError for what is no damage (a newer schema, a foreign file)."""
    path = Path(path)
    report: Recovery | None = None
    with tempfile.TemporaryDirectory(prefix="companion-found-") as found:
        unclean = _keep_as_found(path, Path(found))
        for attempt in range(attempts):
            journal = None
            try:
                if _emptied(path, backups):
                    raise JournalDamage("the journal file was empty (0 bytes)")
                journal = Journal(path)
                if journal.wal is not None:  # an unclean stop: every game is looked at, not one
                    journal.check_entries()
                listing = backups()
                if listing and listing[0][1] > journal.last_seq():
                    raise JournalDamage(f"the journal ends at entry {journal.last_seq()}, but "
                                        f"the backup {listing[0][0].name} holds entries up to "
                                        f"{listing[0][1]}: the end of the journal was lost")
                return journal, load(journal), report
            except JournalDamage as exc:
                if journal is not None:
                    _close_quietly(journal)
                reason = str(exc).replace(f"{path}: ", "").replace(f"{path} ", "the file ")
                step = recover(path, reason, first_bad=exc.seq if exc.refused else None,
                               backups=[p for p, _ in backups()],
                               found=Path(found) if unclean and attempt == 0 else None)
                if report is not None:     # a second look found more: one report of both
                    step.reason = f"{report.reason}; then {step.reason}"
                    step.damaged_copy = report.damaged_copy
                    step.seen_through = max(step.seen_through, report.seen_through)
                    step.lost = runs({n for a, b in report.lost + step.lost
                                       for n in range(a, b + 1)})
                    step.sources = list(dict.fromkeys(report.sources + step.sources))
                report = step
    raise JournalError(f"{path}: still damaged after {attempts} recoveries; restore a backup "
                       "(companion journal restore)")


def _emptied(path: Path, backups: Callable[[], list[tuple[Path, int]]]) -> bool:
    """A journal file cut to nothing where a journal was: its log holds commits, or backups of
    it were taken. SQLite takes an empty file for a new journal (and drops the log beside it),
    and the game it held was gone without a word. An empty file with neither (made by hand, or
    by a first start stopped before its first commit) is a new journal, as before."""
    if not path.is_file() or path.stat().st_size:
        return False
    wal = Path(str(path) + "-wal")
    return (wal.is_file() and wal.stat().st_size > 0) or bool(backups())


def _keep_as_found(path: Path, found: Path) -> bool:
    """After an unclean stop (a log beside the journal), copy both as they are: SQLite moves
    the log into the main file when the connection that found damage closes."""
    wal = Path(str(path) + "-wal")
    if not wal.exists():
        return False
    for src in (path, wal):
        if src.exists():
            shutil.copyfile(src, found / src.name)
    return True


def _close_quietly(journal: Journal) -> None:
    try:
        journal.close()
    except sqlite3.DatabaseError as exc:      # a damaged file may fail its closing checkpoint
        log.info("closing the damaged journal: %s", exc)


class RecoveryLog:
    """``<data>/recoveries.json``: every recovery, and whether the table has seen its notice;
    and ``told``, the other news start-up found (companion/notices.py)."""

    def __init__(self, data_dir: str | Path):
        self.path = Path(data_dir) / RECORDS
        self.told = Told(data_dir)

    def records(self) -> list[Recovery]:
        raw = read_list(self.path, "starting it afresh")
        try:
            return [Recovery(**r) for r in raw]
        except TypeError as exc:
            log.warning("%s cannot be read (%s); starting it afresh", self.path, exc)
            return []

    def add(self, record: Recovery) -> None:
        self._save(self.records() + [record])

    def notices(self) -> list[dict[str, Any]]:
        return [{"kind": "journal", "at": r.at, "text": r.text(), "lost": r.lost_count,
                 "untold": bool(r.untold)}
                for r in self.records() if not r.acknowledged] + self.told.notices()

    def keep(self, notices: list[dict[str, Any]]) -> None:
        """Other news start-up found (a timer that ran out while the service was off), kept
        until the table says it read it, or the entry it tells of is taken back."""
        self.told.keep(notices)

    def acknowledge(self) -> None:
        """Every notice read; a file that cannot be written is logged (its notices come back
        at the next start), never an error for the tap that read them."""
        records = self.records()
        for r in records:
            r.acknowledged = True
        try:
            if records:
                self._save(records)
            self.told.clear()
        except OSError as exc:
            log.warning("notices read, but %s cannot be written (%s)", self.path.parent, exc)

    def _save(self, records: list[Recovery]) -> None:
        write_list(self.path, [asdict(r) for r in records])


class DataLock:
    """The running service holds ``<data>/companion.lock``: recovering or restoring the journal
    under it would pull the file from under a live session."""

    def __init__(self, data_dir: str | Path):
        import fcntl

        self.path = Path(data_dir) / "companion.lock"
        _as_its_owner(Path(data_dir))
        try:
            self._file = open(self.path, "a+")
        except PermissionError as exc:
            raise JournalError(f"this user may not write in {data_dir} ({exc.strerror}): run it "
                               f"as the user the service runs as ({_owner(Path(data_dir))})") from None
        except FileNotFoundError as exc:
            raise JournalError(f"{data_dir}: {exc.strerror}: no journal there to work on") from None
        except OSError as exc:
            # a card gone read-only: the journal is there, and whole; say so
            raise JournalError(f"{data_dir} cannot be written ({exc.strerror}): the journal in it "
                               "is left as it is, but no move can be kept there; make the folder "
                               "writable again (a memory card that turned read-only needs "
                               "checking)") from None
        try:
            fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._file.close()
            raise JournalError(f"the table service is running on {data_dir} (it holds "
                               f"{self.path}): stop it first (sudo systemctl stop companion)") from None

    def release(self) -> None:
        if not self._file.closed:
            self._file.close()

    @staticmethod
    def held(data_dir: str | Path) -> bool:
        """Whether the running service holds the lock: a look that creates and changes
        nothing (a lock file made by root here would keep the service out)."""
        import fcntl

        try:
            probe = open(Path(data_dir) / "companion.lock")
        except FileNotFoundError:
            return False
        except OSError:
            return True           # cannot tell from here: read as if it ran
        with probe:
            try:
                fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            return False


def _owner(folder: Path) -> str:
    import pwd

    try:
        return pwd.getpwuid(folder.stat().st_uid).pw_name
    except (KeyError, OSError):
        return "its owner"


def _as_its_owner(folder: Path) -> None:
    """Root writing in a folder another user owns (``sudo companion journal restore`` on the
    Pi) would leave a journal the service, run as that user, can no longer write: every move
    refused. So root is sent to run as the folder's owner."""
    try:
        uid = folder.stat().st_uid
    except OSError:
        return                    # a folder not made yet: whoever makes it owns it
    if os.geteuid() == 0 and uid != 0:
        name = _owner(folder)
        raise JournalError(f"{folder} belongs to {name}: run this as {name} (sudo -u {name} "
                           "companion ...), or the files it writes would be root's and the "
                           "service could not write its journal")


# -- where the damaged files go ------------------------------------------------------------------

def _aside(folder: Path, at: float) -> Path:
    base = folder / time.strftime("%Y%m%d-%H%M%S", time.localtime(at))
    target, n = base, 1
    while target.exists():
        n += 1
        target = base.with_name(f"{base.name}-{n}")
    target.mkdir(parents=True)
    return target
