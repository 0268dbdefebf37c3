"""Invincible's pulls by camera: the cubes a hero pulls, laid in that hero's marked pull area,
read by colour (vision/cubes.py) into the read a session takes as that hero's pull.

A read is the same ``dice.read`` the dice make, with the set ``invincible-cubes`` and the hero as
its player: the session turns it into the hero's ``pull`` when every cube is sure, and keeps it
waiting for a tap when one is not (companion/dice_reads.py). The simulated frame draws the
cubes the game's own data names, in the counter's reference colours with light and noise.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.cubes import DEFAULT_COLOURS, CubeCounter

CUBE_SET = "invincible-cubes"
FRAME = (320, 240)                  # width, height of the simulated camera's frame
AREA = (40, 40, 240, 160)           # x, y, w, h: inside the pull area's marked border
SURFACE = (200, 200, 200)           # the table's mat under the pull area (BGR)
MARK = (60, 60, 60)


def render_pull(rng: np.random.Generator, cubes: list[str],
                colours: dict[str, tuple[int, int, int]] | None = None,
                side: int = 26) -> np.ndarray:
    """A frame of ``cubes`` (colour names) laid apart in the marked pull area, each cube's
    colour shaded a little, uneven light across the mat, and camera noise."""
    frame = mat(FRAME, [AREA])
    lay(frame, rng, cubes, AREA, colours, side)
    return finish(frame, rng)


def mat(size: tuple[int, int], areas: list[tuple[int, int, int, int]]) -> np.ndarray:
    """The bare mat (float, to be finished): window light across it and each area's mark."""
    w, h = size
    frame = np.empty((h, w, 3), np.float32)
    frame[:] = SURFACE
    frame *= np.linspace(0.9, 1.05, w, dtype=np.float32)[None, :, None]   # window light
    for x0, y0, aw, ah in areas:
        cv2.rectangle(frame, (x0 - 6, y0 - 6), (x0 + aw + 5, y0 + ah + 5), MARK, 3)
    return frame


def lay(frame: np.ndarray, rng: np.random.Generator, cubes: list[str],
        area: tuple[int, int, int, int], colours: dict[str, tuple[int, int, int]] | None = None,
        side: int = 26) -> None:
    """Draw ``cubes`` apart (never touching) inside ``area`` of a mat."""
    paint = colours or DEFAULT_COLOURS
    unknown = [c for c in cubes if c not in paint]
    if unknown:
        raise ValueError(f"no appearance for cube colour(s) {', '.join(unknown)}")
    x0, y0, aw, ah = area
    if aw // 4 - side - 12 < 1 or ah // 2 - side - 12 < 1:
        raise ValueError(f"the pull area {area} is too small to lay cubes of {side} px apart")
    cells = [(cx, cy) for cy in range(2) for cx in range(4)]              # apart, never touching
    if len(cubes) > len(cells):
        raise ValueError(f"at most {len(cells)} cubes lie apart in one pull area")
    for colour, i in zip(map(str, cubes), rng.permutation(len(cells)).tolist()):
        cx, cy = cells[i]
        x = x0 + 10 + cx * (aw // 4) + int(rng.integers(0, aw // 4 - side - 12))
        y = y0 + 10 + cy * (ah // 2) + int(rng.integers(0, ah // 2 - side - 12))
        shade = float(rng.uniform(0.92, 1.06))
        cv2.rectangle(frame, (x, y), (x + side, y + side),
                      tuple(float(v) * shade for v in paint[colour]), -1)


def finish(frame: np.ndarray, rng: np.random.Generator, noise: float = 3.0) -> np.ndarray:
    """Camera noise on a drawn mat, as the 8-bit frame a camera gives."""
    out = frame + rng.normal(0, noise, frame.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def read_pull(frame: np.ndarray, hero: str, counter: CubeCounter | None = None,
              area: tuple[int, int, int, int] = AREA) -> dict[str, Any]:
    """The read action for the cubes inside ``area``: ``dice.read`` of set invincible-cubes
    for ``hero``, one entry a cube with its colour, confidence and box."""
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError("a pull frame must be a colour image (height, width, 3)")
    x, y, w, h = area
    if x < 0 or y < 0 or w <= 0 or h <= 0 or x + w > frame.shape[1] or y + h > frame.shape[0]:
        raise ValueError(f"the pull area {area} is not inside the {frame.shape[1]}x"
                         f"{frame.shape[0]} frame")
    cubes = (counter or CubeCounter()).cubes(frame, area)
    if not cubes:
        raise ValueError("no cube is in the pull area: lay the pulled cubes inside its mark")
    return {"type": "dice.read", "player": hero, "source": "camera",
            "data": {"set": CUBE_SET, "dice": cubes}}
