"""How a read does its work, changed for speed (docs/benchmarks.md, "the fused read's work"):
each shortcut reads exactly what the longer way read, checked here on rendered frames."""

import cv2
import numpy as np
import pytest

from vision import detector, hands, onnx_runtime
from vision.classical.finder import find_dice
from vision.classical.reader import ClassicalReader
from vision.reader import Reader
from vision.render import RenderOptions, render_roll
from vision.shrink import Shrunk


def _frames(set_name="d6", n=4, seed=31, opt=None):
    rng = np.random.default_rng(seed)
    return [render_roll(rng, set_name, 1 + 2 * i, opt)[0] for i in range(n)]


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
    # clutter and noise: weak peaks to skip (on plain scenes the detector has none)
    for frame in _frames(set_name, n=6, opt=RenderOptions(clutter=6, noise=12)):
        dets, crops = reader.detect(frame)
        probs, emb = reader.facenet.run(crops)
        wanted = [d.score >= least for d in dets]
        taught = reader.taught(crops, emb, wanted)
        full, unread = reader.decide(dets, probs, taught)
        if taught is None and reader.tuning.reaim > 0:
            full = reader.reaim(frame, dets, probs, full)
        assert _reads(reader, frame) == ([(r.face, r.confidence, r.box, r.confirmed)
                                          for r in full], unread)
        skipped += sum(d.score < least for d in dets)
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


def _squares_one_by_one(cx_, cy_, smin):
    """The top face's best square of each size as vision/classical/faces.py found it before
    the batch, one size's slices at a time: the reference ``_best_squares`` must equal."""
    from vision.classical import faces as cf

    n = cf.TOP_WINDOW
    on = n / cf.TOP_REACH
    reach = 0.3 * on
    hyp = []
    for s in range(smin, int(on * cf.TOP_SIDES[1]) + 1):
        lo = int(max(1, n / 2 - s / 2 - reach))
        hi = int(min(n - s - 1, n / 2 - s / 2 + reach))
        if hi < lo:
            continue
        m = hi + 1 - lo
        cols = cx_[lo + s:hi + 1 + s] - cx_[lo:hi + 1]
        rows = cy_[:, lo + s:hi + 1 + s] - cy_[:, lo:hi + 1]
        e = (cols[:, lo:hi + 1] + cols[:, lo + s:hi + 1 + s]
             + rows[lo:hi + 1] + rows[lo + s:hi + 1 + s])
        i = int(np.argmax(e))
        yy, xx = divmod(i, m)
        hyp.append((float(e.flat[i]), lo + xx, lo + yy, s))
    if not hyp:
        return None
    H = np.array(hyp)
    H = H[H[:, 0] >= 0.6 * H[:, 0].max()]
    return H[:, 0], H[:, 1].astype(int), H[:, 2].astype(int), H[:, 3].astype(int)


def _integrals(gx, gy):
    n = gx.shape[0]
    cx_ = np.zeros((n + 1, n), np.float32)
    np.cumsum(gx, 0, out=cx_[1:])
    cy_ = np.zeros((n, n + 1), np.float32)
    np.cumsum(gy, 1, out=cy_[:, 1:])
    return cx_, cy_


def test_the_top_faces_squares_of_every_size_at_once_are_each_sizes_own():
    """vision/classical/faces.py scores every square size of the top face's window at once:
    the best square of each size, its score and which sizes pass are what each size's own
    slices gave, bit for bit, for every smallest size a read may ask (a die seen in part
    asks small ones), on clipped random edges, on flat windows (every square ties: the first
    in row-major order wins) and on the windows of rendered dice."""
    from vision.classical import faces as cf

    rng = np.random.default_rng(12)
    n = cf.TOP_WINDOW
    windows = []
    for _ in range(12):
        g = np.minimum(np.abs(rng.normal(0, 40, (2, n, n))), 30).astype(np.float32)
        windows.append((cv2.dilate(g[0], np.ones((1, 3), np.uint8)),
                        cv2.dilate(g[1], np.ones((3, 1), np.uint8))))
    windows.append((np.zeros((n, n), np.float32), np.zeros((n, n), np.float32)))
    windows.append((np.ones((n, n), np.float32), np.full((n, n), 3.0, np.float32)))
    seen = []
    real = cf._best_squares
    cf._best_squares = lambda cx_, cy_, smin: seen.append((cx_.copy(), cy_.copy(), smin)) or \
        real(cx_, cy_, smin)
    try:
        for frame in _frames("xmen", n=3):
            dice = find_dice(frame).dice
            for c in dice:
                cf.top_face(frame, c)
                cf.top_face(frame, c, 2.0 * c.side)  # as a die seen in part
    finally:
        cf._best_squares = real
    assert len(seen) >= 12 and len({smin for *_, smin in seen}) >= 2
    cases = [(*_integrals(gx, gy), smin) for gx, gy in windows for smin in (0, 3, 12, 24, 30, 39, 40, 70)]
    for cx_, cy_, smin in cases + seen:
        got, want = cf._best_squares(cx_, cy_, smin), _squares_one_by_one(cx_, cy_, smin)
        if want is None:
            assert got is None
            continue
        assert len(got) == 4 and all(np.array_equal(a, b) for a, b in zip(got, want)), smin
        assert got[0].dtype == np.float64 and got[1].dtype == got[3].dtype == np.int64


def test_the_face_crops_spreads_at_once_are_numpys_std_of_each():
    """vision/classical/faces.py takes the spread of every 32 x 32 inner face at once: each
    equals numpy's ``std()`` of that image alone, bit for bit (random, flat, two-level and
    saturated images, and a taught read's own)."""
    from vision.classical import faces as cf

    rng = np.random.default_rng(5)
    side = cf.HOG_SIDE
    imgs = [rng.integers(0, 256, (side, side), dtype=np.uint8) for _ in range(60)]
    imgs += [rng.integers(v, v + k, (side, side), dtype=np.uint8) for v, k in ((0, 2), (100, 9), (250, 6))]
    imgs += [np.full((side, side), v, np.uint8) for v in (0, 1, 128, 255)]
    imgs.append(np.tile(np.array([0, 255], np.uint8), (side, side // 2)))
    frame = _frames("xmen", n=1)[0]
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    for c in find_dice(frame).dice:
        for crop in cf.read_crops(frame, c, gray):
            m = int(crop.shape[0] * 0.12)
            imgs.append(cv2.resize(crop[m:-m, m:-m], (side, side), interpolation=cv2.INTER_AREA))
    got = cf._spreads(np.stack(imgs))
    assert got.dtype == np.float64
    assert [float(v) for v in got] == [float(i.std()) for i in imgs]


def test_the_face_histograms_sobels_and_angles_at_once_are_the_formulas_they_replace():
    """vision/classical/faces.py's histograms take the Sobels of every crop in two calls and
    the unsigned angle without numpy's float remainder: bit for bit OpenCV's per-image
    Sobels and ``np.arctan2(gy, gx) % np.pi``, on random, flat, saturated and edge images and
    on every sign and axis of gradient (arctan2 gives +-0 and +-pi there)."""
    from vision.classical import faces as cf

    rng = np.random.default_rng(6)
    imgs = rng.integers(0, 256, (40, 32, 32), dtype=np.uint8)
    imgs[0], imgs[1], imgs[2] = 0, 255, np.tile(np.array([0, 255], np.uint8), (32, 16))
    imgs[3] = np.tile(np.arange(32, dtype=np.uint8)[::-1] * 8, (32, 1))  # a gradient to the left
    gx, gy = cf._sobels(imgs)
    assert gx.dtype == gy.dtype == np.float32
    assert np.array_equal(gx, np.stack([cv2.Sobel(x, cv2.CV_32F, 1, 0, ksize=3) for x in imgs]))
    assert np.array_equal(gy, np.stack([cv2.Sobel(x, cv2.CV_32F, 0, 1, ksize=3) for x in imgs]))
    assert np.array_equal(cf._sobels(imgs[:1])[0], cv2.Sobel(imgs[0], cv2.CV_32F, 1, 0, ksize=3)[None])
    axes = np.array([0.0, -0.0, 1.0, -1.0, 1e-30, -1e-30, 3e38, -3e38], np.float32)
    y, x = np.meshgrid(axes, axes)
    pairs = [(gy, gx), (y, x), (rng.normal(0, 1, 10**5).astype(np.float32),
                            rng.normal(0, 1, 10**5).astype(np.float32))]
    for a, b in pairs:
        ang = np.arctan2(a, b)
        want, got = ang % np.pi, cf._unsigned(ang)
        assert got.dtype == np.float32 and np.array_equal(got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want))
    edge = np.array([np.pi, -np.pi, -0.0, 0.0, -1e-8, np.nextafter(-np.float32(np.pi), np.float32(0))], np.float32)
    assert np.array_equal(cf._unsigned(edge), edge % np.pi)
    assert np.array_equal(np.signbit(cf._unsigned(edge)), np.signbit(edge % np.pi))


def test_the_finders_foreground_is_its_labels_and_its_edges_the_lightness_planes():
    """The pale-dice search takes the finder's foreground mask as it is, where it made the
    mask again from the labels (every foreground pixel has one), and the foreground's edges
    come from the split lightness plane, not the Lab image's strided view: the same arrays."""
    from vision import tray

    for frame in _frames("xmen", n=3) + _frames("d6", n=2, seed=8):
        small = cv2.resize(frame, (320, 240), interpolation=cv2.INTER_AREA)
        mask = tray.foreground(small)
        _, labels, _, _ = cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=cv2.CV_16U)
        assert np.array_equal((labels > 0).astype(np.uint8) * 255, mask)
        lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
        kernel = np.ones((3, 3), np.uint8)
        assert np.array_equal(cv2.morphologyEx(cv2.split(lab)[0], cv2.MORPH_GRADIENT, kernel),
                              cv2.morphologyEx(lab[..., 0], cv2.MORPH_GRADIENT, kernel))


def _match_pair_by_pair(learned, found, group):
    """vision/fused.py's ``match`` as it was, pair by pair in Python floats: the reference."""
    from vision.fused import MATCH, _centre_side

    pairs = []
    for i, r in enumerate(learned):
        lx, ly, ls = _centre_side(r.box)
        for j, c in enumerate(found):
            (cx, cy), (rw, rh), _ = c.rect
            d = float(np.hypot(lx - cx, ly - cy))
            lw, lh = r.box[2:]
            if d < MATCH * max(ls, float(np.sqrt(rw * rh))) and rw * rh <= group * max(lw * lh, 1):
                pairs.append((d, i, j))
    out, taken = {}, set()
    for _, i, j in sorted(pairs):
        if i not in out and j not in taken:
            out[i] = j
            taken.add(j)
    return out


def test_the_fused_readers_match_of_every_pair_at_once_is_the_pair_by_pair_one(taught):
    """vision/fused.py matches learned dice to the finder's by arrays: the same pairs as the
    per-pair loop it replaced, for random dice (ties in distance, dice at the same place,
    empty sides, every ``group``) and for the dice of rendered X-Men and d6 frames."""
    from vision import fused
    from vision.reader import DieRead

    rng = np.random.default_rng(9)
    cases = []
    for _ in range(300):
        nl, nf = int(rng.integers(0, 12)), int(rng.integers(0, 12))
        grid = rng.integers(0, 8, (nl + nf, 2)) * 10  # few places: equal distances and ties
        learned = [DieRead("1", 0.5, (int(x), int(y), int(w), int(h)), False)
                   for (x, y), (w, h) in zip(grid[:nl], rng.integers(0, 30, (nl, 2)))]
        found = [fused.own_box((float(x), float(y), float(s), float(s)), float(g))
                 for (x, y), s, g in zip(grid[nl:], rng.integers(1, 30, nf), rng.uniform(0.5, 2, nf))]
        cases.append((learned, found, float(rng.choice([2.0, 99.0, 0.5]))))
    # exactly MATCH sides apart (not matched) and just within; exactly ``group`` times the area
    edge = [DieRead("1", 0.5, (0, 0, 10, 10), False)]
    assert fused.match(edge, [fused.own_box((10, 4, 2, 2), 1.0)]) == {}
    assert fused.match(edge, [fused.own_box((9.9, 4, 2, 2), 1.0)]) == {0: 0}
    assert fused.match(edge, [fused.own_box((0, 0, 10, 10), 2.0)], 4.0) == {0: 0}
    assert fused.match(edge, [fused.own_box((0, 0, 10, 10), 2.0)], 3.99) == {}
    seen = []
    real = fused.match
    fused.match = lambda learned, found, group=99.0: seen.append((learned, found, group)) or \
        real(learned, found, group)
    try:
        for set_name, data in (("xmen", taught), ("d6", None)):
            reader = fused.FusedReader(set_name, data)
            for frame in _frames(set_name, n=4):
                reader.read(frame)
    finally:
        fused.match = real
    assert len(seen) >= 4 and any(len(m) >= 3 for m in map(lambda c: real(*c), seen))
    for learned, found, group in cases + seen:
        assert fused.match(learned, found, group) == _match_pair_by_pair(learned, found, group)



def test_a_product_of_a_frames_reductions_is_made_once_under_its_key():
    shrunk = Shrunk(_frames(n=1)[0])
    made = []
    first = shrunk.kept(("mask", 1), lambda: made.append(1) or np.zeros(3))
    assert shrunk.kept(("mask", 1), lambda: made.append(2) or np.ones(3)) is first
    assert shrunk.kept(("mask", 2), lambda: made.append(3) or np.ones(3)).sum() == 3
    assert made == [1, 3]
