"""Watch the tray in a background thread and report each settled roll once.

    def on_roll(reads, frame):          # runs on the watcher's thread: keep it light,
        events.put(("roll", reads))     # e.g. put an event on a queue

    with CameraWatcher(open_source("synthetic"), Reader("d6"), on_roll) as w:
        ...
        w.read_now()                     # a player pressed "read now"

The latest frame is kept for the dashboard behind a Condition ("the latest frame wins").
A frame that cannot be had or read (a camera gone for a moment, a damaged taught set) is a
problem reported in ``error``, never the end of the watcher.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace
from typing import Callable

import numpy as np

from vision.errors import VisionError
from vision.images import frame_problem
from vision.reader import DieRead, Reader
from vision.settle import SettleDetector
from vision.sources import FrameSource

log = logging.getLogger(__name__)

OnRoll = Callable[[list[DieRead], np.ndarray], None]
RETRY_S = 1.0       # after a failed frame: a camera that went away gets a moment to come back


class CameraWatcher:
    def __init__(self, source: FrameSource, reader: Reader, on_roll: OnRoll,
                 settle: SettleDetector | None = None, idle_s: float = 0.0,
                 stop_at_end: bool = True, hand_patience_s: float = 5.0,
                 ask_patience_s: float = 3.0, on_throw: Callable[[], None] | None = None):
        self.source = source
        self.reader = reader
        self.on_roll = on_roll
        # told when the tray starts to move after a read (a throw begins), before its frames
        # settle: a read is of the throw that began then, not of whatever is asked by its end
        self.on_throw = on_throw
        # told True while a read is asked for or under way, False once it is done (the table's
        # `reading` LED); set by the composition root
        self.on_reading: Callable[[bool], None] | None = None
        self.settle = settle or SettleDetector()
        self.idle_s = idle_s
        self.stop_at_end = stop_at_end
        # Something large that never moves (a tray wall in view, not a hand) must not block
        # reading for ever: after this long still and obstructed, read anyway.
        self.hand_patience_s = hand_patience_s
        self._obstructed_since: float | None = None
        # "read now" pressed while the dice still roll waits this long for them to settle (a
        # tray that never looks still, flickering light, is read anyway after it)
        self.ask_patience_s = ask_patience_s
        self._asked_at = 0.0
        self._read_now = threading.Event()
        self._stop = threading.Event()
        self._frame_cv = threading.Condition()
        self._latest: np.ndarray | None = None
        self._frame_no = 0
        self.rolls = 0
        self.read_moving = False     # the latest read was over dice still moving
        self.last_frame_at: float | None = None   # monotonic: the latest frame, or read's end
        self.looking = False                      # a frame is being looked at (read) now
        self.error: BaseException | None = None
        self._thread: threading.Thread | None = None

    # ---- control -------------------------------------------------------------------------
    def start(self) -> "CameraWatcher":
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="camera-watcher", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    close = stop

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def silent(self, for_s: float) -> bool:
        """No frame for ``for_s`` seconds while not reading one (or the thread is gone): the
        camera cannot answer a "read now" (unplugged, or a replay at its end)."""
        if not self.running:
            return True
        last = self.last_frame_at
        return not self.looking and (last is None or time.monotonic() - last > for_s)

    def _looked(self) -> None:
        # A long read (teaching a set) took no frames meanwhile: the camera has its full
        # allowance from the read's end, not from the frame before it, before it counts as silent.
        self.looking = False
        self.last_frame_at = time.monotonic()

    def read_now(self) -> None:
        """Read the dice now (a player's "read now"): at once over a still tray; over dice still
        rolling, once they settle (or after ``ask_patience_s``), read once, not twice."""
        self._asked_at = time.monotonic()
        self._read_now.set()
        self._reading(True)

    def _reading(self, now: bool) -> None:
        if self.on_reading is not None:
            try:
                self.on_reading(now)
            except Exception:  # noqa: BLE001 - a lamp's trouble must not stop the camera
                log.exception("the reading lamp failed")

    def moving_now(self, timeout: float) -> bool:
        """Whether the tray moved since its latest read, as seen in frames taken from now on:
        a throw a moment ago that the camera has not looked at yet counts (waits up to
        ``timeout`` for two frames to be looked at)."""
        if not self.settle.armed:
            with self._frame_cv:
                seen = self._frame_no
                self._frame_cv.wait_for(lambda: self._frame_no > seen + 2, timeout)
        return self.settle.armed

    def wait_done(self, timeout: float | None = None) -> bool:
        """Wait for the thread to end (end of a replay); True when it has."""
        if self._thread is None:
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def latest_frame(self, after: int = -1, timeout: float = 1.0):
        """(frame_no, frame) newer than ``after``, or the current one after ``timeout``."""
        with self._frame_cv:
            self._frame_cv.wait_for(lambda: self._frame_no > after, timeout)
            return self._frame_no, self._latest

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"<CameraWatcher {state} rolls={self.rolls} source={self.source!r}>"

    # ---- the loop ------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                try:
                    frame = self.source.read()
                except Exception as e:  # noqa: BLE001 - a frame that cannot be had: say, retry
                    self._trouble(e, "the camera gave no frame")
                    self._stop.wait(RETRY_S)
                    continue
                if frame is None:
                    if self.stop_at_end:
                        break
                    time.sleep(0.05)
                    continue
                odd = frame_problem(frame)
                if odd is not None:
                    self._trouble(VisionError(f"the camera gave a frame it cannot use: {odd}"),
                                  "an unusable frame")
                    continue
                self.last_frame_at = time.monotonic()
                with self._frame_cv:
                    self._latest = frame
                    self._frame_no += 1
                    self._frame_cv.notify_all()
                self.looking = True      # a long read (teaching a set) is no silent camera
                try:
                    self._look(frame)
                finally:
                    self._looked()
                if self.idle_s:
                    time.sleep(self.idle_s)
        except BaseException as e:  # noqa: BLE001 - reported, not swallowed
            self.error = e
            log.exception("camera watcher stopped")

    def _look(self, frame: np.ndarray) -> None:
        now_requested = self._read_now.is_set()
        was_armed = self.settle.armed
        settled = self.settle.update(frame)
        if not was_armed and self.settle.armed and self.on_throw is not None:
            try:
                self.on_throw()
            except Exception:  # noqa: BLE001 - a listener's bug must not stop the camera
                log.exception("on_throw callback failed")
        moving = now_requested and not settled and self.settle.armed
        if moving and time.monotonic() - self._asked_at < self.ask_patience_s:
            return      # asked while the dice roll: read them once they settle
        if not (now_requested or settled):
            return
        self._reading(True)
        try:
            self._read(frame, now_requested, moving)
        finally:
            self._reading(self._read_now.is_set())     # off, unless asked again meanwhile

    def _read(self, frame: np.ndarray, now_requested: bool, moving: bool) -> None:
        self._read_now.clear()
        self.settle.disarm()        # this scene is read: the same dice are not read again
        try:
            reads = self.reader.read(frame)
        except Exception as e:  # noqa: BLE001 - a damaged set file, a bad frame: say, go on
            self._trouble(e, "reading the dice failed")
            return
        if self.reader.last_obstructed and not now_requested:
            now = time.monotonic()
            if self._obstructed_since is None:
                self._obstructed_since = now
            if now - self._obstructed_since < self.hand_patience_s:
                self.settle.arm()  # a hand in the tray: wait for it to leave
                return
        self._obstructed_since = None
        self.error = None
        if moving:
            # read over dice still moving (the ask ran out of patience, or the camera fell
            # behind): nothing sure, so it waits for a tap, and the read of the same throw once
            # it settles replaces it rather than counting as a second roll
            reads = [replace(r, confidence=0.0, confirmed=False) for r in reads]
        self.rolls += 1
        self.read_moving = moving
        try:
            self.on_roll(reads, frame)
        except Exception:  # a listener's bug must not stop the camera
            log.exception("on_roll callback failed")

    def _trouble(self, error: Exception, what: str) -> None:
        """Keep watching; the latest problem is ``error`` (the dashboard shows it), logged once
        for each new message rather than for every frame."""
        if self.error is None or str(self.error) != str(error):
            log.warning("camera: %s: %s", what, error, exc_info=not isinstance(error, VisionError))
        self.error = error


class WatchingCamera:
    """A camera of the session's on its own watcher thread (the tray's, the pull areas'): set
    ``session``, ``source``, ``watcher`` and a view listener ``_on_view`` (added by the subclass)."""

    session: object
    source: FrameSource
    watcher: CameraWatcher

    def start(self):
        self.watcher.start()
        return self

    def close(self) -> None:
        self.session.remove_listener(self._on_view)
        self.watcher.stop()
        self.source.close()

    def _on_view(self, view) -> None:  # pragma: no cover - each camera has its own
        raise NotImplementedError
