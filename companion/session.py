"""The session: checks each action against the game's rules, journals it, applies it, publishes.

State is a pure function of the journal: ``fold(step, actions, setup(seed))``, with ``step`` in
companion/fold.py. The session keeps what the fold does not: the lock, the journal, the stack of
states and publishing. Each effective action keeps the table after it on a stack, so undo pops in
constant time and the journal only gains an undo entry; at start-up the stack is rebuilt by
replaying the journal.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from companion import dice_reads, fold
from companion.actions import Action
from companion.errors import (BadAction, CompanionError, Conflict, IllegalAction, JournalDamage,
                              NoGame, SetupError)
from companion.events import EventBus, Listener
from companion.fold import Table
from companion.games.base import Game
from companion.journal import GameRecord, Journal
from companion.refusals import Refusals
from companion.rng import rng_for

log = logging.getLogger(__name__)
@dataclass
class _Step:
    seq: int
    action: Action
    table: Table


class Session:
    def __init__(self, journal: Journal, catalog: Callable[[str], Game],
                 clock: Callable[[], float] = time.time,
                 read_threshold: float = dice_reads.DEFAULT_THRESHOLD):
        self.journal = journal
        self.read_threshold = read_threshold
        self.catalog = catalog
        self.clock = clock
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._bus = EventBus()
        self.refusals = Refusals()     # news of a moment: never journaled, never in the view
        self._record: GameRecord | None = None
        self._engine: Game | None = None
        self._base: Table | None = None
        self._stack: list[_Step] = []
        self._seq = 0
        self._view: dict[str, Any] | None = None
        self._notices: list[dict[str, Any]] = []   # recovery notices: in the view until read
        self._load()

    # -- start-up: replay the journal ----------------------------------------------------------

    def _load(self) -> None:
        """Replay the current game. An entry the rules refuse on replay was accepted when it was
        written, so the journal no longer says what happened: that is JournalDamage (start-up
        recovers what comes before it), never a rules message about a move nobody made."""
        with self._lock:
            self._seq = self.journal.last_seq()
            record = self.journal.current_game()
            if record is not None:
                self._begin(record)
                for entry in self.journal.entries(record.id):
                    if entry.kind == "undo":
                        if self._stack:
                            self._stack.pop()
                        continue
                    try:
                        action = Action.from_json(entry.payload)
                        table = self._apply(self._top(), action)
                    except Exception as exc:  # noqa: BLE001 - any refusal here is damage
                        raise JournalDamage(
                            f"{self.journal.path}: entry {entry.seq} ({entry.payload.get('type')}) "
                            f"cannot be replayed: {exc}", seq=entry.seq, refused=True) from exc
                    self._stack.append(_Step(entry.seq, action, table))
            self._refresh()

    def _begin(self, record: GameRecord) -> None:
        engine = self.catalog(record.game)     # an engine this build lacks is no damage
        try:
            game = engine.setup(record.options, rng_for(record.seed, "setup"))
        except Exception as exc:  # noqa: BLE001 - it was set up once: the record is damaged
            raise JournalDamage(f"{self.journal.path}: game {record.id} cannot be set up again: "
                                f"{exc}", seq=record.start_seq) from exc
        self._record, self._engine = record, engine
        self._base, self._stack = Table(game), []

    # -- the public surface ---------------------------------------------------------------------

    @property
    def seq(self) -> int:
        return self._seq

    def start(self, game: str, options: dict[str, Any] | None = None,
              seed: int | None = None) -> dict[str, Any]:
        """Start a new game; the one in progress, if any, is closed and stays in the history."""
        options = dict(options or {})
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise SetupError("seed must be a whole number from 0")
        try:
            json.dumps(options)
        except (TypeError, ValueError) as exc:
            raise SetupError(f"options must be plain JSON ({exc})") from exc
        engine = self.catalog(game)
        with _refused_unless_clean(SetupError, f"{game} options"):
            options = engine.prepare_options(options, self.history(limit=200))
            engine.setup(options, rng_for(seed, "setup"))  # raises before anything is journaled
        with self._lock:
            record = self.journal.start_game(game, options, seed, self.clock())
            self._begin(record)
            self._seq = record.start_seq
            self._changed_now()
            return self.view()

    def close_game(self) -> dict[str, Any]:
        with self._lock:
            if self._record is None:
                raise NoGame("no game is in progress")
            self._seq = self.journal.close_game(self._record.id, self.clock())
            self._record = self._engine = self._base = None
            self._stack = []
            self._changed_now()
            return self.view()

    def submit(self, action: Action | dict[str, Any], if_seq: int | None = None) -> dict[str, Any]:
        """Check, journal, apply and publish one action; returns the new view.

        Raises BadAction or IllegalAction (nothing journaled), Conflict when ``if_seq`` is
        stale, NoGame when no game is in progress. Returns only once the journal has it on disk.
        """
        if not isinstance(action, Action):
            action = Action.from_json(action)
        with self._lock:
            if self._record is None:
                raise NoGame("no game is in progress: start one first")
            if if_seq is not None and if_seq != self._seq:
                raise Conflict(
                    f"the table changed since you looked (now at {self._seq}, you saw {if_seq}): "
                    "look again and retry"
                )
            now = self.clock()
            action = action.stamped(now)
            if action.type == "undo":
                if not self._stack:
                    raise IllegalAction("there is nothing to undo since the game started")
                undone = self._stack[-1]
                self._seq = self.journal.append(
                    self._record.id, "undo", {"type": "undo", "undoes": undone.seq,
                                              "source": action.source}, now,
                    result=self._result(self._stack[-2].table if len(self._stack) > 1
                                        else self._base),
                )
                self._stack.pop()
            else:
                with _refused_unless_clean(BadAction, action.type):
                    table = self._apply(self._top(), action)
                self._seq = self.journal.append(
                    self._record.id, "action", action.to_json(), now, result=self._result(table)
                )
                self._stack.append(_Step(self._seq, action, table))
            self._changed_now()
            return self.view()

    def view(self) -> dict[str, Any]:
        """What every client sees: seq, game, state, expect, reminders, timers, outcome."""
        with self._lock:
            view = dict(self._view)
        timers = view.pop("_timers")
        now = self.clock()
        view["now"] = now
        view["timers"] = {name: t.to_json(now) for name, t in timers.items()}
        return view

    def wait(self, after_seq: int, timeout: float) -> dict[str, Any] | None:
        """Block until the seq passes ``after_seq`` (or the timeout); the latest view wins."""
        with self._changed:
            if not self._changed.wait_for(lambda: self._seq > after_seq, timeout):
                return None
        return self.view()

    def set_notices(self, notices: list[dict[str, Any]]) -> None:
        """What the table must be told that is not the game (a journal recovered at start-up):
        in every view as ``notices`` until cleared."""
        with self._lock:
            self._notices = list(notices)
            self._refresh()

    def add_listener(self, listener: Listener) -> None:
        self._bus.add(listener)

    def remove_listener(self, listener: Listener) -> None:
        self._bus.remove(listener)

    def undo_preview(self) -> dict[str, Any] | None:
        """The action an undo would take back, so a control can say what it will undo."""
        with self._lock:
            if not self._stack:
                return None
            step = self._stack[-1]
            return {"seq": step.seq, "action": step.action.to_json()}

    def history(self, limit: int = 50) -> list[dict[str, Any]]:
        return [
            {"id": r.id, "game": r.game, "options": r.options, "seed": r.seed,
             "started_at": r.started_at, "closed_at": r.closed_at,
             "outcome": r.result or {"status": "playing"},
             "current": self._record is not None and r.id == self._record.id}
            for r in self.journal.history(limit)
        ]

    def running_timers(self) -> dict[str, float]:
        """Deadline of every running timer, by name (the ticker expires them)."""
        with self._lock:
            table = self._top()
            if table is None:
                return {}
            timers = {**table.timers, **self._engine.timers(table.game)}
            return {n: t.deadline() for n, t in timers.items() if t.running}

    def tick(self) -> None:
        """Journal the expiry of every timer whose deadline has passed."""
        now = self.clock()
        for name, deadline in self.running_timers().items():
            if deadline is not None and deadline <= now:
                try:
                    self.submit(Action("timer.expire", data={"name": name}, source="clock"))
                except (IllegalAction, BadAction, NoGame):
                    pass  # the timer changed under us; the next tick looks again

    # -- internals ------------------------------------------------------------------------------

    def _top(self) -> Table | None:
        return self._stack[-1].table if self._stack else self._base

    def _apply(self, table: Table, action: Action) -> Table:
        rng = rng_for(self._record.seed, len(self._stack))
        return fold.step(self._engine, table, action, rng, self.read_threshold)

    def confirm_read(self, read_id: str, faces: list[str] | None = None,
                     source: str = "dashboard") -> dict[str, Any]:
        """The players confirm (or correct, die by die) the waiting camera read with one tap.
        Raises Conflict when that read is no longer the one waiting."""
        data: dict[str, Any] = {"id": read_id}
        if faces is not None:
            data["faces"] = faces
        return self.submit(Action("dice.confirm", data=data, source=source))

    def _result(self, table: Table) -> dict[str, Any] | None:
        return self._engine.outcome(table.game)

    def _changed_now(self) -> None:
        self._refresh()
        self._changed.notify_all()
        self._bus.publish(self.view())

    def _refresh(self) -> None:
        table = self._top()
        if table is None:
            self._view = {"seq": self._seq, "game": None, "state": None, "expect": None,
                          "reminders": [], "timers": {}, "outcome": None, "undo": None, "dice_read": None,
                          "last_roll": None, "notices": self._notices, "_timers": {}}
            return
        engine = self._engine
        timers = {**table.timers, **engine.timers(table.game)}
        self._view = {
            "seq": self._seq,
            "game": self._record.game,
            "game_id": self._record.id,
            "title": engine.title,
            "state": engine.to_json(table.game),
            "expect": engine.expect(table.game),
            "reminders": engine.reminders(table.game),
            "timers": {},
            "outcome": engine.outcome(table.game),
            "undo": self.undo_preview(),
            "dice_read": table.dice_read,
            "last_roll": table.last_roll,
            "notices": self._notices,
            "_timers": timers,
        }


@contextmanager
def _refused_unless_clean(error: type[CompanionError], what: str) -> Iterator[None]:
    """An engine that trips over odd input (a TypeError on a list where a name goes) refuses it
    instead of failing the request: nothing was journaled, and the log keeps the traceback so
    the missing check gets written. The rules' own refusals pass through unchanged."""
    try:
        yield
    except CompanionError:
        raise
    except Exception as exc:  # noqa: BLE001 - whatever the engine tripped over
        log.error("%s could not be used; refused", what, exc_info=exc)
        raise error(f"{what}: the data could not be used ({type(exc).__name__}: {exc})") from exc

