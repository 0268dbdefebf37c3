"""Taught dice sets kept in the data folder: ``<data>/dice/sets/<SET>/``.

A set folder holds ``model.json`` + ``model.npz`` (the templates) and ``photos/<face>/``, the
teaching photos themselves, so a set can be taught again with added photos (corrections).
"""

from __future__ import annotations

import logging
import re
import shutil
from pathlib import Path

import cv2
import numpy as np

from vision.errors import BadImage, StaleSet, TeachError, UnknownSet
from vision.faces import FaceModel, build_model
from vision.finder import Candidate, find_dice

log = logging.getLogger(__name__)

BUILTIN = {"d6"}
IMAGE_EXT = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")


def sets_dir(data_dir: Path) -> Path:
    return Path(data_dir) / "dice" / "sets"


def check_name(name: str, what: str = "set") -> str:
    if not _NAME.match(name) or name in {".", ".."}:
        raise TeachError(f"{what} name {name!r}: use letters, digits, '_', '-', '+' or '.'")
    return name


def load_image(path: str | Path) -> np.ndarray:
    p = Path(path)
    if not p.is_file():
        raise BadImage(f"{path}: no such image file" if not p.exists() else f"{path}: not a file")
    data = np.fromfile(str(p), np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise BadImage(f"{path}: not an image OpenCV can decode")
    return img


def main_die(frame: np.ndarray) -> Candidate | None:
    """The die of a one-die teaching photo: the largest die-like blob, nearest the centre."""
    scene = find_dice(frame)
    if not scene.dice:
        return None
    h, w = frame.shape[:2]

    def score(c: Candidate) -> float:
        (cx, cy), _, _ = c.rect
        off = np.hypot((cx - w / 2) / w, (cy - h / 2) / h)
        return c.area * (1.0 - off)

    return max(scene.dice, key=score)


def teach(name: str, folder: str | Path, data_dir: Path) -> dict:
    """Build (or replace) taught set ``name`` from ``folder/<face>/<image>``."""
    check_name(name)
    folder = Path(folder)
    if not folder.is_dir():
        raise TeachError(f"{folder}: not a folder (expected FOLDER/<face>/<image>)")
    examples, skipped, photos = [], [], []
    for face_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
        face = check_name(face_dir.name, "face")
        for img_path in sorted(face_dir.iterdir()):
            if img_path.suffix.lower() not in IMAGE_EXT:
                continue
            try:
                frame = load_image(img_path)
            except BadImage:
                skipped.append(str(img_path))
                continue
            cand = main_die(frame)
            if cand is None:
                skipped.append(str(img_path))
                continue
            examples.append((face, frame, cand))
            photos.append((face, img_path))
    faces = sorted({f for f, _, _ in examples})
    if len(faces) < 2:
        raise TeachError(f"{folder}: found dice for {len(faces)} face(s); a set needs at least 2 "
                         "faces, each a subfolder of photos showing one die")
    model = build_model(name, examples)
    target = sets_dir(data_dir) / name
    tmp = target.with_name(name + ".new")
    shutil.rmtree(tmp, ignore_errors=True)
    model.save(tmp)
    for face, img_path in photos:
        dst = tmp / "photos" / face
        dst.mkdir(parents=True, exist_ok=True)
        if not (img_path.resolve().parent == (target / "photos" / face).resolve()):
            shutil.copy2(img_path, dst / img_path.name)
        else:
            shutil.copy2(img_path, dst / img_path.name)
    shutil.rmtree(target, ignore_errors=True)
    tmp.rename(target)
    counts = {f: sum(1 for g, _, _ in examples if g == f) for f in faces}
    return {"set": name, "faces": counts, "skipped": skipped, "folder": str(target)}


def load(name: str, data_dir: Path | None) -> FaceModel | None:
    """The taught model of ``name``, None for the built-in d6; UnknownSet otherwise."""
    if data_dir is not None:
        folder = sets_dir(data_dir) / name
        if _NAME.match(name) and (folder / "model.json").is_file():
            try:
                return FaceModel.load(folder)
            except StaleSet:
                if not (folder / "photos").is_dir():
                    raise
                # the set keeps its photos: teach it again rather than leave the table
                # without its dice after an update
                log.warning("dice set %r was taught by an older recognizer; teaching it "
                            "again from its photos", name)
                teach(name, folder / "photos", data_dir)
                return FaceModel.load(folder)
    if name in BUILTIN:
        return None
    known = sorted(BUILTIN | set(taught_sets(data_dir)))
    raise UnknownSet(f"unknown dice set {name!r}: built in or taught here: {', '.join(known)}"
                     f" (teach one with `companion dice teach {name} FOLDER`)")


def taught_sets(data_dir: Path | None) -> list[str]:
    if data_dir is None:
        return []
    d = sets_dir(data_dir)
    return sorted(p.name for p in d.iterdir() if (p / "model.json").is_file()) if d.is_dir() else []
