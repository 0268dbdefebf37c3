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
