"""A synthetic renderer of cards and of draws of them on a table, for tests and the benchmark.

The cards drawn here are stand-ins (a title and shapes seeded by the card's id), not the printed
artwork of any box: a table teaches its own cards from pictures of them. A draw is one card on a
textured table under a chosen mix of tilt (perspective), glare (a bright blurred patch) and
partial cover (a hand over part of it), with sensor noise and blur.
"""

from __future__ import annotations

import zlib

import cv2
import numpy as np

CARD = (240, 336)                      # width, height of a taught picture
FRAME = (640, 480)
KIND_COLOURS = [(60, 60, 200), (60, 160, 60), (200, 120, 40), (40, 170, 200), (150, 60, 150)]
CONDITIONS = ("tilt", "glare", "cover", "all")


def _rng(*parts) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32("/".join(map(str, parts)).encode()))


def card(card_id: str, title: str | None = None, kind: int = 0) -> np.ndarray:
    w, h = CARD
    rng = _rng("card", card_id)
    img = np.full((h, w, 3), 245, np.uint8)
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), KIND_COLOURS[kind % len(KIND_COLOURS)], 14)
    cv2.putText(img, (title or card_id)[:18], (16, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.55,
                (20, 20, 20), 2, cv2.LINE_AA)
    for _ in range(14):
        colour = tuple(int(c) for c in rng.integers(0, 220, 3))
        x, y = int(rng.integers(20, w - 20)), int(rng.integers(60, h - 20))
        s = int(rng.integers(8, 40))
        shape = rng.integers(0, 3)
        if shape == 0:
            cv2.circle(img, (x, y), s, colour, -1 if rng.random() < 0.5 else 3, cv2.LINE_AA)
        elif shape == 1:
            cv2.rectangle(img, (x - s, y - s // 2), (x + s, y + s // 2), colour, -1)
        else:
            pts = rng.integers([20, 60], [w - 20, h - 20], (4, 2)).astype(np.int32)
            cv2.polylines(img, [pts], True, colour, 3, cv2.LINE_AA)
    cv2.putText(img, card_id[-6:], (20, h - 24), cv2.FONT_HERSHEY_DUPLEX, 0.9, (30, 30, 30), 2,
                cv2.LINE_AA)
    return img


def table(seed: int) -> np.ndarray:
    w, h = FRAME
    rng = _rng("table", seed)
    base = rng.integers(90, 140, 3)
    noise = cv2.resize(rng.integers(0, 60, (h // 8, w // 8)).astype(np.uint8), (w, h))
    img = np.empty((h, w, 3), np.uint8)
    for c in range(3):
        img[..., c] = np.clip(base[c] + noise.astype(int) - 30, 0, 255)
    return img


def draw(picture: np.ndarray, seed: int, condition: str = "all") -> np.ndarray:
    """``picture`` laid on the table as the camera sees it under ``condition``."""
    if condition not in CONDITIONS:
        raise ValueError(f"condition is one of {', '.join(CONDITIONS)}")
    rng = _rng("draw", seed, condition)
    out = table(seed)
    h, w = picture.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    scale = rng.uniform(0.7, 1.1)
    angle = rng.uniform(0, 2 * np.pi)
    cx, cy = rng.uniform(230, 410), rng.uniform(190, 290)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    corners = (src - [w / 2, h / 2]) * scale
    if condition in ("tilt", "all"):                  # up to about 35 degrees out of plane
        corners = corners + rng.uniform(-0.18, 0.18, (4, 2)) * [w * scale, h * scale]
    dst = np.float32(corners @ rot.T + [cx, cy])
    warp = cv2.getPerspectiveTransform(src, dst)
    size = (out.shape[1], out.shape[0])
    card_img = cv2.warpPerspective(picture, warp, size, flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), warp, size)
    out[mask > 0] = card_img[mask > 0]
    if condition in ("glare", "all"):
        glare = np.zeros(out.shape[:2], np.float32)
        gx, gy = dst[rng.integers(0, 4)] * 0.4 + np.float32([cx, cy]) * 0.6
        cv2.ellipse(glare, (int(gx), int(gy)), (int(rng.uniform(25, 60)), int(rng.uniform(15, 40))),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        glare = cv2.GaussianBlur(glare, (0, 0), 12) * rng.uniform(0.6, 0.9)
        out = (out * (1 - glare[..., None]) + 255 * glare[..., None]).astype(np.uint8)
    if condition in ("cover", "all"):                 # a hand over up to a quarter of the card
        edge = rng.integers(0, 4)
        a, b = dst[edge], dst[(edge + 1) % 4]
        centre = dst.mean(axis=0)
        t = rng.uniform(0.2, 0.8)
        p = a + (b - a) * t
        depth = rng.uniform(0.25, 0.5)
        q = p + (centre - p) * depth
        radius = int(np.linalg.norm(b - a) * rng.uniform(0.15, 0.25))
        skin = tuple(int(c) for c in rng.integers([120, 150, 190], [160, 190, 230]))
        cv2.line(out, tuple(int(v) for v in p + (p - centre) * 0.6), tuple(int(v) for v in q),
                 skin, 2 * radius, cv2.LINE_AA)
    out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.0))
    noise = rng.normal(0, 4, out.shape)
    return np.clip(out * rng.uniform(0.85, 1.1) + noise, 0, 255).astype(np.uint8)
