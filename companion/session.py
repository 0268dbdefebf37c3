"""The session: checks each action against the game's rules, journals it, applies it, publishes.

State is a pure function of the journal: ``fold(step, actions, setup(seed))``, with ``step`` in
companion/fold.py. The session keeps what the fold does not: the order of the table's changes
(its lock), the journal, what undo can take back (companion/history.py: no table kept per
action, snapshots in the journal) and each change's view, made once (companion/views.py).

An action is checked, applied and queued for the journal under the lock, so the journal's
order is the order the actions were applied in; then the lock is let go and the action waits
for its fsync, which it may share with other clients' actions (companion/journal_commit.py).
Nothing is answered or published before it is on disk, and changes are published in the
journal's order: every screen shows only what the journal has. An action applies on top of one
still waiting for its fsync and is queued behind it; if that commit fails, both fail, and the
session reads the journal again before taking another. An action sent with ``if_seq`` first
waits until every change queued before it is on disk, so a client is only told of a conflict
with a change it could have seen.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from companion import crossed_taps, dice_reads, fold, resume, snapshots, undo
from companion.actions import Action
from companion.errors import (BadAction, CompanionError, IllegalAction, NoGame, SetupError,
                              Stale, Unplayable)
from companion.events import EventBus, Listener
from companion.fold import Table
from companion.games.base import Game
from companion.history import History, Step
from companion.journal import KEEP, GameRecord, Journal
from companion.notices import standing
from companion.refusals import Refusals
from companion.rng import rng_for
from companion.timers import TIMER_ACTIONS
from companion.views import Change, View, Views

log = logging.getLogger(__name__)
Sink = Callable[[Change], None]


class Session:
    def __init__(self, journal: Journal, catalog: Callable[[str], Game],
                 clock: Callable[[], float] = time.time,
                 read_threshold: float = dice_reads.DEFAULT_THRESHOLD):
        self.journal, self.catalog, self.clock = journal, catalog, clock
        self.read_threshold = read_threshold
        self._lock = threading.RLock()          # the order of changes: apply, then queue
        self._shown = threading.Condition()     # the latest change on disk, for wait()
        self._bus = EventBus()
        self.refusals = Refusals()     # news of a moment: never journaled, never in the view
        self._sinks: list[Sink] = []
        self._views = Views()
        self._record: GameRecord | None = None
        self._engine: Game | None = None
        self._stack: History | None = None
        self._seq = 0                            # the latest change queued for the journal
        self._written: Any = None                # the result the journal's games row holds
        self._notices: list[dict[str, Any]] = []   # recovery notices: in the view until read
        self._held: dict[str, Any] | None = None   # why the game in progress is not resumed
        self._latest: Change | None = None       # the latest change on disk: what all see
        self._unvouched: set[int] = set()        # entries no checksum vouches for (old journals)
        journal.on_durable = self._durable
        self._load()

    # -- start-up: replay the journal ----------------------------------------------------------

    def _load(self) -> None:
        """Rebuild the game in progress: its effective actions, replayed from the deepest usable
        snapshot (companion/resume.py: what is damage, and what is a game held back)."""
        with self._lock:
            self._seq = self.journal.last_seq()
            self._record = self._engine = self._stack = self._undone = None
            record = self.journal.current_game()
            if record is not None:
                try:
                    self._resume(record)
                except Unplayable as exc:
                    log.warning("%s", exc)
                    self._record = self._engine = self._stack = None
                    self._held = {"kind": "held", "text": str(exc)}
                    self._notices = [*self._notices, self._held]
            self._show(self._make_change(self.clock(), self._undone))

    def _resume(self, record: GameRecord) -> None:
        self._begin(record)
        rows = self.journal.steps(record)
        self._unvouched = {seq for seq, _kind, _text, vouched in rows if not vouched}
        steps, undone = resume.steps(self.journal.path, record, rows, self._unvouched)
        self._undone = _undo(undone)        # the "Undone" line, as before a stop
        self._stack.restore(steps, self.journal.snapshots(record.id))
        self._keep_checkpoint()

    def _begin(self, record: GameRecord) -> None:
        engine, game = resume.set_up_again(self.catalog, record)
        self._record, self._engine, self._written = record, engine, record.result
        self._stack = History(Table(game), self._replay, self._fetch, undo.is_move)

    def _replay(self, table: Table, depth: int, step: Step) -> Table:
        seq, text = step
        payload = resume.payload(self.journal.path, seq, text)
        try:
            return self._step(table, Action.from_json(payload), depth)
        except Exception as exc:  # noqa: BLE001 - damage, or a companion changed since
            raise resume.refused(self.journal.path, self._record, seq, payload, exc,
                                 vouched=seq not in self._unvouched) from exc

    def _fetch(self, seq: int, depth: int) -> Table | None:
        return snapshots.fetch(self.journal, self._engine, self.read_threshold,
                               self._record.id, self._stack.first, seq, depth)

    def _keep_checkpoint(self) -> None:
        """After a start-up that had to replay past a checkpoint (no usable snapshot: new code,
        new data), save the deepest one so the next start-up does not replay it all again."""
        found = self._stack.unsaved_checkpoint()
        if found is None:
            return
        depth, (seq, _text), table = found
        body = snapshots.save(self._engine, table)
        if body is not None:
            self.journal.save_snapshot(seq, self._record.id, depth,
                                       snapshots.made_by(self._engine, self.read_threshold), body)
            self._stack.saved(depth)

    # -- the public surface ---------------------------------------------------------------------

    @property
    def seq(self) -> int:
        return self._latest.seq

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
            options = engine.record_box(engine.prepare_options(options, self.history(limit=200)))
            engine.setup(options, rng_for(seed, "setup"))  # raises before anything is journaled
        with self._lock:
            self._heal()
            record = self.journal.start_game(game, options, seed, self.clock())
            self._begin(record)
            self._seq = record.start_seq
            return View.of(self._show(self._make_change(self.clock())))

    def close_game(self) -> dict[str, Any]:
        with self._lock:
            self._heal()
            if self._record is None:
                raise NoGame("no game is in progress")
            self._seq = self.journal.close_game(self._record.id, self.clock())
            self._record = self._engine = self._stack = None
            return View.of(self._show(self._make_change(self.clock())))

    def submit(self, action: Action | dict[str, Any], if_seq: int | None = None) -> View:
        """Check, journal, apply and publish one action; returns the new view (its bytes as
        ``.body``), once the journal has it on disk. Raises BadAction or IllegalAction (nothing
        journaled), Stale when ``if_seq`` is stale (companion/crossed_taps.py: when a tap that
        crossed others' stands), NoGame when no game is in progress."""
        if not isinstance(action, Action):
            action = Action.from_json(action)
        while True:
            with self._lock:
                self._heal()
                if self._record is None:
                    raise NoGame("no game is in progress: start one first")
                before = self._seq
                if if_seq is None or self._latest.seq == before:
                    if if_seq is not None and if_seq != before and not crossed_taps.stands(
                            self._engine, self._stack, action, if_seq, before):
                        raise Stale(
                            f"the table changed since you looked (now at {before}, you saw "
                            f"{if_seq}): look again and retry")
                    change = self._queue(action.stamped(self.clock()))
                    break
            self.journal.sync(before)          # if_seq: what it is compared with, on disk
        self.journal.sync(change.seq)
        return View.of(change)

    def view(self) -> dict[str, Any]:
        """What every client sees: seq, game, state, expect, reminders, timers, outcome."""
        return self._latest.at(self.clock())

    def wait(self, after_seq: int, timeout: float) -> dict[str, Any] | None:
        """Block until the seq passes ``after_seq`` (or the timeout); the latest view wins."""
        with self._shown:
            if not self._shown.wait_for(lambda: self._latest.seq > after_seq, timeout):
                return None
        return self.view()

    def set_notices(self, notices: list[dict[str, Any]], read: bool = False) -> None:
        """What the table must be told that is not the game (a recovered journal, a game held
        back) in every view as ``notices`` (its "Undone" line kept); ``read``: all were read."""
        with self._lock:
            self._heal()
            self.journal.flush()               # the table shown must be on disk
            if read:
                self._held = None               # the game held back stays in the journal
            self._notices = list(notices) + ([self._held] if self._held else [])
            self._show(self._make_change(self.clock(), self._latest.view.get("undone")))

    def add_listener(self, listener: Listener) -> None:
        """``listener(view)`` on the event bus's thread after every change (LEDs, backups)."""
        self._bus.add(listener)

    def remove_listener(self, listener: Listener) -> None:
        self._bus.remove(listener)

    def add_sink(self, sink: Sink) -> None:
        """``sink(change)`` right after each change is on disk, in order, on the thread that
        committed it: keep it to handing the bytes on (the event streams' hub)."""
        self._sinks.append(sink)

    def undo_preview(self) -> dict[str, Any] | None:
        """The action an undo would take back, so a control can say what it will undo."""
        return self._latest.view.get("undo")

    def history(self, limit: int = 50) -> list[dict[str, Any]]:
        return [
            {"id": r.id, "game": r.game, "options": r.options, "seed": r.seed,
             "started_at": r.started_at, "closed_at": r.closed_at,
             "outcome": r.result or {"status": "playing"},
             "held": r.closed_at is None and self._record is None,   # the journal keeps it
             "current": self._record is not None and r.id == self._record.id}
            for r in self.journal.history(limit)
        ]

    def running_timers(self) -> dict[str, float]:
        """Deadline of every running timer, by name (the ticker expires them)."""
        with self._lock:
            table = self._top()
            if table is None or (self._latest.outcome or {}).get("status", "playing") != "playing":
                return {}     # a game over times nothing: no "Time's up!" after "You won"
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

    def confirm_read(self, read_id: str, faces: list[str | None] | None = None,
                     source: str = "dashboard", added: list[str] | None = None) -> dict[str, Any]:
        """The players confirm the waiting camera read with one tap, or correct it (dice_reads:
        ``faces`` die by die, None: no die; ``added``: dice missed); Conflict once it is gone."""
        data = {"id": read_id, **({"faces": faces} if faces is not None else {}),
                **({"added": added} if added else {})}
        return self.submit(Action("dice.confirm", data=data, source=source))

    # -- internals ------------------------------------------------------------------------------

    def _top(self) -> Table | None:
        return self._stack.top() if self._stack is not None else None

    def _step(self, table: Table, action: Action, depth: int) -> Table:
        return fold.step(self._engine, table, action, rng_for(self._record.seed, depth),
                         self.read_threshold, self._views.expect_of(table.game))

    def _queue(self, action: Action) -> Change:
        """Apply ``action`` (stamped) to the top and queue its entry; under the lock."""
        stack, record, now = self._stack, self._record, action.at
        seq = self.journal.next_seq()
        snapshot = None
        if action.type == "undo":      # the latest move; never the clocks (companion/undo.py)
            plan = undo.Plan(stack, self._step, (seq, now), self._engine.timers)
            self._notices = standing(self._notices, record, plan.gone)
            change = self._views.change(seq, record, self._engine, plan.table, _undo(plan.next_undo),
                                        self._notices, now, undone=_undo(plan.undone))
            kind, payload = "undo", plan.payload(action.source)
        else:
            with _refused_unless_clean(BadAction, action.type):
                table = self._step(stack.top(), action, stack.depth)
                after = (_undo(undo.next_undo(stack)) if action.type in TIMER_ACTIONS
                         else {"seq": seq, "action": action.to_json()})
                change = self._views.change(seq, record, self._engine, table, after,
                                            self._notices, now)
            kind, payload = "action", action.to_json()
            if stack.needs_snapshot(stack.depth + 1):
                body = snapshots.save(self._engine, table)
                if body is not None:
                    snapshot = (stack.depth + 1,
                                snapshots.made_by(self._engine, self.read_threshold), body)
        result = KEEP
        if change.outcome != self._written:
            result = self._written = change.outcome
        queued, text = self.journal.queue(record.id, kind, payload, now, result=result,
                                          snapshot=snapshot, token=change)
        assert queued == seq, (queued, seq)    # every write is queued under this lock
        if kind == "undo":
            plan.carry_out()
        else:
            stack.push(seq, text, table, saved=snapshot is not None,
                       move=action.type not in TIMER_ACTIONS)
        self._seq = seq
        return change

    def _heal(self) -> None:
        """After a failed commit: read the journal again, so the table is what it holds."""
        if self.journal.broken:
            log.warning("a journal write failed: reading the journal again")
            self.journal.reset_writes()
            self._load()

    def _make_change(self, now: float, undone: dict[str, Any] | None = None) -> Change:
        self._notices = standing(self._notices, self._record)   # those of another game go
        table = self._top()
        if table is None:
            return Views.empty(self._seq, self._notices, now)
        return self._views.change(self._seq, self._record, self._engine, table,
                                  _undo(undo.next_undo(self._stack)), self._notices, now,
                                  undone=undone)

    def _durable(self, changes: list[Change]) -> None:
        """The journal has these on disk (in order): show them."""
        for change in changes:
            self._show(change)

    def _show(self, change: Change) -> Change:
        with self._shown:
            self._latest = change
            self._shown.notify_all()
        for sink in self._sinks:
            try:
                sink(change)
            except Exception:  # a sink's bug must not stop the others
                log.exception("sink %r failed on change %s", sink, change.seq)
        self._bus.publish(change.view)
        return change


def _undo(step: Step | None) -> dict[str, Any] | None:
    """What an undo would take back, for the view."""
    return None if step is None else {"seq": step[0], "action": json.loads(step[1])}


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
