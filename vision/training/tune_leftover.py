"""Choose how the fused reader looks for dice left out of a group (vision/leftover.py), on the
tuning part only: the real tuning photos of vision/models/split.json and rendered scenes from
the tuning seeds (20,000,000+), drawn as the fused choice's are (vision/training/tune_sets.py,
every set under every condition) but three times as many. Each frame is read once by
the fused reader as shipped, looking for nothing left out; every candidate then looks at
that read's dice.

    python -m vision.training.tune_leftover [--tune-scenes 270] [--precision-slack 0.002] [--write]

Looking can only add asks: a die read where one was left out asks, and a place read as no
die flags the roll, so no roll becomes silently wrong. Per kind of set (pip dice; taught
sets), among the candidates under which at most TAP_RISE of the rolls of every tuning set,
and of every rendered condition of each, were read right and asked nothing not looking and
ask looking, and no set's or condition's precision is more than SLACK under not
looking's (a die added at a place may be invented), the one kept has the fewest silent
errors over the kind's sets, then the best mean recall + precision, then the fewest taps;
not looking is a candidate too. `--write` records it in vision/models/training.json,
section "leftover".
"""

from __future__ import annotations

import argparse
import itertools
import json
import pickle
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from vision import leftover
from vision.reader import RECORD
from vision.shrink import Shrunk
from vision.training.calibrate import add_draw_options, pin_threads, write_section

# of rolls, on any tuning set or rendered condition: rolls read right that asked nothing
# not looking, and ask looking
TAP_RISE = 0.03
# a set's or condition's precision may fall this far under not looking's: a look adds dice
# at a little under a set's own precision (the shipped one on a tuning probe, 7,960 packed
# X-Men dice: +73 right, +4 invented), so with none a draw large enough to show its gain
# refuses every look
SLACK = 0.002
# rendered scenes per set and condition: the packed condition's gain (a few tenths of a
# per cent of its dice) is under two dice on the thresholds' 90 (docs/benchmarks.md,
# "weak peaks")
SCENES = 270
GRID = {
    "thick": (0.5, 0.6, 0.7),
    "shape": ("box", "disc"),
    "grow": (0.9, 1.0),
    "opening": (0.2, 0.3),
    "not_die": ("flag", "drop"),
    "add_from": (0.0, 0.3, 0.45, 0.6, 1.01),
    "snap": (0.0, 0.1),
    "ground": (0.0, 0.02, 0.1, 0.5),
}
TRAY, LE9 = "real byler_d6", "real byler_d6 <=9 dice"  # issue 14's goal sets, as tune_fused's
KINDS = {"pips": (TRAY, LE9, "real penlington_webcam_train", "rendered d6"),
         "taught": ("rendered incredibles", "rendered invincible", "rendered xmen")}


def candidates() -> list[leftover.LeftoverTuning]:
    off = leftover.LeftoverTuning()
    return [off] + [replace(off, **dict(zip(GRID, v))) for v in itertools.product(*GRID.values())]


def _roll(faces: list[str], reads, unread) -> tuple[int, int, int, int, bool]:
    """(dice, reads, right, silent, flagged) of one roll."""
    got = Counter(r.face for r in reads)
    right = sum(min(n, got[f]) for f, n in Counter(faces).items())
    flagged = bool(unread) or any(not r.confirmed for r in reads)
    silent = 0 if flagged else max(len(faces), len(reads)) - right
    return len(faces), len(reads), right, silent, flagged


def frame_rolls(tunings: list[leftover.LeftoverTuning]):
    """The ``outputs`` hook of tune_sets.build: per frame, each tuning's roll (``_roll``);
    tunings that find the same places read them once."""

    def outputs(reader, frames, folder):
        from vision.fused import FusedReader  # noqa: PLC0415

        data = None if folder is None else Path(folder).parent / "data"
        fr = FusedReader(reader.set_name, data, left_out=tunings[0])
        out = []
        for img, faces in frames:
            reads = fr.read(img)  # tunings[0]: looks for nothing
            unread = fr.last_unread
            shrunk = Shrunk(img)
            looked: list[tuple[leftover.LeftoverTuning, tuple]] = []
            rolls = [_roll(faces, reads, unread)]
            for t in tunings[1:]:
                got = next((g for u, g in looked if u.looks_like(t)), None)
                if got is None:
                    got = fr.read_left_out(img, shrunk, reads, unread, t)
                    looked.append((t, got))
                settled = leftover.settle(t, fr.threshold, reads, unread, *got)
                rolls.append(_roll(faces, *leftover.grounded(img, *settled, t, shrunk)))
            out.append(rolls)
        return out

    return outputs


def figures(rolls, before=None) -> dict:
    """A set's figures over its ``rolls``; ``before``: the same rolls not looking, to count
    the rolls that were read right, asked nothing and now ask."""
    dice, reads, right, silent, flagged = (sum(c) for c in zip(*rolls))
    needless = 0 if before is None else sum(
        f and not b[4] and b[0] == b[1] == b[2] for (*_, f), b in zip(rolls, before))
    return {"dice": dice, "recall": right / max(dice, 1), "precision": right / max(reads, 1),
            "silent": silent, "taps": flagged / max(len(rolls), 1),
            "new needless taps": needless / max(len(rolls), 1)}


def with_goal_sets(sets: dict[str, list]) -> dict[str, list]:
    """The tray photos with nine dice or fewer as a set of their own (a frame's first roll
    holds its labelled dice)."""
    if TRAY not in sets:
        return sets
    return {**sets, LE9: [rolls for rolls in sets[TRAY] if rolls[0][0] <= 9]}


def choose(sets: dict[str, list], per_condition: int, tunings, log=print, slack: float = 0.0):
    """{kind: (index of the tuning chosen, its figures per set, not looking's)}; ``sets``: per
    set, per frame, each tuning's roll (a rendered set ``per_condition`` frames a condition);
    ``slack``: how far under not looking's a set's or condition's precision may fall (a die
    added asks, so a look that adds right dice at a little under a set's precision still
    brings its recall nearer the goal)."""
    sets = with_goal_sets(sets)
    chosen = {}
    for kind, names in KINDS.items():
        def parts(n):
            rows = sets[n]
            if not n.startswith("rendered"):
                return {n: rows}
            return {f"{n} #{c}": rows[c * per_condition:(c + 1) * per_condition]
                    for c in range(len(rows) // per_condition)} | {n: rows}

        scored = []
        for k in range(len(tunings)):
            figs = {p: figures([r[k] for r in rows], [r[0] for r in rows])
                    for n in names for p, rows in parts(n).items()}
            scored.append(figs)
        base = scored[0]
        ok = [k for k, figs in enumerate(scored)
              if all(figs[p]["new needless taps"] <= TAP_RISE
                     and figs[p]["precision"] >= base[p]["precision"] - slack for p in figs)]

        def key(k):
            figs = scored[k]
            return (sum(figs[n]["silent"] for n in names),
                    -sum(figs[n]["recall"] + figs[n]["precision"] for n in names),
                    sum(figs[n]["taps"] for n in names))

        best = min(ok, key=key)
        log(f"{kind}: {tunings[best]} ({len(ok)} of {len(tunings)} within the tap rise)")
        for n in names:
            b, c = base[n], scored[best][n]
            log(f"  {n}: silent {b['silent']} -> {c['silent']} of {c['dice']} dice, recall "
                f"{b['recall']:.4f} -> {c['recall']:.4f}, precision {b['precision']:.4f} -> "
                f"{c['precision']:.4f}, taps {b['taps']:.3f} -> {c['taps']:.3f}")
        chosen[kind] = (best, {n: scored[best][n] for n in names}, {n: base[n] for n in names})
    return chosen


def main(argv: list[str]) -> int:
    pin_threads()
    p = argparse.ArgumentParser(prog="python -m vision.training.tune_leftover")
    add_draw_options(p, RECORD.parent)
    p.add_argument("--cache", type=Path, help="keep the tuning rolls here, to choose again "
                   "without reading again (the same networks, grid and draw)")
    p.set_defaults(tune_scenes=SCENES)
    p.add_argument("--precision-slack", type=float, default=SLACK, help="how far under not "
                   f"looking's a set's or condition's precision may fall (default {SLACK})")
    p.add_argument("--write", action="store_true", help="record the choice in "
                   "vision/models/training.json (section 'leftover')")
    a = p.parse_args(argv)
    import cv2  # noqa: PLC0415

    cv2.setNumThreads(1)
    from vision.training import tune_sets  # noqa: PLC0415 (renders: slow imports)
    from vision.training.tune_fused import use_models  # noqa: PLC0415

    record_path = leftover.RECORD = use_models(a.models)

    t0 = time.time()
    tunings = candidates()
    if a.cache is not None and a.cache.is_file():
        sets = pickle.loads(a.cache.read_bytes())
        kept = {len(rolls) for rows in sets.values() for rolls in rows}
        if kept != {len(tunings)}:
            raise SystemExit(f"{a.cache}: rolls of {sorted(kept)} candidates, the grid has "
                             f"{len(tunings)}: another grid's; remove it to read again")
    else:
        built = tune_sets.build(a.shared / "data" / "dice-real", a.seed, a.tune_scenes,
                                outputs=frame_rolls(tunings), taught_conditions=True)
        sets = {n: o for n, (_, o) in built.items()}
        if a.cache is not None:
            a.cache.write_bytes(pickle.dumps(sets))
    print(f"tuning reads: {', '.join(f'{n} {len(o)}' for n, o in sets.items())} "
          f"({time.time() - t0:.0f} s)")
    chosen = choose(sets, a.tune_scenes, tunings, slack=a.precision_slack)
    if a.write:
        section = {
            "chosen on": (f"the tuning part only: real tuning photos of vision/models/split.json "
                          f"and rendered scenes from seeds 20000000 + ... "
                          f"(vision/training/tune_sets.py, {a.tune_scenes} per set and "
                          f"condition, taught sets too, seed {a.seed}), read by the fused "
                          f"reader as shipped"),
            "rule": (f"per kind, among {len(tunings)} candidates (not looking, and "
                     f"{json.dumps(GRID)}) under which at most {TAP_RISE} of the rolls of "
                     f"every tuning set and rendered condition were read right and asked "
                     f"nothing not looking and ask looking, and no set's or condition's precision "
                     f"is lower than not looking's"
                     f"{f' by more than {a.precision_slack}' if a.precision_slack else ''}: "
                     f"the fewest silent errors, then the "
                     f"best mean recall + precision, then the fewest taps"),
            "command": (f"python -m vision.training.tune_leftover --tune-scenes {a.tune_scenes} "
                        f"--precision-slack {a.precision_slack}"),
        }
        for kind, (k, figs, base) in chosen.items():
            section[kind] = tunings[k].to_json()
            section[f"{kind} figures"] = {n: {"before": base[n], "after": figs[n]} for n in figs}
        write_section(record_path, leftover.SECTION, section)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
