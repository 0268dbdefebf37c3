"""What start-up makes of the journal's game in progress: its effective actions, and, when it
cannot be rebuilt, whether the journal is damaged (start-up recovers the intact prefix) or this
companion changed since the game was played (the game is held back, the journal kept whole).

A checksum vouches for every entry this companion writes: an entry that passes it holds what
was acknowledged. So when the rules refuse such an entry on replay, or the game's options no
longer set it up, the component data or the version changed, not the journal, and cutting the
journal would lose acknowledged moves and mend nothing. An older journal's entries carry no
checksum: for them a refusal is the only sign of damage.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from companion import undo
from companion.errors import JournalDamage, Unplayable
from companion.games.base import Game
from companion.journal import GameRecord
from companion.rng import rng_for

KEPT = ("The journal keeps it as it is: put back the component data (or the version) it was "
        "played with and restart to go on with it; a new game leaves it in the history.")


def set_up_again(catalog: Callable[[str], Game], record: GameRecord) -> tuple[Game, Any]:
    """``record``'s engine and game as set up. The record is intact (its CRC checks) and was set
    up once: if it cannot be now, this companion changed, not the journal."""
    try:
        engine = catalog(record.game)
        return engine, engine.setup(record.options, rng_for(record.seed, "setup"))
    except Exception as exc:  # noqa: BLE001 - whatever the data or the version now refuse
        raise Unplayable(
            f"The game in progress ({record.game}, game {record.id}) cannot be set up again "
            f"with this companion as it is now: {exc}. {KEPT}") from exc


def payload(path: str | Path, seq: int, text: str) -> Any:
    """An entry's payload; JournalDamage when its text is not JSON (checksum or not)."""
    try:
        return json.loads(text)
    except ValueError as exc:
        raise JournalDamage(f"{path}: entry {seq} (not an action) cannot be replayed: {exc}",
                            seq=seq, refused=True) from exc


def refused(path: str | Path, record: GameRecord, seq: int, payload: Any, exc: Exception,
            vouched: bool) -> Exception:
    """What to raise when the rules refuse entry ``seq`` on replay: Unplayable when a checksum
    vouches for it, JournalDamage when none does."""
    kind = payload.get("type") if isinstance(payload, dict) else "not an action"
    if not vouched:
        return JournalDamage(f"{path}: entry {seq} ({kind}) cannot be replayed: {exc}",
                             seq=seq, refused=True)
    return Unplayable(f"The game in progress ({record.game}, game {record.id}) cannot be "
                      f"replayed with this companion as it is now: its entry {seq} ({kind}), "
                      f"intact in the journal, is refused: {exc}. {KEPT}")


def steps(path: str | Path, record: GameRecord, rows: list, unvouched: set[int]):
    """``undo.effective`` of a game's rows: an undo entry that does not match the journal below
    it is damage where no checksum vouches for it, else a game held back, saying which entry
    (not the component data: nothing this companion changed would make it readable)."""
    try:
        return undo.effective(rows)
    except undo.BadUndo as exc:
        if exc.seq in unvouched:
            raise JournalDamage(f"{path}: entry {exc.seq} (undo) cannot be replayed: {exc}",
                                seq=exc.seq, refused=True) from exc
        raise Unplayable(f"The game in progress ({record.game}, game {record.id}) cannot be "
                         f"replayed: its {exc}. The journal keeps it as it is: restore a backup "
                         f"made before that entry (companion journal restore) to go on with it; "
                         f"a new game leaves it in the history.") from exc
