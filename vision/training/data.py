"""Training data: rendered scenes drawn from seeds (domain randomised) and the real photos of
the training part, as detector samples (the frame at the detector's input scale with each
die's centre and size) and face crops (the same crop the reader cuts, with its class).

Nothing here is kept in the repository: `build()` renders from the seed and caches the result
in build/train-vision/ so that a second training run starts at once.
"""

from __future__ import annotations

import hashlib
import json
import math
import pickle
from dataclasses import dataclass, field
from functools import partial
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

from vision import detector, facenet
from vision.render import RenderOptions, render_labelled
from vision.training import split

SYMBOLS = 400  # random symbol classes the embedding is trained on ("sym:K")
TRAIN_SEED0, TUNE_SEED0 = 10_000_000, 20_000_000  # the bench draws from 2000-9999
# Webcam labels box the top face's pips, not the face: a face's side from its pips' box.
PIP_SPAN = {"1": 0.4, "2": 0.62, "3": 0.62, "4": 0.7, "5": 0.7, "6": 0.75}


@dataclass
class DetSample:
    jpeg: bytes  # the frame at the detector's scale (long side INPUT_SIDE)
    centres: np.ndarray  # N x 2, input pixels
    sizes: np.ndarray  # N x 2 (w, h), input pixels
    hand: bytes | None = None  # PNG of the obstruction mask at input scale, if any
    real: bool = False


@dataclass
class Crops:
    images: list = field(default_factory=list)  # CROP x CROP x 3 uint8
    classes: list = field(default_factory=list)  # 0 not a die, 1..6, 7 another face
    ids: list = field(default_factory=list)  # embedding class: 0..5 pips, 6+ symbols, -1 none

    def extend(self, other: "Crops") -> None:
        self.images += other.images
        self.classes += other.classes
        self.ids += other.ids


def scene_options(rng: np.random.Generator) -> tuple[RenderOptions, int, bool]:
    """A randomised camera, table and light for one training scene: options, dice, pips."""
    size = [(640, 480), (640, 480), (640, 480), (320, 240), (1280, 720), (800, 600),
            (1024, 1024)][int(rng.integers(7))]
    k = max(size) / 640
    side = rng.uniform(24, 76) * k
    opt = RenderOptions(
        size=size, die_px=(side, side * rng.uniform(1.0, 1.3)),
        perspective=rng.uniform(0, 0.1), gradient=rng.uniform(0.1, 0.6),
        shadow=rng.uniform(0.2, 0.8), blur=rng.uniform(0.3, 2.0) * k, noise=rng.uniform(1, 10),
        jpeg=(25, 95), touching=rng.uniform(0.1, 0.5), hand=bool(rng.random() < 0.06),
        min_contrast=rng.uniform(15, 35), packed=rng.uniform(0, 0.7), light=(0.25, 1.1),
        motion=rng.uniform(1, 12) * k, clutter=int(rng.integers(0, 8)), wall=0.4,
        side_faces=rng.uniform(0.2, 1.0), oblique=rng.uniform(0.15, 0.8), materials=0.3,
        any_colour=0.5,
        surfaces=[tuple(int(v) for v in rng.integers(0, 256, 3)) for _ in range(3)])
    n = int(rng.integers(1, 13)) if rng.random() < 0.85 else int(rng.integers(13, 26))
    return opt, n, bool(rng.random() < 0.5)


def _scene_faces(rng, n: int, pips: bool) -> list[str]:
    if pips:
        return [str(v) for v in rng.integers(1, 7, n)]
    return [f"sym:{int(v)}" for v in rng.integers(0, SYMBOLS, n)]


# The second stage's symbol kinds (vision.training.stage2): numerals in other fonts (one class
# a text, any font) and symbols on a coloured ground; 6 and 9 are left out (a turned 6 is a 9).
NUMERALS = ("0", "1", "2", "3", "4", "5", "7", "8", "10", "12", "1+", "2+", "3+", "+1", "-1", "x2")
GROUNDED = 200
CLASSES = 6 + SYMBOLS + len(NUMERALS) + GROUNDED  # embedding classes of both stages


def _face_class(face: str) -> tuple[int, int]:
    if face == "blank":  # a die, but no mark to tell one blank face from another by
        return facenet.OTHER_FACE, -1
    if face.startswith("sym:"):
        return facenet.OTHER_FACE, 6 + int(face[4:])
    if face.startswith("num:"):
        return facenet.OTHER_FACE, 6 + SYMBOLS + NUMERALS.index(face.split(":")[1])
    if face.startswith("gsym:"):
        return facenet.OTHER_FACE, 6 + SYMBOLS + len(NUMERALS) + int(face[5:])
    return int(face), int(face) - 1


def _det_sample(img: np.ndarray, centres, sizes, hand=None, real=False) -> DetSample:
    h, w = img.shape[:2]
    s = detector.INPUT_SIDE / max(h, w)
    small = cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
    hb = None
    if hand is not None:
        hm = cv2.resize(hand, small.shape[1::-1], interpolation=cv2.INTER_AREA)
        hb = cv2.imencode(".png", hm)[1].tobytes()
    return DetSample(cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes(),
                     np.asarray(centres, np.float32).reshape(-1, 2) * s,
                     np.asarray(sizes, np.float32).reshape(-1, 2) * s, hb, real)


def _crops_of(img, centres, sides, faces, rng, per_die: int, negatives: int) -> Crops:
    """Jittered crops of every die (the detector's centre and size are never exact), and crops
    of the table away from the dice and between two neighbours (a merged detection)."""
    out = Crops()
    centres = np.asarray(centres, np.float32).reshape(-1, 2)
    for (cx, cy), side, face in zip(centres, sides, faces):
        cls, ident = _face_class(face) if face is not None else (None, -1)
        if cls is None:
            continue
        for _ in range(per_die):
            j = rng.normal(0, 0.07, 2) * side
            out.images.append(facenet.crop(img, cx + j[0], cy + j[1],
                                           side * rng.uniform(0.87, 1.15), rng.uniform(0, 360)))
            out.classes.append(cls)
            out.ids.append(ident)
    h, w = img.shape[:2]
    typical = float(np.median(sides)) if len(sides) else max(h, w) / 12
    for _ in range(negatives):
        for _ in range(20):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            side = typical * rng.uniform(0.6, 1.6)
            if len(centres) == 0 or np.min(np.hypot(*(centres - (x, y)).T)
                                           / np.asarray(sides)) > 0.85:
                out.images.append(facenet.crop(img, x, y, side, rng.uniform(0, 360)))
                out.classes.append(facenet.NOT_A_DIE)
                out.ids.append(-1)
                break
    for i in range(len(centres)):  # halfway between two neighbours
        for j in range(i + 1, len(centres)):
            d = float(np.hypot(*(centres[i] - centres[j])))
            if d < 1.3 * (sides[i] + sides[j]) / 2 and rng.random() < 0.5:
                m = (centres[i] + centres[j]) / 2
                out.images.append(facenet.crop(img, m[0], m[1], d * rng.uniform(0.9, 1.3),
                                               rng.uniform(0, 360)))
                out.classes.append(facenet.NOT_A_DIE)
                out.ids.append(-1)
    return out


BLANK_SHARE = (0.1, 0.6)  # of a scene's dice, where some show a blank top face


def blanked(faces: list[str], seed: int, scenes: float) -> list[str]:
    """``faces`` with a share of them blank in ``scenes`` of the scenes (``--blank-scenes``).
    The draw has a generator of its own, so a scene's other draws stay as they were: with
    ``scenes`` 0 every scene is the one drawn before the option."""
    if scenes <= 0:
        return faces
    rng = np.random.default_rng([seed, 0xB1A4C])
    if rng.random() >= scenes:
        return faces
    share = rng.uniform(*BLANK_SHARE)
    return ["blank" if rng.random() < share else f for f in faces]


def render_one(seed: int, blank_scenes: float = 0.0) -> tuple[DetSample, Crops]:
    rng = np.random.default_rng(seed)
    opt, n, pips = scene_options(rng)
    faces = blanked(_scene_faces(rng, n, pips), seed, blank_scenes)
    det, crops, _ = labelled_sample(rng, opt, faces, pips, per_die=2)
    return det, crops


def labelled_sample(rng, opt: RenderOptions, faces: list[str], pips: bool,
                    per_die: int) -> tuple[DetSample, Crops, np.ndarray]:
    """A rendered scene of ``faces`` as a detector sample, its face crops and the frame."""
    det, sc, centres, sizes, faces = detector_sample(rng, opt, faces, pips)
    sides = [max(s) for s in sizes]
    crops = _crops_of(sc.image, centres, sides, faces, rng, per_die=per_die, negatives=2)
    return det, crops, sc.image


def detector_sample(rng, opt: RenderOptions, faces: list[str], pips: bool):
    """A rendered scene of ``faces`` as a detector sample: (sample, the scene, and the centres,
    sizes and faces of the dice to read, those under a hand left out)."""
    sc = render_labelled(rng, faces, opt, pips=pips)
    centres, sizes, keep = [], [], []
    for top in sc.tops:
        c = top.mean(0)
        x0, y0 = top.min(0)
        x1, y1 = top.max(0)
        # a die under the hand is not one to read
        if sc.hand is not None and sc.hand[int(np.clip(c[1], 0, opt.size[1] - 1)),
                                           int(np.clip(c[0], 0, opt.size[0] - 1))] > 127:
            keep.append(False)
            continue
        keep.append(True)
        centres.append(c)
        sizes.append((x1 - x0, y1 - y0))
    faces = [f for f, k in zip(sc.faces, keep) if k]
    return _det_sample(sc.image, centres, sizes, sc.hand), sc, centres, sizes, faces


def real_photo(root: Path, key: str) -> tuple[np.ndarray, list[str], np.ndarray, np.ndarray]:
    """(image, faces, centres, face sides) of a labelled real photo."""
    img = cv2.imread(str(root / key))
    if key.startswith("byler_d6/"):
        lab = json.loads((root / "labels.json").read_text())[key]
        boxes = np.asarray(lab["boxes"], np.float32)
        sides = boxes[:, 2:].max(1)
    else:
        folder = key.split("/")[0]
        labels = json.loads((root / folder / "labels.json").read_text())
        lab = labels[key.split("/", 1)[1]] if folder == "penlington_webcam_train" else labels[key]
        boxes = np.asarray(lab["boxes"], np.float32)
        est = [max(b[2], b[3]) / PIP_SPAN[f] for f, b in zip(lab["faces"], boxes)]
        sides = np.full(len(boxes), float(np.median(est)), np.float32)
    centres = boxes[:, :2] + boxes[:, 2:] / 2
    return img, list(lab["faces"]), centres, sides


def real_samples(root: Path, seed: int) -> tuple[list[DetSample], Crops]:
    rng = np.random.default_rng(seed)
    dets, crops = [], Crops()
    for key in split.photos_in("train"):
        if key.startswith("penlington_webcam_calibration/"):
            continue  # copies of webcam photos
        img, faces, centres, sides = real_photo(root, key)
        dets.append(_det_sample(img, centres, np.stack([sides, sides], 1), None, real=True))
        crops.extend(_crops_of(img, centres, sides, faces, rng, per_die=6, negatives=8))
    return dets, crops


VISION = Path(__file__).resolve().parents[1]
# what the training data is made from: a change to any of these renders and cuts afresh
RECIPE = ("render.py", "scenes.py", "facenet.py", "detector.py", "training/data.py",
          "training/split.py", "models/split.json")


def recipe(root: Path, *more: Path) -> str:
    """A digest of the data's recipe: the code and split above, the real photos' labels and
    ``more`` (the second stage's own code and the first stage's detector)."""
    h = hashlib.sha1()
    for p in [VISION / r for r in RECIPE] + [root / "labels.json",
                                              root / "penlington_webcam_train" / "labels.json",
                                              *more]:
        h.update(p.read_bytes() if p.is_file() else b"(none)")
    return h.hexdigest()[:12]


def cache_path(cache: Path, seed: int, scenes: int, root: Path, blank_scenes: float = 0.0) -> Path:
    """The first stage's data, cached by seed, scenes and recipe (a cache of another recipe's
    data is never read back)."""
    return cache / f"data-{seed}-{scenes}{blank_tag(blank_scenes)}-{recipe(root)}.pkl"


def blank_tag(blank_scenes: float) -> str:
    """A cache name's part for ``--blank-scenes`` (none where it is off, as before it)."""
    return f"-blank{blank_scenes:g}" if blank_scenes > 0 else ""


def cached(path: Path, make):
    """What ``path`` holds, or ``make()``'s result, written there first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_file():
        return pickle.loads(path.read_bytes())
    out = make()
    path.write_bytes(pickle.dumps(out, protocol=5))
    return out


def build(root: Path, seed: int, scenes: int, cache: Path, procs: int = 2,
          blank_scenes: float = 0.0):
    """(detector samples, face crops): rendered from ``seed`` plus the real training part."""
    def make():
        seeds = [TRAIN_SEED0 + seed * 100_000 + i for i in range(scenes)]
        with Pool(procs) as pool:
            rendered = pool.map(partial(render_one, blank_scenes=blank_scenes), seeds, chunksize=16)
        crops = Crops()
        for _, c in rendered:
            crops.extend(c)
        real_dets, real_crops = real_samples(root, seed)
        return [d for d, _ in rendered], real_dets, crops, real_crops

    return cached(cache_path(cache, seed, scenes, root, blank_scenes), make)

