"""Choose how the fused recognizer combines its two readers (vision/fused.py), on the tuning
part only: the real tuning photos of vision/models/split.json and rendered scenes from the
tuning seeds (20,000,000+), the same draw as the learned reader's thresholds
(vision/training/tune_sets.py; the taught sets too drawn under every condition, as the
bench draws them). Each frame is read once by the learned reader (its shipped
thresholds) and by the classical finder and face readers (every die it finds); every candidate
combination is then scored by `vision.fused.combine` itself on those reads.

    python -m vision.training.tune_fused [--tune-scenes 90] [--keep pips] [--write]

Per kind of set (pip dice; taught sets), among the combinations whose silent errors stay
within the learned reader's budget (calibrate.SILENT_BUDGET) on every tuning set of the kind,
and never more than 0.01 below the classical reader's recall or precision on one of them, the
one kept reads best by mean recall + precision (see ``choose``). The pip sets mirror the
issue's goal sets: the real tuning tray photos with nine dice or fewer are a set of their own
(``LE9``) beside all tuning tray photos, so the guard, the floor and the mean hold on it too
(issue 14 states its goal on real tray photos <= 9 dice apart from all of them). Then, the
reads fixed, which dice are confirmed (agreement of the two readers, a sure reader
overruling an unsure one; CONFIRM) is chosen for the fewest taps within the same guard,
and taken only where the same choice made on every other roll keeps the guard on the rest
(``holds_apart``).
`--write` records it in vision/models/training.json, section "fused" (the other sections are
left as they are); `--keep KIND` keeps the recorded choice of a kind turned down on held-out
data.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import os
import pickle
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

from vision import fused
from vision.reader import RECORD
from vision.training.calibrate import (SILENT_BUDGET, add_draw_options, add_guard_options,
                                       check_guard_options, pin_threads, tally,
                                       write_section)

LEAD_FLOOR = -0.01  # no tuning set and measure read worse than the classical reader by more
RP_SLACK = 0.003  # mean recall + precision given up at most for fewer taps
CONFIRMED = 12  # combinations within it tried with every setting of CONFIRM
GRID = {
    "primary": ("learned", "classical", "surer"),
    # 0.7: with `Tuning.like_taught` the taught sets' best mean r+p lay between 0.6 (over the
    # silent guard) and 0.8, which read taught dice in 1.9 classical reads a frame (Invincible's
    # nine dice 14.9 ms, at the 15 ms goal); 0.7 read better in fewer (docs/benchmarks.md)
    "check_below": (0.0, 0.6, 0.7, 0.8, 0.9, 0.95, 1.01),
    "agree": ("learned", "either"),
    "alone": ("keep", "ask", "drop", "read", "agree", "packed"),
    "empty": ("keep", "ask", "drop"),
    "drop_below": (0.2, 0.4, 1.01),
    "group": (2.0, 99.0),
    "extra": ("drop", "ask", "keep"),
}
# when a read die asks (vision/fused.py): these change no face, only which dice are confirmed,
# so they are tried on the combinations the reads chose (``choose``), fewer taps for more
# silent errors, the guard deciding
CONFIRM = {
    "agree_from": (1.01, 0.5, 0.4, 0.3, 0.2, 0.0),
    "agree_sure": (0.0, 0.9),
    "overrule": (1.01, 0.95, 0.8, 0.6),
}

# the second step, on the choice GRID's search recorded (`make train-vision` runs both): which
# sure taught dice are read again where the finder found one die (``found_below``,
# ``found_group``), within a bound on the taps each condition gains and on the classical reads
# a frame (the read's time: on the 15 ms a 640x480 frame of nine Invincible dice may take,
# about 1.6 ms a read a frame measured, 12.1-12.5 ms before; docs/benchmarks.md)
FOUND_CHECK = ("--keep", "pips", "--vary", "found_below=0,0.8,0.9,0.95,1.01",
               "--vary", "found_group=1.5,2,99", "--tap-rise", "0.05", "--reads-rise", "1.0")

# ... and as before they were searched: FusedTuning's defaults
UNCONFIRMING = {k: getattr(fused.FusedTuning(), k) for k in (*CONFIRM, "agree_faces")}


def confirming(t: fused.FusedTuning):
    """``t`` with each other setting of CONFIRM (a classical confidence floor only where
    agreement confirms at all)."""
    for values in itertools.product(*CONFIRM.values()):
        v = dict(zip(CONFIRM, values))
        if v["agree_from"] > 1.0 and v["agree_sure"] != CONFIRM["agree_sure"][0]:
            continue
        c = replace(t, **v)
        if c != t:
            yield c


def frame_reads(classical_for):
    """The ``outputs`` hook of tune_sets.build: per frame (labelled faces, learned reads,
    learned unread boxes, the classical finder's dice, their classical reads, the classical
    reads of each learned die at its own box: ``alone`` "read")."""

    def outputs(reader, frames, folder):
        from vision.classical.reader import ClassicalReader  # noqa: PLC0415

        classical = classical_for(reader, folder, ClassicalReader)
        out = []
        for img, faces in frames:
            learned = reader.read(img)
            scene = classical.find(img)
            own = [fused.own_box(r.box) for r in learned]
            out.append((faces, learned, list(reader.last_unread), scene.dice,
                        classical.read_found(img, scene.dice),
                        classical.read_found(img, scene.dice + own)[len(scene.dice):]))
        return out

    return outputs


def _classical_for(reader, folder, ClassicalReader):
    if folder is None:
        return ClassicalReader("d6")
    from vision.classical import sets as classical_sets  # noqa: PLC0415

    data = Path(str(folder) + "-classical")
    classical_sets.teach(reader.set_name, folder, data)
    return ClassicalReader(reader.set_name, data)


def fused_reads(t: fused.FusedTuning, frame, threshold: float = fused.DEFAULT_THRESHOLD):
    """(pairs, found, which, checked, fused reads, boxes left unread) of one frame's tuning reads
    under ``t``, as vision/fused.py combines them (a frame of reads made before the own-box
    reads has none: no die is read there)."""
    faces, learned, unread, found, classical, *more = frame
    own = more[0] if more else [None] * len(learned)
    n = len(found)
    found, pairs = fused.with_own_boxes(t, learned, fused.match(learned, found, t.group), found)
    # the read at a learned die's own box: the one made for it on its own
    classical = list(classical) + [own[i] for i, j in sorted(pairs.items(), key=lambda p: p[1])
                                   if j >= n]
    which = fused.to_check(t, learned, pairs, found)
    checked = [r if j in which else None for j, r in enumerate(classical)]
    return (pairs, found, which, checked,
            *fused.combine(t, threshold, learned, unread, found, pairs, checked))


def score(t: fused.FusedTuning | None, outputs, threshold: float = fused.DEFAULT_THRESHOLD,
          parts: list | None = None) -> dict:
    """The figures of one set under ``t`` (None: the classical reader alone); with ``parts``
    (lists of frame indices) also "parts": each part's (silent dice, dice)."""
    checked = 0
    each: list[int] | None = [] if parts else None

    def frames():
        nonlocal checked
        for o in outputs:
            if t is None:
                yield o[0], [r for r in o[4] if r is not None], []
                continue
            _, _, which, _, reads, left = fused_reads(t, o, threshold)
            checked += len(which)
            yield o[0], reads, left

    figures = tally(frames(), each)
    figures["classical reads"] = checked / max(len(outputs), 1)
    if parts:
        figures["parts"] = [(sum(each[i] for i in idx), sum(len(outputs[i][0]) for i in idx))
                            for idx in parts]
    return figures


def _scorer(sets: dict[str, list], guard: dict[str, float] | None = None,
            budget: float = SILENT_BUDGET, pooled: dict[str, list] | None = None):
    """(row, within) over ``sets``: a combination's (figures, lead, mean r+p, taps, classical
    reads, it), and whether a row keeps the silent ``guard`` ({set or part: silent}) on every
    set and every ``pooled`` part ({name: [(set, frame indices), ...]}: frames of several
    sets, one rendered condition; held to the guard, not counted in the means). A part's
    figures are in the row's figures as {"silent", "dice"}."""
    classical = {n: score(None, o) for n, o in sets.items()}
    pooled = pooled or {}
    parts_of = {n: [idx for members in pooled.values() for m, idx in members if m == n]
                for n in sets}

    def row(t):
        figs = {n: score(t, o, parts=parts_of[n]) for n, o in sets.items()}
        lead = min(min(f["recall"] - classical[n]["recall"], f["precision"] - classical[n]["precision"])
                   for n, f in figs.items())
        rp = float(np.mean([f["recall"] + f["precision"] for f in figs.values()]))
        taps = float(np.mean([f["taps"] for f in figs.values()]))
        cost = float(np.mean([f["classical reads"] for f in figs.values()]))
        taken = {n: iter(f.pop("parts", [])) for n, f in figs.items()}
        for name, members in pooled.items():  # in order: as parts_of lists them
            got = [next(taken[m]) for m, _ in members]
            dice = sum(d for _, d in got)
            figs[name] = {"silent": sum(e for e, _ in got) / max(dice, 1), "dice": dice}
        return figs, lead, rp, taps, cost, t

    def within(r):
        return all(r[0][n]["silent"] <= (guard or {}).get(n, budget) + 1e-12
                   for n in (*sets, *pooled))

    return row, within


def _confirmed(start: list, tried: list, row, within, faces: tuple[str, ...]):
    """The row with the fewest taps (then classical reads) among ``start`` and every setting
    of CONFIRM on each of ``tried`` within the guard; then, given ``faces``, agreement from a
    lower confidence for one face at a time, the step with the fewest taps first, while one
    keeps the guard and takes taps off."""
    more = [c for c in (row(t) for r in tried for t in confirming(r[5])) if within(c)]
    best = min(start + more, key=lambda r: (r[3], r[4]))
    while faces:
        steps = [row(replace(best[5], agree_faces={**best[5].agree_faces, f: v}))
                 for f in faces for v in CONFIRM["agree_from"]
                 if v < best[5].agree_faces.get(f, best[5].agree_from)]
        steps = [c for c in steps if within(c) and c[3] < best[3] - 1e-9]
        if not steps:
            break
        best = min(steps, key=lambda r: (r[3], r[4]))
    return best


def holds_apart(t: fused.FusedTuning, sets: dict[str, list], budget: float = SILENT_BUDGET,
                faces: tuple[str, ...] = ()) -> list[str]:
    """The sets where confirming, chosen as ``choose`` does from ``t`` (its reads) on every
    other roll, breaks the silent guard on the rolls left (either way round): a choice that
    needs the very rolls that test it to keep the guard is fitted to them. [] where none."""
    out = []
    for k in (0, 1):
        fit = {n: o[k::2] for n, o in sets.items()}
        rest = {n: o[1 - k::2] for n, o in sets.items()}
        guard = {n: max(budget, score(t, o)["silent"]) for n, o in fit.items()}
        row, within = _scorer(fit, guard, budget)
        chosen = _confirmed([row(t)], [row(t)], row, within, faces)[5]
        guard = {n: max(budget, score(t, o)["silent"]) for n, o in rest.items()}
        row, _ = _scorer(rest, guard, budget)
        got = row(chosen)[0]
        out += [n for n in rest if got[n]["silent"] > guard[n] + 1e-12 and n not in out]
    return out


_WORKER_ROW = None  # a pool worker's scorer (``_grid_rows``)


def _worker_init(sets: dict[str, list], budget: float, pooled: dict[str, list]) -> None:
    global _WORKER_ROW
    _WORKER_ROW = _scorer(sets, budget=budget, pooled=pooled)[0]


def _worker_row(t: fused.FusedTuning):
    return _WORKER_ROW(t)


def _grid_rows(sets: dict[str, list], tunings: list, budget: float, procs: int,
               pooled: dict[str, list] | None = None) -> list:
    """Each of ``tunings`` scored on ``sets`` (``_scorer``'s rows, in order), in ``procs``
    processes: the grid is most of a choice's time (some 7,000 combinations, each scored on
    every tuning read in Python). Spawned, not forked: the parent has run OpenCV and
    onnxruntime, whose threads' locks a forked child may inherit held."""
    if procs <= 1 or len(tunings) < 2 * procs:
        row, _ = _scorer(sets, budget=budget, pooled=pooled)
        return [row(t) for t in tunings]
    import multiprocessing  # noqa: PLC0415
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

    with ProcessPoolExecutor(procs, mp_context=multiprocessing.get_context("spawn"),
                             initializer=_worker_init, initargs=(sets, budget, pooled or {})) as pool:
        return list(pool.map(_worker_row, tunings, chunksize=max(1, len(tunings) // (8 * procs))))


def choose(sets: dict[str, list], log=print, budget: float = SILENT_BUDGET,
           faces: tuple[str, ...] = (), procs: int = 1, pooled: dict[str, list] | None = None,
           pooled_budget: float | None = None, grid: list | None = None):
    """(the combination, {set: its figures}) for one kind's sets ({name: outputs}).

    The goal is to read every set better than the classical reader (the default) in recall
    and precision, silently wrong no more often than the learned one, and asking as seldom as
    that allows. Among combinations of GRID within the silent guard on every set (the budget,
    or on a set too small to show it the fewest silent errors any combination reaches there),
    and whose *lead* (the least, over the sets and the two measures, of the fused figure less
    the classical one) is at least LEAD_FLOOR (else the best lead there is), those within
    RP_SLACK of the best mean recall + precision are kept; the CONFIRMED of them with the
    fewest taps (the most classical reads first) are each tried again with every setting of
    CONFIRM (the same reads, fewer dice asking), and of all these within the guard, the
    fewest taps (mean over the sets), then the fewest classical reads (time). Given
    ``faces`` (the kind's faces, where every set has the same), agreement then confirms from
    a lower confidence for one face at a time (``agree_faces``), the step with the fewest
    taps within the guard first, while one is left. A confirming choice is kept only where
    it ``holds_apart``; else the fewest taps without one. The grid is scored in ``procs``
    processes (the same rows). ``pooled`` parts ({name: [(set, frame indices), ...]}, one
    rendered condition's frames of several sets) are held to the silent guard as every set
    is (``pooled_budget``, where given, in the budget's place), and are not counted in the
    means. A ``grid`` given (``--vary``) takes GRID's place and CONFIRM's: its combinations
    are chosen among as they are."""
    confirm = grid is None
    grid = grid or [t for t in (fused.FusedTuning(**dict(zip(GRID, values)))
                                for values in itertools.product(*GRID.values()))
                    if t.drop_below >= 1.01 or "drop" in (t.alone, t.empty)]  # else as 1.01
    pooled = pooled or {}
    rows = _grid_rows(sets, grid, budget, procs, pooled)
    # a small set cannot show the budget (one silent die of 204 is 0.0049): its guard is the
    # budget or the fewest silent errors any combination reaches on it, whichever is more
    # (confirming more dice never makes fewer silent errors: GRID's rows hold the fewest)
    limit = {**dict.fromkeys(sets, budget),
             **dict.fromkeys(pooled, budget if pooled_budget is None else pooled_budget)}
    guard = {n: max(b, min(r[0][n]["silent"] for r in rows)) for n, b in limit.items()}
    row, within = _scorer(sets, guard, budget, pooled)
    ok = [r for r in rows if within(r)]
    if not ok:  # each guard is some row's, but no row keeps them all: the least excess
        def excess(r):
            return max(r[0][n]["silent"] - g for n, g in guard.items())
        least = min(excess(r) for r in rows)
        ok = [r for r in rows if excess(r) <= least + 1e-12]
        log(f"no combination keeps the guard on every set and part: the least excess {least:.4f}")
    top_lead = max(r[1] for r in ok)
    near = [r for r in ok if r[1] >= min(LEAD_FLOOR, top_lead)]
    top = max(r[2] for r in near)
    near = [r for r in near if r[2] >= top - RP_SLACK]
    asked = min(near, key=lambda r: (r[3], r[4]))  # the fewest taps without CONFIRM
    # (the CONFIRMED of them with the fewest taps, the most classical reads first: CONFIRM
    # acts on checked dice only; on made-up or tied sets thousands tie)
    tried = sorted(near, key=lambda r: (r[3], -r[4]))[:CONFIRMED if confirm else 0]
    best = _confirmed(near, tried, row, within, faces if confirm else ())
    apart = ""
    if best not in near:
        broken = holds_apart(replace(best[5], **UNCONFIRMING), sets, budget, faces)
        apart = (f"; confirming chosen on every other roll breaks the guard on the rest of "
                 f"{', '.join(broken)}: none taken" if broken else
                 "; confirming chosen on every other roll keeps the guard on the rest")
        if broken:
            best = asked
    wider = "".join(f"; {n} {g:.4f}" for n, g in guard.items() if g > limit[n])
    parts = (f", {limit[next(iter(pooled))]} on pooled parts"
             if pooled and limit[next(iter(pooled))] != budget else "")
    log(f"{len(ok)} of {len(rows)} combinations within the silent guard (budget {budget}{parts}"
        f"{wider}); "
        f"best lead over the classical reader {top_lead:+.4f}; {len(near)} within {RP_SLACK} of "
        f"the best mean r+p, taps {asked[3]:.3f} at fewest{apart}; chosen (lead {best[1]:+.4f}, "
        f"mean r+p {best[2]:.4f}, taps {best[3]:.3f}, classical reads a frame {best[4]:.2f}): "
        f"{best[5]}")
    return best[5], best[0]


def part_taps(t: fused.FusedTuning, sets: dict[str, list], pooled: dict[str, list],
              threshold: float = fused.DEFAULT_THRESHOLD) -> dict[str, float]:
    """{pooled part: its rolls flagged / its rolls} under ``t``."""
    out = {}
    for name, members in pooled.items():
        flagged = rolls = 0
        for n, idx in members:
            for i in idx:
                *_, reads, left = fused_reads(t, sets[n][i], threshold)
                flagged += bool(left) or any(not r.confirmed for r in reads)
                rolls += 1
        out[name] = flagged / max(rolls, 1)
    return out


def choose_within_taps(sets: dict[str, list], grid: list, base: fused.FusedTuning,
                       pooled: dict[str, list], rise: float, log=print,
                       reads_rise: float = float("inf")):
    """(the combination, {set: its figures}) of ``grid`` (``--tap-rise``): among those whose taps
    on every ``pooled`` part rise by at most ``rise`` over ``base``'s, the fewest silent dice
    summed over ``sets``, then the fewest mean taps, then the fewest classical reads; and whose
    classical reads a frame (mean over ``sets``) rise by at most ``reads_rise`` (the time a read
    takes). A bound on the taps and time a change may cost, where the silent guard would take
    whatever reaches the least."""
    before = part_taps(base, sets, pooled)
    row, _ = _scorer(sets)
    base_reads = row(base)[4]
    ok = []
    for t in grid:
        taps = part_taps(t, sets, pooled)
        worst = max((taps[n] - before[n] for n in pooled), default=0.0)
        r = row(t)
        silent = sum(round(f["silent"] * f["dice"]) for f in r[0].values())
        log(f"  {worst:+.3f} most taps added to a condition, {silent} silent dice, "
            f"taps {r[3]:.3f}, classical reads {r[4]:.2f}: {t}")
        if worst <= rise + 1e-12 and r[4] <= base_reads + reads_rise + 1e-12:
            ok.append((silent, r[3], r[4], r))
    if not ok:
        raise SystemExit(f"no combination keeps every condition's taps within {rise} of the base "
                         f"and its classical reads within {reads_rise}")
    best = min(ok, key=lambda c: c[:3])[3]
    log(f"{len(ok)} of {len(grid)} within {rise} more taps a condition and {reads_rise} more "
        f"classical reads a frame; chosen: {best[5]}")
    return best[5], best[0]


def why_asked(t: fused.FusedTuning, outputs, threshold: float = fused.DEFAULT_THRESHOLD) -> dict:
    """Why the rolls of one set ask under ``t``: {reason: rolls}, a roll counted once for each
    reason it has ("REASON, alone": the rolls that have no other), with "rolls", "asked" and
    "asked, holding an error" (a wrong, missed or invented die: a tap that was needed)."""
    out = Counter()
    for o in outputs:
        faces, learned, unread = o[:3]
        pairs, found, _, checked, reads, left = fused_reads(t, o, threshold)
        at = {lr.box: i for i, lr in enumerate(learned)}
        why = set()
        if unread and any(b in left for b in unread):
            why.add("a die-like box the learned reader left unread")
        if len(left) > len(unread):
            why.add("a checked die the finder did not see, left unread")
        for r in reads:
            if r.confirmed:
                continue
            i = at.get(r.box)
            j = pairs.get(i) if i is not None else None
            if i is None:
                why.add("a die only the classical finder found")
            elif learned[i].confidence >= t.check_below:
                why.add("the two readers disagree" if learned[i].confidence < t.found_below
                        and j is not None and checked[j] is not None
                        and checked[j].face != learned[i].face
                        else "an unsure learned die, not checked")
            elif j is None:
                why.add("a checked die the finder did not see")
            elif checked[j] is None:
                why.add("a checked die the classical reader reads as no die of the set")
            elif isinstance(found[j], fused.OwnBox):
                why.add("a checked die the finder did not see, read at its own box")
            elif checked[j].face != learned[i].face:
                why.add("the two readers disagree")
            else:
                why.add("the two readers agree, the learned one unsure")
        w, g = Counter(faces), Counter(r.face for r in reads)
        wrong = max(len(faces), len(reads)) - sum(min(k, g[f]) for f, k in w.items())
        out["rolls"] += 1
        if why:
            out["asked"] += 1
            out["asked, holding an error"] += wrong > 0
            out.update(why)
            if len(why) == 1:
                out[f"{next(iter(why))}, alone"] += 1
    return dict(out)


TRAY, LE9 = "real byler_d6", "real byler_d6 <=9 dice"
KINDS = {"pips": (TRAY, LE9, "real penlington_webcam_train", "rendered d6"),
         "taught": ("rendered incredibles", "rendered invincible", "rendered xmen")}
FACES = {"pips": tuple("123456"), "taught": ()}  # a taught set's faces are its own


def with_goal_sets(sets: dict[str, list]) -> dict[str, list]:
    """The tuning reads with the goal sets that are parts of a read set: ``LE9``, the tray
    photos labelled with nine dice or fewer (as the bench's held-out "<=9 dice" row counts)."""
    out = dict(sets)
    if TRAY in sets:
        out[LE9] = [o for o in sets[TRAY] if len(o[0]) <= 9]
    return out


def pooled_parts(sets: dict[str, list], per_condition: int) -> dict[str, list]:
    """The rendered conditions of ``tune_sets.pooled`` whose sets are all among ``sets`` and
    drawn condition by condition, ``per_condition`` frames each (else none)."""
    from vision.scenes import CONDITIONS  # noqa: PLC0415
    from vision.training import tune_sets  # noqa: PLC0415

    return {name: members for name, members in tune_sets.pooled(per_condition).items()
            if all(m in sets and len(sets[m]) == len(CONDITIONS) * per_condition
                   for m, _ in members)}


def _rounded(f: dict) -> dict:
    return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in f.items()}


def use_models(folder: Path) -> Path:
    """The readers read with the networks and thresholds in ``folder`` (as training points
    them at the networks it just wrote); returns its training record's path."""
    from vision import detector, facenet, reader  # noqa: PLC0415

    detector.MODEL, facenet.MODEL = folder / "detector.onnx", folder / "faces.onnx"
    reader.RECORD = fused.RECORD = folder / "training.json"
    return reader.RECORD


def _models_digest(folder: Path, seed: int, scenes: int) -> str:
    """What the tuning reads depend on besides the code: both networks, the learned reader's
    thresholds, the draw."""
    import hashlib  # noqa: PLC0415

    record = json.loads((folder / "training.json").read_text())
    h = hashlib.sha1(f"{seed} {scenes}".encode())
    for name in ("detector.onnx", "faces.onnx"):
        h.update((folder / name).read_bytes())
    h.update(json.dumps([record.get("tuning"), record.get("tuning taught")], sort_keys=True).encode())
    return h.hexdigest()[:12]


def main(argv: list[str]) -> int:
    pin_threads()
    p = argparse.ArgumentParser(prog="python -m vision.training.tune_fused")
    add_draw_options(p, RECORD.parent)
    p.add_argument("--procs", type=int, default=min(2, os.cpu_count() or 1),
                   help="processes scoring the grid of combinations")
    p.add_argument("--cache", type=Path, help="the tuning reads, kept to choose again without "
                   "reading again (default: build/fused-tuning-<the models' digest>.pkl)")
    p.add_argument("--write", action="store_true", help="record the choice in the models' "
                   "training.json (section 'fused')")
    p.add_argument("--why", action="store_true", help="only say why the shipped choice's "
                   "tuning rolls ask (each reason's rolls), and choose nothing")
    add_guard_options(p)
    p.add_argument("--vary", metavar="FIELD=V,V,...", action="append", default=[],
                   help="choose only among the recorded choice of each kind not kept with FIELD "
                        "(a number) set to each value (given again: every combination)")
    p.add_argument("--tap-rise", type=float, default=None, help="with --vary: choose the fewest "
                   "silent dice among the combinations whose taps on every rendered condition "
                   "(pooled over the kind's sets) rise by at most this over the recorded choice")
    p.add_argument("--reads-rise", type=float, default=float("inf"), help="with --tap-rise: "
                   "and whose classical reads a frame rise by at most this (a read's time)")
    p.add_argument("--keep", action="append", default=[], choices=list(KINDS),
                   help="keep the recorded choice for this kind of set (scored again on the "
                        "tuning reads), where the one the rule chooses was turned down on "
                        "held-out data")
    a = p.parse_args(argv)
    check_guard_options(p, a)
    if a.tap_rise is not None and not a.vary:
        p.error("--tap-rise chooses among --vary's combinations: give --vary")
    if a.reads_rise != float("inf") and a.tap_rise is None:
        p.error("--reads-rise bounds --tap-rise's choice: give --tap-rise")
    for v in a.vary:
        field, _, values = v.partition("=")
        if field not in {f.name for f in dataclasses.fields(fused.FusedTuning)} or not values:
            p.error(f"--vary {v}: FIELD=V,V,... with a field of FusedTuning")
        try:
            [float(x) for x in values.split(",")]
        except ValueError:
            p.error(f"--vary {v}: the values are numbers")
    budget = SILENT_BUDGET if a.silent_budget is None else a.silent_budget
    from vision.training import tune_sets  # noqa: PLC0415 (renders: slow imports)

    record_path = use_models(a.models)
    if a.cache is None:
        a.cache = Path("build") / f"fused-tuning-{_models_digest(a.models, a.seed, a.tune_scenes)}.pkl"

    root = a.shared / "data" / "dice-real"
    t0 = time.time()
    if a.cache.is_file():
        sets = pickle.loads(a.cache.read_bytes())
    else:
        built = tune_sets.build(root, a.seed, a.tune_scenes, outputs=frame_reads(_classical_for),
                                taught_conditions=True)
        sets = {n: o for n, (_, o) in built.items()}
        a.cache.parent.mkdir(parents=True, exist_ok=True)
        a.cache.write_bytes(pickle.dumps(sets))
    sets = with_goal_sets(sets)
    print(f"tuning reads: {', '.join(f'{n} {len(o)}' for n, o in sets.items())} "
          f"({time.time() - t0:.0f} s)")
    if a.why:
        for kind, names in KINDS.items():
            t = fused.FusedTuning.shipped(taught=kind == "taught")
            for n in names:
                got = why_asked(t, sets[n])
                print(f"{n} ({kind}, shipped): {got.pop('asked', 0)} of {got.pop('rolls')} rolls "
                      f"ask, {got.pop('asked, holding an error', 0)} holding an error; "
                      + "; ".join(f"{r}: {k}" for r, k in sorted(got.items(), key=lambda x: -x[1])))
        return 0
    section = {"chosen on": (
        f"the tuning part only: real tuning photos of vision/models/split.json and rendered "
        f"scenes from seeds {20_000_000} + ... (vision/training/tune_sets.py, "
        f"{a.tune_scenes} per set and condition, taught sets too, seed {a.seed})"),
        "rule": (f"per kind, among combinations with silent errors <= {budget} of dice "
                 f"on each of the kind's tuning sets"
                 + (" and on each rendered condition's frames pooled over the kind's sets "
                    "(tune_sets.pooled)" if a.condition_guard else "")
                 + (f" (there <= {a.condition_budget})" if a.condition_budget is not None else "")
                 + f" (on a set too small to show that, the "
                 f"fewest any combination reaches there) and recall and precision on each at least "
                 f"the classical reader's {LEAD_FLOOR:+}: the best mean recall + precision; "
                 f"within {RP_SLACK} of it, each also with every setting of {list(CONFIRM)} "
                 f"(which dice are confirmed: the same reads), and for pip dice agreement "
                 f"confirming from a lower confidence for one face at a time, the fewest "
                 f"taps within the same guard, then the fewest classical reads; a confirming "
                 f"choice only where, chosen so on every other roll, it keeps the guard on the "
                 f"rolls left, both ways round (else none). "
                 f"The pip sets mirror issue 14's goal sets: the tuning tray photos with <= 9 "
                 f"dice are a set of their own beside all tuning tray photos"),
        "sets": {n: {"frames": len(o), "dice": sum(len(x[0]) for x in o)}
                 for n, o in sets.items()},
        "command": "python -m vision.training.tune_fused --tune-scenes "
                   f"{a.tune_scenes}" + "".join(f" --keep {k}" for k in a.keep)
                   + (" --condition-guard" if a.condition_guard else "")
                   + (f" --silent-budget={a.silent_budget}" if a.silent_budget is not None
                      else "")
                   + (f" --condition-budget={a.condition_budget}"
                      if a.condition_budget is not None else "")
                   + "".join(f" --vary {v}" for v in a.vary)
                   + (f" --tap-rise {a.tap_rise}" if a.tap_rise is not None else "")
                   + (f" --reads-rise {a.reads_rise}" if a.reads_rise != float("inf") else "")
                   + " --write"}
    kept = json.loads(record_path.read_text()).get(fused.SECTION, {})
    for kind, names in KINDS.items():
        part = {n: sets[n] for n in names}
        pools = pooled_parts(part, a.tune_scenes)
        if kind in a.keep:
            t = fused.FusedTuning(**kept[kind])
            figs = {n: score(t, o) for n, o in part.items()}
            section[f"{kind} kept"] = kept.get(f"{kind} kept", (
                "the choice before, kept by --keep (chosen by its rule: " + kept.get("rule", "?")
                + ")"))
            print(f"{kind}: kept {t}")
        else:
            grid = None
            if a.vary:
                fields, values = zip(*(v.split("=", 1) for v in a.vary))
                grid = [replace(fused.FusedTuning(**kept[kind]),
                                **dict(zip(fields, map(float, vs))))
                        for vs in itertools.product(*(v.split(",") for v in values))]
            if a.tap_rise is not None:
                # the bounds are over the recorded choice with the varied settings at their
                # defaults, so that the command chooses the same again from its own record
                base = replace(fused.FusedTuning(**kept[kind]),
                               **{f: getattr(fused.FusedTuning(), f) for f in fields})
                t, figs = choose_within_taps(part, grid, base, pools, a.tap_rise,
                                             reads_rise=a.reads_rise)
                section[f"{kind} rule"] = (
                    f"the recorded choice with {' and '.join(a.vary)} (every combination): among "
                    f"those whose taps on every rendered condition pooled over the kind's sets "
                    f"rise by at most {a.tap_rise}, and whose classical reads a frame by at most "
                    f"{a.reads_rise}, over the recorded choice's with those settings at their "
                    f"defaults, the fewest silent dice summed over the kind's sets, then the "
                    f"fewest taps, then the fewest classical reads (the rule above not applied "
                    f"to this kind)")
            else:
                t, figs = choose(part, log=print, faces=FACES[kind], procs=a.procs,
                                 budget=budget, pooled=pools if a.condition_guard else None,
                                 pooled_budget=a.condition_budget, grid=grid)
        section[kind] = t.to_json()
        learned = {n: score(fused.FusedTuning(check_below=0.0), o) for n, o in part.items()}
        classical = {n: score(None, o) for n, o in part.items()}
        # the same reads, confirmed as before CONFIRM was searched (the taps it saves)
        asking = {n: score(replace(t, **UNCONFIRMING), o) for n, o in part.items()}
        section[f"{kind} figures"] = {n: {"fused": _rounded(figs[n]),
                                          "fused, agreement not confirming": _rounded(asking[n]),
                                          "learned": _rounded(learned[n]),
                                          "classical": _rounded(classical[n])} for n in names}
        if pools:  # reported with or without the guard
            row = _scorer(part, pooled=pools)[0](t)[0]
            section[f"{kind} conditions"] = {n: _rounded(row[n]) for n in pools}
            print(f"  {kind}, silent per condition: " + ", ".join(
                f"{n} {row[n]['silent']:.4f}" for n in pools))
        for n in names:
            print(f"  {n}: " + "; ".join(
                f"{who} r {f['recall']:.3f} p {f['precision']:.3f} silent {f['silent']:.4f} "
                f"taps {f['taps']:.2f}" for who, f in (
                    ("fused", figs[n]), ("not confirming", asking[n]), ("learned", learned[n]),
                    ("classical", classical[n]))))
    if a.write:
        write_section(record_path, fused.SECTION, section)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
