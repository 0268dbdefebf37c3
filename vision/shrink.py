"""A frame's reductions (OpenCV's INTER_AREA), each made once a read: the learned detector and
the classical finder both reduce a 640x480 frame to 320x240, and the fused reader runs both.

    shrunk = Shrunk(frame_bgr)
    small = shrunk.to(320, 240)   # the same array again for the same size

The arrays are shared: callers read them, never write into them. So are the products two
readers make alike from a reduction (`kept`: the tray's foreground at the working size).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import cv2
import numpy as np


class Shrunk:
    def __init__(self, frame: np.ndarray):
        self.frame = frame
        self._made: dict[tuple[int, int], np.ndarray] = {}
        self._kept: dict[Hashable, np.ndarray] = {}

    def to(self, w: int, h: int) -> np.ndarray:
        if (w, h) not in self._made:
            self._made[(w, h)] = cv2.resize(self.frame, (w, h), interpolation=cv2.INTER_AREA)
        return self._made[(w, h)]

    def kept(self, key: Hashable, make: Callable[[], np.ndarray]) -> np.ndarray:
        """What ``make`` returns, made once for this frame under ``key``."""
        if key not in self._kept:
            self._kept[key] = make()
        return self._kept[key]
