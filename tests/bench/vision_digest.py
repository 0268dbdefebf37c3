"""What the recognizers read over the held-out sets, as one digest: a change made for speed
shows that it reads alike by an equal digest before and after.

    python tests/bench/vision_digest.py OUT.jsonl [RECOGNIZER ...]   (default: fused)

Read: the rendered scenes of the vision bench (every game set under every condition of
vision/scenes.py, seeds 2000+, VISION_BENCH_SCENES per set and condition, written as JPEG q95
as the bench writes them; the game sets taught first from the bench's teaching photos) and
every photo of the *test* part of vision/models/split.json. Each line of OUT is one image's
read (faces, confidences at full precision, boxes, confirmed; the boxes left unread; whether
the frame is obstructed), and the last line the SHA-1 of the lines before it, exact and with
confidences rounded to 3 places (the CLI's JSON). The taught models are digested too (the
teaching code is shared with reading).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
SHARED = Path(os.environ.get("COMPANION_SHARED", REPO.parent / "shared"))
SCENES = int(os.environ.get("VISION_BENCH_SCENES", "12"))
SEED_BASE = int(os.environ.get("VISION_BENCH_SEED", "2000"))
SETS = ["d6", "incredibles", "invincible", "xmen"]


def scenes(folder: Path) -> dict[str, list[Path]]:
    """The bench's rendered scenes per set (rendered once into ``folder``)."""
    from vision.render import random_roll, render_labelled
    from vision.scenes import CONDITIONS

    out: dict[str, list[Path]] = {}
    for k, set_name in enumerate(SETS):
        out[set_name] = []
        for c, (_, opt) in enumerate(CONDITIONS.items()):
            rng = np.random.default_rng(SEED_BASE + 100 * k + c)
            for i in range(SCENES):
                p = folder / set_name / f"{c}-{i:03d}.jpg"
                if not p.is_file():
                    sc = render_labelled(rng, random_roll(rng, set_name, 1 + i % 9), opt,
                                         pips=(set_name == "d6"))
                    p.parent.mkdir(parents=True, exist_ok=True)
                    cv2.imwrite(str(p), sc.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
                else:  # draw the same numbers the renderer would, to keep the seeds in step
                    render_labelled(rng, random_roll(rng, set_name, 1 + i % 9), opt,
                                    pips=(set_name == "d6"))
                out[set_name].append(p)
    return out


def _model_digest(data: Path) -> str:
    h = hashlib.sha1()
    for f in sorted(data.rglob("*")):
        if f.suffix == ".npz":
            z = np.load(f)
            for k in sorted(z.files):
                h.update(k.encode() + z[k].tobytes())
        elif f.suffix == ".json":
            h.update(f.read_bytes())
    return h.hexdigest()


def read_all(recognizer: str, by_set: dict[str, list[Path]], data: Path, root: Path):
    from vision.reader import make_reader, teach
    from vision.render import write_teaching_photos

    lines = []
    for k, set_name in enumerate(SETS):
        d = None
        if set_name != "d6":
            folder = data / "teach" / set_name
            if not folder.is_dir():
                write_teaching_photos(set_name, folder, per_face=6, seed=SEED_BASE - 1000 + k)
            d = data / recognizer
            teach(set_name, folder, d, recognizer=recognizer)
        reader = make_reader(set_name, d, recognizer=recognizer)
        for p in by_set[set_name]:
            lines.append(_line(reader, str(p.relative_to(root)), cv2.imread(str(p))))
    lines.append(json.dumps({"taught models": _model_digest(data / recognizer)}))
    return lines


def _line(reader, name: str, img) -> str:
    dice = reader.read(img)
    return json.dumps({"image": name, "dice": [[r.face, r.confidence, list(r.box), r.confirmed]
                                               for r in dice],
                       "unread": [list(b) for b in getattr(reader, "last_unread", [])],
                       "obstructed": bool(getattr(reader, "last_obstructed", False))})


def real(recognizer: str) -> list[str]:
    from vision.reader import make_reader
    from vision.training import split

    root = SHARED / "data" / "dice-real"
    if not root.is_dir():
        return [json.dumps({"real photos": "absent"})]
    reader = make_reader("d6", None, recognizer=recognizer)
    return [_line(reader, k, cv2.imread(str(root / k))) for k in sorted(split.photos_in("test"))]


def _rounded(line: str) -> str:
    rec = json.loads(line)
    if "dice" in rec:
        rec["dice"] = [[f, round(c, 3), b, ok] for f, c, b, ok in rec["dice"]]
    return json.dumps(rec)


def main(argv: list[str]) -> None:
    out = Path(argv[0])
    recognizers = argv[1:] or ["fused"]
    cache = Path(os.environ.get("VISION_DIGEST_SCENES", tempfile.gettempdir())) / \
        f"vision-digest-scenes-{SEED_BASE}-{SCENES}"
    by_set = scenes(cache)
    lines = []
    with tempfile.TemporaryDirectory() as d:
        for name in recognizers:
            lines += [json.dumps({"recognizer": name})]
            lines += read_all(name, by_set, Path(d), cache)
            lines += real(name)
    exact = hashlib.sha1("\n".join(lines).encode()).hexdigest()
    rounded = hashlib.sha1("\n".join(_rounded(x) for x in lines).encode()).hexdigest()
    out.write_text("\n".join(lines) + "\n" + json.dumps({"sha1": exact, "sha1 rounded": rounded})
                   + "\n")
    print(f"{len(lines)} lines; sha1 {exact}; rounded {rounded}")


if __name__ == "__main__":
    main(sys.argv[1:])
