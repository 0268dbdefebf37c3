"""The refusals board: why something did nothing, which every screen hears of at once.

A refused action changes nothing, so it is never journaled and never moves the seq; yet the
players at the table must see why a button press or a tap did nothing, whatever the channel
(a phone's tap, a table button, the serial peripheral, the camera). Each channel posts here;
the board's listeners (the web app's event streams: ``event: refusal``) hear of every post.

The board keeps only the last few refusals, in memory: a refusal is news, not history. (Not to
be confused with the recovery notices of companion/journal_recovery.py: those say what start-up
found wrong with the journal, and stay in every view until someone reads them.)
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from typing import Any, Callable

log = logging.getLogger(__name__)
KEEP = 20
SHOWN = 5        # the newest refusals a listener is handed: enough for a screen to catch up
MAX_TEXT = 400


class Refusals:
    def __init__(self, clock: Callable[[], float] = time.time):
        self._items: deque[dict[str, Any]] = deque(maxlen=KEEP)
        self._lock = threading.Lock()
        self._last = 0
        self._clock = clock
        self._listeners: list[Callable[[dict[str, Any]], None]] = []

    @property
    def last_id(self) -> int:
        return self._last

    def listen(self, listener: Callable[[dict[str, Any]], None]) -> None:
        """Hand ``listener`` the board (``latest()``) now and after every post, in order."""
        with self._lock:
            self._listeners.append(listener)
            listener(self._latest())

    def post(self, text: str, *, source: str, kind: str = "refused", rule: str | None = None,
             origin: str | None = None, page: str | None = None) -> dict[str, Any]:
        """Post a refusal. ``source`` is the channel (dashboard, button, serial, camera), ``origin``
        the thing itself ("button card"), ``page`` the browser page that caused it, if one did."""
        text = " ".join(str(text).split())[:MAX_TEXT]
        with self._lock:
            self._last += 1
            notice = {"id": self._last, "at": self._clock(), "kind": kind, "source": source,
                      "origin": origin, "text": text, "rule": rule, "page": page}
            self._items.append(notice)
            # Under the lock, so two posts from two threads reach a listener in order: each
            # listener only keeps the newest value it was handed (web/streams.py).
            latest = self._latest()
            for listener in self._listeners:
                try:
                    listener(latest)
                except Exception:  # a screen's bug must not turn a refusal into a failure
                    log.exception("refusal listener %r failed", listener)
        return notice

    def latest(self) -> dict[str, Any]:
        """The board as a whole value: the last id and the newest ``SHOWN`` refusals."""
        with self._lock:
            return self._latest()

    def since(self, after_id: int) -> list[dict[str, Any]]:
        with self._lock:
            return [n for n in self._items if n["id"] > after_id]

    def _latest(self) -> dict[str, Any]:
        return {"last": self._last, "recent": list(self._items)[-SHOWN:]}
