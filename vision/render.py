"""A synthetic renderer of dice scenes, for tests, benchmarks, the demo and teaching.

The symbols drawn for the game dice are stand-ins made of simple shapes: they are not the
printed artwork of any box. A table teaches its own set from photos of its real dice
(`companion dice teach`); these renders exist so that the code path can be exercised and
measured without the boxes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

# The faces of each die the games use. Face ids are what the recognizer returns; what a face
# means belongs to the game engines' data. Dice marked "assumed" follow the issue's
# assumptions, not a rulebook (see docs/vision.md).
GAME_DICE: dict[str, list[str]] = {
    "d6": ["1", "2", "3", "4", "5", "6"],
    "incredibles_movement": ["1", "2", "3", "4", "alarm", "alarm"],  # assumed
    "incredibles_power": ["strength", "defense", "agility", "speed", "wild", "wild"],  # assumed mix
    "jackjack": ["strength", "defense", "agility", "speed", "wild", "wild"],  # assumed mix
    "invincible_rescue": ["0", "1", "1", "2", "2", "3"],  # assumed
    "invincible_crash": ["0", "0", "1", "1", "2", "1+"],  # assumed; "1+" is the re-roll face
    "xmen_alert": ["xmen", "xmen", "marvel", "evil_mutant", "blank", "blank"],
}

# Taught sets per box: which dice are taught together.
GAME_SETS: dict[str, list[str]] = {
    "incredibles": ["incredibles_movement", "incredibles_power", "jackjack"],
    "invincible": ["invincible_rescue", "invincible_crash"],
    "xmen": ["xmen_alert"],
}

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
    else:
        _text(img, face[:3], ink, s, 0.8)
    return img


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


SURFACES = [(40, 90, 40), (60, 100, 150), (110, 110, 110), (205, 205, 200), (120, 60, 30),
            (35, 35, 45), (80, 60, 120)]
BODIES = [(235, 235, 232), (30, 30, 200), (40, 40, 40), (40, 200, 230), (60, 150, 40),
          (170, 80, 30), (140, 40, 120), (20, 100, 230)]


def _contrast_ink(body, rng) -> tuple[int, int, int]:
    lum = 0.114 * body[0] + 0.587 * body[1] + 0.299 * body[2]
    if lum > 120:
        return tuple(int(v) for v in rng.integers(10, 50, 3))
    return tuple(int(v) for v in rng.integers(215, 250, 3))


def _background(rng, w, h, opt: RenderOptions) -> np.ndarray:
    base = np.array(SURFACES[rng.integers(len(SURFACES))], np.float32)
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


def render_scene(rng: np.random.Generator, faces: list[str], opt: RenderOptions | None = None,
                 pips: bool = True, bodies: list | None = None):
    """A frame showing one die per entry of ``faces``; returns (bgr, boxes) with boxes in pixels."""
    opt = opt or RenderOptions()
    w, h = opt.size
    img, light, surface = _background(rng, w, h, opt)
    shadow = np.ones((h, w), np.float32)
    placed: list[tuple[float, float, float]] = []
    boxes: list[tuple[int, int, int, int]] = []
    sun = rng.uniform(0, 2 * math.pi)
    for i, face in enumerate(faces):
        side = rng.uniform(*opt.die_px)
        for _ in range(200):
            if placed and rng.random() < opt.touching:
                px, py, ps = placed[rng.integers(len(placed))]
                a = rng.uniform(0, 2 * math.pi)
                d = (ps + side) * 0.5 * rng.uniform(1.05, 1.2)
                cx, cy = px + d * math.cos(a), py + d * math.sin(a)
            else:
                m = side * 0.9 + opt.perspective * max(w, h) + 6
                cx, cy = rng.uniform(m, w - m), rng.uniform(m, h - m)
            m = side * 0.8 + opt.perspective * max(w, h)
            if not (m < cx < w - m and m < cy < h - m):
                continue
            if all(math.hypot(cx - qx, cy - qy) > (side + qs) * 0.5 * 1.45 for qx, qy, qs in placed):
                break
        else:
            continue
        placed.append((cx, cy, side))
        for _ in range(20):
            body = bodies[i % len(bodies)] if bodies else BODIES[rng.integers(len(BODIES))]
            body = tuple(int(np.clip(v + rng.normal(0, 8), 0, 255)) for v in body)
            # Assumption: a die stands out from its tray (a black die on black felt is
            # unreadable to people in a photo too). Redraw a body too close to the surface.
            if bodies or _lab_distance(body, tuple(int(v) for v in surface)) >= opt.min_contrast:
                break
        ink = _contrast_ink(body, rng)
        tex = draw_face(face, 96, body, ink, pips=pips)
        ang = rng.uniform(0, 2 * math.pi)
        half = side / 2
        corners = []
        for k in range(4):
            a = ang + k * math.pi / 2 + math.pi / 4
            jitter = rng.normal(0, side * 0.015, 2)
            corners.append((cx + half * math.sqrt(2) * math.cos(a) + jitter[0],
                            cy + half * math.sqrt(2) * math.sin(a) + jitter[1]))
        top = np.array(corners, np.float32)
        # The sides: a darker copy of the top face pushed away from the image centre.
        dx, dy = (cx - w / 2) / w, (cy - h / 2) / h
        off = np.array([dx, dy], np.float32) * side * 0.35
        base = top + off
        hull = cv2.convexHull(np.vstack([top, base]).astype(np.float32)).astype(np.int32)
        # a soft shadow cast away from the light
        so = np.array([math.cos(sun), math.sin(sun)], np.float32) * side * 0.25
        smask = np.zeros((h, w), np.float32)
        cv2.fillConvexPoly(smask, (hull + so).astype(np.int32), 1.0, cv2.LINE_AA)
        k = int(side * 0.4) | 1
        smask = cv2.GaussianBlur(smask, (k, k), 0)
        shadow *= 1.0 - opt.shadow * rng.uniform(0.4, 1.0) * smask
        side_col = np.array(body, np.float32) * rng.uniform(0.55, 0.75)
        cv2.fillConvexPoly(img, hull, tuple(float(v) for v in side_col), cv2.LINE_AA)
        src = np.array([[0, 0], [96, 0], [96, 96], [0, 96]], np.float32)
        M = cv2.getPerspectiveTransform(src, top)
        warped = cv2.warpPerspective(tex, M, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)
        tmask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(tmask, top.astype(np.int32), 255, cv2.LINE_AA)
        tm = (tmask.astype(np.float32) / 255)[..., None]
        # rounded edge highlight: a slightly brighter top
        img = img * (1 - tm) + warped * tm * rng.uniform(1.0, 1.08)
        x, y, bw, bh = cv2.boundingRect(hull)
        boxes.append((x, y, bw, bh))
    if opt.hand:
        hand = np.zeros((h, w), np.uint8)
        y0 = int(h * rng.uniform(0.3, 0.6))
        cv2.ellipse(hand, (0, y0), (int(w * 0.45), int(h * 0.18)), 0, -90, 90, 255, -1)
        hm = (cv2.GaussianBlur(hand, (15, 15), 0).astype(np.float32) / 255)[..., None]
        img = img * (1 - hm) + np.array([120, 150, 210], np.float32) * hm
    img = img * (light * shadow)[..., None]
    # whole-scene tilt
    if opt.perspective > 0:
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
    sigma = rng.uniform(0, opt.blur)
    if sigma > 0.2:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img = img + rng.normal(0, rng.uniform(0.5, opt.noise), img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    q = int(rng.integers(opt.jpeg[0], opt.jpeg[1] + 1))
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
    img = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return img, boxes


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
