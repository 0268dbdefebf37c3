"""Undo takes back the latest game move and never turns back the clocks.

A timer's steps (start, pause, resume, add, cancel, the clock's expiry) are not moves: a table
that paused hero time and then undid "the pause" found the timer running from where it was before
the pause, long past its end, and the Hero Phase ended at once; after hero time ran out, Undo
offered only "the timer running out", which the clock sent again a second later. So Undo names
and takes back the latest step that is not a timer's; the timer steps above it stay, applied
again at their own times to the table below (one the rules refuse there, such as hero time
paused in a Hero Phase the undone move began, is dropped too). The undo entry names the move it
takes back (``undoes``) and the timer steps it dropped (``drops``), so that start-up rebuilds the
same stack from the journal alone; an older journal's undo always named the top step, and
replays as it did. A clock the undone move stopped (hero time, when the last hero's Done ended
the Hero Phase) stood still from that move to the undo: the undo gives that time back (``gives``,
replayed as a ``timer.add`` step of its own seq), or the phase it brings back would end at once.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable

from companion.actions import Action
from companion.errors import CompanionError, IllegalAction
from companion.fold import Table
from companion.history import History, Step
from companion.timers import MAX_SECONDS, TIMER_ACTIONS

Apply = Callable[[Table, Action, int], Table]      # (table, action, depth) -> the table after


def is_timer(step: Step) -> bool:
    try:
        return json.loads(step[1]).get("type") in TIMER_ACTIONS
    except (ValueError, AttributeError):
        return False


def is_move(step: Step) -> bool:
    return not is_timer(step)


def target(steps: list[Step], timers: dict[int, bool] | None = None) -> int | None:
    """The position of the step Undo takes back: the latest that is not a timer's. ``timers``
    keeps what each step was found to be (by seq), so a run of timer steps under many undos is
    read once, not once for each undo."""
    for i in range(len(steps) - 1, -1, -1):
        seq = steps[i][0]
        timer = timers.get(seq) if timers is not None else None
        if timer is None:
            timer = is_timer(steps[i])
            if timers is not None:
                timers[seq] = timer
        if not timer:
            return i
    return None


def next_undo(stack: History) -> Step | None:
    """The step the next undo would take back (the view's ``undo``)."""
    i = stack.latest_move()
    return None if i is None else stack.steps[i]


class Plan:
    """An undo worked out on ``stack`` without changing it: the step it takes back, the timer
    steps above it kept (each with its table) and dropped. ``carry_out`` once it is journaled."""

    def __init__(self, stack: History, apply: Apply, at: tuple[int, float] | None = None,
                 clocks: Callable[[Any], dict[str, Any]] | None = None):
        i = stack.latest_move()
        if i is None:
            raise IllegalAction("there is nothing to undo since the game started (the timers "
                                "are paused, resumed and given time with their own buttons)")
        self.stack, self.position, self.undone = stack, i, stack.steps[i]
        table = stack.table_at(i)
        stopped = _stopped(table, stack.table_at(i + 1), clocks) if at and clocks else []
        self.kept: list[tuple[Step, Table]] = []
        self.drops: list[int] = []
        for step in stack.steps[i + 1:]:
            try:
                table = apply(table, Action.from_json(json.loads(step[1])), i + len(self.kept))
            except CompanionError:
                self.drops.append(step[0])
                continue
            self.kept.append((step, table))
        self.gives: dict[str, Any] | None = None
        gap = at[1] - (json.loads(self.undone[1]).get("at") or at[1]) if stopped else 0.0
        if gap > 0:
            # the undone move stopped this clock (the Hero Phase it ended): the time it stood
            # still is not taken from it now that the move is gone
            gives = {"name": stopped[0], "seconds": min(gap, MAX_SECONDS), "at": at[1]}
            try:
                table = apply(table, Action.from_json(json.loads(given(gives))),
                              i + len(self.kept))
                self.kept.append(((at[0], given(gives)), table))
                self.gives = gives
            except CompanionError:
                pass            # the clock refuses time now: it goes on as it stands
        self.table = table
        self.below = stack.latest_move(below=i)     # what the next undo would take back

    @property
    def next_undo(self) -> Step | None:
        return None if self.below is None else self.stack.steps[self.below]

    @property
    def gone(self) -> list[int]:
        """The entries this undo takes out of the game: the move, the timer steps dropped."""
        return [self.undone[0], *self.drops]

    def payload(self, source: str) -> dict[str, Any]:
        extra = {"drops": self.drops} if self.drops else {}
        if self.gives:
            extra["gives"] = self.gives
        return {"type": "undo", "undoes": self.undone[0], "source": source, **extra}

    def carry_out(self) -> None:
        self.stack.take_back(self.position, self.kept, self.below)


def _stopped(before: Table, after: Table, clocks: Callable[[Any], dict[str, Any]]) -> list[str]:
    """The timers running below the move and stopped by it, not run out (hero time when a
    hero's "done" ended the Hero Phase): a table's own timers only stop by their own steps."""
    was, now = clocks(before.game), clocks(after.game)
    return [n for n, t in was.items() if t.running and n in now
            and not now[n].running and not now[n].expired]


def given(gives: dict[str, Any]) -> str:
    """The timer step an undo adds after the steps it kept, as the journal text replayed at
    start-up: the time its clock stood still under the move taken back, given back."""
    action = Action("timer.add", data={"name": gives["name"], "seconds": gives["seconds"]},
                    source="undo", at=gives["at"])
    return json.dumps(action.to_json(), sort_keys=True)


class BadUndo(CompanionError, ValueError):
    """An undo entry that does not match the journal below it (one written by hand, or
    damaged): it names no standing move, or drops what is not a timer's step above it."""

    def __init__(self, seq: int, why: str):
        super().__init__(f"undo entry {seq} {why}")
        self.seq = seq


def remove(steps: list[Step], entry_text: str, seq: int = 0,
           timers: dict[int, bool] | None = None) -> Step | None:
    """Start-up's part: ``steps`` less what the undo entry ``seq`` took back (in place); returns
    the step it took back. An undo naming no step (the oldest journals) took back the top one.
    BadUndo where the entry names other steps than the undo made then would have."""
    try:
        entry = json.loads(entry_text)
    except (ValueError, RecursionError):
        entry = None
    if not isinstance(entry, dict):     # taken for the oldest kind, it took back a timer's step
        raise BadUndo(seq, "is not an undo entry (its text is not a JSON object)")
    undoes = entry.get("undoes")
    if undoes is None:
        return steps.pop() if steps else None
    drops = entry.get("drops", [])
    if type(undoes) is not int or not isinstance(drops, list) or any(type(d) is not int for d in drops):
        raise BadUndo(seq, f"names its steps as {str(undoes)[:40]!r} and {str(drops)[:40]!r}, "
                           "not as entry numbers")
    # the latest move (this undo's reading), or the top step (the reading before it, when an
    # undo took back a timer's step too: it dropped nothing)
    if steps and steps[-1][0] == undoes and not drops:
        i = len(steps) - 1
    else:
        i = target(steps, timers)
        if i is None or steps[i][0] != undoes:
            latest = "none" if i is None else f"entry {steps[i][0]}"
            raise BadUndo(seq, f"says it took back entry {undoes}, but the latest move "
                               f"standing then was {latest}")
    above = {s[0]: s for s in steps[i + 1:]}            # timer steps only: ``target`` says so
    stray = [d for d in drops if d not in above]
    if stray:
        raise BadUndo(seq, f"drops entry {stray[0]}, which is not a timer's step above the move "
                           "it took back")
    undone = steps[i]
    gone = set(drops)
    steps[i:] = [s for s in steps[i + 1:] if s[0] not in gone]
    return undone


def effective(entries: Iterable[tuple[int, str, str, bool]]) -> tuple[list[Step], Step | None]:
    """A game's entries (seq, kind, text, vouched) less the ones undone, each undo with them;
    and the step the last entry took back, when it is an undo (the table's "Undone" line)."""
    steps: list[Step] = []
    undone = None
    timers: dict[int, bool] = {}
    for seq, kind, text, _vouched in entries:
        if kind != "undo":
            steps.append((seq, text))
            undone = None
        else:
            undone = remove(steps, text, seq, timers)
            gives = json.loads(text).get("gives")
            if gives is not None:
                try:
                    steps.append((seq, given(gives)))
                except (KeyError, TypeError) as exc:
                    raise BadUndo(seq, f"gives time back as {str(gives)[:40]!r}") from exc
    return steps, undone
