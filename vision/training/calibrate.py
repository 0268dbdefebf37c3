"""Choose the reader's thresholds on the tuning part: real tuning photos and rendered scenes
from the tuning seeds. The networks run once per frame; every candidate threshold is then
scored on their outputs. The figure that matters is *silent* errors (a die read wrong,
missed or invented in a roll with nothing flagged); among thresholds that keep those under
the budget on every tuning set, the one that asks the players least often wins. Pip dice
and taught sets are read by different rules (a pip class probability, the nearest taught
photos), so each has thresholds of its own, chosen on its own sets.

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
from vision.reader import Reader, Tuning, side_faces

# of dice, on every tuning set: the goal is 0.005 on held-out data, and the tuning part's
# figures are a little kinder than data the thresholds never saw
SILENT_BUDGET = 0.003
RP_SLACK = 0.003  # mean recall + precision given up at most for fewer taps (as tune_fused)
CONFIRMS = np.linspace(0.3, 0.98, 35)
DET_SURE = (0.5, 0.7)
# a peak below a read die within SIDE_GAPS face sides down, SIDE_ACROSS across, is its front
# face (`vision.reader.side_faces`; 0: off)
SIDE_GAPS = (0.0, 0.6, 0.7, 0.8, 0.9)
SIDE_ACROSS = (0.25, 0.35, 0.5)
# ... and only where it takes no more than this off the recall of any tuning set or guarded
# part (dice packed edge to edge must not lose dice to it)
RECALL_GUARD = 0.003
REAIMS = (0.0, 0.3, 0.45, 0.6)  # an unconfirmed pip read read again this many sides higher
# a taught set's crop the face network calls "not a die" read as a die from this far under
# what its face's own photos reach (`Tuning.like_taught`; 1: from the set's `reject`, as before
# the faces kept it), searched with the side face rule
LIKE_TAUGHT = (1.0, 0.15, 0.1, 0.08, 0.05, 0.03)


def pin_threads() -> None:
    """One thread each for the BLAS libraries, before numpy loads them (a search measures
    reads as the table makes them, on one core)."""
    import os  # noqa: PLC0415

    for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(v, "1")


def add_draw_options(ap, models_default) -> None:
    """The tuning draw's options and the networks', the same in the searches after the
    thresholds' (``tune_fused``, ``tune_leftover``)."""
    import os  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    ap.add_argument("--tune-scenes", type=int, default=90, help="rendered scenes per set and "
                    "condition (as the learned reader's tuning)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--shared", type=Path, default=Path(os.environ.get(
        "COMPANION_SHARED", Path(__file__).resolve().parents[3] / "shared")))
    ap.add_argument("--models", type=Path, default=models_default,
                    help="the networks and training record to choose for (default: the shipped "
                         "ones; make train-vision: the folder it just wrote)")


def write_section(record_path, name: str, section: dict) -> None:
    """A search's choice into its section of a training record, the rest left as it is."""
    import json  # noqa: PLC0415

    record = json.loads(record_path.read_text())
    record[name] = section
    record_path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote section {name!r} of {record_path}")


def add_guard_options(ap) -> None:
    """The silent guard's options, the same in both searches (``python -m vision.training``,
    ``tune_fused``); ``check_guard_options`` refuses what is no budget."""
    ap.add_argument("--condition-guard", action="store_true",
                    help="hold each rendered condition's frames, pooled over a kind's sets, to "
                         "the silent budget as every set is (tune_sets.pooled)")
    ap.add_argument("--silent-budget", type=float, default=None,
                    help=f"silently wrong dice allowed on every tuning set, a share (default "
                         f"{SILENT_BUDGET})")
    ap.add_argument("--condition-budget", type=float, default=None,
                    help="with --condition-guard: the silent budget of each pooled condition "
                         "(default: --silent-budget's)")


def check_guard_options(ap, a) -> None:
    for name, v in (("--silent-budget", a.silent_budget), ("--condition-budget", a.condition_budget)):
        if v is not None and not 0.0 <= v < 0.05:
            ap.error(f"{name} {v}: a share of dice, 0 to 0.05")
    if a.condition_budget is not None and not a.condition_guard:
        ap.error("--condition-budget is the budget of --condition-guard's parts: give both")


def frame_outputs(reader: Reader, frames):
    """[(labelled faces, detections, probabilities, taught results, {reaim: probabilities of
    the crops that far above})] with the networks run at the lowest threshold any candidate
    uses (the crops above: pip dice only)."""
    out = []
    for img, faces in frames:
        dets, crops = reader.detect(img)
        probs, emb = reader.facenet.run(crops)
        taught = reader.taught(crops, emb)
        above = {}
        if reader.model is None and dets:
            for k in REAIMS[1:]:
                above[k] = reader.facenet.run(np.stack([facenet.crop(
                    img, d.cx, d.cy - k * d.side, d.side) for d in dets]))[0]
        out.append((faces, dets, probs, taught, above))
    return out


def tally(frames, silent_each: list | None = None) -> dict:
    """The figures of a set from each frame's (true faces, reads, die-like boxes left unread):
    recall and precision per die, silent errors (wrong, missed or invented dice in a roll
    nothing flagged) per die, taps (rolls flagged) per roll; each frame's silent dice are
    appended to ``silent_each`` where given."""
    want = got = right = silent = tapped = n = 0
    for faces, reads, unread in frames:
        w, g = Counter(faces), Counter(r.face for r in reads)
        ok = sum(min(k, g[f]) for f, k in w.items())
        want, got, right, n = want + len(faces), got + len(reads), right + ok, n + 1
        flagged = bool(unread) or any(not r.confirmed for r in reads)
        tapped += flagged
        wrong = 0 if flagged else max(len(faces), len(reads)) - ok
        silent += wrong
        if silent_each is not None:
            silent_each.append(wrong)
    return {"recall": right / max(want, 1), "precision": right / max(got, 1),
            "silent": silent / max(want, 1), "taps": tapped / max(n, 1),
            "dice": want, "frames": n}


def score(reader: Reader, outputs) -> dict:
    def frames():
        for faces, dets, probs, taught, above in outputs:
            reads, unread = reader.decide(dets, probs, taught)
            if taught is None and reader.tuning.reaim > 0 and dets:
                reads = reader.reaim(None, dets, probs, reads, above[reader.tuning.reaim])
            yield faces, reads, unread
    return tally(frames())


LOW, OTHER, REJECT = 0, 1, 2  # why a peak went unread: too weak / not a die, another face, not this set's


@dataclass
class _Frames:
    """One tuning set's outputs under a ``keep`` and ``not_die``: what the ask rule needs."""
    frames: int
    want: int
    got: int
    right: int
    errors: np.ndarray  # per frame: dice wrong, missed or invented
    rights: np.ndarray  # per frame: dice read right
    wants: np.ndarray  # per frame: labelled dice
    least_raw: dict  # det_sure -> per frame, the least raw confidence of a read (9: none)
    frame: np.ndarray  # per unread peak: its frame
    kind: np.ndarray  # LOW, OTHER or REJECT
    peak: np.ndarray  # the peak's score
    p_not: np.ndarray  # the face network's "not a die"


def _frames(reader: Reader, outputs, keep: float, not_die: float, side_gap: float = 0.0,
            side_across: float = 0.5, like_taught: float = 1.0) -> _Frames:
    """Mirrors `Reader.decide` for every threshold but ``keep``, ``not_die``, the side
    face rule's and ``like_taught``."""
    want = got = right = 0
    errors, rights, least = [], [], {s: [] for s in DET_SURE}
    frame, kind, peak, p_not = [], [], [], []
    for fi, (faces, dets, probs, taught, _) in enumerate(outputs):
        reads = []
        like = [taught is not None and taught[k][2] >= reader.model.like(taught[k][0], like_taught)
                for k in range(len(dets))]
        passing = [d.score >= keep and (probs[k][facenet.NOT_A_DIE] < not_die or like[k])
                   for k, d in enumerate(dets)]
        behind = side_faces(dets, passing, side_gap, side_across)
        for k, d in enumerate(dets):
            p = probs[k]
            why = None
            if behind[k]:
                continue
            if not passing[k]:
                why = LOW
            elif taught is None:
                face_i = int(np.argmax(p[1:7])) + 1
                if p[facenet.OTHER_FACE] > p[face_i]:
                    why = OTHER
                else:
                    reads.append((str(face_i), float(p[face_i]), d.score))
            else:
                face, p_face, best = taught[k]
                if best < reader.model.reject or reader._pip_die(face, p):
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
        rights.append(ok)
        for s in DET_SURE:
            least[s].append(min((pf * min(1.0, sc / s) for _, pf, sc in reads), default=9.0))
    return _Frames(len(outputs), want, got, right, np.asarray(errors), np.asarray(rights),
                   np.asarray([len(faces) for faces, *_ in outputs]),
                   {s: np.asarray(v) for s, v in least.items()}, np.asarray(frame, int),
                   np.asarray(kind, int), np.asarray(peak), np.asarray(p_not))


def _flagged(f: _Frames, t: Tuning) -> np.ndarray:
    """Per frame of one set, whether the roll asks under ``t``."""
    # the reader maps raw confidence so that the cut-off lands on its threshold
    flagged = f.least_raw[t.det_sure] < t.confirm
    asks = np.where(f.kind == LOW, (f.peak >= t.unread) & (f.p_not < t.sure_not),
                    np.where(f.kind == OTHER, f.peak >= t.other, True))
    flagged = flagged.copy()
    flagged[f.frame[asks]] = True
    return flagged


def _ask(f: _Frames, t: Tuning) -> tuple[float, float]:
    """(silent errors per die, taps per frame) of one set under ``t``."""
    return _silent_taps(f, _flagged(f, t))


def _silent_taps(f: _Frames, flagged: np.ndarray) -> tuple[float, float]:
    return float(f.errors[~flagged].sum()) / max(f.want, 1), float(flagged.mean())


def _pooling(sets: dict[str, tuple[Reader, list]], pools: dict[str, list]) -> dict[str, np.ndarray]:
    """Per set, a (pooled part x frame) 0/1 matrix: which of its frames each part holds."""
    out = {}
    for n, (_, outs) in sets.items():
        m = np.zeros((len(pools), len(outs)))
        for k, members in enumerate(pools.values()):
            for name, idx in members:
                if name == n:
                    m[k, idx] = 1.0
        out[n] = m
    return out


def choose(sets: dict[str, tuple[Reader, list]], log=print, budget: float = SILENT_BUDGET,
           guarded: dict[str, tuple[str, list[int]]] | None = None,
           pooled: dict[str, list[tuple[str, list[int]]]] | None = None,
           pooled_budget: float | None = None) -> tuple[dict[str, Tuning], dict]:
    """The thresholds for ``sets`` ({name: (reader, frame outputs)}): {"pips": ..., "taught":
    ...} (a kind without sets keeps the defaults), and each set's figures under its kind's.
    ``guarded``: {name: (set name, frame indices)}, parts of sets whose recall the side face
    rule must keep (within RECALL_GUARD) besides every whole set's. ``pooled``: {name: [(set
    name, frame indices), ...]}, parts pooled from one kind's sets (one rendered condition)
    whose silent errors the budget holds too, as it holds every set's (``pooled_budget``, where
    given, in its place there)."""
    chosen, figures = {}, {}
    for kind in ("pips", "taught"):
        part = {n: v for n, v in sets.items() if (v[0].model is not None) == (kind == "taught")}
        if part:
            guard = {g: v for g, v in (guarded or {}).items() if v[0] in part}
            pools = {g: [(n, np.asarray(idx, int)) for n, idx in v]
                     for g, v in (pooled or {}).items() if all(n in part for n, _ in v)}
            chosen[kind], got = _choose(part, log, budget, kind, guard, pools, pooled_budget)
            figures.update(got)
        else:
            chosen[kind] = Tuning()
    return chosen, {n: figures[n] for n in sets}


def _recalls(pre: dict[str, _Frames], guard: dict[str, tuple[str, list[int]]]) -> np.ndarray:
    """Recall of every set, then of every guarded part."""
    out = [f.right / max(f.want, 1) for f in pre.values()]
    for name, idx in guard.values():
        f = pre[name]
        out.append(f.rights[idx].sum() / max(f.wants[idx].sum(), 1))
    return np.asarray(out)


def _choose(sets: dict[str, tuple[Reader, list]], log, budget: float, kind: str,
            guard: dict[str, tuple[str, list[int]]] | None = None,
            pools: dict[str, list] | None = None, pool_budget: float | None = None,
            ) -> tuple[Tuning, dict]:
    guard, pools = guard or {}, pools or {}
    pool_budget = budget if pool_budget is None else pool_budget
    pooling = _pooling(sets, pools)
    pool_dice = sum(pooling[n] @ np.asarray([len(o[0]) for o in outs], float)
                    for n, (_, outs) in sets.items()) if pools else np.zeros(0)
    base = Tuning()
    # 1. which peaks are dice: recall + precision over the sets; every keep and not_die within
    # RP_SLACK of the best mean goes on to the second step
    # (the side face rule's gap and breadth and, for taught sets, ``like_taught`` count as one
    # of these: for each keep and not_die, the setting with the best mean, none unless it is
    # better and takes no more than RECALL_GUARD off any set's or guarded part's recall)
    pres = {}
    sides = [(0.0, base.side_across)] + list(itertools.product(SIDE_GAPS[1:], SIDE_ACROSS))
    likes = LIKE_TAUGHT if kind == "taught" else LIKE_TAUGHT[:1]
    for keep, not_die in itertools.product((0.2, 0.25, 0.3, 0.35, 0.4, 0.5), (0.3, 0.5, 0.7)):
        best, off = None, None
        for like, (gap, across) in itertools.product(likes, sides):
            pre = {n: _frames(r, o, keep, not_die, gap, across, like) for n, (r, o) in sets.items()}
            recalls = _recalls(pre, guard)
            if off is None:
                off = recalls
            elif (recalls < off - RECALL_GUARD).any():
                continue
            rp = float(np.mean([f.right / max(f.want, 1) + f.right / max(f.got, 1)
                                for f in pre.values()]))
            if best is None or rp > best[0] + 1e-9:
                best = (rp, pre, gap, across, like)
        pres[keep, not_die] = best
    top = max(v[0] for v in pres.values())
    near = {k: v for k, v in pres.items() if v[0] >= top - RP_SLACK}
    log(f"tuning {kind}: best mean r+p {top:.3f}; within {RP_SLACK}: "
        + ", ".join(f"keep {k} not_die {n} side {v[2]}/{v[3]} like {v[4]} ({v[0]:.3f})"
                    for (k, n), v in near.items()))
    # 2. when to ask: the fewest taps (mean over the sets) that keep silent errors within the
    # budget on every set and every pooled part
    chosen_key, chosen = None, None
    grid = itertools.product(
        near.items(),
        (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4), (0.5, 0.7, 0.8, 0.9, 0.97, 1.01), DET_SURE,
        (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01), CONFIRMS)
    for ((keep, not_die), (_, pre, gap, across, like)), unread, sure_not, sure, other, confirm in grid:
        if unread > keep:
            continue
        t = Tuning(low=base.low, keep=keep, not_die=not_die, unread=unread, sure_not=sure_not,
                   confirm=float(confirm), det_sure=sure, obstructed=base.obstructed, other=other,
                   side_gap=gap, side_across=across, like_taught=like)
        flags = {n: _flagged(f, t) for n, f in pre.items()}
        got = {n: _silent_taps(f, flags[n]) for n, f in pre.items()}
        # how far over its budget the worst set or pooled part is (<= 0: every one held)
        over = max(sl for sl, _ in got.values()) - budget
        if pools:  # unflagged errors per pooled part, per die
            silent = sum(pooling[n] @ (f.errors * ~flags[n]) for n, f in pre.items())
            over = max(over, float((silent / np.maximum(pool_dice, 1)).max()) - pool_budget)
        taps = float(np.mean([tp for _, tp in got.values()]))
        key = (over > 0, taps if over <= 0 else over)
        if chosen_key is None or key < chosen_key:
            chosen_key, chosen, fast = key, t, got
    if kind == "pips":  # 3. the unconfirmed reads' second look: faces only, asks alike
        chosen = _choose_reaim(sets, chosen, guard, log)
    figures = {}
    for name, (reader, outs) in sets.items():
        reader.tuning = chosen
        figures[name] = score(reader, outs)
        s, tp = fast[name]
        if abs(figures[name]["silent"] - s) > 1e-9 or abs(figures[name]["taps"] - tp) > 1e-9:
            raise AssertionError(f"{name}: the search's rule and Reader.decide disagree "
                                 f"({s}, {tp} against {figures[name]})")
    held = "" if not chosen_key[0] else f"; not held: {chosen_key[1]:.4f} over at worst"
    log(f"tuning {kind}: {chosen} (silent budget {budget} of dice on every set"
        + (f" and {pool_budget} on every one of {len(pools)} pooled parts" if pools else "")
        + f"{held})")
    return chosen, figures


def _choose_reaim(sets, chosen: Tuning, guard, log) -> Tuning:
    """The second look's height with the best mean recall + precision over the sets, none
    unless better and within RECALL_GUARD of every set's and guarded part's recall without
    it; it changes only unconfirmed reads' faces, so silent errors and taps stay as chosen."""
    best, off = None, None
    for k in REAIMS:
        t = replace(chosen, reaim=k)
        got, recalls = [], []
        for name, (reader, outs) in sets.items():
            reader.tuning = t
            got.append(score(reader, outs))
            recalls.append(got[-1]["recall"])
        for name, idx in guard.values():
            reader, outs = sets[name]
            recalls.append(score(reader, [outs[i] for i in idx])["recall"])
        recalls = np.asarray(recalls)
        if off is None:
            off = recalls
        elif (recalls < off - RECALL_GUARD).any():
            log(f"tuning pips: second look {k} sides higher: costs recall, not taken")
            continue
        rp = float(np.mean([f["recall"] + f["precision"] for f in got]))
        log(f"tuning pips: second look {k} sides higher: mean r+p {rp:.3f}")
        if best is None or rp > best[0] + 1e-9:
            best = (rp, t)
    return best[1]
