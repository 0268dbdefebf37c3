"""Dice a read left out of a group: what differs from the table beside the dice read, that no
read die's top face explains, a die thick.

Where dice lie packed edge to edge the detector now and then has no peak at one of them (most
often a blank face, a plain square among printed ones: docs/benchmarks.md, "dice left out of
a group"), and since nothing die-like was seen, nothing flagged the roll. Such a die still
differs from the table (vision/tray.py's foreground). So, at the detector's working scale:
the foreground within ``near`` sides of a read die, less every read (or already flagged) die's
box, or the disc inside it, grown by ``grow``, opened by ``opening`` sides (the slivers left
along a die's turned edge and its shadow), is a die left out wherever it is ``thick`` sides
thick (twice the distance from its deepest point to its edge), or wherever the detector
peaked on it too weakly for the reader to read or flag (``snap``: read at that peak). The
fused reader reads each such place with the face reader (vision/fused.py); ``settle`` adds a
die read there, asking, or flags the roll.

Each of these is chosen on the tuning part only, per kind of set
(`python -m vision.training.tune_leftover`; the choice and its figures in
`vision/models/training.json`, section "leftover").
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace

import cv2
import numpy as np

from vision.order_stats import median
from vision.reader import RECORD, DieRead
from vision.shrink import Shrunk
from vision.tray import working_foreground

SECTION = "leftover"  # of vision/models/training.json
WORK_SIDE = 320  # the frame's long side while looking (the detector's own input size)
ASKING = 0.01  # a die added asks: its confidence this far under the reader's threshold


@dataclass(frozen=True)
class LeftoverTuning:
    thick: float = 0.0  # sides; 0: never look
    grow: float = 1.0  # a read die's box, this many times its size, explains what it covers
    # ... the box itself ("box"), or the disc inside it ("disc": a turned die's box holds
    # corners of its neighbours; what the disc leaves of its own corners is thin)
    shape: str = "box"
    near: float = 1.7  # sides from a read die's centre: a die left out of its group lies there
    opening: float = 0.3  # sides
    # a place the face reader surely calls no die (the reader's ``sure_not``): "flag" the
    # roll all the same, or "drop" it (a shadow, a tray's edge)
    not_die: str = "flag"
    # a die read at a place is added (asking) from this confidence of its read; under it the
    # roll is only flagged (1.01: never added): a read there may be a die invented from a
    # patch of table, which asks too, but costs precision
    add_from: float = 0.0
    # a piece holding the centre of a detector peak from this score that the reader neither
    # read nor flagged is a place, thick or not, read at the strongest such peak (0: no
    # peak counts). A blank face packed among dice peaks too weakly to be read on its crop
    # alone (its crop reads "blank" as surely as a patch of table does), but such a peak on
    # the foreground no read die explains is nearly always a die left out (tuning part:
    # docs/benchmarks.md, "weak peaks"), it peaks at its centre, where the deepest point of
    # what its neighbours leave is often off it, and its piece may be thinner than ``thick``
    snap: float = 0.0
    # an asking read whose top face's middle (the square 0.35 sides around its centre) is
    # the tray's foreground for less than this share is let go, flagging the roll (0:
    # never): the learned reader reads patches of table as a blank face, asking, and most
    # of those have no foreground at all under them, where a real die read asking has some
    # (tuning part: docs/benchmarks.md, "no foreground under it")
    ground: float = 0.0

    def __post_init__(self):
        # the record is a file an owner may edit: a value no look reads is refused by name
        if self.shape not in ("box", "disc") or self.not_die not in ("flag", "drop"):
            raise ValueError(f"leftover tuning: shape {self.shape!r} (box, disc), not_die "
                             f"{self.not_die!r} (flag, drop)")
        for name in ("thick", "grow", "near", "opening", "add_from", "snap", "ground"):
            if not 0.0 <= getattr(self, name) <= 4.0:
                raise ValueError(f"leftover tuning: {name} {getattr(self, name)!r} is not 0 to 4")

    def looks_like(self, other: "LeftoverTuning") -> bool:
        """Whether the two find the same places (they differ at most in what they do there)."""
        return replace(self, not_die=other.not_die, add_from=other.add_from,
                       ground=other.ground) == other

    @classmethod
    def shipped(cls, taught: bool = False) -> "LeftoverTuning":
        record = json.loads(RECORD.read_text()) if RECORD.is_file() else {}
        got = record.get(SECTION, {}).get("taught" if taught else "pips", {})
        return cls(**{f.name: type(f.default)(got[f.name]) for f in fields(cls) if f.name in got})

    def to_json(self) -> dict:
        return asdict(self)


def _box(box) -> tuple[float, float, float, float]:
    x, y, w, h = box
    return x + w / 2, y + h / 2, float(w), float(h)


def places(frame_bgr: np.ndarray, read: list, flagged: list, t: LeftoverTuning,
           shrunk: Shrunk | None = None, region: np.ndarray | None = None,
           weak: list[tuple[float, float, float]] = (),
           ) -> list[tuple[float, float, float]]:
    """(x, y, side) in frame pixels of each die left out beside the ``read`` boxes (x, y, w,
    h; ``flagged``: boxes the roll already asks about, which explain what they cover too;
    ``weak``: the detector's peaks neither read nor flagged, x, y, score, for ``t.snap``)."""
    if t.thick <= 0 or not read:
        return []
    fg, f = _foreground(frame_bgr, shrunk, region)
    sh, sw = fg.shape
    explained = np.zeros((sh, sw), np.uint8)
    zone = np.zeros((sh, sw), np.uint8)
    sides = []
    for n, box in enumerate([*read, *flagged]):
        cx, cy, bw, bh = (v * f for v in _box(box))
        hw, hh = t.grow * bw / 2, t.grow * bh / 2
        if t.shape == "disc":
            cv2.ellipse(explained, (round(cx), round(cy)), (round(hw), round(hh)), 0, 0, 360, 255, -1)
        else:
            cv2.rectangle(explained, (round(cx - hw), round(cy - hh)),
                          (round(cx + hw), round(cy + hh)), 255, -1)
        if n < len(read):
            side = max(bw, bh)
            sides.append(side)
            cv2.circle(zone, (round(cx), round(cy)), max(1, round(t.near * side)), 255, -1)
    side = median(sides)
    left = cv2.bitwise_and(cv2.bitwise_and(fg, zone), cv2.bitwise_not(explained))
    k = max(1, round(t.opening * side))
    left = cv2.morphologyEx(left, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    # 16-bit labels (a 320 px mask holds far fewer than 65536 pieces): 2-3x faster
    n, labels, stats, _ = cv2.connectedComponentsWithStats(left, connectivity=8,
                                                           ltype=cv2.CV_16U)
    if n <= 1:
        return []
    depth = cv2.distanceTransform(left, cv2.DIST_L2, 3)
    peak_at = _peaks_by_piece(labels, weak, t.snap, f)
    out = []
    for i in range(1, n):
        x, y, bw, bh = stats[i, :4]
        d = np.where(labels[y:y + bh, x:x + bw] == i, depth[y:y + bh, x:x + bw], 0)
        py, px = np.unravel_index(int(np.argmax(d)), d.shape)
        if i in peak_at:
            out.append((*peak_at[i], side / f))
        elif 2 * float(d[py, px]) >= t.thick * side:
            out.append(((x + px) / f, (y + py) / f, side / f))
    return out


def _foreground(frame_bgr: np.ndarray, shrunk: Shrunk | None, region: np.ndarray | None,
                ) -> tuple[np.ndarray, float]:
    """The tray's foreground at the working scale, and that scale (working / frame px)."""
    h, w = frame_bgr.shape[:2]
    f = min(1.0, WORK_SIDE / max(h, w))
    sw, sh = max(1, round(w * f)), max(1, round(h * f))
    small = frame_bgr if f == 1.0 else (shrunk or Shrunk(frame_bgr)).to(sw, sh)
    reg = None if region is None else cv2.resize(region, (sw, sh), interpolation=cv2.INTER_NEAREST)
    return working_foreground(small, reg, shrunk, region), f


def grounded(frame_bgr: np.ndarray, reads: list[DieRead], unread: list, t: LeftoverTuning,
             shrunk: Shrunk | None = None, region: np.ndarray | None = None,
             ) -> tuple[list[DieRead], list]:
    """The reads and unread boxes with each asking read off the foreground (``t.ground``)
    let go to the unread boxes."""
    if t.ground <= 0 or all(r.confirmed for r in reads):
        return reads, unread
    fg, f = _foreground(frame_bgr, shrunk, region)
    kept, off = [], []
    for r in reads:
        cx, cy, bw, bh = _box(r.box)
        k = max(1, int(0.35 * max(bw, bh) * f))
        x, y = int(cx * f), int(cy * f)
        square = fg[max(0, y - k):y + k + 1, max(0, x - k):x + k + 1]
        if not r.confirmed and (square.size == 0 or (square > 0).mean() < t.ground):
            off.append(r.box)
        else:
            kept.append(r)
    return kept, [*unread, *off]


def _peaks_by_piece(labels: np.ndarray, weak, least: float, f: float) -> dict[int, tuple]:
    """{piece label: (x, y) in frame pixels of the strongest ``weak`` peak from ``least``
    whose centre lies in it}."""
    if least <= 0:
        return {}
    h, w = labels.shape
    out: dict[int, tuple] = {}
    for x, y, score in sorted(weak, key=lambda p: -p[2]):
        i = int(labels[min(h - 1, max(0, int(y * f))), min(w - 1, max(0, int(x * f)))])
        if score >= least and i and i not in out:
            out[i] = (x, y)
    return out


def settle(t: LeftoverTuning, threshold: float, reads: list[DieRead], unread: list,
           got: list[DieRead], asks: list, no_die: list) -> tuple[list[DieRead], list]:
    """The reads and unread boxes once the places are read (``Reader.read_at``: ``got`` the
    dice read there, ``asks`` die-like boxes unread, ``no_die`` boxes surely no die): a die
    read from ``add_from`` is added, asking; every other place flags the roll, but one surely
    no die under ``not_die`` "drop"."""
    added = [r for r in got if r.confidence >= t.add_from]
    flagged = [r.box for r in got if r.confidence < t.add_from]
    asking = [DieRead(r.face, min(r.confidence, threshold - ASKING), r.box, False) for r in added]
    return ([*reads, *asking],
            [*unread, *flagged, *asks, *(no_die if t.not_die == "flag" else [])])
