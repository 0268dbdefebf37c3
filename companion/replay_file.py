"""`companion replay`: a file of JSON actions applied to a new game, the final view printed.

A file that `companion journal export --game N` wrote replays the game as it was played: its
setup line says ``"recorded": true``, so its options are the journal's own (a game begun before a
rule's reading keeps the reading it was played with, where a new game's options would take
today's), and each action is applied at its own ``at`` (a timer's expiry is refused before its
deadline, which a replay at today's time would never reach). A file written by hand is a new
game, its actions applied now.
"""

from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from companion import strict_json
from companion.actions import Action
from companion.errors import BadJSON, CompanionError
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session


class RecordedClock:
    """The time of the action being replayed (its ``at``), else the wall clock."""

    def __init__(self) -> None:
        self.at: float | None = None

    def __call__(self) -> float:
        return self.at if self.at is not None else time.time()

    def follow(self, record: Any) -> None:
        at = _at(record)
        if at is not None:
            self.at = at


def _at(record: Any) -> float | None:
    """The line's ``at`` where it is a time (_time_order names any other)."""
    at = record.get("at") if isinstance(record, dict) else None
    if isinstance(at, bool) or not isinstance(at, (int, float)):
        return None
    try:
        return float(at) if math.isfinite(at) else None
    except OverflowError:        # an int of hundreds of digits: JSON has it, a float does not
        return None


def _time_order(records: list[tuple[int, Any]]) -> tuple[str | None, list[str]]:
    """(the first line whose ``at`` is no time, the lines whose ``at`` is earlier than the latest
    before them). Each action is applied at its own ``at``, as start-up applies a journal's, so a
    file that goes back in time still replays as the table played it: a Pi's clock can step back
    mid-game (no clock of its own until the network sets it), and `journal export` writes what it
    stamped. A file edited by hand or two merged go back too; the warning names the line, where
    a timer's expiry refused further on ("still has time left") would not."""
    latest: tuple[int, float, Any] | None = None     # line, time, the time as written
    earlier = []
    for number, record in records:
        at = _at(record)
        if at is None:
            if isinstance(record, dict) and record.get("at") is not None:
                return (f"{number}: 'at' must be a number of seconds "
                        f"(got {str(record['at'])[:40]})"), earlier
            continue
        if latest is not None and at < latest[1]:
            earlier.append(f"{number}: warning: its \"at\" {record['at']} is earlier than "
                           f"{latest[2]} on line {latest[0]} (the clock went back, or the file "
                           "is out of order); it is applied at its own time")
        latest = (number, at, record["at"])
    return None, earlier


def run(path: Path, game: str, seed: int | None, players: str | None, components: str | None,
        out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"companion replay: cannot read {path}: {exc}", file=err)
        return 2
    options: dict = {"players": players.split(",")} if players else {}
    recorded = False
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            records.append((number, strict_json.loads(line, what="the line")))
        except BadJSON as exc:
            print(f"{path}:{number}: {exc}", file=err)
            return 2
    if records and isinstance(records[0][1], dict) and "setup" in records[0][1]:
        first = records.pop(0)[1]
        if not isinstance(first["setup"], dict):
            print(f"{path}: the setup line's \"setup\" must be an object", file=err)
            return 2
        options = {**first["setup"], **options}
        seed = first.get("seed", 0) if seed is None else seed
        recorded = first.get("recorded") is True
    seed = 0 if seed is None else seed
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63:
        print(f"{path}: the seed must be a whole number from 0 (got {str(seed)[:40]})", file=err)
        return 2
    untimely, earlier = _time_order(records)
    if untimely:
        print(f"{path}:{untimely}", file=err)
        return 2
    for warning in earlier:
        print(f"{path}:{warning}", file=err)
    clock = RecordedClock()
    if records:
        clock.follow(records[0][1])
    with Journal(":memory:") as journal:
        try:
            session = _begin(journal, clock, game, options, seed, recorded, components)
        except CompanionError as exc:
            print(f"{path}: cannot start {game}: {exc}", file=err)
            return 2
        for number, record in records:
            clock.follow(record)
            try:
                session.submit(Action.from_json(record))
            except CompanionError as exc:
                print(f"{path}:{number}: {exc}", file=err)
                return 2
        view = session.view()
    print(json.dumps({k: view[k] for k in ("seq", "game", "state", "expect", "outcome")},
                     indent=2), file=out)
    return 0


def _begin(journal: Journal, clock: RecordedClock, game: str, options: dict[str, Any],
           seed: int, recorded: bool, components: str | None) -> Session:
    """A session playing the file's game: a recorded game set up from its own options, as
    start-up sets up the game a journal holds; any other a new game."""
    catalog = Catalog(components)
    if not recorded:
        session = Session(journal, catalog, clock=clock)
        session.start(game, options, seed=seed)
        return session
    catalog(game)                                     # an unknown game is refused by name
    journal.start_game(game, options, seed, clock())
    session = Session(journal, catalog, clock=clock)
    view = session.view()
    if view["game"] is None:                          # the recorded options no longer set it up
        held = [n["text"] for n in view["notices"] if n.get("kind") == "held"]
        raise CompanionError(held[0] if held else "the recorded options set up no game")
    return session
