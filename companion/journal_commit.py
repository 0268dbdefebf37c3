"""Group commit: writers that arrive while an fsync is under way share the next one.

Each write takes its sequence number when it is queued, so the journal's order is the order
writes were queued in (the session queues under its lock, in the order it applied them). A
writer then waits for its number to be on disk: the first waiter that finds no commit under way
commits everything queued so far in one transaction (one fsync), and the others wait for it
or for the next. Nothing is reported durable before its COMMIT has returned.

When a commit fails (a full SD card), every write in it and every write queued after it fails
too (those were built on the ones that failed), and new writes are refused until ``reset``:
the session then reads the journal again, so what it shows is what is on disk.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any, Callable

from companion.errors import JournalError

log = logging.getLogger(__name__)


@dataclass
class Write:
    """One queued write: ``run(db, seq)`` does its SQL inside the shared transaction."""

    seq: int
    run: Callable[[Any, int], Any]
    token: Any = None      # handed to on_durable once it is on disk (the session's change)
    result: Any = None     # what run returned


class GroupCommit:
    def __init__(self, commit: Callable[[list[Write]], None], last_seq: int,
                 on_durable: Callable[[list[Any]], None] = lambda tokens: None):
        self._commit = commit              # one transaction for the batch; raises on failure
        self.on_durable = on_durable       # called in order, before anyone waiting is woken
        self._cond = threading.Condition()
        self._queue: list[Write] = []
        self._next = last_seq + 1
        self._durable = last_seq
        self._leading = False
        self._failed_from: int | None = None
        self._failure: str = ""
        self.commits = 0                   # transactions committed, for the benchmarks

    @property
    def queued_last(self) -> int:
        """The number of the last write queued (on disk or not). Read without the lock: one
        attribute, and a caller that needs it exact queues its writes in order itself."""
        return self._next - 1

    def add(self, run: Callable[[Any, int], Any], token: Any = None) -> Write:
        """Queue a write; it has its number at once and is on disk once ``wait`` returns."""
        with self._cond:
            if self._failed_from is not None:
                raise JournalError(f"the journal could not be written ({self._failure}); "
                                   "nothing more is taken until it is read again")
            write = Write(self._next, run, token)
            self._next += 1
            self._queue.append(write)
            return write

    def wait(self, seq: int) -> None:
        """Return once write ``seq`` is on disk (leading a commit if none is under way); raise
        JournalError when it failed."""
        with self._cond:
            seq = min(seq, self._next - 1)
        while True:
            with self._cond:
                while True:
                    if self._failed_from is not None and seq >= self._failed_from:
                        raise JournalError(f"the journal could not be written ({self._failure}); "
                                           "nothing was kept")
                    if self._durable >= seq:
                        return
                    if not self._leading:
                        break
                    self._cond.wait()
                self._leading = True
                batch, self._queue = self._queue, []
            self._lead(batch)

    def _lead(self, batch: list[Write]) -> None:
        error = None
        try:
            if batch:
                self._commit(batch)
        except Exception as exc:  # noqa: BLE001 - whatever stopped the commit, nothing is kept
            error = exc
            log.error("the journal could not be written: %s", exc)
        if error is None and batch:
            try:
                self.on_durable([w.token for w in batch if w.token is not None])
            except Exception:  # a listener's bug must not undo a commit
                log.exception("publishing a committed change failed")
        with self._cond:
            self._leading = False
            if error is not None:
                self._failed_from = batch[0].seq
                self._failure = str(error)
                self._queue = []
            elif batch:
                self._durable = batch[-1].seq
                self.commits += 1
            self._cond.notify_all()

    def flush(self) -> None:
        """Everything queued so far on disk (JournalError when some of it failed)."""
        self.wait(self.queued_last)

    def reset(self, last_seq: int) -> None:
        """After a failure: numbering from the journal's last entry again, writes taken again."""
        with self._cond:
            while self._leading:
                self._cond.wait()
            self._queue = []
            self._next, self._durable = last_seq + 1, last_seq
            self._failed_from, self._failure = None, ""

    @property
    def broken(self) -> bool:
        return self._failed_from is not None     # one attribute: no lock needed to read it
