"""The game in progress as undo sees it: its effective actions, oldest first, and the tables
between them, without a table kept for every action.

Kept in memory: the game's first table, the tables after the latest WINDOW actions, and a
checkpoint every EVERY actions (the latest KEEP of them, and every one the journal holds no
snapshot of). Any other table is rebuilt by replaying the actions after the nearest table below
it, which may be a snapshot read back from the journal (``fetch``); the tables that replay
passes are kept until the game moves on past them, so undoing one action after another
replays each action at most once. The actions themselves are kept as their journal text, a few
hundred bytes each, and parsed only when replayed.

Replaying the effective actions reproduces the table: the action at position ``d`` was applied
to the table of the ``d`` actions below it with the generator of step ``d`` (companion/rng.py),
and what is below an action on the stack never changes while it is there.
"""

from __future__ import annotations

from typing import Callable

from companion.fold import Table
from companion.snapshots import EVERY

WINDOW = 16     # the latest tables, so a few undos in a row replay nothing
KEEP = 4        # checkpoints kept in memory although the journal has them
Step = tuple[int, str]                      # (seq, the entry's payload text)
Replay = Callable[[Table, int, Step], Table]
Fetch = Callable[[int, int], "Table | None"]  # (seq, depth) -> the journal's snapshot, if usable
IsMove = Callable[[Step], bool]             # a game move, not a timer's step (companion/undo.py)


class History:
    def __init__(self, first: Table, replay: Replay, fetch: Fetch = lambda seq, depth: None,
                 is_move: IsMove = lambda step: True):
        self.steps: list[Step] = []
        self._tables: dict[int, Table] = {0: first}
        self._saved: dict[int, int] = {}        # depth -> seq of a snapshot in the journal
        self._replay, self._fetch = replay, fetch
        self._swept = 1                          # tables below this depth are let go (but...)
        self.replayed = 0                        # actions replayed so far (start-up, undo)
        self._is_move = is_move
        self._latest: int | None = None          # the latest move's position, when ``_found``
        self._found = True

    @property
    def first(self) -> Table:
        return self._tables[0]

    @property
    def depth(self) -> int:
        return len(self.steps)

    def top(self) -> Table:
        return self._tables[len(self.steps)]

    def top_step(self) -> Step | None:
        return self.steps[-1] if self.steps else None

    def latest_move(self, below: int | None = None) -> int | None:
        """The position of the latest step that is a move, not a timer's (what Undo takes back),
        among the first ``below`` steps (all of them by default). Looked for once after a
        start-up, then kept by ``push`` and ``take_back``: a table's timer steps piling up
        (hero time's controls, a turn timer's time added again and again) are not looked
        through again for each one."""
        if below is None and self._found:
            return self._latest
        top = len(self.steps) if below is None else below
        found = next((i for i in range(top - 1, -1, -1) if self._is_move(self.steps[i])), None)
        if below is None:
            self._latest, self._found = found, True
        return found

    def restore(self, steps: list[Step], saved: dict[int, int]) -> Table:
        """Start-up: the effective actions as the journal has them and its snapshots (seq ->
        depth); the top table is rebuilt from the deepest snapshot still on the stack."""
        self.steps = list(steps)
        self._found = False
        depth_of = {seq: i + 1 for i, (seq, _text) in enumerate(self.steps)}
        self._saved = {depth: seq for seq, depth in saved.items() if depth_of.get(seq) == depth}
        return self.table_at(self.depth)

    def push(self, seq: int, text: str, table: Table, saved: bool = False,
             move: bool | None = None) -> None:
        """A new effective action and the table after it (``saved``: with a snapshot; ``move``:
        a game move, not a timer's step, when the caller knows it)."""
        self.steps.append((seq, text))
        depth = len(self.steps)
        if self._is_move(self.steps[-1]) if move is None else move:
            self._latest, self._found = depth - 1, True
        self._tables[depth] = table
        if saved:
            self._saved[depth] = seq
        for old in range(self._swept, depth - WINDOW + 1):
            self._forget(old)
        self._swept = max(self._swept, depth - WINDOW + 1)
        if depth % EVERY == 0:
            self._forget(depth - KEEP * EVERY)

    def take_back(self, position: int, kept: list[tuple[Step, Table]],
                  latest: int | None) -> None:
        """An undo (companion/undo.py): the actions from ``position`` up go, and ``kept`` (the
        timer steps above it, applied again to the table below, each with its table) take their
        place; ``latest`` is the latest move below ``position``. Nothing below is let go: the
        next undo asks for the tables there."""
        for depth in range(len(self.steps), position, -1):
            self._tables.pop(depth, None)
            self._saved.pop(depth, None)
        del self.steps[position:]
        for step, table in kept:
            self.steps.append(step)
            self._tables[len(self.steps)] = table
        self._latest, self._found = latest, True

    def needs_snapshot(self, depth: int) -> bool:
        return depth > 0 and depth % EVERY == 0 and depth not in self._saved

    def unsaved_checkpoint(self) -> tuple[int, Step, Table] | None:
        """The deepest checkpoint on the stack that is in memory but not in the journal (after
        a start-up that could not use the snapshots), to be saved: (depth, step, table)."""
        depth = self.depth - self.depth % EVERY
        if depth == 0 or depth in self._saved or depth not in self._tables:
            return None
        return depth, self.steps[depth - 1], self._tables[depth]

    def saved(self, depth: int) -> None:
        self._saved[depth] = self.steps[depth - 1][0]

    def table_at(self, depth: int) -> Table:
        """The table after the first ``depth`` effective actions (kept: it is the top now)."""
        if depth in self._tables:
            return self._tables[depth]
        start, table = self._nearest(depth)
        self._tables[start] = table
        for d in range(start, depth):
            table = self._replay(table, d, self.steps[d])
            self.replayed += 1
            kept = d + 1         # the last EVERY (what undo asks for next), and checkpoints
            if kept > depth - EVERY or (kept % EVERY == 0 and kept not in self._saved):
                self._tables[kept] = table
        self._tables[depth] = table
        self._swept = min(self._swept, max(start, depth - EVERY) + 1)
        return table

    def _nearest(self, depth: int) -> tuple[int, Table]:
        best = max(d for d in self._tables if d <= depth)
        for d in range(depth - depth % EVERY, best, -EVERY):
            seq = self._saved.get(d)
            if seq is None:
                continue
            table = self._fetch(seq, d)
            if table is not None:
                return d, table
            del self._saved[d]                  # damaged or stale: never asked for again
        return best, self._tables[best]

    def _forget(self, depth: int) -> None:
        """Let a table go from memory unless it is the first, or a checkpoint the journal lacks
        (or, for a far one, one of the latest KEEP)."""
        if depth <= 0 or depth not in self._tables:
            return
        if depth % EVERY == 0 and (depth not in self._saved
                                   or depth > len(self.steps) - KEEP * EVERY):
            return
        del self._tables[depth]
