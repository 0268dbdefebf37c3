"""One queue, one worker: every press, hold and device event becomes an Action here.

Callbacks from gpiozero's and the serial link's threads only ``put``; a single worker thread
reads the session's view, resolves the command and submits. A slow session, or a child
hammering a button, therefore never blocks a pin callback and never drops a press. A refusal
(the rules forbid it now) is logged with its reason and reported so the error LED and buzzer can
say so; any other failure is logged and the worker carries on.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from companion.errors import BadAction, Conflict, IllegalAction, NoGame
from hardware.commands import Hooks, resolve
from hardware.settings import Command

log = logging.getLogger(__name__)
# A second press of the same control this soon after the first one passed the turn, nothing
# else having moved since, is the same press (a double press, a shaky hand): filled in afresh it
# would act for the next player (X-Men's Next ended two teams' turns).
AGAIN_S = 0.8


@dataclass
class Request:
    origin: str                    # e.g. "button confirm (hold)", "device button 2", "tag 04A1"
    command: Command
    source: str = "button"         # Action.source
    fill: dict[str, str] | None = None
    at: float = field(default_factory=time.monotonic)
    # a short press of a button that acts only when held (``command`` is its hold): said, not done
    short_of_hold: bool = False
    hold_time: float | None = None
    unset: str | None = None       # why the input means nothing (a device button not set up)


class Dispatcher:
    def __init__(self, session, hooks: Hooks | None = None,
                 on_refused: Callable[[str, str], None] | None = None,
                 on_done: Callable[[Request, dict | None], None] | None = None):
        self.session = session
        self.hooks = hooks or Hooks()
        self.on_refused = on_refused
        self.on_done = on_done
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._idle = threading.Condition()
        self._queued = 0
        self._finished = 0
        self.counts = {"received": 0, "submitted": 0, "handled": 0, "refused": 0, "failed": 0}
        self.last_refusal: dict[str, Any] | None = None
        # origin -> when it last acted, the seq it made, whose turn it was before
        self._acted: dict[str, tuple[float, int, Any]] = {}
        self._closed = False
        self._worker = threading.Thread(target=self._run, name="hardware-actions", daemon=True)
        self._worker.start()

    def put(self, request: Request) -> None:
        """Never blocks: safe from any callback thread."""
        if self._closed:
            return
        with self._idle:
            self._queued += 1
        self._queue.put(request)

    def wait_idle(self, timeout: float) -> bool:
        """True once every request put so far has been handled (tests, doctor, shutdown)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._finished >= self._queued, timeout)

    def close(self, timeout: float = 2.0) -> None:
        if self._closed:
            return
        self.wait_idle(timeout)
        self._closed = True
        self._queue.put(None)
        self._worker.join(timeout)

    def _run(self) -> None:
        while True:
            request = self._queue.get()
            if request is None:
                return
            try:
                self._handle(request)
            except Exception as exc:  # a full disk or a bug must not stop the buttons
                self.counts["failed"] += 1
                log.exception("%s: could not be handled", request.origin)
                self._post_refusal(request, f"could not be handled: {exc}", None)
                if self.on_refused is not None:
                    try:
                        self.on_refused(request.origin, f"could not be handled: {exc}")
                    except Exception:
                        log.exception("error indicator failed")
            finally:
                with self._idle:
                    self._finished += 1
                    self._idle.notify_all()

    def _handle(self, request: Request) -> None:
        self.counts["received"] += 1
        view = None
        try:
            if request.short_of_hold:
                raise IllegalAction(_hold_hint(request))
            if request.unset:
                raise IllegalAction(request.unset)
            now = self.session.view()
            acted = self._acted.get(request.origin)
            if acted and request.at - acted[0] < AGAIN_S and now.get("seq") == acted[1] \
                    and _turn(now) != acted[2]:
                raise IllegalAction("pressed again at once: taken as the same press, not one for "
                                    "the next turn (press once more to do it again)")
            # the running game's table map (companion/table_map.py): what a button means now
            table = self.session.catalog(now["game"]).table_map() if now.get("game") else None
            action = resolve(request.command, now, self.hooks, request.source, request.fill, table)
            if action is None:
                self.counts["handled"] += 1
            else:
                view = self.session.submit(action)
                self._acted[request.origin] = (time.monotonic(), view["seq"], _turn(now))
                self.counts["submitted"] += 1
        except (IllegalAction, BadAction, NoGame, Conflict) as exc:
            self.counts["refused"] += 1
            reason = getattr(exc, "reason", None) or str(exc)
            self.last_refusal = {"origin": request.origin, "reason": reason,
                                 "rule": getattr(exc, "rule", None), "at": time.time()}
            log.warning("%s (%s) refused: %s", request.origin, request.command.describe(), reason)
            self._post_refusal(request, reason, getattr(exc, "rule", None))
            if self.on_refused is not None:
                self.on_refused(request.origin, reason)
            return
        if self.on_done is not None:
            self.on_done(request, view)

    def _post_refusal(self, request: Request, reason: str, rule: str | None) -> None:
        """Every screen shows why a press did nothing (companion/refusals.py)."""
        board = getattr(self.session, "refusals", None)
        if board is not None:
            board.post(reason, source=request.source, origin=request.origin, rule=rule)


def _turn(view: dict) -> Any:
    return (view.get("expect") or {}).get("player")


def _hold_hint(request: Request) -> str:
    """Why a short press of a hold-only button did nothing, and how to do what it does."""
    what = request.command.describe().replace("_", " ")
    how = f"hold it for {request.hold_time:g} s" if request.hold_time else "hold it down"
    return f"{how} to {what} (a short press does nothing, so a brush of a sleeve cannot {what})"
