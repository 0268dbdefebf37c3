"""Read every die in a frame: find the dice (the learned detector), read each face (the
face network's pip classes, or the nearest taught photos), flag what might be wrong.

    reader = Reader("d6")                       # built in: pip dice
    reader = Reader("xmen", data_dir=data)      # a taught set
    for die in reader.read(frame_bgr):
        print(die.face, die.confidence, die.box, die.confirmed)
    reader.last_unread                          # boxes of die-like things not read

A die whose read might be wrong comes back unconfirmed; something die-like that was not read
(too unsure to be a die, a face the set does not have) is listed in ``last_unread``, and a
frame with any is *flagged*: the players are asked, it is never dropped quietly.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from pathlib import Path

import cv2
import numpy as np

from companion.dice_reads import DEFAULT_THRESHOLD  # one threshold: the session's and ours
from vision import facenet, hands, onnx_runtime, sets
from vision.detector import Detection, Detector
from vision.order_stats import median
from vision.shrink import Shrunk

RECORD = Path(__file__).with_name("models") / "training.json"
MAX_DICE = 40  # peaks looked at per frame (bounded time)
PIP_FACE = 0.2  # a taught face whose photos the face network reads as pips less than this
# A taught read less sure than this is read again from its crop turned a quarter, a half and
# three quarters, the face by the four views' mean similarity to each face: one view's
# embedding is noisy on a small, blurred or packed die, and the four views are each a
# die's crop the set was taught at (TURNS in vision/faces.py). On a tuning draw (30 scenes a
# taught set and condition, tuning seeds + 9100: 3,803 dice) the learned reader's wrong
# faces went from 78 to 20 (Invincible's numerals 60 to 12), turning 0-22% of dice. 0.7 made
# it 12, turning 1-47%, but Invincible's nine dice then took 17.4 ms a read, against
# 11.6-13.1 here and 12.0 with no turns (the goal is 15; `make bench BENCH=vision`);
# 0.6: 13, 0.4: 39
TURN_BELOW = 0.5


@dataclass
class Tuning:
    """The reader's thresholds, chosen on the tuning part (vision/models/training.json)."""
    low: float = 0.1  # heat-map peaks looked at
    keep: float = 0.3  # a peak is read as a die from this score
    unread: float = 0.2  # a peak from this score that is not read flags the frame
    not_die: float = 0.5  # a crop the face network calls "not a die" this surely is none
    sure_not: float = 0.9  # ... and from this, an unread peak does not flag the frame
    confirm: float = 0.8  # a die's raw confidence from which it is confirmed
    det_sure: float = 0.5  # a peak this strong takes nothing off a die's confidence
    obstructed: float = 0.03  # share of the frame under a hand for "obstructed"
    # a die the pip reader calls "another face" flags the frame from this peak score (0:
    # always; a tray's holes and prints read as other faces, a die with another face is sure)
    other: float = 0.0
    # a die's side face: a peak below one read as a die (nearer the camera) within this many
    # face sides down and ``side_across`` across is that die's front face, not a die (0: off)
    side_gap: float = 0.0
    side_across: float = 0.5
    # a taught set's die the face network reads as a pip face from this probability, nearest
    # a taught face it does not take for pips, is a pip die in the tray: not of this set
    pip_die: float = 0.7
    # a pip die's unconfirmed read is read again this many face sides higher (0: not): a
    # camera looking across the table centres some dice on their front face, whose pips are
    # not the roll; the crop above, on the top face, wins where the face network is surer
    reaim: float = 0.0
    # a taught set's crop the face network calls "not a die" is still read as a die of its
    # nearest face where its best similarity comes within this of what that face's own
    # photos reach (`FaceModel.like`; 1: anywhere above the set's ``reject``): a blank face
    # looks like a card to the network, and a patch of lighter cloth like a blank face to
    # the taught photos, but less near than the face's own photos come to each other
    like_taught: float = 1.0

    @classmethod
    def shipped(cls, taught: bool = False) -> "Tuning":
        """The thresholds chosen for pip dice (``tuning``) or for taught sets (``tuning
        taught``: their confidence is another score, nearest taught photos)."""
        if RECORD.is_file():
            record = json.loads(RECORD.read_text())
            got = record.get("tuning taught" if taught and "tuning taught" in record else "tuning", {})
            return cls(**{f.name: float(got[f.name]) for f in fields(cls) if f.name in got})
        return cls()


@dataclass(frozen=True)
class DieRead:
    face: str
    confidence: float
    box: tuple[int, int, int, int]  # x, y, w, h in frame pixels (the top face)
    confirmed: bool  # confidence reached the reader's threshold; else players confirm

    def to_json(self) -> dict:
        return {"face": self.face, "confidence": round(self.confidence, 3),
                "box": list(self.box), "confirmed": self.confirmed}


def net_digest() -> str:
    """Which face network is shipped: taught sets remember it and are taught again when it
    changes (their embeddings mean nothing to another network)."""
    # imported here: only a taught set needs it, and hashlib maps OpenSSL's libcrypto (3 MB of
    # a pip read's peak memory)
    import hashlib  # noqa: PLC0415

    return hashlib.sha1(facenet.MODEL.read_bytes()).hexdigest()[:12]


def _distinct(dets: list[Detection]) -> list[Detection]:
    """Peaks strongest first; one closer than half a face to a stronger one is the same die."""
    kept: list[Detection] = []
    at = np.empty((3, min(len(dets), MAX_DICE)))  # the kept peaks' cx, cy, side
    for d in dets:
        n = len(kept)
        if np.all(np.hypot(d.cx - at[0, :n], d.cy - at[1, :n]) > 0.5 * np.maximum(d.side, at[2, :n])):
            at[:, n] = d.cx, d.cy, d.side
            kept.append(d)
        if len(kept) >= MAX_DICE:
            break
    return kept


def side_faces(dets: list[Detection], passing: list[bool], gap: float, across: float) -> list[bool]:
    """Which peaks are the front face of a die read above them. A camera that looks across
    the table sees each die's top face and, below it, the side that faces the camera; the
    detector fires on both (half of a real webcam's false dice on the tuning part). Dice side
    by side lie a whole face apart or more, so ``gap`` < 1 (in the upper face's sides) leaves
    dice packed edge to edge alone; the upper peak must itself be read (``passing``), so that
    a die whose top face is too thin to fire is still read by its front face."""
    out = [False] * len(dets)
    if gap <= 0:
        return out
    order = sorted(range(len(dets)), key=lambda k: dets[k].cy)
    for n, j in enumerate(order):
        dj = dets[j]
        for i in order[:n]:
            di = dets[i]
            if not passing[i] or out[i]:
                continue
            dy = dj.cy - di.cy
            if 0 < dy <= gap * di.side and abs(dj.cx - di.cx) <= across * di.side:
                out[j] = True
                break
    return out


class Reader:
    """Reads dice of one set. ``region`` is an optional 0/255 tray mask from calibration."""

    def __init__(self, set_name: str = "d6", data_dir: Path | str | None = None,
                 threshold: float = DEFAULT_THRESHOLD, region: np.ndarray | None = None,
                 die_side: float | None = None, tuning: Tuning | None = None):
        cv2.setNumThreads(1)  # one read, one core (the networks run on one thread too)
        onnx_runtime.keep_freed_memory()
        self.set_name = set_name
        self.detector = Detector()
        self.facenet = facenet.FaceNet()
        self.model = sets.load(set_name, Path(data_dir) if data_dir else None)
        self.tuning = tuning or Tuning.shipped(taught=self.model is not None)
        self.threshold = threshold
        self.region = region
        self.die_side = die_side  # kept for callers; the detector measures each die itself
        self.last_obstructed = False
        self.last_unread: list[tuple[int, int, int, int]] = []
        # peaks of the last read neither read nor flagged (x, y, score in frame pixels): too
        # weak to be a die on the crop alone, they centre the look for dice left out
        self.last_weak: list[tuple[float, float, float]] = []

    @property
    def faces(self) -> list[str]:
        return list(self.model.faces) if self.model else [str(i) for i in range(1, 7)]

    @property
    def last_flagged(self) -> bool:
        return bool(self.last_unread)

    def __repr__(self) -> str:
        kind = "taught" if self.model else "pips"
        return f"<Reader set={self.set_name!r} ({kind}) threshold={self.threshold}>"

    def confidence(self, raw: float) -> float:
        """The raw confidence mapped so that the tuned cut-off lands on the default threshold
        (monotonic: a higher threshold still asks more often)."""
        c = self.tuning.confirm
        if raw < c:
            return DEFAULT_THRESHOLD * raw / c
        return DEFAULT_THRESHOLD + (1 - DEFAULT_THRESHOLD) * (raw - c) / max(1 - c, 1e-6)

    def detect(self, frame_bgr: np.ndarray, shrunk: Shrunk | None = None):
        """(candidate dice, their crops) of a frame; sets ``last_obstructed`` (the
        detector's obstruction map, or a hand reaching in: vision/hands.py). ``shrunk``:
        the frame's reductions, shared with another reader of the frame."""
        t = self.tuning
        dets, obstruction, scale = self.detector.run(frame_bgr, t.low, shrunk)
        hand = obstruction > 0.5
        self.last_obstructed = float(hand.mean()) > t.obstructed if hand.size else False
        if not self.last_obstructed:  # the map misses hands: a skin-coloured one reaching in
            sides = [d.side for d in dets if d.score >= t.keep]
            self.last_obstructed = hands.reaches_in(
                frame_bgr, median(sides) if sides else None)
        out = []
        for d in _distinct(dets):
            gx, gy = int(d.cx * scale / 4), int(d.cy * scale / 4)
            if hand.size and hand[min(gy, hand.shape[0] - 1), min(gx, hand.shape[1] - 1)]:
                continue  # held in a hand: not part of the roll
            if self.region is not None and not self.region[
                    min(int(d.cy), self.region.shape[0] - 1), min(int(d.cx), self.region.shape[1] - 1)]:
                continue
            out.append(d)
        crops = np.stack([facenet.crop(frame_bgr, d.cx, d.cy, d.side) for d in out]) \
            if out else np.zeros((0, facenet.CROP, facenet.CROP, 3), np.uint8)
        return out, crops

    def read(self, frame_bgr: np.ndarray, shrunk: Shrunk | None = None) -> list[DieRead]:
        """The dice of a BGR frame (``shrunk``: its reductions, where the caller shares them
        with another reader of the same frame)."""
        if frame_bgr.ndim == 2:  # a grey camera
            frame_bgr = cv2.cvtColor(frame_bgr, cv2.COLOR_GRAY2BGR)
        dets, crops = self.detect(frame_bgr, shrunk)
        # a peak under both ``keep`` and ``unread`` is neither read nor flagged (``decide``
        # looks no further than its score): the face network skips its crop
        least = min(self.tuning.keep, self.tuning.unread)
        wanted = [d.score >= least for d in dets]
        probs, emb = self.faces_of(crops, wanted)
        taught = self.taught(crops, emb, wanted)
        reads, self.last_unread = self.decide(dets, probs, taught)
        seen = {r.box for r in reads} | set(self.last_unread)
        self.last_weak = [(d.cx, d.cy, d.score) for d in dets if d.box not in seen]
        if taught is None and self.tuning.reaim > 0:
            reads = self.reaim(frame_bgr, dets, probs, reads)
        return reads

    def read_at(self, frame_bgr: np.ndarray, places: list[tuple[float, float, float]],
                ) -> tuple[list[DieRead], list, list]:
        """The dice at given places (x, y, side in frame pixels), read as a peak the detector
        is sure of: (reads, die-like boxes unread, boxes the face network surely calls no die
        or a read die's front face)."""
        dets = [Detection(x, y, s, s, 1.0) for x, y, s in places]
        crops = np.stack([facenet.crop(frame_bgr, d.cx, d.cy, d.side) for d in dets])
        probs, emb = self.facenet.run(crops)
        reads, unread = self.decide(dets, probs, self.taught(crops, emb))
        seen = {r.box for r in reads} | set(unread)
        return reads, unread, [d.box for d in dets if d.box not in seen]

    def faces_of(self, crops: np.ndarray, wanted: list[bool]) -> tuple[np.ndarray, np.ndarray]:
        """The face network's output for the ``wanted`` crops, zeros in the rows of the
        others (kept, so that a taught set's matrix product of the embeddings has the rows
        it would have had, and rounds alike: numpy's float32 product of fewer rows differs
        in the seventh digit)."""
        idx = np.flatnonzero(wanted)
        if len(idx) == len(crops):
            return self.facenet.run(crops)
        p, e = self.facenet.run(crops[idx])
        probs = np.zeros((len(crops), p.shape[1]), p.dtype)
        emb = np.zeros((len(crops), e.shape[1]), e.dtype)
        probs[idx], emb[idx] = p, e
        return probs, emb

    def taught(self, crops: np.ndarray, emb: np.ndarray,
               wanted: list[bool] | None = None) -> list[tuple[str, float, float]] | None:
        """(face, probability, best similarity) of each crop for a taught set (None for pip
        dice); an unsure read of a ``wanted`` crop is read again turned (TURN_BELOW)."""
        if self.model is None:
            return None
        best = self.model.best(emb)
        reads = self.model.nearest(best)
        unsure = [k for k, (_, p, _) in enumerate(reads)
                  if p < TURN_BELOW and (wanted is None or wanted[k])]
        if not unsure:
            return reads
        turned = np.concatenate([np.rot90(crops[unsure], r, axes=(1, 2)) for r in (1, 2, 3)])
        again = self.model.best(self.facenet.run(np.ascontiguousarray(turned))[1])
        best[unsure] = (best[unsure] + again.reshape(3, len(unsure), -1).sum(0)) / 4
        return self.model.nearest(best)

    def reaim(self, frame_bgr: np.ndarray | None, dets: list[Detection], probs: np.ndarray,
              reads: list[DieRead], above: np.ndarray | None = None) -> list[DieRead]:
        """Pip reads, each unconfirmed one read again ``tuning.reaim`` sides higher where the
        face network is surer of a pip face there; it stays unconfirmed (the players are asked
        either way, so no read becomes silent). ``above``: the face network's output on those
        crops for every detection, when already run (the threshold search)."""
        t = self.tuning
        index = {d.box: k for k, d in enumerate(dets)}
        todo = [n for n, r in enumerate(reads) if not r.confirmed and r.box in index]
        if not todo:
            return reads
        if above is None:
            ks = [index[reads[n].box] for n in todo]
            crops = np.stack([facenet.crop(frame_bgr, dets[k].cx, dets[k].cy - t.reaim * dets[k].side,
                                           dets[k].side) for k in ks])
            got = dict(zip(ks, self.facenet.run(crops)[0]))
        else:
            got = {index[reads[n].box]: above[index[reads[n].box]] for n in todo}
        out = list(reads)
        for n in todo:
            r, k = reads[n], index[reads[n].box]
            q = got[k]
            face_i = int(np.argmax(q[1:7])) + 1
            if q[facenet.NOT_A_DIE] < t.not_die and q[face_i] > q[facenet.OTHER_FACE] \
                    and q[face_i] > probs[k][int(r.face)]:
                raw = float(q[face_i]) * min(1.0, dets[k].score / t.det_sure)
                out[n] = DieRead(str(face_i), min(r.confidence, self.confidence(raw)), r.box, False)
        return out

    def _pip_die(self, face: str, p: np.ndarray) -> bool:
        """A pip die among a taught set's dice: the face network is sure of a pip face, and
        the nearest taught face is not one it takes for pips (a set taught before the sets
        kept this, or a face like pips: not told apart)."""
        return float(p[1:7].max()) >= self.tuning.pip_die and \
            self.model.pips.get(face, 1.0) < PIP_FACE

    def decide(self, dets: list[Detection], probs: np.ndarray, taught) -> tuple[list[DieRead], list]:
        """The reads and the unread die-like boxes, from the networks' outputs."""
        t = self.tuning
        reads: list[DieRead] = []
        unread: list[tuple[int, int, int, int]] = []
        # a crop near enough a taught photo is a die of the set, whatever the face network
        # says (``Tuning.like_taught``)
        like_taught = [taught is not None
                       and taught[k][2] >= self.model.like(taught[k][0], t.like_taught)
                       for k in range(len(dets))]
        passing = [d.score >= t.keep and (probs[k][facenet.NOT_A_DIE] < t.not_die or like_taught[k])
                   for k, d in enumerate(dets)]
        behind = side_faces(dets, passing, t.side_gap, t.side_across)
        for k, d in enumerate(dets):
            p = probs[k]
            if behind[k]:
                continue  # the front face of a die read above it
            if not passing[k]:
                if d.score >= t.unread and p[facenet.NOT_A_DIE] < t.sure_not:
                    unread.append(d.box)
                continue
            if taught is None:
                face_i = int(np.argmax(p[1:7])) + 1
                if p[facenet.OTHER_FACE] > p[face_i]:  # a die, but not a pip die
                    if d.score >= t.other:
                        unread.append(d.box)
                    continue
                face, p_face = str(face_i), float(p[face_i])
            else:
                face, p_face, best = taught[k]
                if best < self.model.reject or self._pip_die(face, p):  # not of this set
                    unread.append(d.box)
                    continue
                p_face *= 1.0 - float(p[facenet.NOT_A_DIE])
            raw = p_face * min(1.0, d.score / t.det_sure)
            conf = self.confidence(raw)
            reads.append(DieRead(face, conf, d.box, conf >= self.threshold))
        return reads, unread


RECOGNIZERS = ("learned", "classical", "fused")


# the fused one (its tuning mirroring the goal sets) read every held-out set at least as well
# as the classical one in recall and precision, better on all but two figures (equal there),
# and was silently wrong less often (docs/benchmarks.md, "the fused recognizer's tuning")
DEFAULT_RECOGNIZER = "fused"


def make_reader(set_name: str = "d6", data_dir: Path | str | None = None,
                threshold: float = DEFAULT_THRESHOLD, recognizer: str = DEFAULT_RECOGNIZER, **kw):
    """A reader of ``recognizer``: both readers fused (vision/fused.py, the default), the
    classical finder and pip reader, or the learned detector alone (docs/benchmarks.md)."""
    if recognizer == "fused":
        from vision.fused import FusedReader  # noqa: PLC0415

        return FusedReader(set_name, data_dir, threshold, **kw)
    if recognizer == "classical":
        from vision.classical.reader import ClassicalReader  # noqa: PLC0415

        return ClassicalReader(set_name, data_dir, threshold, **kw)
    if recognizer != "learned":
        from vision.errors import VisionError  # noqa: PLC0415

        raise VisionError(f"recognizer {recognizer!r}: one of {', '.join(RECOGNIZERS)}")
    return Reader(set_name, data_dir, threshold, **kw)


def teach(set_name: str, folder, data_dir: Path, recognizer: str = DEFAULT_RECOGNIZER) -> dict:
    """Teach a set for ``recognizer`` (each keeps its own kind of model in the set folder;
    the fused one both)."""
    if recognizer == "fused":
        from vision import fused  # noqa: PLC0415

        return fused.teach(set_name, folder, data_dir)
    if recognizer == "classical":
        from vision.classical import sets as classical  # noqa: PLC0415

        return classical.teach(set_name, folder, data_dir)
    return sets.teach(set_name, folder, data_dir)
