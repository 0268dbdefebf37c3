"""Choose the reader's thresholds on the tuning part: real tuning photos and rendered scenes
from the tuning seeds. The networks run once per frame; every candidate threshold is then
scored on their outputs. The figure that matters is *silent* errors (a die read wrong,
missed or invented in a roll with nothing flagged); among thresholds that keep those under
the budget on every tuning set, the one that asks the players least often wins.

The search scores tens of thousands of candidates, so the reader's rule for "ask" is
restated here over arrays (`_Frames`, `_ask`); the chosen thresholds are then scored again
by the reader's own `Reader.decide`, and the two must agree.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from vision import facenet
from vision.reader import Reader, Tuning

# of dice, on every tuning set: the goal is 0.005 on held-out data, and the tuning part's
# figures are a little kinder than data the thresholds never saw
SILENT_BUDGET = 0.003
CONFIRMS = np.linspace(0.3, 0.98, 35)
DET_SURE = (0.5, 0.7)


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


LOW, OTHER, REJECT = 0, 1, 2  # why a peak went unread: too weak / not a die, another face, not this set's


@dataclass
class _Frames:
    """One tuning set's outputs under a ``keep`` and ``not_die``: what the ask rule needs."""
    taught: bool
    frames: int
    want: int
    got: int
    right: int
    errors: np.ndarray  # per frame: dice wrong, missed or invented
    least_raw: dict  # det_sure -> per frame, the least raw confidence of a read (9: none)
    frame: np.ndarray  # per unread peak: its frame
    kind: np.ndarray  # LOW, OTHER or REJECT
    peak: np.ndarray  # the peak's score
    p_not: np.ndarray  # the face network's "not a die"


def _frames(reader: Reader, outputs, keep: float, not_die: float) -> _Frames:
    """Mirrors `Reader.decide` for every threshold but ``keep`` and ``not_die``."""
    want = got = right = 0
    errors, least = [], {s: [] for s in DET_SURE}
    frame, kind, peak, p_not = [], [], [], []
    for fi, (faces, dets, probs, taught) in enumerate(outputs):
        reads = []
        for k, d in enumerate(dets):
            p = probs[k]
            why = None
            if p[facenet.NOT_A_DIE] >= not_die or d.score < keep:
                why = LOW
            elif taught is None:
                face_i = int(np.argmax(p[1:7])) + 1
                if p[facenet.OTHER_FACE] > p[face_i]:
                    why = OTHER
                else:
                    reads.append((str(face_i), float(p[face_i]), d.score))
            else:
                face, p_face, best = taught[k]
                if best < reader.model.reject:
                    why = REJECT
                else:
                    reads.append((face, p_face * (1.0 - float(p[facenet.NOT_A_DIE])), d.score))
            if why is not None:
                frame.append(fi)
                kind.append(why)
                peak.append(d.score)
                p_not.append(float(p[facenet.NOT_A_DIE]))
        w, g = Counter(faces), Counter(f for f, _, _ in reads)
        ok = sum(min(n, g[f]) for f, n in w.items())
        want, got, right = want + len(faces), got + len(reads), right + ok
        errors.append(max(len(faces), len(reads)) - ok)
        for s in DET_SURE:
            least[s].append(min((pf * min(1.0, sc / s) for _, pf, sc in reads), default=9.0))
    return _Frames(reader.model is not None, len(outputs), want, got, right, np.asarray(errors),
                   {s: np.asarray(v) for s, v in least.items()}, np.asarray(frame, int),
                   np.asarray(kind, int), np.asarray(peak), np.asarray(p_not))


def _ask(f: _Frames, t: Tuning) -> tuple[float, float]:
    """(silent errors per die, taps per frame) of one set under ``t``."""
    confirm = t.confirm_taught if f.taught else t.confirm
    # the reader maps raw confidence so that the cut-off lands on its threshold
    flagged = f.least_raw[t.det_sure] < confirm
    asks = np.where(f.kind == LOW, (f.peak >= t.unread) & (f.p_not < t.sure_not),
                    np.where(f.kind == OTHER, f.peak >= t.other, True))
    flagged = flagged.copy()
    flagged[f.frame[asks]] = True
    return float(f.errors[~flagged].sum()) / max(f.want, 1), float(flagged.mean())


def choose(sets: dict[str, tuple[Reader, list]], log=print, budget: float = SILENT_BUDGET,
           ) -> tuple[Tuning, dict]:
    """The thresholds for ``sets`` ({name: (reader, frame outputs)}), and their figures."""
    base = Tuning()
    # 1. which peaks are dice: the best recall + precision over the sets (the worst set first
    # let the weakest taught set decide for the pip dice, at their cost)
    best_key, best = None, None
    for keep, not_die in itertools.product((0.2, 0.25, 0.3, 0.35, 0.4, 0.5), (0.3, 0.5, 0.7)):
        pre = {n: _frames(r, o, keep, not_die) for n, (r, o) in sets.items()}
        figs = [f.right / max(f.want, 1) + f.right / max(f.got, 1) for f in pre.values()]
        key = (sum(figs), min(figs))
        if best_key is None or key > best_key:
            best_key, best = key, (keep, not_die, pre)
    keep, not_die, pre = best
    log(f"tuning: keep {keep}, not_die {not_die} (mean r+p {best_key[0] / len(pre):.3f})")
    # 2. when to ask: the fewest taps that keep silent errors within the budget everywhere.
    # A pip die's and a taught die's confidence are different scores: each has its cut-off,
    # chosen for its own sets (they share nothing else that depends on it).
    groups = {g: [n for n, f in pre.items() if f.taught == g] for g in (False, True)}
    chosen_key, chosen = None, None
    for unread, sure_not, sure, other in itertools.product(
            (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4), (0.5, 0.7, 0.8, 0.9, 0.97, 1.01), DET_SURE,
            (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01)):
        if unread > keep:
            continue
        t = replace(base, keep=keep, not_die=not_die, unread=unread, sure_not=sure_not,
                    det_sure=sure, other=other)
        cut = {}
        for g, names in groups.items():
            group_best = None
            for c in CONFIRMS:
                tc = replace(t, confirm=float(c), confirm_taught=float(c))
                got = [_ask(pre[n], tc) for n in names]
                worst = max((s for s, _ in got), default=0.0)
                k = (worst > budget, sum(tp for _, tp in got) if worst <= budget else worst)
                if group_best is None or k < group_best[0]:
                    group_best = (k, float(c))
            cut[g] = group_best[1] if group_best else float(base.confirm)
        t = replace(t, confirm=cut[False], confirm_taught=cut[True])
        got = {n: _ask(f, t) for n, f in pre.items()}
        worst = max(s for s, _ in got.values())
        taps = float(np.mean([tp for _, tp in got.values()]))
        key = (worst > budget, taps if worst <= budget else worst)
        if chosen_key is None or key < chosen_key:
            chosen_key, chosen, fast = key, t, got
    figures = {}
    for name, (reader, outs) in sets.items():
        reader.tuning = chosen
        figures[name] = score(reader, outs)
        s, tp = fast[name]
        if abs(figures[name]["silent"] - s) > 1e-9 or abs(figures[name]["taps"] - tp) > 1e-9:
            raise AssertionError(f"{name}: the search's rule and Reader.decide disagree "
                                 f"({s}, {tp} against {figures[name]})")
    log(f"tuning: {chosen} (silent budget {budget} of dice on every set)")
    return chosen, figures
