"""Taught dice sets kept in the data folder: ``<data>/dice/sets/<SET>/``.

A set folder holds ``model.json`` + ``model.npz`` (the templates) and ``photos/<face>/``, the
teaching photos themselves, so a set can be taught again with added photos (corrections).
"""

from __future__ import annotations

import json
import logging
import math
import re
import shutil
import zipfile
from pathlib import Path

import numpy as np

from vision import images
from vision.errors import BadImage, DamagedSet, StaleSet, TeachError, UnknownSet
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
    return images.read_image(path)


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
                return _load_model(folder)
            except StaleSet:
                if not (folder / "photos").is_dir():
                    raise
                # the set keeps its photos: teach it again rather than leave the table
                # without its dice after an update
                log.warning("dice set %r was taught by an older recognizer; teaching it "
                            "again from its photos", name)
                teach(name, folder / "photos", data_dir)
                return _load_model(folder)
    if name in BUILTIN:
        return None
    known = sorted(BUILTIN | set(taught_sets(data_dir)))
    raise UnknownSet(f"unknown dice set {name!r}: built in or taught here: {', '.join(known)}"
                     f" (teach one with `companion dice teach {name} FOLDER`)")


def _load_model(folder: Path) -> FaceModel:
    """The set's model, or DamagedSet naming the file that is wrong and how to mend it."""
    meta_path, arrays = folder / "model.json", folder / "model.npz"
    mend = (f"teach the set again (companion dice teach {folder.name} FOLDER"
            + (f"; its photos are in {folder / 'photos'})" if (folder / "photos").is_dir() else ")"))
    try:
        text = meta_path.read_text(encoding="utf-8")
        meta = json.loads(text) if text.strip() else None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise DamagedSet(f"{meta_path}: cannot be read ({exc}): {mend}") from None
    problem = _meta_problem(meta)
    if problem:
        raise DamagedSet(f"{meta_path}: {problem}: {mend}")
    try:
        return FaceModel.load(folder)
    except StaleSet:
        raise
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as exc:
        raise DamagedSet(f"{arrays}: cannot be used with {meta_path.name} ({exc}): {mend}") from None


def _meta_problem(meta) -> str | None:
    if not isinstance(meta, dict):
        return "empty" if meta is None else f"not a JSON object but {type(meta).__name__}"
    faces = meta.get("faces")
    if not isinstance(meta.get("name"), str):
        return "no set name"
    if not isinstance(faces, list) or len(faces) < 2 or not all(isinstance(f, str) for f in faces):
        return "no list of two or more face names"
    reject = meta.get("reject")
    if isinstance(reject, bool) or not isinstance(reject, (int, float)) or not math.isfinite(reject):
        return "no finite 'reject' distance"
    return None


def taught_sets(data_dir: Path | None) -> list[str]:
    if data_dir is None:
        return []
    d = sets_dir(data_dir)
    return sorted(p.name for p in d.iterdir() if (p / "model.json").is_file()) if d.is_dir() else []
