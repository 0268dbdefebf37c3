"""The photo log: frames whose reads were doubtful or corrected, kept in the data folder.

``<data>/dice/photolog/<id>.jpg`` with ``<id>.json`` ({set, reads, corrected}). A correction
records the players' faces (null for a read die they said is not a die); ``add_to_teaching``
copies the corrected dice, one crop per die, into the set's teaching photos and teaches the set
again.
"""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path

import cv2
import numpy as np

from companion.paths import write_whole
from vision import sets
from vision.errors import VisionError
from vision.images import read_image
from vision.reader import DEFAULT_RECOGNIZER, DieRead, teach


class PhotoLog:
    def __init__(self, data_dir: Path, recognizer: str = DEFAULT_RECOGNIZER):
        self.data_dir = Path(data_dir)
        self.recognizer = recognizer
        self.folder = self.data_dir / "dice" / "photolog"

    def add(self, frame: np.ndarray, set_name: str, reads: list[DieRead]) -> str:
        """Keep a frame and its reads; returns the entry id."""
        self.folder.mkdir(parents=True, exist_ok=True)
        entry = time.strftime("%Y%m%d-%H%M%S") + "-" + uuid.uuid4().hex[:6]
        ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
        if not ok:
            raise VisionError(f"photo log: the frame of entry {entry} could not be encoded")
        # whole or not at all: the screen reads an entry while the camera's thread records
        # the players' correction of it
        write_whole(self.folder / f"{entry}.jpg", jpeg.tobytes())
        meta = {"set": set_name, "reads": [r.to_json() for r in reads], "corrected": None}
        write_whole(self.folder / f"{entry}.json", json.dumps(meta, indent=1))
        return entry

    def get(self, entry: str) -> dict:
        path = self.folder / f"{entry}.json"
        if not sets._NAME.match(entry) or not path.is_file():
            raise VisionError(f"photo log entry {entry!r} not found")
        return json.loads(path.read_text())

    def correct(self, entry: str, faces: list[str | None]) -> dict:
        """Record the players' faces for the entry's dice (same order as its reads; None where
        the players said the camera read something that is not a die)."""
        meta = self.get(entry)
        if len(faces) != len(meta["reads"]):
            raise VisionError(f"entry {entry}: {len(meta['reads'])} dice read, "
                              f"{len(faces)} faces given")
        meta["corrected"] = list(faces)
        write_whole(self.folder / f"{entry}.json", json.dumps(meta, indent=1))
        return meta

    def entries(self) -> list[str]:
        if not self.folder.is_dir():
            return []
        return sorted(p.stem for p in self.folder.glob("*.json"))

    def add_to_teaching(self, entry: str, reteach: bool = True) -> int:
        """Copy each corrected die of ``entry`` into its set's teaching photos; teach again.

        Returns the number of photos added."""
        meta = self.get(entry)
        if not meta.get("corrected"):
            raise VisionError(f"entry {entry}: no correction recorded")
        frame = read_image(self.folder / f"{entry}.jpg")
        set_dir = sets.sets_dir(self.data_dir) / meta["set"]
        photos = set_dir / "photos"
        if not photos.is_dir():
            raise VisionError(f"set {meta['set']!r} has no teaching photos to add to "
                              "(the built-in d6 is not taught)")
        added = 0
        H, W = frame.shape[:2]
        for k, (read, face) in enumerate(zip(meta["reads"], meta["corrected"])):
            if face is None:      # not a die: nothing of a face to teach
                continue
            x, y, w, h = read["box"]
            # tray around the die, so either recognizer sees it at its usual size
            m = (6 if self.recognizer in ("learned", "fused") else 2) * max(w, h)
            crop = frame[max(0, y - m):min(H, y + h + m), max(0, x - m):min(W, x + w + m)]
            d = photos / sets.check_name(face, "face")
            d.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(d / f"log-{entry}-{k}.png"), crop)
            added += 1
        if reteach and added:
            tmp = set_dir.parent / (meta["set"] + ".photos")
            if tmp.exists():
                import shutil
                shutil.rmtree(tmp)
            photos.rename(tmp)
            try:
                teach(meta["set"], tmp, self.data_dir, self.recognizer)
            finally:
                import shutil
                shutil.rmtree(tmp, ignore_errors=True)
        return added
