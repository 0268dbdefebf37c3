"""Find every die with the shipped detector (`vision/models/detector.onnx`, trained by
`make train-vision`): a heat map of "a die's top face is centred here" at a quarter of the
input's resolution, each centre's offset within its cell, the face's size, and a map of what
obstructs the tray (a hand reaching in).

The frame is shrunk so its long side is `INPUT_SIDE` pixels and padded to a multiple of 32.
Peaks of the heat map are dice; a peak that is die-like but not sure enough to be one is
returned as *doubtful*, so that the reader flags the frame rather than drop it silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision import onnx_runtime
from vision.shrink import Shrunk

INPUT_SIDE = 320  # the frame's long side at the detector's input
STRIDE = 4  # the heat map's cell, in input pixels
PAD = 32  # the input's sides are multiples of this (five halvings)
MODEL = Path(__file__).with_name("models") / "detector.onnx"


@dataclass(frozen=True)
class Detection:
    cx: float  # the top face's centre, frame pixels
    cy: float
    w: float  # the top face's size, frame pixels
    h: float
    score: float  # the heat map's peak, 0..1

    @property
    def side(self) -> float:
        return max(self.w, self.h)

    @property
    def box(self) -> tuple[int, int, int, int]:
        return (int(round(self.cx - self.w / 2)), int(round(self.cy - self.h / 2)),
                int(round(self.w)), int(round(self.h)))


def prepare(frame_bgr: np.ndarray, shrunk: Shrunk | None = None) -> tuple[np.ndarray, float]:
    """The detector's input for a frame (BGR 0..255, 1x3xHxW float32) and the scale applied.
    ``shrunk``: the frame's reductions, where another reader of the frame makes them too."""
    h, w = frame_bgr.shape[:2]
    scale = INPUT_SIDE / max(h, w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    small = (shrunk or Shrunk(frame_bgr)).to(nw, nh)
    ph, pw = -(-nh // PAD) * PAD, -(-nw // PAD) * PAD
    if (ph, pw) != (nh, nw):
        small = cv2.copyMakeBorder(small, 0, ph - nh, 0, pw - nw, cv2.BORDER_REPLICATE)
    # HxWx3 uint8 to 1x3xHxW float32 in one pass (numpy's astype and transpose: 1 ms a frame)
    return cv2.dnn.blobFromImage(small), scale


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def decode(out: np.ndarray, scale: float, frame_shape: tuple[int, ...], low: float,
           ) -> tuple[list[Detection], np.ndarray]:
    """Peaks of the heat map above ``low`` (3x3 local maxima), strongest first, and the
    obstruction map (0..1 at the heat map's resolution, cropped to the frame)."""
    h, w = frame_shape[:2]
    gh, gw = -(-int(round(h * scale)) // STRIDE), -(-int(round(w * scale)) // STRIDE)
    maps = out[0, :, :gh, :gw]
    heat = sigmoid(maps[0])
    peaks = (heat >= low) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-heat[ys, xs])
    f = STRIDE / scale
    ys, xs = ys[order], xs[order]
    # every peak at once: numpy's float32 ufuncs give each element what they give it alone
    dx, dy = sigmoid(maps[1, ys, xs]), sigmoid(maps[2, ys, xs])
    bw, bh = np.exp(maps[3, ys, xs]) * f, np.exp(maps[4, ys, xs]) * f
    dets = [Detection(*v) for v in zip(((xs + dx) * f).tolist(), ((ys + dy) * f).tolist(),
                                       bw.tolist(), bh.tolist(), heat[ys, xs].tolist())]
    return dets, sigmoid(maps[5])


class Detector:
    """The shipped detector on onnxruntime, one thread."""

    def __init__(self, path: Path | str | None = None):
        # MODEL as it is at the call: training points it at the networks it just wrote
        self.session = onnx_runtime.session(path or MODEL)
        self.input = self.session.get_inputs()[0].name

    def run(self, frame_bgr: np.ndarray, low: float, shrunk: Shrunk | None = None,
            ) -> tuple[list[Detection], np.ndarray, float]:
        blob, scale = prepare(frame_bgr, shrunk)
        out = self.session.run(None, {self.input: blob})[0]
        dets, obstruction = decode(out, scale, frame_bgr.shape, low)
        return dets, obstruction, scale
