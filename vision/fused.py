"""The fused recognizer (``recognizer="fused"``): the learned reader finds and reads the dice,
and the classical finder and face readers (vision/classical/) read them again as a cross-check.

    reader = FusedReader("d6")
    reader = FusedReader("xmen", data_dir=data)   # both readers' taught models of the set
    for die in reader.read(frame_bgr):
        print(die.face, die.confidence, die.box, die.confirmed)

Each learned die is matched to the classical finder's die at the same place. Where both read
it, the face is the one of the reader that reads this kind of set better (``primary``); where
they disagree, or the classical reader finds no die there, the die asks for a tap. An unsure
learned die the classical reader reads alike may be confirmed by that agreement (from a
learned confidence chosen per face for pip dice: ``agree_faces``), so that it asks no tap. A
die only the classical finder found may be added (it then answers for a learned "something
die-like unread"). A learned die the finder did not see (it drops groups of dice packed edge
to edge that it cannot split) may be read by the classical face reader at the learned die's
own box (``alone``). Which reader is primary, which learned dice are checked at all (those
under ``check_below``: the check costs a classical read a die; and those under ``found_below``
where the finder found them), when agreement confirms and
what a lone die does are chosen on the tuning part, per kind of set
(`vision/training/tune_fused.py`, recorded in `vision/models/training.json`, section
"fused").
"""

from __future__ import annotations

import json
from dataclasses import MISSING, asdict, dataclass, field, fields, replace
from pathlib import Path

import cv2
import numpy as np

from vision import leftover
from vision.classical.finder import Candidate
from vision.reader import DEFAULT_THRESHOLD, RECORD, DieRead, Reader
from vision.shrink import Shrunk

SECTION = "fused"  # of vision/models/training.json
MATCH = 0.6  # two dice whose centres are closer than this many sides are the same die
# a learned die's top face, this many times its side, as the classical face readers' outline
# (which holds some of the sides in view): of the tuning part's packed dice the finder missed,
# 1.2 read best (d6 109 of 123 right, the Incredibles 122 of 133; 1.0: 107, 123; 1.4: 84, 121)
OWN_GROW = 1.2
OWN_READS = ("read", "agree", "packed")  # ``alone`` choices that read a learned die at its own box
# dice packed edge to edge lie 1.0-1.06 sides apart, dice placed close 1.05-1.2
# (vision/render.py); a learned die's side is its box's, at most 1.4 times the face's
PACKED = 1.3  # sides: another learned die this close makes a die "packed"
# a die read only one way or read two ways reads with a confidence just below the threshold
BELOW = 0.01


@dataclass(frozen=True)
class FusedTuning:
    """How the two readers' reads are combined (chosen on the tuning part)."""
    # whose face stands when both read a die: "learned", "classical", or the "surer" read
    primary: str = "learned"
    check_below: float = 1.01  # a learned die under this confidence is read again (1.01: all)
    # ... and one at or over ``check_below`` but under this, only where the classical finder
    # found one die at it (an outline at most ``found_group`` times its top face's area; no read
    # at its own box): where the classical reader reads another face there it asks, keeping its
    # learned face, else it stands as read (0: none). Sure wrong learned reads lie mostly just
    # over ``check_below``; read at their own box, or against a group's outline, packed dice
    # would ask (and take the group's read)
    found_below: float = 0.0
    found_group: float = 99.0
    agree: str = "learned"  # a die both read alike is confirmed when: "learned" confirms it,
    # or "either" reader does
    # ... or, whatever ``agree`` says, when its learned confidence is at least ``agree_from``
    # and the classical one at least ``agree_sure`` (1.01: never). The two readers go wrong
    # apart (a network; a pip counter or templates): on the tuning part, an unsure learned die
    # the other reader read alike was the only reason for most taps, and seldom wrong
    agree_from: float = 1.01
    agree_sure: float = 0.0
    # ``agree_from`` per face where it differs ({face: confidence}; pip dice: a pip counter
    # miscounts some faces more often than others)
    agree_faces: dict = field(default_factory=dict)
    # where they disagree, the ``primary`` face stands, confirmed, when that reader is at least
    # this sure and the other one less sure than ``threshold`` (1.01: never; the die asks)
    overrule: float = 1.01
    # a checked learned die the classical finder found nothing at: "keep", "ask", "drop" (it
    # is then left unread, which flags the roll), or "read": the classical face reader reads
    # it at the learned die's own box (``own_box``; the finder drops whole groups of dice it
    # cannot split, packed edge to edge, where each die is still there to read), the face
    # chosen as for a die both found, and it asks (as it flagged the roll left unread); one
    # that read finds no die of the set is dropped; "agree": the same, but one read there as
    # another face is dropped too (``drop_below`` as for "drop"); "packed": as "agree" but
    # for a die with another learned die within PACKED sides, which is kept as for "read"
    # (on the tuning part a learned die the finder did not see is mostly one of a group where
    # it lies in one, and a false die, a blank patch or a sticker, where it lies alone)
    alone: str = "ask"
    # ... and one the finder found but the classical reader says is no die of the set (no
    # pips, far from every taught face): the same choices
    empty: str = "ask"
    drop_below: float = 1.01  # ... "drop" drops only dice under this learned confidence (else asks)
    # a classical outline over this many times the learned top face's area is not that die
    # (a group of dice the finder could not split, whose read is no read of this die)
    group: float = 99.0
    extra: str = "drop"  # a die only the classical finder found: "drop", "ask" or "keep" (its own
    # confidence)
    # ... unless its outline's side is under this share of the learned dice's median side (0:
    # any): the dice of one roll lie about as far from the camera, and the finder outlines
    # blobs a fraction of a die's size (a lighter patch of cloth, a reflection) that a taught
    # set's blank face reads as sure. On the tuning part's reads (90 scenes a set and
    # condition) any share from 0.3 to 0.7 took no die a learned one missed and dropped
    # such blobs (X-Men precision 0.9873 -> 0.9885 at 0.5, the middle); not searched
    extra_side: float = 0.5

    @classmethod
    def shipped(cls, taught: bool = False) -> "FusedTuning":
        record = json.loads(RECORD.read_text()) if RECORD.is_file() else {}
        got = record.get(SECTION, {}).get("taught" if taught else "pips", {})
        return cls(**{f.name: type(f.default_factory() if f.default is MISSING else f.default)(
            got[f.name]) for f in fields(cls) if f.name in got})

    def to_json(self) -> dict:
        return asdict(self)


def classical_dir(data_dir: Path | str | None) -> Path | None:
    """Where the fused reader keeps the classical reader's taught sets: inside the data folder,
    apart from the learned reader's (both are called ``model.json``)."""
    return None if data_dir is None else Path(data_dir) / "dice" / "classical"


def _centre_side(box) -> tuple[float, float, float]:
    x, y, w, h = box
    return x + w / 2, y + h / 2, float(max(w, h))


def match(learned: list[DieRead], found: list, group: float = 99.0) -> dict[int, int]:
    """{learned index: found index}: each learned die to the nearest free classical die within
    MATCH sides and not over ``group`` times its area (the classical outline holds the sides in
    view, the learned box the top face)."""
    if not learned or not found:
        return {}
    # every pair at once (float64, each element what the per-pair Python arithmetic gave)
    lx, ly, ls = np.array([_centre_side(r.box) for r in learned]).T
    lw, lh = np.array([r.box[2:] for r in learned], np.int64).T
    (cx, cy), (rw, rh) = np.array([c.rect[:2] for c in found], np.float64).transpose(1, 2, 0)
    d = np.hypot(lx[:, None] - cx, ly[:, None] - cy)
    area = rw * rh
    near = (d < MATCH * np.maximum(ls[:, None], np.sqrt(area))) & \
        (area <= group * np.maximum(lw * lh, 1)[:, None])
    ii, jj = np.nonzero(near)
    order = np.lexsort((jj, ii, d[ii, jj]))  # nearest first, then by index, as sorted tuples
    out: dict[int, int] = {}
    taken: set[int] = set()
    for i, j in zip(ii[order].tolist(), jj[order].tolist()):
        if i not in out and j not in taken:
            out[i] = j
            taken.add(j)
    return out


@dataclass
class OwnBox(Candidate):
    """A learned die's own box, as a candidate of the classical face readers."""


def own_box(box, grow: float = OWN_GROW) -> OwnBox:
    cx, cy, side = _centre_side(box)
    s = side * grow
    x0, y0 = cx - s / 2, cy - s / 2
    pts = np.array([[x0, y0], [x0 + s, y0], [x0 + s, y0 + s], [x0, y0 + s]], np.int32)
    return OwnBox((int(round(x0)), int(round(y0)), int(round(s)), int(round(s))),
                  ((cx, cy), (s, s), 0.0), pts, s * s)


def with_own_boxes(t: FusedTuning, learned: list[DieRead], pairs: dict[int, int],
                   found: list) -> tuple[list, dict[int, int]]:
    """``found`` and ``pairs`` with, under ``alone`` OWN_READS, each checked learned die the
    finder found nothing at matched to its own box (appended to ``found``)."""
    if t.alone not in OWN_READS:
        return found, pairs
    lone = [i for i, r in enumerate(learned) if i not in pairs and r.confidence < t.check_below]
    return (list(found) + [own_box(learned[i].box) for i in lone],
            {**pairs, **{i: len(found) + n for n, i in enumerate(lone)}})


def to_check(t: FusedTuning, learned: list[DieRead], pairs: dict[int, int],
             found: list) -> set[int]:
    """The classical dice to read: those matched to a learned die under ``check_below`` or
    ``_rechecked``, and unless lone classical dice are dropped, every unmatched one."""
    want = {j for i, j in pairs.items()
            if learned[i].confidence < t.check_below or _rechecked(t, learned[i], found[j])}
    if t.extra != "drop":
        want |= set(range(len(found))) - set(pairs.values())
    return want


def _rechecked(t: FusedTuning, r: DieRead, c) -> bool:
    """Whether a learned die sure enough not to be checked (``check_below``) is read again
    at the classical outline ``c`` matched to it: under ``found_below``, where ``c`` is one
    die's (at most ``found_group`` times its top face)."""
    (_, _), (rw, rh), _ = c.rect
    return t.check_below <= r.confidence < t.found_below \
        and rw * rh <= t.found_group * max(r.box[2] * r.box[3], 1)


def checked_below(t: FusedTuning) -> float:
    """Learned dice under this confidence may be read again (``check_below``, ``found_below``)."""
    return max(t.check_below, t.found_below)


def _asking(r: DieRead, threshold: float) -> DieRead:
    return replace(r, confidence=min(r.confidence, threshold - BELOW), confirmed=False)


def _packed(r: DieRead, learned: list[DieRead]) -> bool:
    """Whether another learned die lies within PACKED sides of ``r`` (edge to edge or close)."""
    x, y, side = _centre_side(r.box)
    return any(o is not r and np.hypot(_centre_side(o.box)[0] - x, _centre_side(o.box)[1] - y)
               < PACKED * max(side, _centre_side(o.box)[2]) for o in learned)


def _at_a_learned_die(c, learned: list[DieRead]) -> bool:
    """Whether a classical outline holds a learned die's centre or lies at one (MATCH)."""
    pts = c.contour.reshape(-1, 1, 2).astype(np.float32)
    (cx, cy), (rw, rh), _ = c.rect
    for r in learned:
        lx, ly, ls = _centre_side(r.box)
        if cv2.pointPolygonTest(pts, (lx, ly), False) >= 0 or \
                np.hypot(lx - cx, ly - cy) < MATCH * max(ls, float(np.sqrt(rw * rh))):
            return True
    return False


def combine(t: FusedTuning, threshold: float, learned: list[DieRead], unread: list,
            found: list, pairs: dict[int, int], classical: list[DieRead | None],
            ) -> tuple[list[DieRead], list]:
    """The fused reads and the boxes left unread: ``learned`` and ``unread`` are the learned
    reader's, ``found`` the classical finder's dice, ``classical`` their reads (None: not read,
    or no die of the set), ``pairs`` from ``match``."""
    out: list[DieRead] = []
    left = list(unread)
    for i, lr in enumerate(learned):
        j = pairs.get(i)
        if lr.confidence >= t.check_below:
            cr = classical[j] if j is not None and _rechecked(t, lr, found[j]) else None
            # sure enough: not checked, or checked and not gainsaid; else it asks, as read
            out.append(lr if cr is None or cr.face == lr.face else _asking(lr, threshold))
        elif j is None or classical[j] is None:
            # a die read at its own box and found no die there is one the finder missed
            what = t.alone if j is None or isinstance(found[j], OwnBox) else t.empty
            if what in OWN_READS:
                what = "drop"
            if what == "drop" and lr.confidence >= t.drop_below:
                what = "ask"
            if what == "drop":
                left.append(lr.box)
            else:
                out.append(lr if what == "keep" else _asking(lr, threshold))
        else:
            cr = classical[j]
            face_of = cr if t.primary == "classical" or (
                t.primary == "surer" and cr.confidence > lr.confidence) else lr
            other = lr if face_of is cr else cr
            if isinstance(found[j], OwnBox):
                # a die the finder did not see asks, as it did left unread (so no roll
                # goes unasked for it); "agree", "packed": see FusedTuning.alone
                apart = cr.face != lr.face and lr.confidence < t.drop_below
                if t.alone in ("agree", "packed") and apart \
                        and not (t.alone == "packed" and _packed(lr, learned)):
                    left.append(lr.box)
                else:
                    out.append(_asking(replace(face_of, box=lr.box), threshold))
            elif cr.face != lr.face:
                if face_of.confidence >= t.overrule and other.confidence < threshold:
                    out.append(DieRead(face_of.face, face_of.confidence, lr.box, True))
                else:
                    out.append(_asking(replace(face_of, box=lr.box), threshold))
            elif lr.confirmed or (t.agree == "either" and cr.confirmed) or (
                    lr.confidence >= t.agree_faces.get(lr.face, t.agree_from)
                    and cr.confidence >= t.agree_sure):
                out.append(DieRead(lr.face, max(lr.confidence, cr.confidence, threshold), lr.box,
                                   True))
            else:
                out.append(_asking(replace(face_of, box=lr.box), threshold))
    if t.extra != "drop":
        matched = set(pairs.values())
        sides = [_centre_side(r.box)[2] for r in learned]
        least = t.extra_side * float(np.median(sides)) if sides else 0.0
        for j, cr in enumerate(classical):
            if j in matched or cr is None:
                continue
            (cx, cy), (rw, rh), _ = found[j].rect
            side = float(np.sqrt(rw * rh))
            if side < least:
                continue
            if t.alone in OWN_READS and _at_a_learned_die(found[j], learned):
                continue  # a group the finder could not split, or a die read at its own box
            out.append(cr if t.extra == "keep" else _asking(cr, threshold))
            # it answers for a learned "die-like, unread" at the same place
            left = [b for b in left if np.hypot(_centre_side(b)[0] - cx, _centre_side(b)[1] - cy)
                    >= MATCH * max(side, _centre_side(b)[2])]
    return out, left


class FusedReader:
    """Reads dice of one set with both readers. ``region``: an optional 0/255 tray mask."""

    def __init__(self, set_name: str = "d6", data_dir: Path | str | None = None,
                 threshold: float = DEFAULT_THRESHOLD, region: np.ndarray | None = None,
                 die_side: float | None = None, tuning: FusedTuning | None = None,
                 left_out: leftover.LeftoverTuning | None = None):
        from vision.classical.reader import ClassicalReader  # noqa: PLC0415 (imports reader)

        self.learned = Reader(set_name, data_dir, threshold, region=region, die_side=die_side)
        if self.learned.model is not None:
            _with_classical_set(set_name, Path(data_dir))
        self.classical = ClassicalReader(set_name, classical_dir(data_dir), threshold,
                                         region=region, die_side=die_side)
        self.set_name = set_name
        self.threshold = threshold
        self.model = self.learned.model
        self.tuning = tuning or FusedTuning.shipped(taught=self.model is not None)
        self.left_out = left_out or leftover.LeftoverTuning.shipped(taught=self.model is not None)
        self.region = region
        self.last_unread: list[tuple[int, int, int, int]] = []
        self._finder_obstructed = False

    @property
    def faces(self) -> list[str]:
        return self.learned.faces

    @property
    def last_flagged(self) -> bool:
        return bool(self.last_unread)

    def __repr__(self) -> str:
        kind = "taught" if self.model else "pips"
        return f"<FusedReader set={self.set_name!r} ({kind}) threshold={self.threshold}>"

    def read(self, frame_bgr: np.ndarray) -> list[DieRead]:
        if frame_bgr.ndim == 2:  # a grey camera
            frame_bgr = cv2.cvtColor(frame_bgr, cv2.COLOR_GRAY2BGR)
        shrunk = Shrunk(frame_bgr)  # both readers reduce the frame alike (640x480: to 320x240)
        learned = self.learned.read(frame_bgr, shrunk)
        t = self.tuning
        if t.extra == "drop" and all(r.confidence >= checked_below(t) for r in learned):
            # nothing to check and nothing to add: the classical finder is not needed
            self._finder_obstructed = False
            reads, self.last_unread = self.with_left_out(frame_bgr, shrunk, learned,
                                                         self.learned.last_unread)
            return reads
        scene = self.classical.find(frame_bgr, shrunk)
        self._finder_obstructed = scene.obstructed
        found, pairs = with_own_boxes(t, learned, match(learned, scene.dice, t.group), scene.dice)
        which = to_check(self.tuning, learned, pairs, found)
        classical = self.classical.read_found(frame_bgr, found, which)
        reads, unread = combine(self.tuning, self.threshold, learned,
                                self.learned.last_unread, found, pairs, classical)
        reads, self.last_unread = self.with_left_out(frame_bgr, shrunk, reads, unread)
        return reads

    def with_left_out(self, frame_bgr: np.ndarray, shrunk: Shrunk, reads: list[DieRead],
                      unread: list) -> tuple[list[DieRead], list]:
        """The reads and unread boxes with each die left out of a group (vision/leftover.py)
        read there: added, asking, or the roll flagged (``leftover.settle``), and each asking
        read off the tray's foreground let go (``leftover.grounded``)."""
        reads, unread = leftover.settle(self.left_out, self.threshold, reads, unread,
                                        *self.read_left_out(frame_bgr, shrunk, reads, unread))
        return leftover.grounded(frame_bgr, reads, unread, self.left_out, shrunk, self.region)

    def read_left_out(self, frame_bgr: np.ndarray, shrunk: Shrunk | None, reads: list[DieRead],
                      unread: list, t: leftover.LeftoverTuning | None = None):
        """``Reader.read_at`` at the places ``t`` (default: the reader's own) finds dice left
        out of the group beside ``reads``."""
        if self.learned.last_obstructed:
            return [], [], []
        spots = leftover.places(frame_bgr, [r.box for r in reads], unread, t or self.left_out,
                                shrunk, self.region, self.learned.last_weak)
        return self.learned.read_at(frame_bgr, spots) if spots else ([], [], [])

    @property
    def last_obstructed(self) -> bool:
        """A hand reaches in: the learned reader's verdict, or the classical finder's rule (a
        blob of several dice reaching in from the frame's edge) on frames the finder ran on."""
        return self.learned.last_obstructed or self._finder_obstructed


def _with_classical_set(set_name: str, data_dir: Path) -> None:
    """A set taught for the learned reader alone is taught to the classical one from its kept
    photos (a table switching to the fused recognizer keeps its sets)."""
    from vision import sets  # noqa: PLC0415
    from vision.classical import sets as classical  # noqa: PLC0415

    theirs = classical_dir(data_dir)
    photos = sets.sets_dir(data_dir) / set_name / "photos"
    if not (sets.sets_dir(theirs) / set_name / "model.json").is_file() and photos.is_dir():
        classical.teach(set_name, photos, theirs)


def teach(set_name: str, folder, data_dir: Path) -> dict:
    """Teach a set for both readers (the classical one's templates apart: ``classical_dir``)."""
    from vision import sets  # noqa: PLC0415
    from vision.classical import sets as classical  # noqa: PLC0415

    classical.teach(set_name, folder, classical_dir(data_dir))
    return sets.teach(set_name, folder, data_dir)
