"""Snapshots: the table as it stood after an action, kept in the journal beside that action.

A game of ten thousand actions then starts by replaying the few after its last snapshot, and an
undo far back replays from the nearest snapshot below (companion/history.py). A snapshot is a
cache of what the journal already says, never the truth: every EVERY effective actions the
session stores the table after that action in the same transaction as its entry, with the
game's state through the engine's ``save_state`` (by default companion/state_codec.py: JSON,
no pickle) and the table's own timers and camera read beside it.

A snapshot names what made it (``made_by``): the engine and its ``state_version``, a fingerprint
of the code that folds actions into states (the engine's files and the core's rules), one of the
component data in use, and the camera's read threshold. One made by anything else is stale and
ignored, as is one whose checksum, or the entry it follows, does not match (journal_rows): the
entries are replayed instead. And a snapshot is only written once its body, decoded again,
equals the table it was made from; an engine whose states do not come back equal is never
snapshotted (it logs why, once) and replays its journal from the start.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import json
import logging
import weakref
from pathlib import Path
from typing import Any

from companion import state_codec, strict_json
from companion.errors import BadJSON
from companion.fold import Table
from companion.games.base import Game

log = logging.getLogger(__name__)
EVERY = 64          # effective actions between snapshots: a start or a far undo replays fewer
CORE = Path(__file__).resolve().parent
# The core's part in folding an action into a table; the engine's own files are added to it.
RULES = ("fold.py", "timers.py", "dice_reads.py", "dice.py", "last_roll.py", "actions.py", "schema.py",
         "rng.py", "state_codec.py", "games/base.py", "games/move_table.py")
_made_by: weakref.WeakKeyDictionary[Game, dict[float, str]] = weakref.WeakKeyDictionary()
_refused: set[str] = set()


def made_by(engine: Game, threshold: float) -> str:
    """What a snapshot of ``engine``'s tables must have been made by to be trusted here."""
    known = _made_by.setdefault(engine, {})
    if threshold not in known:
        code = hashlib.sha256()
        for path in _code_files(engine):
            code.update(path.name.encode() + b"\0" + path.read_bytes())
        data = json.dumps(engine.components(), sort_keys=True, default=repr).encode()
        known[threshold] = (f"{engine.name}/v{engine.state_version}/code:{code.hexdigest()[:16]}"
                            f"/data:{hashlib.sha256(data).hexdigest()[:16]}/threshold:{threshold!r}")
    return known[threshold]


def _code_files(engine: Game) -> list[Path]:
    """The files whose change could change a state: the core's rules and the engine's own
    folder (for an engine of flat modules, every module beside it)."""
    files = [CORE / name for name in RULES]
    here = Path(inspect.getfile(type(engine))).resolve().parent
    files += sorted(p for p in here.glob("*.py") if p not in files)
    return [p for p in files if p.is_file()]


def save(engine: Game, table: Table) -> str | None:
    """The table as a snapshot's body, or None where this engine's tables cannot be restored
    exactly (then it is never tried again in this process)."""
    if engine.name in _refused:
        return None
    try:
        body = strict_json.dumps(_encode(engine, table), separators=(",", ":"))
        again = load(engine, body, table)
    except (state_codec.NotRestorable, BadJSON, TypeError, ValueError) as exc:
        return _refuse(engine, str(exc))
    if again != table:
        return _refuse(engine, "a state read back from its snapshot differs from the state")
    return body


def load(engine: Game, body: str, first: Table) -> Table:
    """The table a snapshot's body holds; ``first`` is the game's first table (its data).
    Raises NotRestorable or BadJSON when the body cannot be brought back."""
    raw = strict_json.loads(body, what="the snapshot", max_depth=64)
    if not isinstance(raw, dict) or "game" not in raw:
        raise state_codec.NotRestorable("not a snapshot of a table")
    game = engine.load_state(raw["game"], first.game)
    rest = state_codec.decode(Table, {**raw, "game": None})
    return dataclasses.replace(rest, game=game)


def fetch(journal: Any, engine: Game, threshold: float, game_id: int, first: Table, seq: int,
          depth: int) -> Table | None:
    """The journal's snapshot after entry ``seq`` when it is intact, of this game at this
    depth, and made by this code and data; else None (the entries are replayed instead)."""
    found = journal.snapshot(seq)
    if found is None or found.depth != depth or found.game_id != game_id:
        return None
    if found.made_by != made_by(engine, threshold):
        log.info("the snapshot after entry %s was made by %s, not %s: replaying instead",
                 seq, found.made_by, made_by(engine, threshold))
        return None
    try:
        return load(engine, found.body, first)
    except (state_codec.NotRestorable, BadJSON) as exc:
        log.warning("the snapshot after entry %s cannot be used (%s): replaying instead", seq, exc)
        return None


def _encode(engine: Game, table: Table) -> dict[str, Any]:
    out = state_codec.encode(dataclasses.replace(table, game=None))
    out["game"] = engine.save_state(table.game)
    return out


def _refuse(engine: Game, why: str) -> None:
    _refused.add(engine.name)
    log.warning("%s: no journal snapshots (%s); its games replay from the start", engine.name, why)
    return None
