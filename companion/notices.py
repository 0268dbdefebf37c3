"""Notices: what the table is told that is not the game (a recovered journal, a game held back,
a timer that ran out while the companion was off), in every view until someone says they read
it. The session keeps them in memory; ``<data>/notices.json`` (``Told``) keeps start-up's other
news across restarts (companion/journal_recovery.py's RecoveryLog holds it, with the
recoveries).

A notice may tell of one journal entry: the ticker's "ran out while the companion was off" tells
of the expiry start-up journaled (companion/ticker.py). Such a notice carries ``entry``: the game
(its id), the entry (its seq) and the timer it ran out. Found at a table: Undo took that expiry
back with the move below it (the advance that began the Hero Phase), yet every screen went on
saying hero time had run out, until someone tapped Understood. So the notice stands only while
the game in progress has that entry: the session drops it when an undo takes the entry back or
the game closes or another starts, and ``Told`` drops it from the file, each time asking the
journal (a start-up too: a stop between the undo and the file's update must not bring it back).
Nothing brings an entry back once an undo took it (there is no redo), so a notice never comes
back either. A notice with no ``entry`` stands until read, as ever.
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any, Callable, Iterable

from companion import undo
from companion.errors import CompanionError

log = logging.getLogger(__name__)
TOLD = "notices.json"
TIE = "entry"
Notice = dict[str, Any]
# Two books on one file in one service (start-up's and the web's) and three threads writing it
# (the ticker keeps, a tap reads, the listener drops): one read-modify-write at a time.
_FILE = threading.Lock()


def tie(notice: Notice, game_id: int, seq: int, timer: str) -> Notice:
    """``notice`` told of the expiry of ``timer``, entry ``seq`` of game ``game_id``."""
    return {**notice, TIE: {"game": game_id, "seq": seq, "timer": timer}}


def standing(notices: list[Notice], game: Any, gone: Iterable[int] = ()) -> list[Notice]:
    """The session's part: ``notices`` less those tied to an entry of another game than
    ``game`` (its record; None: no game in progress), or to one of the entries ``gone`` (what
    an undo takes out of the game, companion/undo.py)."""
    game_id, gone = getattr(game, "id", None), set(gone)
    return [n for n in notices if TIE not in n
            or (n[TIE]["game"] == game_id and n[TIE]["seq"] not in gone)]


def in_journal(journal, notices: list[Notice]) -> list[Notice]:
    """``notices`` less those whose entry the journal's game in progress no longer has (taken
    back by an undo, or in a game since closed). Where the journal cannot say (the game's undo
    entries do not match it: a game held back), they stand, as a notice did before."""
    if not any(TIE in n for n in notices):
        return notices
    try:
        record = journal.current_game()
        steps = dict(undo.effective(journal.steps(record))[0]) if record is not None else {}
    except CompanionError as exc:
        log.warning("which notices still stand cannot be told (%s): all are kept", exc)
        return notices
    return [n for n in notices if TIE not in n
            or (record is not None and n[TIE]["game"] == record.id
                and _expiry_of(steps.get(n[TIE]["seq"]), n[TIE]["timer"]))]


def _expiry_of(text: str | None, timer: str) -> bool:
    """Whether the step is the expiry of ``timer`` (a recovered journal numbers entries again)."""
    try:
        action = json.loads(text) if text is not None else None
    except ValueError:
        return False
    return (isinstance(action, dict) and action.get("type") == "timer.expire"
            and isinstance(action.get("data"), dict) and action["data"].get("name") == timer)


class Told:
    """``<data>/notices.json``: other news start-up found, kept until the table says it read it:
    a second restart before that must tell it again."""

    def __init__(self, data_dir: str | Path):
        self.path = Path(data_dir) / TOLD

    def notices(self) -> list[Notice]:
        # only what keep() writes: a timer's notice, its text, its entry (a hand-made file says
        # nothing else; an entry that is not one leaves the notice standing until read)
        return [{"kind": "timer", "text": n["text"][:500], **_tie_of(n)}
                for n in read_list(self.path, "its notices are dropped")
                if isinstance(n, dict) and isinstance(n.get("text"), str)]

    def keep(self, notices: list[Notice]) -> None:
        """A file that cannot be written is logged: the notice is still shown, until a restart."""
        with _FILE:
            try:
                write_list(self.path, self.notices() + list(notices))
            except OSError as exc:
                log.warning("%s cannot be written (%s): a restart will not tell it again",
                            self.path, exc)

    def clear(self) -> None:
        """All read (OSError where the file cannot be removed)."""
        with _FILE:
            self.path.unlink(missing_ok=True)

    def settle(self, journal) -> None:
        """Drop the notices whose entry the game no longer has (``in_journal``)."""
        with _FILE:
            kept = self.notices()
            left = in_journal(journal, kept)
            if len(left) == len(kept):
                return
            try:
                write_list(self.path, left)
            except OSError as exc:
                log.warning("%s cannot be written (%s): the next start-up drops what it "
                            "should have", self.path, exc)

    def listener(self, journal) -> Callable[[dict[str, Any]], None]:
        """For the session's event bus: after a change whose view no longer shows a notice this
        file keeps tied to an entry, settle with the journal (the view may be older than the
        file: the journal decides, never the view)."""
        def on_view(view: dict[str, Any]) -> None:
            shown = [n.get(TIE) for n in view.get("notices") or ()]
            if any(TIE in n and n[TIE] not in shown for n in self.notices()):
                self.settle(journal)
        return on_view


def _tie_of(notice: Any) -> Notice:
    entry = notice.get(TIE)
    if (isinstance(entry, dict) and set(entry) == {"game", "seq", "timer"}
            and all(type(entry[k]) is int for k in ("game", "seq"))
            and isinstance(entry["timer"], str)):
        return {TIE: dict(entry)}
    return {}


def read_list(path: Path, otherwise: str) -> list:
    """The JSON list in ``path``; [] where it is missing, and (logged) where it is not a
    regular file (a FIFO would block start-up), cannot be read, or is not a list."""
    try:
        if not path.exists():
            return []
        if not path.is_file():
            raise OSError("not a regular file")
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        log.warning("%s cannot be read (%s); %s", path, exc, otherwise)
        return []
    if not isinstance(raw, list):
        log.warning("%s is not a list; %s", path, otherwise)
        return []
    return raw


def write_list(path: Path, items: list) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(items, indent=1), encoding="utf-8")
    tmp.replace(path)
