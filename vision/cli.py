"""`companion dice ...`: teach a set, read photos, watch the camera.

    companion dice teach SET FOLDER          FOLDER/<face>/<image>, one die per image
    companion dice read --set SET [--json] IMAGE...
    companion dice watch --set SET [--camera 0|/dev/video0|FOLDER|VIDEO|picamera|synthetic]

Every command takes ``--data DIR`` (else $COMPANION_DATA, else the per-user default).
Exit 0 on success, 2 on bad usage or input (with a message on stderr).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from companion.paths import data_dir as resolve_data_dir


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own exit(2) but without the usage dump on stdout
        self.print_usage(sys.stderr)
        raise _Usage(f"{self.prog}: error: {message}")


class _Usage(Exception):
    pass


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data", help="data folder (default: $COMPANION_DATA or per-user)")
    from vision.reader import DEFAULT_RECOGNIZER, RECOGNIZERS

    common.add_argument("--recognizer", choices=RECOGNIZERS, default=DEFAULT_RECOGNIZER,
                        help="both readers fused (the default), the classical finder and pip "
                             "reader, or the learned detector alone (docs/vision.md)")
    p = _Parser(prog="companion dice", description="Teach and read dice with the camera.")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    t = sub.add_parser("teach", parents=[common], help="teach a set from photos per face")
    t.add_argument("set", help="set name, e.g. xmen")
    t.add_argument("folder", help="FOLDER/<face>/<image>, each image one die showing <face>")
    r = sub.add_parser("read", parents=[common], help="read the dice in photos")
    r.add_argument("--set", default="d6", help="dice set (default d6, built in)")
    r.add_argument("--json", action="store_true", help="one JSON object a line per image")
    r.add_argument("--threshold", type=_confidence, default=None,
                   help="confidence below which a read is unconfirmed (from 0; above 1: every read)")
    r.add_argument("images", nargs="+", metavar="IMAGE")
    w = sub.add_parser("watch", parents=[common], help="read settled rolls from the camera")
    w.add_argument("--set", default="d6")
    w.add_argument("--camera", default=os.environ.get("COMPANION_CAMERA", "0"),
                   help="index, device path, folder, video file, 'picamera' or 'synthetic' "
                        "(default $COMPANION_CAMERA or 0)")
    w.add_argument("--settle", type=float, default=0.6, help="seconds still before reading")
    w.add_argument("--json", action="store_true")
    w.add_argument("--rolls", type=int, default=0, help="stop after this many rolls (0: never)")
    w.add_argument("--threshold", type=_confidence, default=None)
    return p


def _confidence(text: str) -> float:
    """A read's confidence threshold: a number from 0 (never ask) up, above 1 asking about
    every die (nan compared as never below, and confirmed every read)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0.0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: give a number from 0 (above 1: ask "
                                         "about every die)")
    return value


def _err(msg: str) -> int:
    print(f"companion dice: {msg}", file=sys.stderr)
    return 2


def run(argv: list[str], data_dir: Path | None = None) -> int:
    """Parse and run one `dice` command; returns the exit code."""
    import vision.onnx_runtime  # noqa: F401 (pins numpy's BLAS threads before numpy loads)
    from vision.errors import VisionError

    try:
        args = build_parser().parse_args(argv)
    except _Usage as e:
        print(e, file=sys.stderr)
        return 2
    except SystemExit as e:  # --help
        return int(e.code or 0)
    try:
        data = resolve_data_dir(args.data) if (args.data or data_dir is None) else Path(data_dir)
    except OSError as e:
        return _err(f"data folder: {e}")
    try:
        if args.cmd == "teach":
            return _teach(args, data)
        if args.cmd == "read":
            return _read(args, data)
        return _watch(args, data)
    except VisionError as e:
        return _err(str(e))
    except KeyboardInterrupt:
        return 130


def _teach(args, data: Path) -> int:
    from vision import sets
    from vision.reader import teach

    if args.set in sets.BUILTIN:
        print(f"note: a taught set named {args.set!r} replaces the built-in one in {data}",
              file=sys.stderr)
    info = teach(args.set, args.folder, data, args.recognizer)
    faces = ", ".join(f"{f} ({n})" for f, n in info["faces"].items())
    print(f"taught {info['set']}: {faces}")
    for s in info["skipped"]:
        print(f"skipped (no die found or unreadable): {s}", file=sys.stderr)
    return 0


def _reader(args, data: Path):
    from vision.reader import DEFAULT_THRESHOLD, make_reader

    th = DEFAULT_THRESHOLD if args.threshold is None else args.threshold
    return make_reader(args.set, data, threshold=th, recognizer=args.recognizer)


def _read(args, data: Path) -> int:
    import cv2

    from vision.errors import BadImage
    from vision.images import frame_problem
    from vision.sets import load_image

    cv2.setNumThreads(1)
    reader = _reader(args, data)
    status = 0
    for path in args.images:
        frame = None  # the last photo's pixels go before the next is decoded (3 MB at 1024x1024)
        try:
            frame = load_image(path)
            odd = frame_problem(frame)
            if odd is not None:
                raise BadImage(f"{path}: cannot be read as a photo of the tray: {odd}")
        except BadImage as e:
            _err(str(e))
            status = 2
            continue
        t0 = time.perf_counter()
        reads = reader.read(frame)
        ms = (time.perf_counter() - t0) * 1000
        unread = reader.last_unread
        if args.json:
            print(json.dumps({"image": path, "dice": [d.to_json() for d in reads],
                              "unread": [list(b) for b in unread],
                              "flagged": bool(unread) or any(not d.confirmed for d in reads),
                              "ms": round(ms, 2)}), flush=True)
        else:
            faces = " ".join(d.face + ("" if d.confirmed else "?") for d in reads) or "(no dice)"
            more = f" + {len(unread)} unread?" if unread else ""
            print(f"{path}: {faces}{more}  [{ms:.1f} ms]", flush=True)
    return status


def _watch(args, data: Path) -> int:
    import threading

    from vision.settle import SettleDetector
    from vision.sources import open_source
    from vision.watcher import CameraWatcher

    reader = _reader(args, data)
    kwargs = {}
    cam = args.camera
    if cam == "synthetic":
        cam = f"synthetic:{'d6' if reader.model is None else args.set}"
        kwargs = {"fps": 15.0}
    if cam.startswith("synthetic:") and reader.model is not None:
        from vision.render import GAME_DICE, GAME_SETS
        if cam.split(":", 1)[1] not in GAME_DICE and cam.split(":", 1)[1] not in GAME_SETS:
            return _err(f"the synthetic camera renders d6 and the game sets, not {args.set!r}")
    source = open_source(cam, **kwargs)
    done = threading.Event()
    count = [0]

    def on_roll(reads, frame):
        count[0] += 1
        unread = reader.last_unread
        if args.json:
            print(json.dumps({"roll": count[0], "dice": [d.to_json() for d in reads],
                              "unread": [list(b) for b in unread]}), flush=True)
        else:
            faces = " ".join(d.face + ("" if d.confirmed else "?") for d in reads) or "(no dice)"
            more = f" + {len(unread)} unread?" if unread else ""
            print(f"roll {count[0]}: {faces}{more}", flush=True)
        if args.rolls and count[0] >= args.rolls:
            done.set()

    print(f"watching {source!r} for {reader!r} (Ctrl-C to stop)", file=sys.stderr)
    watcher = CameraWatcher(source, reader, on_roll, SettleDetector(settle_s=args.settle))
    try:
        watcher.start()
        while watcher.running and not done.wait(0.2):
            pass
    finally:
        watcher.stop()
        source.close()
    if watcher.error is not None:
        return _err(f"camera stopped: {watcher.error}")
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
