"""A dice tray for simulation: empty until someone throws dice, then a few tumbling frames and a
settled scene, exactly as a camera above a real tray would see it (stand-in symbols). A card can
be laid in the card area too (``show_card``: a rendered card on the table, in the configured
``[camera] card_area`` or filling the view), until it is taken away or dice are thrown."""

from __future__ import annotations

import threading

import cv2
import numpy as np

from vision.render import RenderOptions, render_scene
from vision.sources import FrameSource

TUMBLE_FRAMES = 6


class SimulatedTray(FrameSource):
    def __init__(self, size: tuple[int, int] = (640, 480), seed: int = 0, fps: float = 15.0):
        super().__init__()
        self._opt = RenderOptions(size=size)
        self.seed = seed
        # Each throw draws from its own generator (the seed and the throw's number), the frames'
        # tumbling and noise from another: where the dice land never depends on how many frames
        # the camera thread happened to read before the throw, so a simulated throw repeats
        # from run to run.
        self._noise = np.random.default_rng((seed, 0))
        self._tray_lock = threading.Lock()
        self.fps = fps
        self._still, _ = render_scene(self._scene_rng(0), [], self._opt)   # the empty tray
        self._tumble = 0
        self.truth: list[str] = []
        self.throws = 0
        self._card: np.ndarray | None = None     # the view with the laid card, when one is

    def throw(self, faces: list[str], pips: bool = False) -> list[str]:
        """Throw dice showing ``faces``; returns the faces that landed in view."""
        with self._tray_lock:
            self.throws += 1
            frame, boxes = render_scene(self._scene_rng(self.throws), list(faces), self._opt,
                                        pips=pips)
            self._still, self.truth = frame, list(faces)[:len(boxes)]
            self._tumble = TUMBLE_FRAMES
            self._card = None                    # the hand that threw took the card away
            return self.truth

    def _scene_rng(self, throw: int) -> np.random.Generator:
        return np.random.default_rng((self.seed, 1, throw))

    def show_card(self, scene: np.ndarray | None, area: tuple[int, int, int, int] | None = None):
        """Lay a card: ``scene`` (a card on the table, vision/card_render.py's ``draw``) fills
        the card area ``(x, y, width, height)``, or the whole view without one; None takes the
        card away."""
        with self._tray_lock:
            if scene is None:
                self._card = None
                return
            view = self._still.copy()
            h, w = view.shape[:2]
            x, y, aw, ah = area if area is not None else (0, 0, w, h)
            aw, ah = min(aw, w - x), min(ah, h - y)
            if aw <= 0 or ah <= 0:
                raise ValueError(f"the card area {area} lies outside the simulated {w} x {h} view")
            view[y:y + ah, x:x + aw] = cv2.resize(scene, (aw, ah), interpolation=cv2.INTER_AREA)
            self._card = view

    def _read(self):
        self._pace(self.fps)
        with self._tray_lock:
            still, tumbling = (self._card if self._card is not None else self._still), self._tumble > 0
            if tumbling:
                self._tumble -= 1
            shift = self._noise.integers(-25, 26, 2)
            noise = self._noise.normal(0, 1.5, still.shape)
        if tumbling:
            moved = cv2.warpAffine(still, np.float32([[1, 0, shift[0]], [0, 1, shift[1]]]),
                                   still.shape[1::-1], borderMode=cv2.BORDER_REFLECT)
            return cv2.blur(moved, (9, 1))
        return np.clip(still + noise, 0, 255).astype(np.uint8)

    def _describe(self) -> str:
        return f"simulated tray, {self.throws} throws" + (", a card laid" if self._card is not None else "")
