"""Choose the reader's thresholds on the tuning part: real tuning photos and rendered scenes
from the tuning seeds. The networks run once per frame; every candidate threshold is then
scored on their outputs. The figure that matters is *silent* errors (a die read wrong,
missed or invented in a roll with nothing flagged); among thresholds that keep those under
the budget on every tuning set, the one that asks the players least often wins."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace

import numpy as np

from vision.reader import Reader, Tuning

SILENT_BUDGET = 0.002  # of dice, on every tuning set (the goal is 0.005 on held-out data)


def frame_outputs(reader: Reader, frames):
    """[(labelled faces, detections, probabilities, taught results)] with the networks run
    at the lowest threshold any candidate uses."""
    out = []
    for img, faces in frames:
        dets, crops = reader.detect(img)
        probs, emb = reader.facenet.run(crops)
        taught = reader.model.classify(emb) if reader.model is not None else None
        out.append((faces, dets, probs, taught))
    return out


def score(reader: Reader, outputs) -> dict:
    want = got = right = silent = tapped = 0
    for faces, dets, probs, taught in outputs:
        reads, unread = reader.decide(dets, probs, taught)
        w, g = Counter(faces), Counter(r.face for r in reads)
        ok = sum(min(n, g[f]) for f, n in w.items())
        want, got, right = want + len(faces), got + len(reads), right + ok
        flagged = bool(unread) or any(not r.confirmed for r in reads)
        tapped += flagged
        if not flagged:
            silent += max(len(faces), len(reads)) - ok
    return {"recall": right / max(want, 1), "precision": right / max(got, 1),
            "silent": silent / max(want, 1), "taps": tapped / max(len(outputs), 1),
            "dice": want, "frames": len(outputs)}


def choose(sets: dict[str, tuple[Reader, list]], log=print) -> tuple[Tuning, dict]:
    """The thresholds for ``sets`` ({name: (reader, frame outputs)}), and their figures."""
    base = Tuning()
    # 1. which peaks are dice: the best recall + precision, worst set first
    best, best_key = None, None
    for keep, not_die in itertools.product((0.2, 0.25, 0.3, 0.35, 0.4, 0.5), (0.3, 0.5, 0.7)):
        t = replace(base, keep=keep, not_die=not_die, confirm=0.0, unread=1.1)
        figs = []
        for reader, outs in sets.values():
            reader.tuning = t
            f = score(reader, outs)
            figs.append(f["recall"] + f["precision"])
        key = (min(figs), sum(figs))
        if best_key is None or key > best_key:
            best, best_key = t, key
    log(f"tuning: keep {best.keep}, not_die {best.not_die} (worst set r+p {best_key[0]:.3f})")
    # 2. when to ask: the fewest taps that keep silent errors within the budget everywhere
    chosen, chosen_key = None, None
    for unread, sure_not, confirm, sure in itertools.product(
            (0.1, 0.15, 0.2, 0.3), (0.8, 0.9, 0.97), np.linspace(0.3, 0.98, 18), (0.5, 0.7)):
        if unread > best.keep:
            continue
        t = replace(best, unread=unread, sure_not=sure_not, confirm=float(confirm), det_sure=sure)
        figs = {}
        for name, (reader, outs) in sets.items():
            reader.tuning = t
            figs[name] = score(reader, outs)
        worst = max(f["silent"] for f in figs.values())
        taps = float(np.mean([f["taps"] for f in figs.values()]))
        key = (worst > SILENT_BUDGET, taps if worst <= SILENT_BUDGET else worst)
        if chosen_key is None or key < chosen_key:
            chosen, chosen_key, chosen_figs = t, key, figs
    for reader, _ in sets.values():
        reader.tuning = chosen
    log(f"tuning: {chosen}")
    return chosen, chosen_figs
