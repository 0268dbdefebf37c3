"""Teaching a card by camera: the owner lays one card of the box in the card area and takes it;
the card is found in the area, squared up, checked, and kept as that card's photo
(``<data>/cards/<game>/<card id>.png``, what vision/card_camera.py teaches its book from).

The card is the largest four-sided outline in the area (colour edges, gaps closed, its convex
hull simplified to four corners) and is warped to an upright picture of the stand-ins' size, so
the photo holds the card and not the table around it. What cannot make a good photo is refused
with why, and nothing already taught is touched: no picture, an area with no card in it, a card
too small in the picture (too far from the camera), a blurred picture, one with too little
detail to know again, a picture that kept changing (the card still moving).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.paths import write_whole
from vision.card_render import CARD
from vision.cards import CardBook
from vision.errors import TeachError

MIN_SHARE = 0.04      # of the area the card's outline must cover (a rendered draw: 0.09-0.36)
MIN_SHARPNESS = 25.0  # variance of the squared card's Laplacian (tilted rendered draws: 57-835;
#                       one blurred with sigma 2.5: 8), tuned on card_render draws, seeds 500-529
STEADY = 6.0          # mean grey difference of two frames' card areas that is still "steady"
#                       (the simulated camera's sensor noise alone: about 1.7)


def find_card(area: np.ndarray) -> np.ndarray:
    """The card's four corners in ``area`` (clockwise from the top left of the upright card),
    or TeachError saying what the area holds instead."""
    smooth = cv2.GaussianBlur(area, (5, 5), 0)
    channels = [smooth] if smooth.ndim == 2 else [smooth[..., k] for k in range(3)]
    edges = np.max([cv2.Canny(c, 30, 90) for c in channels], axis=0)
    edges = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        raise TeachError("no card in the card area: lay the card flat inside it, all of it in view")
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    share = cv2.contourArea(hull) / float(area.shape[0] * area.shape[1])
    if share < MIN_SHARE:
        raise TeachError("no card in the card area (nothing card-sized there): lay the card flat "
                         "inside it, all of it in view")
    for eps in (0.02, 0.04, 0.06, 0.08):
        corners = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True)
        if len(corners) <= 4:
            break
    if len(corners) != 4:
        raise TeachError("the card's four corners cannot be seen: lay the card flat in the card "
                         "area, all of it in view and nothing over it")
    return _upright(corners.reshape(4, 2).astype(np.float32))


def _upright(corners: np.ndarray) -> np.ndarray:
    centre = corners.mean(axis=0)
    angle = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    ring = corners[np.argsort(angle)]             # clockwise on the image (y points down)
    ring = np.roll(ring, -int(np.argmin(ring.sum(axis=1))), axis=0)    # the top left first
    # a card lies portrait: its top and bottom against its sides, each pair averaged (a tilted
    # card's near edge can come out longer than the far side next to it)
    edges = np.linalg.norm(ring - np.roll(ring, -1, axis=0), axis=1)
    across, down = edges[0] + edges[2], edges[1] + edges[3]
    return np.roll(ring, -1, axis=0) if across > down else ring


def square_up(area: np.ndarray) -> np.ndarray:
    """The card in ``area`` as an upright picture of CARD's size."""
    w, h = CARD
    warp = cv2.getPerspectiveTransform(find_card(area),
                                       np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    return cv2.warpPerspective(area, warp, (w, h), flags=cv2.INTER_LINEAR)


def sharpness(picture: np.ndarray) -> float:
    gray = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY) if picture.ndim == 3 else picture
    return float(cv2.Laplacian(gray, cv2.CV_64F).var())


def photo_of(area: np.ndarray, title: str) -> np.ndarray:
    """The photo to keep of the card in ``area``: found, squared up, sharp, and detailed enough
    that a book taught from it alone knows the card (the check teaches a scratch book)."""
    picture = square_up(area)
    sharp = sharpness(picture)
    if sharp < MIN_SHARPNESS:
        raise TeachError(f"the picture of the card is blurred (sharpness {sharp:.0f}, at least "
                         f"{MIN_SHARPNESS:.0f} is needed): hold the camera and the card still, "
                         "check the focus, and take it again")
    try:
        CardBook().teach(title, picture)
    except ValueError as exc:
        raise TeachError(f"{exc}: more light, or the card nearer the camera") from None
    return picture


def steady(a: np.ndarray, b: np.ndarray) -> bool:
    """Two views of the card area alike enough to call the card still."""
    if a.shape != b.shape:
        return False
    small = [cv2.resize(cv2.cvtColor(x, cv2.COLOR_BGR2GRAY) if x.ndim == 3 else x, (160, 120))
             for x in (a, b)]
    return float(np.mean(cv2.absdiff(small[0], small[1]))) < STEADY


def keep_photo(folder: Path, card_id: str, picture: np.ndarray, others: list[str]) -> Path:
    """Write the photo whole, then rename it into place (never half a picture); the face's other
    photos (a card that shares this one's title, another file type) go, so one photo is kept."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{card_id}.png"
    ok, data = cv2.imencode(".png", picture)
    if not ok:
        raise TeachError(f"{path}: the photo could not be encoded")
    write_whole(path, data.tobytes())
    for other in others:
        for suffix in (".png", ".jpg", ".jpeg"):
            old = folder / f"{other}{suffix}"
            if old != path and old.is_file():
                old.unlink()
    return path
