"""How a read does its work, changed for speed (docs/benchmarks.md, "the fused read's work"):
each shortcut reads exactly what the longer way read, checked here on rendered frames."""

import cv2
import numpy as np
import pytest

from vision import detector, hands, onnx_runtime
from vision.classical.finder import find_dice
from vision.classical.reader import ClassicalReader
from vision.reader import Reader
from vision.render import render_roll
from vision.shrink import Shrunk


def _frames(set_name="d6", n=4, seed=31):
    rng = np.random.default_rng(seed)
    return [render_roll(rng, set_name, 1 + 2 * i)[0] for i in range(n)]


def _reads(reader, frame, shrunk=None):
    got = reader.read(frame, shrunk) if shrunk else reader.read(frame)
    return [(r.face, r.confidence, r.box, r.confirmed) for r in got], list(reader.last_unread)


def test_a_frames_reductions_are_made_once_and_are_opencvs():
    frame = _frames(n=1)[0]
    shrunk = Shrunk(frame)
    small = shrunk.to(320, 240)
    assert shrunk.to(320, 240) is small
    assert np.array_equal(small, cv2.resize(frame, (320, 240), interpolation=cv2.INTER_AREA))
    assert shrunk.to(160, 120).shape == (120, 160, 3)


def test_the_detectors_input_is_the_frame_as_float_planes():
    frame = _frames(n=1)[0]
    blob, scale = detector.prepare(frame)
    small = cv2.resize(frame, (320, 240), interpolation=cv2.INTER_AREA)
    small = cv2.copyMakeBorder(small, 0, 16, 0, 0, cv2.BORDER_REPLICATE)  # 240 -> 256
    assert scale == 0.5 and blob.dtype == np.float32 and blob.flags.c_contiguous
    assert np.array_equal(blob, small.astype(np.float32).transpose(2, 0, 1)[None])


def test_the_learned_and_classical_readers_read_alike_from_shared_reductions():
    learned, classical = Reader("d6"), ClassicalReader("d6")
    for frame in _frames():
        before = frame.copy()
        shrunk = Shrunk(frame)
        assert _reads(learned, frame, shrunk) == _reads(learned, frame)
        a, b = classical.find(frame, shrunk), find_dice(frame)
        assert [(c.box, c.rect, c.area) for c in a.dice] == [(c.box, c.rect, c.area) for c in b.dice]
        assert np.array_equal(frame, before) and np.array_equal(
            shrunk.to(320, 240), cv2.resize(frame, (320, 240), interpolation=cv2.INTER_AREA))


@pytest.mark.parametrize("set_name", ["d6", "xmen"])
def test_the_face_network_skips_only_peaks_nothing_reads(set_name, taught_learned):
    """The crops of peaks under both ``keep`` and ``unread`` are not read by the face network;
    deciding from every crop's output reads the same, to the last bit (a taught set's
    embeddings are compared in a product of as many rows)."""
    reader = Reader(set_name, taught_learned if set_name != "d6" else None)
    least = min(reader.tuning.keep, reader.tuning.unread)
    skipped = 0
    for frame in _frames(set_name, n=6):
        dets, crops = reader.detect(frame)
        probs, emb = reader.facenet.run(crops)
        taught = reader.model.classify(emb) if reader.model is not None else None
        full, unread = reader.decide(dets, probs, taught)
        if taught is None and reader.tuning.reaim > 0:
            full = reader.reaim(frame, dets, probs, full)
        assert _reads(reader, frame) == ([(r.face, r.confidence, r.box, r.confirmed)
                                          for r in full], unread)
        skipped += sum(d.score < least for d in dets)
        wanted = [d.score >= least for d in dets]
        p, e = reader.faces_of(crops, wanted)
        assert np.array_equal(p[wanted], probs[wanted]) and not p[~np.array(wanted)].any()
    assert skipped, "no frame had a peak to skip: the check checked nothing"


def test_a_hand_is_told_from_the_table_as_numpy_told_it():
    """vision/hands.py's "far from the table's colour" mask, in OpenCV's saturating uint8
    arithmetic, against the int16 formula it replaced, on frames of every colour."""
    rng = np.random.default_rng(5)
    frames = _frames(n=2) + [rng.integers(0, 256, (120, 160, 3), dtype=np.uint8) for _ in range(8)]
    for frame in frames:
        ycc = cv2.cvtColor(frame, cv2.COLOR_BGR2YCrCb)
        chroma = ycc[..., 1:].astype(np.int16)
        table = np.median(chroma[::3, ::3].reshape(-1, 2), axis=0)
        want = (np.abs(chroma - table.astype(np.int16)).sum(axis=2) > hands.CHROMA) * 255
        assert np.array_equal(hands.far_from_table(ycc), want.astype(np.uint8))


def test_freed_frame_memory_is_kept_where_the_c_library_is_glibc():
    import platform

    kept = onnx_runtime.keep_freed_memory()
    assert kept == onnx_runtime.keep_freed_memory()  # once a process
    if platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
        assert kept


def _one_hog(img):
    """A crop's gradient histograms as vision/classical/faces.py made them one crop at a time
    before the batch (float32 planes, numpy's norm): the reference the batch must equal."""
    from vision.classical import faces as cf

    f = img.astype(np.float32)
    gx = cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.sqrt(gx * gx + gy * gy)
    ang = (np.arctan2(gy, gx) % np.pi) / np.pi * cf.HOG_BINS
    b0 = np.floor(ang).astype(np.int64) % cf.HOG_BINS
    w1 = ang - np.floor(ang)
    b1 = (b0 + 1) % cf.HOG_BINS
    size = (cf.HOG_SIDE // cf.HOG_CELL) ** 2 * cf.HOG_BINS
    h = np.bincount((cf._CELL_INDEX * cf.HOG_BINS + b0).ravel(), (mag * (1 - w1)).ravel(), size)
    h += np.bincount((cf._CELL_INDEX * cf.HOG_BINS + b1).ravel(), (mag * w1).ravel(), size)
    h = np.minimum(h / (np.linalg.norm(h) + 1e-6), 0.2)
    return h / (np.linalg.norm(h) + 1e-6)


def _one_feature(crop):
    from vision.classical import faces as cf

    n = crop.shape[0]
    m = int(n * 0.12)
    inner = cv2.resize(crop[m:n - m, m:n - m], (cf.HOG_SIDE, cf.HOG_SIDE), interpolation=cv2.INTER_AREA)
    scale = min(1.0, float(inner.std()) / cf.CONTRAST_FLOOR)
    return (_one_hog(inner) * scale * 4.0).astype(np.float32)


def test_a_batch_of_face_histograms_is_each_crop_alone_to_the_last_bit(taught):
    """The taught classical read makes the gradient histograms of every view of every die in
    one batch (vision/classical/faces.py ``features``): each row equals the crop's own, made
    the way before the batch, on the top faces of rendered dice and on random, flat and
    saturated crops; and a taught read's features are its views' rows."""
    from vision.classical import faces as cf

    reader = ClassicalReader("xmen", taught)
    crops = []
    for frame in _frames("xmen", n=3):
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        for c in reader.find(frame).dice:
            crops += cf.read_crops(frame, c, gray)
    assert len(crops) >= 3 * 6
    rng = np.random.default_rng(3)
    crops += [rng.integers(0, 256, (48, 48), dtype=np.uint8) for _ in range(20)]
    crops += [np.full((48, 48), v, np.uint8) for v in (0, 7, 255)]
    crops.append(np.tile(np.array([0, 255], np.uint8), (48, 24)))
    got = cf.features(crops)
    assert got.dtype == np.float32 and got.shape == (len(crops), 128)
    assert np.array_equal(got, np.stack([_one_feature(c) for c in crops]))
    assert np.array_equal(cf.read_features(frame, c, gray),
                          np.stack([_one_feature(v) for v in cf.read_crops(frame, c, gray)]))


def test_the_detectors_peaks_decode_at_once_as_one_by_one():
    """vision/detector.py decodes every peak in one pass of numpy's float32 ufuncs: each
    detection equals the per-peak formula before it, bit for bit."""
    rng = np.random.default_rng(11)
    out = rng.normal(0, 2, (1, 6, 64, 80)).astype(np.float32)
    dets, _ = detector.decode(out, 0.5, (480, 640), 0.1)  # 60 x 80 cells
    heat = detector.sigmoid(out[0, 0, :60, :80])
    ys, xs = np.nonzero((heat >= 0.1) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))))
    order = np.argsort(-heat[ys, xs])
    maps, f, want = out[0], detector.STRIDE / 0.5, []
    for y, x in zip(ys[order], xs[order]):
        dx, dy = detector.sigmoid(maps[1, y, x]), detector.sigmoid(maps[2, y, x])
        bw, bh = np.exp(maps[3, y, x]) * f, np.exp(maps[4, y, x]) * f
        want.append((float((x + dx) * f), float((y + dy) * f), float(bw), float(bh), float(heat[y, x])))
    assert len(want) > 20
    assert [(d.cx, d.cy, d.w, d.h, d.score) for d in dets] == want


def test_distinct_peaks_by_array_keep_what_the_pairwise_rule_kept():
    from vision import reader as rd

    rng = np.random.default_rng(4)
    for _ in range(30):
        n = int(rng.integers(0, 60))
        dets = [detector.Detection(*map(float, rng.uniform(0, 100, 2)), *map(float, rng.uniform(3, 30, 2)),
                                   float(s)) for s in np.sort(rng.uniform(0, 1, n))[::-1]]
        want: list = []
        for d in dets:
            if all(np.hypot(d.cx - k.cx, d.cy - k.cy) > 0.5 * max(d.side, k.side) for k in want):
                want.append(d)
            if len(want) >= rd.MAX_DICE:
                break
        assert rd._distinct(dets) == want


def test_the_foregrounds_thresholds_are_numpys_comparison():
    """vision/tray.py's masks by OpenCV's threshold (it compares with floor(thr)) against
    numpy's ``img > thr``, for whole, fractional and out-of-range thresholds."""
    from vision import tray

    rng = np.random.default_rng(8)
    img = rng.integers(0, 256, (61, 83), dtype=np.uint8)
    for thr in (22.0, 22.5, 39.999, 40.0, 41.3, 0.0, 254.5, 255.0, 300.0, *rng.uniform(0, 260, 40)):
        assert np.array_equal(tray.above(img, float(thr)), (img > thr).astype(np.uint8) * 255), thr
