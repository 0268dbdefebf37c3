"""Is the tray still? A cheap per-frame motion check and a settle timer.

Each frame is shrunk to a thumbnail (80 px wide, grey, blurred) and compared with the
previous one; the tray is "moving" when more than a small fraction of the thumbnail changed.
The roll is settled once the tray has been still for ``settle_s`` seconds (by frame clock).
"""

from __future__ import annotations

import time

import cv2
import numpy as np

THUMB_W = 80


def thumbnail(frame: np.ndarray) -> np.ndarray:
    h, w = frame.shape[:2]
    tw, th = THUMB_W, max(1, round(THUMB_W * h / w))
    small = cv2.resize(frame, (tw, th), interpolation=cv2.INTER_AREA)
    if small.ndim == 3:
        small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(small, (3, 3), 0)


PIXEL_DELTA = 18          # a thumbnail pixel this much greyer or lighter has changed
MOTION_FRACTION = 0.004   # the scene moved when more than this share of the thumbnail changed


def changed(thumb: np.ndarray, before: np.ndarray, pixel_delta: int = PIXEL_DELTA) -> float:
    """The share of ``thumbnail(...)`` pixels that changed between two looks at a scene."""
    if before.shape != thumb.shape:
        return 1.0
    return float(np.count_nonzero(cv2.absdiff(thumb, before) > pixel_delta)) / thumb.size


class MotionDetector:
    """``update(frame) -> float``: the fraction of the thumbnail that changed since last frame."""

    def __init__(self, pixel_delta: int = PIXEL_DELTA):
        self.pixel_delta = pixel_delta
        self._prev: np.ndarray | None = None

    def update(self, frame: np.ndarray) -> float:
        t = thumbnail(frame)
        prev, self._prev = self._prev, t
        return 1.0 if prev is None else changed(t, prev, self.pixel_delta)

    def reset(self) -> None:
        self._prev = None


class SettleDetector:
    """Tells when a roll has settled: still for ``settle_s`` seconds after some motion.

    ``update(frame, now=None) -> bool`` is True exactly once per settled roll. A frame with
    a hand in the tray (``obstructed=True`` from the detector, or large motion) restarts the
    wait. ``arm()`` allows a read of the current still scene without new motion first.
    """

    def __init__(self, settle_s: float = 0.6, motion_fraction: float = MOTION_FRACTION,
                 pixel_delta: int = PIXEL_DELTA):
        self.settle_s = settle_s
        self.motion_fraction = motion_fraction
        self.motion = MotionDetector(pixel_delta)
        self._still_since: float | None = None
        self._armed = True  # the first still scene counts as a roll
        self.last_motion = 1.0

    def arm(self) -> None:
        """Allow another read once the tray has been still for ``settle_s`` from now."""
        self._armed = True
        self._still_since = None

    @property
    def armed(self) -> bool:
        """Something moved since the last read (or nothing was read yet): a read to come."""
        return self._armed

    def disarm(self) -> None:
        """The still scene was read (asked for, not settled into): the next read needs motion,
        or it would read the same dice twice."""
        self._armed = False

    def update(self, frame: np.ndarray, now: float | None = None,
               obstructed: bool = False) -> bool:
        now = time.monotonic() if now is None else now
        m = self.motion.update(frame)
        self.last_motion = m
        if m > self.motion_fraction or obstructed:
            self._still_since = None
            self._armed = True
            return False
        if self._still_since is None:
            self._still_since = now
        if self._armed and now - self._still_since >= self.settle_s:
            self._armed = False
            return True
        return False
