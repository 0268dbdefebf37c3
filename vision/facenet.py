"""Read a die's top face with the shipped face network (`vision/models/faces.onnx`): a
square crop around the detector's top face, scaled to `CROP` pixels, gives pip-class
probabilities (not a die, 1 to 6, a die with another face) and a unit embedding in which
photos of one face lie close together, whatever the symbol (trained on many random ones)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision import onnx_runtime

CROP = 40  # crop side, px
MARGIN = 1.3  # the crop spans this many top-face sides (the face's rim and a little beyond)
MODEL = Path(__file__).with_name("models") / "faces.onnx"
NOT_A_DIE, OTHER_FACE = 0, 7  # the pip classes besides 1..6


def crop(frame_bgr: np.ndarray, cx: float, cy: float, side: float, angle: float = 0.0,
         out: int = CROP) -> np.ndarray:
    """The square of ``MARGIN * side`` around (cx, cy), turned by ``angle`` degrees, ``out``
    px, BGR."""
    f = out / max(side * MARGIN, 1.0)
    M = cv2.getRotationMatrix2D((cx, cy), angle, f)
    M[0, 2] += out / 2 - cx
    M[1, 2] += out / 2 - cy
    return cv2.warpAffine(frame_bgr, M, (out, out), flags=cv2.INTER_AREA if f < 0.5
                          else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


class FaceNet:
    def __init__(self, path: Path | str | None = None):
        # MODEL as it is at the call: training points it at the networks it just wrote
        self.session = onnx_runtime.session(path or MODEL)
        self.input = self.session.get_inputs()[0].name

    def run(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(probabilities N x 8, embeddings N x 64) for N crops (N x CROP x CROP x 3 uint8)."""
        if len(crops) == 0:
            return np.zeros((0, 8), np.float32), np.zeros((0, 64), np.float32)
        blob = np.ascontiguousarray(np.asarray(crops, np.float32).transpose(0, 3, 1, 2))
        logits, emb = self.session.run(None, {self.input: blob})
        return softmax(logits), emb
