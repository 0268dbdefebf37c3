"""Listeners (LEDs, buzzer, serial display) hear of every new state from one worker thread.

``publish`` only queues; the worker delivers in order and logs a listener's exception instead
of dying, so a broken listener never stalls the session (OctoPrint's event bus does the same).
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import Any, Callable

log = logging.getLogger(__name__)
Listener = Callable[[dict[str, Any]], None]


class EventBus:
    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        self._lock = threading.Lock()

    def add(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)
            if self._worker is None:
                self._worker = threading.Thread(target=self._run, name="events", daemon=True)
                self._worker.start()

    def remove(self, listener: Listener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def publish(self, event: dict[str, Any]) -> None:
        if self._listeners:
            self._queue.put(event)

    def _run(self) -> None:
        while True:
            event = self._queue.get()
            with self._lock:
                listeners = list(self._listeners)
            for listener in listeners:
                try:
                    listener(event)
                except Exception:  # a listener's bug must not stop the others
                    log.exception("listener %r failed on event seq %s", listener, event.get("seq"))
