"""Vision benchmark, on held-out data only: accuracy, silent errors, taps, speed, memory.

Accuracy is measured the way the goals are stated: `companion dice read --json` over the
images, scored per die by ../shared/tools/score_dice.py. Real photos: the *test* part of
vision/models/split.json (never trained or tuned on). Rendered scenes: every game set under
every condition of vision/scenes.py, drawn from seeds the training (10,000,000+) and tuning
(20,000,000+) never use; game sets are taught first from six rendered photos per face.

Silent errors: dice read wrong, missed or invented in a roll the reader did not flag (a
flagged roll is one the players are asked to confirm, so they see and correct it); taps: the
share of rolls flagged. Each set is also read by the classical recognizer
(`--recognizer classical`: the finder and pip reader of vision/classical/) and by both
fused (`--recognizer fused`: vision/fused.py), in the same run.

VISION_BENCH_SCENES: scenes per set and condition (default 12); VISION_BENCH_SEED: another
draw of them (default 2000); VISION_BENCH_REFERENCE=0 skips the classical and fused references;
VISION_BENCH_RECOGNIZERS (e.g. "fused,classical") names the recognizers to run; "fused@REV"
is the fused recognizer combined as recorded at git revision REV (vision/models/training.json,
section "fused"), to measure a new choice beside the one before it in one run (e.g.
"fused@main,fused,classical"; its speed is not measured).
VISION_BENCH_PARTS (e.g. "speed") the parts: rendered, real, speed (default all three).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
SHARED = Path(os.environ.get("COMPANION_SHARED", REPO.parent / "shared"))
SCENES = int(os.environ.get("VISION_BENCH_SCENES", "12"))
SEED_BASE = int(os.environ.get("VISION_BENCH_SEED", "2000"))
WITH_REFERENCE = os.environ.get("VISION_BENCH_REFERENCE", "1") != "0"
SETS = ["d6", "incredibles", "invincible", "xmen"]
# timed: pip dice, and two taught sets (Invincible's numerals are the ones most often read
# again turned, vision/reader.py TURN_BELOW)
TIMED = ("d6", "xmen", "invincible")
PARTS = os.environ.get("VISION_BENCH_PARTS", "rendered,real,speed").split(",")

_WRAP = (
    "import json, os, resource, runpy, sys\n"
    "sys.argv = ['companion dice'] + sys.argv[1:]\n"
    # "fused@REV": that revision's fused choice, in place of the shipped one
    "if os.environ.get('VISION_BENCH_FUSED'):\n"
    "    import vision.fused as fused\n"
    "    got = json.loads(os.environ['VISION_BENCH_FUSED'])\n"
    "    fused.FusedTuning.shipped = classmethod(\n"
    "        lambda cls, taught=False: cls(**got['taught' if taught else 'pips']))\n"
    "code = 0\n"
    "try:\n"
    "    runpy.run_module('vision.cli', run_name='__main__')\n"
    "except SystemExit as e:\n"
    "    code = e.code\n"
    # VmHWM: this program's own peak (ru_maxrss would include the forking parent's)
    "hwm = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')]\n"
    "sys.stderr.write('MAXRSS %s\\n' % (hwm[0] if hwm else "
    "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))\n"
    "sys.exit(code)\n"
)

# A fresh process: load the reader, then time each whole read (threads pinned as the CLI does);
# the frames are decoded one at a time, as a camera hands them over, so that the peak RSS is
# the reader's and not that of 40 frames held at once (37 MB)
_SPEED = (
    "import os, sys, time, json\n"
    "for v in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS'):\n"
    "    os.environ.setdefault(v, '1')\n"
    "t0 = time.perf_counter()\n"
    "import cv2\n"
    "cv2.setNumThreads(1)\n"
    "from vision.reader import make_reader\n"
    "r = make_reader(sys.argv[1], sys.argv[2] if sys.argv[2] != '-' else None, "
    "recognizer=os.environ['RECOGNIZER'])\n"
    "load = time.perf_counter() - t0\n"
    "r.read(cv2.imread(sys.argv[3]))\n"
    "ms, cpu = [], []\n"
    "for p in sys.argv[3:]:\n"
    "    f = cv2.imread(p)\n"
    "    t, c = time.perf_counter(), time.thread_time()\n"
    "    r.read(f)\n"
    "    ms.append((time.perf_counter() - t) * 1000); cpu.append((time.thread_time() - c) * 1000)\n"
    "hwm = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')]\n"
    "print(json.dumps({'load_s': load, 'ms': ms, 'cpu_ms': cpu, 'rss_mb': int(hwm[0]) / 1024}))\n"
)


def _recognizers() -> tuple[str, ...]:
    if os.environ.get("VISION_BENCH_RECOGNIZERS"):
        return tuple(os.environ["VISION_BENCH_RECOGNIZERS"].split(","))
    return ("learned", "classical", "fused") if WITH_REFERENCE else ("learned",)


def _recognizer(name: str) -> tuple[str, dict]:
    """(the CLI's recognizer, the environment it reads with) for a name of _recognizers()."""
    if "@" not in name:
        return name, {}
    base, rev = name.split("@", 1)
    record = subprocess.run(["git", "show", f"{rev}:vision/models/training.json"], cwd=REPO,
                            capture_output=True, text=True, check=True).stdout
    return base, {"VISION_BENCH_FUSED": json.dumps(json.loads(record)["fused"])}


def _cli(args: list[str], out: Path | None = None, name: str | None = None) -> tuple[int, float]:
    """Run `companion dice ... --recognizer name` (vision.cli) in its own process; returns (exit
    code, that process's own peak RSS in MB)."""
    env = dict(os.environ)
    if name is not None:
        base, extra = _recognizer(name)
        args, env = [*args, "--recognizer", base], {**env, **extra}
    cmd = [sys.executable, "-c", _WRAP, *args]
    with open(out, "w") if out else open(os.devnull, "w") as f:
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.PIPE, text=True, cwd=REPO, env=env)
    rss = [int(x.split()[1]) for x in r.stderr.splitlines() if x.startswith("MAXRSS ")]
    return r.returncode, (rss[-1] / 1024.0 if rss else float("nan"))


def _score_tool(labels: Path, reads: Path, root: Path, *extra: str) -> str:
    tool = SHARED / "tools" / "score_dice.py"
    r = subprocess.run([sys.executable, str(tool), str(labels), str(reads), str(root), *extra],
                       capture_output=True, text=True)
    return r.stdout.strip()


def _silent(labels: dict, reads: Path, root: Path, keys: set[str] | None = None) -> tuple[float, float, int]:
    """(silent errors per labelled die, share of rolls flagged, rolls) over the reads."""
    silent = want = flagged = rolls = 0
    for line in reads.read_text().splitlines():
        rec = json.loads(line)
        key = str(Path(rec["image"]).resolve().relative_to(root.resolve()))
        if keys is not None and key not in keys:
            continue
        faces = labels[key]["faces"]
        got = [d["face"] for d in rec["dice"]]
        # the classical reader's JSON has no flags: a die under the threshold asks for a tap
        flag = rec.get("flagged", any(d["confidence"] < 0.6 for d in rec["dice"]))
        right = sum(min(n, Counter(got)[f]) for f, n in Counter(faces).items())
        want += len(faces)
        rolls += 1
        flagged += bool(flag)
        if not flag:
            silent += max(len(faces), len(got)) - right
    return silent / max(want, 1), flagged / max(rolls, 1), rolls


def _figures(line: str) -> str:
    import re

    rec = re.search(r"recall ([0-9.]+)", line)
    prec = re.search(r"precision ([0-9.]+)", line)
    return f"{rec.group(1) if rec else '?'} / {prec.group(1) if prec else '?'}"


def _measure(what: str, labels_path: Path, labels: dict, root: Path, images: list[str],
             data: Path | None, set_name: str, tmp: Path, extra=(),
             keys: set[str] | None = None):
    """Rows for one held-out set: each recognizer's, read in the same run."""
    rows = []
    for name in _recognizers():
        reads = tmp / f"reads-{abs(hash((what, name)))}.jsonl"
        args = ["read", "--set", set_name, "--json", *images]
        if data is not None:
            args += ["--data", str(data / name)]
        _cli(args, reads, name)
        line = _score_tool(labels_path, reads, root, *extra)
        silent, taps, rolls = _silent(labels, reads, root, keys)
        rows.append((f"{what}: recall / precision ({name})", _figures(line),
                     f"{line}; silent errors {silent:.4f} of dice, taps {taps:.2f} of rolls"))
    return rows


def real(tmp: Path) -> list[tuple[str, str, str]]:
    from vision.training import split

    root = SHARED / "data" / "dice-real"
    if not root.is_dir():
        return [("real photos", "skipped", f"{root} absent")]
    test = split.photos_in("test")
    rows = []
    byler = json.loads((root / "labels.json").read_text())
    keys = [k for k in test if k.startswith("byler_d6/")]
    imgs = [str(root / k) for k in keys]
    le9 = {k for k in keys if len(byler[k]["faces"]) <= 9}
    for what, extra, ks in (("real tray photos <=9 dice (held out)", ("--le9",), le9),
                            ("real tray photos, all (held out)", (), set(keys))):
        sub = tmp / ("labels-byler.json")
        sub.write_text(json.dumps({k: byler[k] for k in keys}))
        rows += _measure(what, sub, byler, root, imgs if ks is not le9 else
                         [str(root / k) for k in sorted(le9)], None, "d6", tmp,
                         ("--subset", "byler_d6", *extra), ks)
    web_root = root / "penlington_webcam_train"
    web = json.loads((web_root / "labels.json").read_text())
    wkeys = [k.split("/", 1)[1] for k in test if k.startswith("penlington_webcam_train/")]
    sub = tmp / "labels-webcam.json"
    sub.write_text(json.dumps({k: web[k] for k in wkeys}))
    rows += _measure("real webcam photos (held out)", sub, web, web_root,
                     [str(web_root / k) for k in wkeys], None, "d6", tmp, (), set(wkeys))
    for name in _recognizers():
        _, rss = _cli(["read", "--set", "d6", "--json", *imgs], name=name)
        rows.append((f"peak RSS of `dice read` over the held-out tray photos ({name})",
                     f"{rss:.0f} MB", f"{len(imgs)} 1024x1024 JPEGs"))
    return rows


def _teach(tmp: Path, k: int, set_name: str) -> None:
    """Teach a game set to every recognizer (into tmp/data/NAME) from the bench's photos."""
    from vision.render import write_teaching_photos

    folder = tmp / "teach" / set_name
    write_teaching_photos(set_name, folder, per_face=6, seed=SEED_BASE - 1000 + k)
    for name in _recognizers():
        rc, _ = _cli(["teach", set_name, str(folder), "--data", str(tmp / "data" / name)],
                     name=name)
        assert rc == 0, f"teaching {set_name} ({name}) failed"


def rendered(tmp: Path) -> list[tuple[str, str, str]]:
    from vision.render import render_labelled, random_roll
    from vision.scenes import CONDITIONS

    rows = []
    data = tmp / "data"
    labels: dict = {}
    by_set: dict[str, list[str]] = {s: [] for s in SETS}
    by_cond: dict[str, list[tuple[str, str]]] = {c: [] for c in CONDITIONS}
    for k, set_name in enumerate(SETS):
        if set_name != "d6":
            _teach(tmp, k, set_name)
        for c, (cond, opt) in enumerate(CONDITIONS.items()):
            rng = np.random.default_rng(SEED_BASE + 100 * k + c)
            for i in range(SCENES):
                sc = render_labelled(rng, random_roll(rng, set_name, 1 + i % 9), opt,
                                     pips=(set_name == "d6"))
                p = tmp / "scenes" / set_name / f"{c}-{i:03d}.jpg"
                p.parent.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(p), sc.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
                key = str(p.relative_to(tmp))
                labels[key] = {"faces": sc.faces}
                by_set[set_name].append(str(p))
                by_cond[cond].append((set_name, str(p)))
    (tmp / "labels.json").write_text(json.dumps(labels))
    # read every set once per recognizer; score per set and per condition
    reads_of: dict[tuple[str, str], Path] = {}
    for name in _recognizers():
        for set_name in SETS:
            out = tmp / f"rendered-{name}-{set_name}.jsonl"
            _cli(["read", "--set", set_name, "--json", "--data", str(data / name),
                  *by_set[set_name]], out, name)
            reads_of[(name, set_name)] = out
    for name in _recognizers():
        if (name, "d6") not in reads_of:
            continue
        every = tmp / f"rendered-{name}-all.jsonl"
        every.write_text("".join(reads_of[(name, s)].read_text() for s in SETS))
        groups = [(f"rendered {s}, all conditions", {str(Path(p).relative_to(tmp)) for p in by_set[s]})
                  for s in SETS]
        groups += [(f"rendered, {c}", {str(Path(p).relative_to(tmp)) for _, p in v})
                   for c, v in by_cond.items()]
        groups.insert(0, ("rendered, every set and condition", set(labels)))
        for what, keys in groups:
            part = tmp / "part.jsonl"
            part.write_text("".join(
                line + "\n" for line in every.read_text().splitlines()
                if str(Path(json.loads(line)["image"]).relative_to(tmp)) in keys))
            line = _score_tool(tmp / "labels.json", part, tmp)
            silent, taps, rolls = _silent(labels, part, tmp, keys)
            rows.append((f"{what} ({name})", _figures(line),
                         f"{line}; silent errors {silent:.4f} of dice, taps {taps:.2f} of rolls"))
    return rows


def speed(tmp: Path) -> list[tuple[str, str, str]]:
    from vision.render import render_roll

    rows = []
    for set_name in TIMED[1:]:
        if not (tmp / "teach" / set_name).is_dir():  # the rendered part did not run
            _teach(tmp, SETS.index(set_name), set_name)
    rng = np.random.default_rng(7)
    paths = {}
    for set_name in TIMED:
        paths[set_name] = []
        for i in range(40):
            p = tmp / "speed" / set_name / f"{i}.png"
            p.parent.mkdir(parents=True, exist_ok=True)
            img, faces, _ = render_roll(rng, set_name, 9)
            cv2.imwrite(str(p), img)
            paths[set_name].append(str(p))
    for name in (n for n in _recognizers() if "@" not in n):
        for set_name in TIMED:
            data = str(tmp / "data" / name) if set_name != "d6" else "-"
            env = {**os.environ, "RECOGNIZER": name}
            r = subprocess.run([sys.executable, "-c", _SPEED, set_name, data, *paths[set_name]],
                               capture_output=True, text=True, cwd=REPO, env=env)
            if r.returncode != 0:
                rows.append((f"read 640x480, 9 dice, {set_name} ({name})", "failed", r.stderr[-200:]))
                continue
            got = json.loads(r.stdout.strip().splitlines()[-1])
            ms = got["ms"]
            rows.append((f"read 640x480, 9 dice, {set_name}, 1 core ({name})",
                         f"{statistics.median(ms):.1f} ms",
                         f"wall time of the whole read in a fresh process, median of {len(ms)} "
                         f"(p90 {np.percentile(ms, 90):.1f}; its CPU time "
                         f"{statistics.median(got['cpu_ms']):.1f}, the figure a machine shared "
                         f"with other work inflates least); load {got['load_s']:.2f} s; "
                         f"peak RSS {got['rss_mb']:.0f} MB"))
    rows += _backends()
    rows.append(_model_load())
    from vision.settle import MotionDetector
    import time

    md = MotionDetector()
    frames = [cv2.imread(p) for p in paths["d6"]]
    ts = []
    for f in frames * 3:
        t = time.perf_counter()
        md.update(f)
        ts.append((time.perf_counter() - t) * 1000)
    rows.append(("motion check per 640x480 frame", f"{statistics.median(ts):.2f} ms",
                 f"wall median, p99 {np.percentile(ts, 99):.2f} ms"))
    return rows


def _backends() -> list[tuple[str, str, str]]:
    """The shipped networks on one core: onnxruntime against OpenCV's DNN module."""
    import time

    from vision import detector, facenet

    cv2.setNumThreads(1)
    blob, _ = detector.prepare(np.zeros((480, 640, 3), np.uint8))
    crops = np.random.default_rng(0).integers(0, 255, (9, 3, facenet.CROP, facenet.CROP)).astype(np.float32)
    rows = []
    for what, path, x in (("detector, 640x480 frame", detector.MODEL, blob),
                          ("face network, 9 crops", facenet.MODEL, crops)):
        times = {}
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.intra_op_num_threads = so.inter_op_num_threads = 1
        s = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
        name = s.get_inputs()[0].name
        net = cv2.dnn.readNetFromONNX(str(path))
        for backend, run in (("onnxruntime", lambda: s.run(None, {name: x})),
                             ("OpenCV DNN", lambda: (net.setInput(x), net.forward()))):
            run()
            ts = []
            for _ in range(30):
                t = time.perf_counter()
                run()
                ts.append((time.perf_counter() - t) * 1000)
            times[backend] = statistics.median(ts)
        rows.append((f"{what}: onnxruntime / OpenCV DNN, 1 thread",
                     f"{times['onnxruntime']:.2f} / {times['OpenCV DNN']:.2f} ms",
                     f"ratio {times['onnxruntime'] / times['OpenCV DNN']:.2f} (median of 30)"))
    return rows


def _model_load() -> tuple[str, str, str]:
    """Loading both networks in a fresh process (onnxruntime's import included)."""
    code = ("import time; t = time.perf_counter()\n"
            "from vision.detector import Detector; from vision.facenet import FaceNet\n"
            "Detector(); FaceNet(); print(time.perf_counter() - t)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    return ("model load (both networks, fresh process)", f"{float(r.stdout.split()[-1]):.2f} s",
            "onnxruntime imported and both sessions made")


def run() -> list[tuple[str, str, str]]:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        rows = []
        for part in ("rendered", "real", "speed"):
            if part in PARTS:
                rows += globals()[part](tmp)
    return rows


if __name__ == "__main__":
    for row in run():
        print(" | ".join(row))
