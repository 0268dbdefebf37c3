"""Taught dice sets kept in the data folder: ``<data>/dice/sets/<SET>/``.

A set folder holds ``model.json`` + ``model.npz`` (the taught photos' embeddings) and ``photos/<face>/``, the
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

import cv2
import numpy as np

from vision import facenet, images
from vision.errors import BadImage, DamagedSet, StaleSet, TeachError, UnknownSet
from vision.faces import JITTER, LOOKS, TURNS, FaceModel, build_model

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


SMALL_SIDE = 24.0  # px: the "small" look, a die as a 320x240 camera sees it over a tray


def looks(frame: np.ndarray, side: float) -> list[tuple[str, np.ndarray, float]]:
    """The teaching photo as the tray's camera may see the die: (look, image, its scale
    against ``frame``) for each of ``LOOKS`` (the same every time: a set taught twice from
    the same photos is the same set)."""
    rng = np.random.default_rng(0)
    img = frame.astype(np.float32)
    out = []
    for look in LOOKS:
        scale = 1.0
        if look == "small":
            scale = min(1.0, SMALL_SIDE / max(side, 1.0))
            got = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        elif look == "blur":
            got = cv2.GaussianBlur(frame, (0, 0), max(0.04 * side, 0.5))
        elif look == "dim":
            got = np.clip(img * 0.4 + rng.normal(0, 6, img.shape), 0, 255).astype(np.uint8)
        elif look == "noise":
            got = np.clip(img + rng.normal(0, 12, img.shape), 0, 255).astype(np.uint8)
        else:  # "jpeg"
            got = cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 30])[1],
                               cv2.IMREAD_COLOR)
        out.append((look, got, scale))
    return out


def views(frame: np.ndarray, reader=None) -> tuple[np.ndarray, float] | None:
    """Embeddings of a one-die teaching photo's die (the strongest detection, nearest the
    centre): first the photo as it is at every one of ``TURNS`` and ``JITTER``'s shifts and
    scales, then each of its ``looks`` at every turn; and how much the face network takes
    it for a pip face (the mean highest pip probability of the photo's own views); None when
    no die is found."""
    from vision.reader import Reader  # noqa: PLC0415 (the reader loads sets)

    reader = reader or Reader("d6")
    dets, _ = reader.detect(frame)
    if not dets:
        return None
    h, w = frame.shape[:2]
    d = max(dets, key=lambda d: d.score * (1.0 - np.hypot((d.cx - w / 2) / w, (d.cy - h / 2) / h)))
    if d.score < reader.tuning.keep:
        return None
    crops = [facenet.crop(frame, d.cx + dx * d.side, d.cy + dy * d.side, d.side * k, turn)
             for turn in TURNS for dx, dy, k in JITTER]
    own = len(crops)
    for _, img, f in looks(frame, d.side):
        crops += [facenet.crop(img, d.cx * f, d.cy * f, d.side * f, turn) for turn in TURNS]
    probs, emb = reader.facenet.run(np.stack(crops))
    return emb, float(probs[:own, 1:7].max(axis=1).mean())


def teach(name: str, folder: str | Path, data_dir: Path) -> dict:
    """Build (or replace) taught set ``name`` from ``folder/<face>/<image>``."""
    from vision.reader import Reader, net_digest  # noqa: PLC0415

    reader = Reader("d6")
    return teach_with(name, folder, data_dir, lambda frame: views(frame, reader),
                      lambda examples: build_model(name, examples, net_digest()))


def teach_with(name: str, folder: str | Path, data_dir: Path, example, build) -> dict:
    """Teach a set (for either recognizer): ``example(frame)`` is what a photo gives (None
    when no die is found in it), ``build([(face, example), ...])`` the model to save."""
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
                got = example(load_image(img_path))
            except BadImage:
                got = None
            if got is None:
                skipped.append(str(img_path))
                continue
            examples.append((face, got))
            photos.append((face, img_path))
    faces = sorted({f for f, _ in examples})
    if len(faces) < 2:
        raise TeachError(f"{folder}: found dice for {len(faces)} face(s); a set needs at least 2 "
                         "faces, each a subfolder of photos showing one die")
    model = build(examples)
    target = sets_dir(data_dir) / name
    tmp = target.with_name(name + ".new")
    shutil.rmtree(tmp, ignore_errors=True)
    model.save(tmp)
    for face, img_path in photos:
        dst = tmp / "photos" / face
        dst.mkdir(parents=True, exist_ok=True)
        shutil.copy2(img_path, dst / img_path.name)
    shutil.rmtree(target, ignore_errors=True)
    tmp.rename(target)
    counts = {f: sum(1 for g, _ in examples if g == f) for f in faces}
    return {"set": name, "faces": counts, "skipped": skipped, "folder": str(target)}


def load(name: str, data_dir: Path | None) -> FaceModel | None:
    """The taught model of ``name``, None for the built-in d6; UnknownSet otherwise."""
    if data_dir is not None:
        folder = sets_dir(data_dir) / name
        if _NAME.match(name) and (folder / "model.json").is_file():
            from vision.reader import net_digest  # noqa: PLC0415

            kept = (folder / "photos").is_dir()
            try:
                model = _load_model(folder, lambda: FaceModel.load(folder, net_digest()))
            except StaleSet:
                if not kept:
                    raise
                _teach_again(name, data_dir, "was taught by another recognizer")
                return _load_model(folder, lambda: FaceModel.load(folder, net_digest()))
            if model.near is None and kept:
                _teach_again(name, data_dir, "was taught before its faces kept how near their "
                             "photos come to each other")
                return _load_model(folder, lambda: FaceModel.load(folder, net_digest()))
            return model
    if name in BUILTIN:
        return None
    known = sorted(BUILTIN | set(taught_sets(data_dir)))
    raise UnknownSet(f"unknown dice set {name!r}: built in or taught here: {', '.join(known)}"
                     f" (teach one with `companion dice teach {name} FOLDER`)")


def _teach_again(name: str, data_dir: Path, why: str) -> None:
    """Teach a set again from the photos it keeps, rather than leave the table without its
    dice (or reading them by an older rule) after an update."""
    log.warning("dice set %r %s; teaching it again from its photos", name, why)
    folder = sets_dir(data_dir) / name
    photos = folder.with_name(name + ".photos")
    shutil.rmtree(photos, ignore_errors=True)
    shutil.copytree(folder / "photos", photos)
    try:
        teach(name, photos, data_dir)
    finally:
        shutil.rmtree(photos, ignore_errors=True)


def _load_model(folder: Path, load):
    """The set's model (``load()``, either recognizer's), or DamagedSet naming the file that
    is wrong and how to mend it."""
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
        return load()
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
    near = meta.get("near", {})
    if not isinstance(near, dict) or not all(
            f in faces and isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            for f, v in near.items()):
        return "'near' is not a table of the set's faces to finite similarities"
    return None


def taught_sets(data_dir: Path | None) -> list[str]:
    if data_dir is None:
        return []
    d = sets_dir(data_dir)
    return sorted(p.name for p in d.iterdir() if (p / "model.json").is_file()) if d.is_dir() else []
