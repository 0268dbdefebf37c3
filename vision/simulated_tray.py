"""A dice tray for simulation: empty until someone throws dice, then a few tumbling frames and a
settled scene, exactly as a camera above a real tray would see it (stand-in symbols)."""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np

from vision.render import RenderOptions, render_scene
from vision.sources import FrameSource

TUMBLE_FRAMES = 6


class SimulatedTray(FrameSource):
    def __init__(self, size: tuple[int, int] = (640, 480), seed: int = 0, fps: float = 15.0):
        super().__init__()
        self._opt = RenderOptions(size=size)
        self._rng = np.random.default_rng(seed)
        self._tray_lock = threading.Lock()
        self.fps = fps
        self._last = 0.0
        self._still, _ = render_scene(self._rng, [], self._opt)   # the empty tray
        self._tumble = 0
        self.truth: list[str] = []
        self.throws = 0

    def throw(self, faces: list[str], pips: bool = False) -> list[str]:
        """Throw dice showing ``faces``; returns the faces that landed in view."""
        with self._tray_lock:
            frame, boxes = render_scene(self._rng, list(faces), self._opt, pips=pips)
            self._still, self.truth = frame, list(faces)[:len(boxes)]
            self._tumble = TUMBLE_FRAMES
            self.throws += 1
            return self.truth

    def _read(self):
        if self.fps > 0:
            wait = self._last + 1.0 / self.fps - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            self._last = time.monotonic()
        with self._tray_lock:
            still, tumbling = self._still, self._tumble > 0
            if tumbling:
                self._tumble -= 1
            shift = self._rng.integers(-25, 26, 2)
            noise = self._rng.normal(0, 1.5, still.shape)
        if tumbling:
            moved = cv2.warpAffine(still, np.float32([[1, 0, shift[0]], [0, 1, shift[1]]]),
                                   still.shape[1::-1], borderMode=cv2.BORDER_REFLECT)
            return cv2.blur(moved, (9, 1))
        return np.clip(still + noise, 0, 255).astype(np.uint8)

    def _describe(self) -> str:
        return f"simulated tray, {self.throws} throws"
