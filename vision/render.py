"""A synthetic renderer of dice scenes, for tests, benchmarks, the demo and teaching.

The symbols drawn for the game dice are stand-ins made of simple shapes: they are not the
printed artwork of any box. A table teaches its own set from photos of its real dice
(`companion dice teach`); these renders exist so that the code path can be exercised and
measured without the boxes.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.dice import game_dice

# The faces of each die the games use come from the games' own data (companion.dice.game_dice:
# a die's set name -> one face id a side), and so do the sets taught together, one per box.
# Face ids are what the recognizer returns; what a face means belongs to the engines' data.
# "d6" is the plain pip die, no game's.
_BOXES = game_dice()
GAME_DICE: dict[str, list[str]] = {
    "d6": ["1", "2", "3", "4", "5", "6"],
    **{die: list(sides) for dice in _BOXES.values() for die, sides in dice.items()},
}
GAME_SETS: dict[str, list[str]] = {box: list(dice) for box, dice in _BOXES.items()}

PIP_LAYOUT = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.22), (0.25, 0.5), (0.25, 0.78), (0.75, 0.22), (0.75, 0.5), (0.75, 0.78)],
}


def set_faces(set_name: str) -> list[str]:
    """The distinct face ids of a set (a game die or a box's set)."""
    dice = GAME_SETS.get(set_name, [set_name])
    out: list[str] = []
    for die in dice:
        for face in GAME_DICE[die]:
            if face not in out:
                out.append(face)
    return out


def _poly(img, pts, colour, s):
    cv2.fillPoly(img, [np.array([(x * s, y * s) for x, y in pts], np.int32)], colour,
                 lineType=cv2.LINE_AA)


def _text(img, text, colour, s, scale=1.0):
    font = cv2.FONT_HERSHEY_DUPLEX
    fs = s / 40.0 * scale
    th = max(2, int(s / 16))
    (tw, tht), _ = cv2.getTextSize(text, font, fs, th)
    cv2.putText(img, text, ((s - tw) // 2, (s + tht) // 2), font, fs, colour, th, cv2.LINE_AA)


def draw_face(face: str, size: int = 96, body=(235, 235, 235), ink=(30, 30, 30),
              pips: bool = True) -> np.ndarray:
    """One die face, ``size`` px square, drawn flat. Pip faces for "1".."6" when ``pips``."""
    img = np.zeros((size, size, 3), np.uint8)
    img[:] = body
    s = size
    r = int(s * 0.085)
    if pips and face.isdigit() and 1 <= int(face) <= 6:
        for x, y in PIP_LAYOUT[int(face)]:
            cv2.circle(img, (int(x * s), int(y * s)), r, ink, -1, cv2.LINE_AA)
        return img
    c = s // 2
    if face == "blank":
        pass
    elif face in {"0", "1", "2", "3", "4", "5", "6", "1+"}:
        _text(img, face, ink, s, 1.1 if face != "1+" else 0.9)
        # an underline tells 6 from 9 and marks the reading direction
        cv2.line(img, (int(s * 0.3), int(s * 0.82)), (int(s * 0.7), int(s * 0.82)), ink,
                 max(2, s // 20), cv2.LINE_AA)
    elif face == "alarm":  # a warning triangle with a bar
        _poly(img, [(0.5, 0.15), (0.88, 0.82), (0.12, 0.82)], ink, s)
        _poly(img, [(0.5, 0.32), (0.72, 0.72), (0.28, 0.72)], body, s)
        cv2.rectangle(img, (int(s * .46), int(s * .42)), (int(s * .54), int(s * .6)), ink, -1)
        cv2.circle(img, (c, int(s * 0.66)), max(2, s // 25), ink, -1, cv2.LINE_AA)
    elif face == "strength":  # a dumbbell
        cv2.rectangle(img, (int(s * .2), int(s * .45)), (int(s * .8), int(s * .55)), ink, -1)
        for x in (0.15, 0.75):
            cv2.rectangle(img, (int(s * x), int(s * .28)), (int(s * (x + .1)), int(s * .72)), ink, -1)
    elif face == "defense":  # a shield
        _poly(img, [(0.2, 0.18), (0.8, 0.18), (0.8, 0.5), (0.5, 0.85), (0.2, 0.5)], ink, s)
        _poly(img, [(0.3, 0.27), (0.7, 0.27), (0.7, 0.48), (0.5, 0.72), (0.3, 0.48)], body, s)
    elif face == "agility":  # a lightning zig-zag
        _poly(img, [(0.55, 0.1), (0.25, 0.55), (0.47, 0.55), (0.38, 0.9), (0.75, 0.42),
                    (0.53, 0.42), (0.66, 0.1)], ink, s)
    elif face == "speed":  # double chevrons
        for dx in (0.0, 0.28):
            _poly(img, [(0.18 + dx, 0.2), (0.32 + dx, 0.2), (0.55 + dx, 0.5), (0.32 + dx, 0.8),
                        (0.18 + dx, 0.8), (0.41 + dx, 0.5)], ink, s)
    elif face == "wild":  # a five-pointed star
        pts = []
        for k in range(10):
            rad = 0.4 if k % 2 == 0 else 0.17
            a = -math.pi / 2 + k * math.pi / 5
            pts.append((0.5 + rad * math.cos(a), 0.52 + rad * math.sin(a)))
        _poly(img, pts, ink, s)
    elif face == "xmen":  # a circle with an X
        cv2.circle(img, (c, c), int(s * 0.36), ink, max(2, s // 14), cv2.LINE_AA)
        w = max(3, s // 9)
        cv2.line(img, (int(s * .3), int(s * .3)), (int(s * .7), int(s * .7)), ink, w, cv2.LINE_AA)
        cv2.line(img, (int(s * .7), int(s * .3)), (int(s * .3), int(s * .7)), ink, w, cv2.LINE_AA)
    elif face == "marvel":  # a filled block with an M
        cv2.rectangle(img, (int(s * .14), int(s * .26)), (int(s * .86), int(s * .74)), ink, -1)
        _text(img, "M", body, s, 1.0)
    elif face == "evil_mutant":  # a skull-like mask: disc with two eyes and teeth
        cv2.circle(img, (c, int(s * 0.45)), int(s * 0.3), ink, -1, cv2.LINE_AA)
        for x in (0.38, 0.62):
            cv2.circle(img, (int(s * x), int(s * 0.42)), int(s * 0.08), body, -1, cv2.LINE_AA)
        cv2.rectangle(img, (int(s * .38), int(s * .68)), (int(s * .62), int(s * .82)), ink, -1)
        for x in (0.45, 0.53):
            cv2.line(img, (int(s * x), int(s * .7)), (int(s * x), int(s * .82)), body, max(1, s // 40))
    elif face.startswith("num:"):  # training only: "num:TEXT:FONT" (see draw_numeral)
        _, text, font = face.split(":")
        draw_numeral(img, text, int(font), ink)
    elif face.startswith("gsym:"):  # training only: a symbol on a coloured ground
        draw_grounded_symbol(img, int(face[5:]), ink, body)
    else:  # any other face id the game data names: a symbol of its own, the same every time
        draw_symbol(img, zlib.crc32(face.encode()), ink, body)
    return img


# Training faces (the second stage of `make train-vision`): numerals in OpenCV's other
# fonts, so that the embedding learns numerals as a kind; the stand-ins' own font (DUPLEX
# with an underline) is left out so the game sets stay symbols it never trained on.
NUMERAL_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX,
                 cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
                 cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC,
                 cv2.FONT_HERSHEY_COMPLEX | cv2.FONT_ITALIC)


def draw_numeral(img: np.ndarray, text: str, font: int, ink) -> None:
    """``text`` in ``NUMERAL_FONTS[font]``, centred, as large as the face allows."""
    s = img.shape[0]
    f = NUMERAL_FONTS[font % len(NUMERAL_FONTS)]
    th = max(2, int(s / 14))
    fs = 1.0
    (tw, tht), _ = cv2.getTextSize(text, f, fs, th)
    fs = 0.7 * s / max(tw, tht, 1)
    (tw, tht), _ = cv2.getTextSize(text, f, fs, th)
    cv2.putText(img, text, ((s - tw) // 2, (s + tht) // 2), f, fs, ink, th, cv2.LINE_AA)


def draw_grounded_symbol(img: np.ndarray, seed: int, ink, body) -> None:
    """A random symbol on a ground of its own colour and shape (disc, square, diamond):
    printed dice often set a light symbol on a coloured badge."""
    rng = np.random.default_rng(1_000_003 + seed)
    s = img.shape[0]
    ground = tuple(int(v) for v in rng.integers(0, 256, 3))
    kind = int(rng.integers(3))
    if kind == 0:
        cv2.circle(img, (s // 2, s // 2), int(s * 0.4), ground, -1, cv2.LINE_AA)
    elif kind == 1:
        cv2.rectangle(img, (int(s * .12), int(s * .12)), (int(s * .88), int(s * .88)), ground, -1)
    else:
        _poly(img, [(0.5, 0.08), (0.92, 0.5), (0.5, 0.92), (0.08, 0.5)], ground, s)
    # the symbol in whichever of ink and body stands out from the ground
    far = max((ink, body), key=lambda c: sum(abs(int(a) - int(b)) for a, b in zip(c, ground)))
    draw_symbol(img, seed, far, ground)


def draw_symbol(img: np.ndarray, seed: int, ink, body) -> None:
    """A random symbol made of 1 to 3 simple shapes, drawn in place; ``seed`` picks it.

    Training draws thousands of these so that the face embedding learns to tell symbols
    apart in general, not just the stand-ins it was shown."""
    rng = np.random.default_rng(seed)
    s = img.shape[0]
    lw = max(2, s // 16)
    for _ in range(int(rng.integers(1, 4))):
        kind = int(rng.integers(7))
        cx, cy = rng.uniform(0.3, 0.7, 2)
        r = rng.uniform(0.12, 0.32)
        colour = body if (kind != 6 and rng.random() < 0.15) else ink
        if kind == 0:  # a filled polygon
            n = int(rng.integers(3, 8))
            a = np.sort(rng.uniform(0, 2 * math.pi, n))
            rad = r * rng.uniform(0.5, 1.0, n)
            _poly(img, list(zip(cx + rad * np.cos(a), cy + rad * np.sin(a))), colour, s)
        elif kind == 1:  # a ring
            cv2.circle(img, (int(cx * s), int(cy * s)), int(r * s), colour, lw, cv2.LINE_AA)
        elif kind == 2:  # a disc
            cv2.circle(img, (int(cx * s), int(cy * s)), int(r * s * 0.7), colour, -1,
                       cv2.LINE_AA)
        elif kind == 3:  # strokes
            for _ in range(int(rng.integers(1, 4))):
                p0, p1 = rng.uniform(0.15, 0.85, 2), rng.uniform(0.15, 0.85, 2)
                cv2.line(img, tuple(int(v * s) for v in p0), tuple(int(v * s) for v in p1),
                         colour, lw, cv2.LINE_AA)
        elif kind == 4:  # a star
            k = int(rng.integers(4, 9))
            pts = [(cx + (r if j % 2 == 0 else r * 0.45) * math.cos(j * math.pi / k),
                    cy + (r if j % 2 == 0 else r * 0.45) * math.sin(j * math.pi / k))
                   for j in range(2 * k)]
            _poly(img, pts, colour, s)
        elif kind == 5:  # a letter or digit
            ch = "ABCDEFGHJKLMNPRSTUVWXYZ23456789#&?@%"[int(rng.integers(36))]
            _text(img, ch, colour, s, rng.uniform(0.6, 1.1))
        else:  # a few dots off the pip layouts
            for _ in range(int(rng.integers(2, 8))):
                x, y = rng.uniform(0.18, 0.82, 2)
                cv2.circle(img, (int(x * s), int(y * s)), int(s * 0.07), ink, -1, cv2.LINE_AA)


@dataclass
class RenderOptions:
    size: tuple[int, int] = (640, 480)
    die_px: tuple[float, float] = (40.0, 56.0)  # top-face side range in pixels
    perspective: float = 0.06  # strength of the whole-scene tilt
    gradient: float = 0.35  # depth of the light gradient
    shadow: float = 0.5
    blur: float = 0.9  # max Gaussian sigma
    noise: float = 4.0  # max sensor noise sigma
    jpeg: tuple[int, int] = (60, 92)
    touching: float = 0.3  # chance a die is placed against another one
    hand: bool = False  # draw a hand-like blob reaching into the tray
    min_contrast: float = 30.0  # least Lab distance between a die's body and the tray
    # Domain randomisation for training and for the harder benchmark scenes (all off by
    # default: the plain scenes the tests and the demo use).
    packed: float = 0.0  # chance a die is laid edge to edge against one already placed
    light: tuple[float, float] = (1.0, 1.0)  # overall light (dim light: 0.3)
    motion: float = 0.0  # longest motion blur, px
    clutter: int = 0  # most clutter items on the table (cables, cards, stickers, coins, dots)
    wall: float = 0.0  # chance of a tray wall along an edge of the frame
    side_faces: float = 0.0  # chance the sides in view show their own pips or symbols
    oblique: float = 0.35  # how much side is in view at the frame's edge, in die sides
    materials: float = 0.0  # chance of a glossy highlight or a marbled body
    any_colour: float = 0.0  # chance of a die body of any colour, not one of BODIES
    surfaces: list = field(default_factory=list)  # extra tray colours to draw from


@dataclass
class RenderedScene:
    image: np.ndarray
    faces: list[str]  # one per die in view
    boxes: list[tuple[int, int, int, int]]  # each die's whole outline (top and sides), x y w h
    tops: list[np.ndarray]  # each die's top face, 4x2 float corners in frame pixels
    hand: np.ndarray | None = None  # 0..255 mask of a hand reaching in, when one is drawn


SURFACES = [(40, 90, 40), (60, 100, 150), (110, 110, 110), (205, 205, 200), (120, 60, 30),
            (35, 35, 45), (80, 60, 120)]
BODIES = [(235, 235, 232), (30, 30, 200), (40, 40, 40), (40, 200, 230), (60, 150, 40),
          (170, 80, 30), (140, 40, 120), (20, 100, 230)]
_SQUARE = np.array([[0, 0], [96, 0], [96, 96], [0, 96]], np.float32)


def _contrast_ink(body, rng) -> tuple[int, int, int]:
    lum = 0.114 * body[0] + 0.587 * body[1] + 0.299 * body[2]
    if lum > 120:
        return tuple(int(v) for v in rng.integers(10, 50, 3))
    return tuple(int(v) for v in rng.integers(215, 250, 3))


def _background(rng, w, h, opt: RenderOptions):
    choices = SURFACES + list(opt.surfaces)
    base = np.array(choices[rng.integers(len(choices))], np.float32)
    base = np.clip(base + rng.normal(0, 12, 3), 0, 255)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    tex = cv2.resize(rng.normal(0, 1, (h // 16 + 1, w // 16 + 1)).astype(np.float32), (w, h),
                     interpolation=cv2.INTER_CUBIC)
    img += tex[..., None] * 6
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    ramp = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h)
    light = 1.0 + opt.gradient * rng.uniform(0.3, 1.0) * ramp
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    spot = np.exp(-(((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * (0.5 * max(w, h)) ** 2)))
    light *= 0.85 + 0.25 * spot
    return img, light, base


def _lab_distance(a, b) -> float:
    px = np.uint8([[a, b]])
    lab = cv2.cvtColor(np.clip(px, 0, 255).astype(np.uint8), cv2.COLOR_BGR2LAB).astype(float)[0]
    return float(np.linalg.norm(lab[0] - lab[1]))


def _random_colour(rng) -> tuple[int, int, int]:
    return tuple(int(v) for v in rng.integers(0, 256, 3))


def _clutter(frame: np.ndarray, rng, opt: RenderOptions, side: float) -> None:
    """Things on a table that are not dice: cables, a card or laptop corner, stickers, coins,
    printed dots and lines on the tray."""
    img = np.clip(frame, 0, 255).astype(np.uint8)  # OpenCV draws text on 8-bit images only
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(0, opt.clutter + 1))):
        kind = int(rng.integers(6))
        col = _random_colour(rng) if rng.random() < 0.5 else tuple(int(v) for v in rng.integers(10, 60, 3))
        if kind == 0:  # a cable: a thick smooth curve
            pts = np.cumsum(rng.normal(0, side, (6, 2)), 0) + rng.uniform(0, 1, 2) * (w, h)
            cv2.polylines(img, [pts.astype(np.int32)], False, col,
                          max(2, int(side * rng.uniform(0.1, 0.35))), cv2.LINE_AA)
        elif kind == 1:  # a card, a laptop's corner, a box: a big rectangle in from an edge
            cx, cy = rng.choice([0, w]), rng.uniform(0, h)
            if rng.random() < 0.5:
                cx, cy = rng.uniform(0, w), rng.choice([0, h])
            rect = ((float(cx), float(cy)), (float(side * rng.uniform(2, 8)),
                                             float(side * rng.uniform(2, 8))), float(rng.uniform(0, 90)))
            cv2.fillConvexPoly(img, cv2.boxPoints(rect).astype(np.int32), col, cv2.LINE_AA)
        elif kind == 2:  # a sticker or label with print on it
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            sw, sh = side * rng.uniform(0.5, 2.0), side * rng.uniform(0.3, 1.0)
            rect = ((float(x), float(y)), (float(sw), float(sh)), float(rng.uniform(0, 180)))
            cv2.fillConvexPoly(img, cv2.boxPoints(rect).astype(np.int32), (230, 230, 230)
                               if rng.random() < 0.5 else col, cv2.LINE_AA)
            cv2.putText(img, "".join(rng.choice(list("AB12C3X#"), 3)), (int(x - sw / 3), int(y)),
                        cv2.FONT_HERSHEY_SIMPLEX, side / 60, (20, 20, 20), max(1, int(side / 30)))
        elif kind == 3:  # a coin or a token: a die-sized disc
            cv2.circle(img, (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                       int(side * rng.uniform(0.3, 0.6)), col, -1, cv2.LINE_AA)
        elif kind == 4:  # printed dots on the tray (a one's pip on its own)
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            for k in range(int(rng.integers(1, 4))):
                cv2.circle(img, (int(x + k * side * 0.8), int(y)), int(side * rng.uniform(0.08, 0.2)),
                           col, -1, cv2.LINE_AA)
        else:  # a thin printed line or seam
            p0 = rng.uniform(0, 1, 2) * (w, h)
            p1 = p0 + rng.normal(0, 4 * side, 2)
            cv2.line(img, tuple(int(v) for v in p0), tuple(int(v) for v in p1), col,
                     max(1, int(side * 0.06)), cv2.LINE_AA)
    frame[:] = img


def _wall(img: np.ndarray, light: np.ndarray, rng, opt: RenderOptions) -> int:
    """A tray wall along one edge: a band of another colour, shaded; returns its depth in px
    so dice can be laid against it."""
    h, w = img.shape[:2]
    depth = int(min(w, h) * rng.uniform(0.05, 0.15))
    col = np.array(_random_colour(rng), np.float32)
    edge = int(rng.integers(4))
    ramp = np.linspace(0.6, 1.1, depth, dtype=np.float32)[:, None]
    if edge == 0:
        img[:depth] = col * ramp[..., None]
    elif edge == 1:
        img[h - depth:] = col * ramp[::-1][..., None]
    elif edge == 2:
        img[:, :depth] = col * ramp.T[..., None]
    else:
        img[:, w - depth:] = col * ramp.T[::-1][..., None]
    return edge, depth


def _paste(img: np.ndarray, tex: np.ndarray, quad: np.ndarray, gain: float) -> None:
    """Warp a face texture onto a quad of the frame (only the quad's box is touched)."""
    h, w = img.shape[:2]
    x0, y0 = np.floor(quad.min(0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    local = (quad - (x0, y0)).astype(np.float32)
    M = cv2.getPerspectiveTransform(_SQUARE, local)
    warped = cv2.warpPerspective(tex, M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(m, np.round(local * 16).astype(np.int32), 255, cv2.LINE_AA, shift=4)
    a = (m.astype(np.float32) / 255)[..., None]
    roi = img[y0:y1, x0:x1]
    roi *= 1 - a
    roi += warped * a * gain


def _place(rng, opt: RenderOptions, placed, side: float, w: int, h: int, wall):
    """A centre and turn for a die of ``side`` that does not overlap those placed."""
    for _ in range(200):
        # scenes with packed dice draw each try's turn here; others later, where the plain
        # scenes always drew it (so a seed gives the scene it gave before)
        ang = rng.uniform(0, 2 * math.pi) if opt.packed else None
        if placed and opt.packed and rng.random() < opt.packed:  # edge to edge
            px, py, ps, pa = placed[rng.integers(len(placed))]
            k = int(rng.integers(4))
            d = (ps + side) * 0.5 * rng.uniform(1.0, 1.06)
            a = pa + k * math.pi / 2
            cx = px + d * math.cos(a) + rng.normal(0, side * 0.08)
            cy = py + d * math.sin(a) + rng.normal(0, side * 0.08)
            ang = pa + rng.normal(0, 0.06)
            gap = 1.0
        elif placed and rng.random() < opt.touching:
            px, py, ps, _ = placed[rng.integers(len(placed))]
            a = rng.uniform(0, 2 * math.pi)
            d = (ps + side) * 0.5 * rng.uniform(1.05, 1.2)
            cx, cy = px + d * math.cos(a), py + d * math.sin(a)
            gap = 1.45
        elif wall is not None and rng.random() < 0.3:  # against the tray wall
            edge, depth = wall
            t = depth + side * rng.uniform(0.5, 0.8)
            u = rng.uniform(side, (w if edge < 2 else h) - side)
            cx, cy = {0: (u, t), 1: (u, h - t), 2: (t, u), 3: (w - t, u)}[edge]
            gap = 1.45
        else:
            m = side * 0.9 + opt.perspective * max(w, h) + 6
            cx, cy = rng.uniform(m, w - m), rng.uniform(m, h - m)
            gap = 1.45
        m = side * 0.8 + opt.perspective * max(w, h)
        if not (m < cx < w - m and m < cy < h - m):
            continue
        # edge-to-edge dice may lie as close as their sides allow; others keep clear
        if all(math.hypot(cx - qx, cy - qy) > (side + qs) * 0.5 * (gap if gap > 1 else 0.98)
               for qx, qy, qs, _ in placed):
            return cx, cy, ang
    return None


def render_labelled(rng: np.random.Generator, faces: list[str],
                    opt: RenderOptions | None = None, pips: bool = True,
                    bodies: list | None = None) -> RenderedScene:
    """A frame showing one die per entry of ``faces`` (as many as fit), with each die's
    outline box and top-face corners."""
    opt = opt or RenderOptions()
    w, h = opt.size
    img, light, surface = _background(rng, w, h, opt)
    mean_side = float(np.mean(opt.die_px))
    # every option off draws nothing extra, so plain scenes stay what they were
    wall = _wall(img, light, rng, opt) if opt.wall and rng.random() < opt.wall else None
    if opt.clutter:
        _clutter(img, rng, opt, mean_side)
    shadow = np.ones((h, w), np.float32)
    placed: list[tuple[float, float, float, float]] = []
    shown, boxes, tops = [], [], []
    sun = rng.uniform(0, 2 * math.pi)
    for i, face in enumerate(faces):
        side = rng.uniform(*opt.die_px)
        spot = _place(rng, opt, placed, side, w, h, wall)
        if spot is None:
            continue
        cx, cy, ang = spot
        placed.append((cx, cy, side, ang))
        for _ in range(20):
            if bodies:
                body = bodies[i % len(bodies)]
            elif opt.any_colour and rng.random() < opt.any_colour:
                body = _random_colour(rng)
            else:
                body = BODIES[rng.integers(len(BODIES))]
            body = tuple(int(np.clip(v + rng.normal(0, 8), 0, 255)) for v in body)
            # Assumption: a die stands out from its tray (a black die on black felt is
            # unreadable to people in a photo too). Redraw a body too close to the surface.
            if bodies or _lab_distance(body, tuple(int(v) for v in surface)) >= opt.min_contrast:
                break
        ink = _contrast_ink(body, rng)
        tex = draw_face(face, 96, body, ink, pips=pips)
        if opt.materials and rng.random() < opt.materials:
            tex = _material(tex, rng)
        if ang is None:
            ang = rng.uniform(0, 2 * math.pi)
        half = side / 2
        corners = []
        for k in range(4):
            a = ang + k * math.pi / 2 + math.pi / 4
            jitter = rng.normal(0, side * 0.015, 2)
            corners.append((cx + half * math.sqrt(2) * math.cos(a) + jitter[0],
                            cy + half * math.sqrt(2) * math.sin(a) + jitter[1]))
        top = np.array(corners, np.float32)
        # The sides: the top face pushed away from the image centre (a camera above the
        # middle of the tray sees the outer sides of dice near its edges).
        dx, dy = (cx - w / 2) / w, (cy - h / 2) / h
        off = np.array([dx, dy], np.float32) * side * opt.oblique
        base = top + off
        hull = cv2.convexHull(np.vstack([top, base]).astype(np.float32)).astype(np.int32)
        so = np.array([math.cos(sun), math.sin(sun)], np.float32) * side * 0.25
        _soft_shadow(shadow, (hull + so).astype(np.int32), side,
                     opt.shadow * rng.uniform(0.4, 1.0))
        dark = rng.uniform(0.55, 0.75)
        side_col = np.array(body, np.float32) * dark
        cv2.fillConvexPoly(img, hull, tuple(float(v) for v in side_col), cv2.LINE_AA)
        if opt.side_faces and rng.random() < opt.side_faces:  # sides show their faces
            others = [str(v) for v in range(1, 7)] if pips else list(dict.fromkeys(faces))
            for k in range(4):
                quad = np.array([top[k], top[(k + 1) % 4], base[(k + 1) % 4], base[k]])
                e = top[(k + 1) % 4] - top[k]
                normal = np.array([e[1], -e[0]])
                if float(np.dot(normal, top[k] - (cx, cy))) < 0:
                    normal = -normal
                if float(np.dot(normal, off)) <= 0.05 * side * np.linalg.norm(normal):
                    continue
                sf = draw_face(others[rng.integers(len(others))], 96, body, ink, pips=pips)
                _paste(img, sf, quad.astype(np.float32), dark)
        _paste(img, tex, top, rng.uniform(1.0, 1.08))  # a rounded edge's highlight
        x, y, bw, bh = cv2.boundingRect(hull)
        shown.append(face)
        boxes.append((x, y, bw, bh))
        tops.append(top)
    hand = None
    if opt.hand:
        hand = np.zeros((h, w), np.uint8)
        y0 = int(h * rng.uniform(0.3, 0.6))
        cv2.ellipse(hand, (0, y0), (int(w * 0.45), int(h * 0.18)), 0, -90, 90, 255, -1)
        hm = (cv2.GaussianBlur(hand, (15, 15), 0).astype(np.float32) / 255)[..., None]
        img = img * (1 - hm) + np.array([120, 150, 210], np.float32) * hm
    gain = rng.uniform(*opt.light) if opt.light != (1.0, 1.0) else 1.0
    img *= (light * shadow * gain)[..., None]
    if opt.perspective > 0:  # the whole scene tilted
        p = opt.perspective
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        dst = (src + rng.uniform(-p, p, (4, 2)) * (w, h)).astype(np.float32)
        H = cv2.getPerspectiveTransform(src, dst)
        img = cv2.warpPerspective(img, H, (w, h), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REFLECT)
        new = []
        for (x, y, bw, bh) in boxes:
            pts = np.array([[[x, y]], [[x + bw, y]], [[x + bw, y + bh]], [[x, y + bh]]], np.float32)
            q = cv2.perspectiveTransform(pts, H).reshape(-1, 2)
            x0, y0 = q.min(0)
            x1, y1 = q.max(0)
            new.append((int(x0), int(y0), int(x1 - x0), int(y1 - y0)))
        boxes = new
        tops = [cv2.perspectiveTransform(t.reshape(-1, 1, 2), H).reshape(-1, 2) for t in tops]
        if hand is not None:
            hand = cv2.warpPerspective(hand, H, (w, h), flags=cv2.INTER_NEAREST)
    if opt.motion > 2 and rng.random() < 0.5:
        n = int(rng.uniform(2, opt.motion)) | 1
        k = np.zeros((n, n), np.float32)
        k[n // 2] = 1.0 / n
        k = cv2.warpAffine(k, cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5),
                                                      rng.uniform(0, 180), 1.0), (n, n))
        img = cv2.filter2D(img, -1, k / max(float(k.sum()), 1e-6))
    sigma = rng.uniform(0, opt.blur)
    if sigma > 0.2:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img = img + rng.normal(0, rng.uniform(0.5, opt.noise), img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    q = int(rng.integers(opt.jpeg[0], opt.jpeg[1] + 1))
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
    img = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return RenderedScene(img, shown, boxes, tops, hand)


def _soft_shadow(shadow: np.ndarray, poly: np.ndarray, side: float, depth: float) -> None:
    h, w = shadow.shape
    k = int(side * 0.4) | 1
    x, y, bw, bh = cv2.boundingRect(poly)
    x0, y0 = max(x - k, 0), max(y - k, 0)
    x1, y1 = min(x + bw + k, w), min(y + bh + k, h)
    if x1 <= x0 or y1 <= y0:
        return
    m = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillConvexPoly(m, poly - (x0, y0), 1.0, cv2.LINE_AA)
    m = cv2.GaussianBlur(m, (k, k), 0)
    shadow[y0:y1, x0:x1] *= 1.0 - depth * m


def _material(tex: np.ndarray, rng) -> np.ndarray:
    """A glossy highlight across the face or a marbled body."""
    t = tex.astype(np.float32)
    n = t.shape[0]
    if rng.random() < 0.5:
        m = np.zeros((n, n), np.float32)
        cv2.ellipse(m, (int(rng.uniform(0.2, 0.8) * n), int(rng.uniform(0.2, 0.8) * n)),
                    (int(n * rng.uniform(0.1, 0.4)), int(n * rng.uniform(0.05, 0.15))),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), n * 0.05)[..., None]
        t = t * (1 - 0.8 * m) + 255 * 0.8 * m
    else:
        swirl = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (n, n),
                           interpolation=cv2.INTER_CUBIC)
        t = t * (1 + 0.25 * np.sin(4 * swirl))[..., None]
    return np.clip(t, 0, 255).astype(np.uint8)


def render_scene(rng: np.random.Generator, faces: list[str], opt: RenderOptions | None = None,
                 pips: bool = True, bodies: list | None = None):
    """A frame showing one die per entry of ``faces``; returns (bgr, boxes) with boxes in pixels."""
    scene = render_labelled(rng, faces, opt, pips, bodies)
    return scene.image, scene.boxes


def random_roll(rng: np.random.Generator, set_name: str, n: int) -> list[str]:
    """Faces of ``n`` dice rolled from a set (dice chosen among the set's dice)."""
    dice = GAME_SETS.get(set_name, [set_name])
    out = []
    for _ in range(n):
        die = GAME_DICE[dice[rng.integers(len(dice))]]
        out.append(die[rng.integers(len(die))])
    return out


def render_roll(rng: np.random.Generator, set_name: str, n: int,
                opt: RenderOptions | None = None):
    """A scene of ``n`` dice of ``set_name``; returns (bgr, faces, boxes)."""
    faces = random_roll(rng, set_name, n)
    img, boxes = render_scene(rng, faces, opt, pips=(set_name == "d6"))
    return img, faces[:len(boxes)], boxes


def render_single(rng: np.random.Generator, face: str, pips: bool = True,
                  opt: RenderOptions | None = None) -> np.ndarray:
    """A teaching photo: one die showing ``face``."""
    opt = opt or RenderOptions(die_px=(60.0, 90.0), touching=0.0)
    img, _ = render_scene(rng, [face], opt, pips=pips)
    return img


def write_teaching_photos(set_name: str, folder, per_face: int = 6, seed: int = 0) -> list[str]:
    """Rendered teaching photos ``folder/<face>/<n>.png`` for a game set (stand-in symbols)."""
    from pathlib import Path

    rng = np.random.default_rng(seed)
    folder = Path(folder)
    faces = set_faces(set_name)
    for face in faces:
        d = folder / face
        d.mkdir(parents=True, exist_ok=True)
        for k in range(per_face):
            img = render_single(rng, face, pips=(set_name == "d6"))
            cv2.imwrite(str(d / f"{k}.png"), img)
    return faces
