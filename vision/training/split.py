"""Which part of training, tuning or the held-out test each real photo belongs to.

The rule, fixed before any training: photos taken together (byler_d6: the same minute of the
file's timestamp; the webcam photos: runs of five numbers of one name) form a group, so near
copies never straddle two parts; a group's part is the first byte of the SHA-1 of its name
modulo 10: 0-5 training, 6-7 tuning, 8-9 test. The 36 single-die webcam calibration photos
are copies of webcam photos: their groups are forced into the test part (they are the real
photos a set is taught from in the tests, and the detector must not have seen them).

`python -m vision.training.split [SHARED]` writes vision/models/split.json.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

SPLIT_FILE = Path(__file__).resolve().parents[1] / "models" / "split.json"
PARTS = ("train", "tune", "test")


def _part(group: str) -> str:
    b = hashlib.sha1(group.encode()).digest()[0] % 10
    return "train" if b < 6 else "tune" if b < 8 else "test"


def group_of(path: str) -> str:
    name = Path(path).stem
    if path.startswith("byler_d6/"):
        return "byler:" + name[:17]  # IMG_YYYYMMDD_HHMM
    m = re.match(r"([a-z]+)_(\d+)$", name)
    if not m:
        raise ValueError(f"{path}: not a name the split knows")
    return f"webcam:{m.group(1)}:{int(m.group(2)) // 5}"


def build(dice_real: Path) -> dict:
    labels = json.loads((dice_real / "labels.json").read_text())
    webcam = json.loads((dice_real / "penlington_webcam_train" / "labels.json").read_text())
    calib = json.loads((dice_real / "penlington_webcam_calibration" / "labels.json").read_text())
    forced = {group_of("penlington_webcam_train/images/" + Path(v["source"]).name)
              for v in calib.values()}
    photos = {}
    for key in sorted(labels):
        photos[key] = _part(group_of(key))
    for key in sorted(webcam):
        path = "penlington_webcam_train/" + key
        g = group_of(path)
        photos[path] = "test" if g in forced else _part(g)
    for key in sorted(calib):
        src = "penlington_webcam_train/images/" + Path(calib[key]["source"]).name
        photos[key] = photos[src]
    return {"rule": __doc__.split("\n\n")[1].replace("\n", " "), "photos": photos}


def load() -> dict[str, str]:
    """photo path (relative to shared/data/dice-real) -> part."""
    return json.loads(SPLIT_FILE.read_text())["photos"]


def photos_in(part: str) -> list[str]:
    return sorted(k for k, v in load().items() if v == part)


if __name__ == "__main__":
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[3]
                / "shared") / "data" / "dice-real"
    split = build(root)
    SPLIT_FILE.parent.mkdir(parents=True, exist_ok=True)
    SPLIT_FILE.write_text(json.dumps(split, indent=0, sort_keys=True) + "\n")
    from collections import Counter
    print(Counter((k.split("/")[0], v) for k, v in split["photos"].items()))
