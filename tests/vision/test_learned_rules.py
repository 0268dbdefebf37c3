"""The learned reader's rules beside its networks: a die's side face is not a second die, a
hand reaching into the tray is reported, a pip die among a taught set's dice is flagged."""

import dataclasses
import json

import cv2
import numpy as np
import pytest

from tests.vision.conftest import blank_frame
from vision import hands
from vision.detector import Detection
from vision.reader import Reader, Tuning, side_faces
from vision.render import RenderOptions, render_labelled, render_scene
from vision.scenes import CONDITIONS


def _pips(face: int, p: float = 0.9) -> np.ndarray:
    out = np.full(8, (1 - p) / 7, np.float32)
    out[face] = p
    return out


def test_a_peak_just_below_a_read_die_is_its_side_face_not_a_die():
    """A camera looking across the table sees a die's top face and, below it, its front face:
    the front face (0.55 of a side down) is dropped; a die packed edge to edge below (a whole
    side down), one beside it, and a peak below one that is not read are kept."""
    top = Detection(200, 200, 60, 60, 0.8)
    front = Detection(205, 233, 55, 55, 0.5)
    below = Detection(200, 262, 60, 60, 0.6)  # packed edge to edge
    beside = Detection(262, 230, 60, 60, 0.6)
    assert side_faces([top, front, below, beside], [True] * 4, 0.6, 0.35) == [False, True, False, False]
    assert side_faces([top, front], [False, True], 0.6, 0.35) == [False, False]  # top not read
    assert side_faces([top, front], [True, True], 0.0, 0.35) == [False, False]  # rule off
    # a stronger front face is dropped too: the upper peak is the die's top face
    assert side_faces([dataclasses.replace(front, score=0.9), top], [True, True], 0.6, 0.35) == [True, False]

    reader = Reader("d6", tuning=dataclasses.replace(Tuning.shipped(), side_gap=0.6, side_across=0.35))
    reads, unread = reader.decide([top, front, below], np.stack([_pips(2), _pips(6), _pips(4)]), None)
    assert sorted(r.face for r in reads) == ["2", "4"] and unread == []


def test_the_shipped_thresholds_keep_the_side_face_rule_and_it_spares_packed_dice():
    """The search chose the rule on the tuning part (vision/models/training.json); on a
    rendered draw of dice packed edge to edge it drops no die the reader read without it."""
    t = Tuning.shipped()
    assert 0 < t.side_gap < 1 and t.side_across > 0
    on, off = Reader("d6"), Reader("d6", tuning=dataclasses.replace(t, side_gap=0.0))
    rng = np.random.default_rng(4400)
    lost = 0
    for i in range(8):
        sc = render_labelled(rng, [str(v) for v in rng.integers(1, 7, 2 + i)],
                             CONDITIONS["packed edge to edge"])
        lost += len(off.read(sc.image)) - len(on.read(sc.image))
    assert lost == 0, lost


def _hand_scenes(seed: int, n: int):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        faces = [str(v) for v in rng.integers(1, 7, 1 + i % 5)]
        state = rng.bit_generator.state
        with_hand = render_scene(rng, faces, RenderOptions(hand=True, perspective=0.0))[0]
        rng.bit_generator.state = state  # the same scene without the hand
        plain = render_scene(rng, faces, RenderOptions(perspective=0.0))[0]
        out.append((with_hand, plain))
    return out


def test_a_hand_in_the_tray_is_reported_and_a_plain_tray_is_not():
    reader = Reader("d6")
    obstructed = []
    for with_hand, plain in [(render_scene(np.random.default_rng(12), ["3", "5"],
                                           RenderOptions(hand=True, perspective=0.0))[0], None)] \
            + _hand_scenes(120, 8):
        reader.read(with_hand)
        obstructed.append(reader.last_obstructed)
        if plain is not None:
            reader.read(plain)
            assert not reader.last_obstructed
    # measured 7 of 9 here (78 of 90 on a draw from the tuning seeds): a hand the colour of
    # the tray is not told apart
    assert obstructed[0] and sum(obstructed) >= 7, obstructed
    reader.read(blank_frame((120, 150, 210)))  # a skin-coloured tray is the table, not a hand
    assert not reader.last_obstructed


def test_a_hand_needs_to_reach_in_from_the_edge_and_be_large():
    frame = blank_frame((150, 90, 40))
    cv2.circle(frame, (320, 240), 60, (120, 150, 210), -1)  # skin-coloured, inside the frame
    assert not hands.reaches_in(frame)
    cv2.ellipse(frame, (0, 240), (200, 90), 0, -90, 90, (120, 150, 210), -1)
    assert hands.reaches_in(frame)
    small = blank_frame((150, 90, 40))
    cv2.ellipse(small, (0, 240), (30, 20), 0, -90, 90, (120, 150, 210), -1)
    assert not hands.reaches_in(small, die_side=40)


@pytest.mark.shared
def test_dice_held_in_a_hand_over_the_real_tray_are_reported(shared):
    """The real photo of a hand holding a die over the tray (the classical finder's hand
    rule finds it too)."""
    reader = Reader("d6")
    reader.read(cv2.imread(str(shared / "data" / "dice-real" / "byler_d6" / "images"
                               / "IMG_20191208_112623.jpg")))
    assert reader.last_obstructed


@pytest.mark.parametrize("set_name, least", [("incredibles", 0.9), ("xmen", 0.75)])
def test_a_pip_die_among_a_taught_sets_dice_is_unread_and_flags_the_frame(
        taught_learned, set_name, least):
    """A pip d6 rolled with a taught set is not one of its dice: it is listed unread. Measured
    here 12 of 12 Incredibles scenes and 10 of 12 X-Men ones; on a draw of 40 each from the
    tuning seeds 40 and 37 (before the rule: 30 and 8), where a pip die read as the X-Men face,
    which the face network takes for pips itself, is missed."""
    reader = Reader(set_name, taught_learned)
    assert reader.model.pips and max(reader.model.pips.values()) <= 1.0
    faces = [f for f in reader.faces if reader.model.pips[f] < 0.2]
    rng = np.random.default_rng(3300)
    listed = flagged = 0
    n = 12
    for i in range(n):
        shown = list(rng.choice(faces, 1 + i % 4)) + [str(rng.integers(1, 7))]
        sc = render_labelled(rng, shown, RenderOptions(touching=0.0), pips=True)
        reads = reader.read(sc.image)
        x, y, w, h = sc.boxes[-1]
        cx, cy = x + w / 2, y + h / 2
        listed += any(bx <= cx <= bx + bw and by <= cy <= by + bh
                      for bx, by, bw, bh in reader.last_unread)
        flagged += reader.last_flagged
    assert listed >= least * n and flagged >= listed, (listed, flagged)


def test_the_pip_rule_leaves_a_set_taught_before_it_alone(taught_learned, tmp_path):
    """A set taught before the sets kept their faces' pip-likeness has none: nothing is taken
    for a pip die (it loads and reads as before)."""
    import shutil

    shutil.copytree(taught_learned, tmp_path / "data")
    meta_path = tmp_path / "data" / "dice" / "sets" / "xmen" / "model.json"
    meta = json.loads(meta_path.read_text())
    del meta["pips"]
    meta_path.write_text(json.dumps(meta))
    reader = Reader("xmen", tmp_path / "data")
    assert reader.model.pips == {}
    assert not reader._pip_die("marvel", np.eye(8, dtype=np.float32)[3])


def test_an_unconfirmed_pip_read_is_read_again_higher_up_and_stays_unconfirmed():
    """A camera looking across the table may centre a die on its front face: the crop above
    (on the top face) gives the face where the face network is surer there; the read still
    asks the players, so a second look can never make a silent error."""
    reader = Reader("d6", tuning=dataclasses.replace(Tuning.shipped(), reaim=0.45))
    dets = [Detection(100, 100, 50, 50, 0.6), Detection(300, 100, 50, 50, 0.9)]
    probs = np.stack([_pips(6, 0.5), _pips(3, 0.99)])
    reads, _ = reader.decide(dets, probs, None)
    assert [(r.face, r.confirmed) for r in reads] == [("6", False), ("3", True)]
    above = np.stack([_pips(2, 0.9), _pips(5, 0.99)])
    again = reader.reaim(None, dets, probs, reads, above)
    assert [(r.face, r.confirmed) for r in again] == [("2", False), ("3", True)]
    assert again[0].confidence <= reads[0].confidence
    not_a_die = np.stack([_pips(0, 0.9), _pips(5, 0.99)])
    assert reader.reaim(None, dets, probs, reads, not_a_die) == reads
    weaker = np.stack([_pips(2, 0.4), _pips(5, 0.99)])
    assert reader.reaim(None, dets, probs, reads, weaker) == reads
    # on a frame the reader crops itself: same reads when nothing is unconfirmed
    img = blank_frame()
    assert reader.reaim(img, dets, probs, [reads[1]]) == [reads[1]]
    assert Tuning.shipped().reaim > 0  # chosen by the search on the tuning part


def test_a_crop_the_face_network_calls_no_die_is_read_only_as_near_as_its_faces_photos(
        taught_learned, tmp_path):
    """`Tuning.like_taught`: the face network calls a blank X-Men face "not a die" (it looks
    like a card), so such a crop is still read where the taught photos say it is one; but a
    patch of lighter cloth is near a taught blank face too, only less near than the blank
    face's own photos come to each other. A crop under ``like_taught`` of that is left
    unread (it flags the roll); one as near is read. A set taught before the faces kept it
    is taught again from its photos when it loads; one without its photos reads both, as
    before."""
    import shutil

    reader = Reader("xmen", taught_learned, tuning=dataclasses.replace(
        Tuning.shipped(taught=True), like_taught=0.05, not_die=0.5, sure_not=0.9))
    model = reader.model
    own = model.near["blank"]
    assert own - 0.05 > model.reject + 0.02, (own, model.reject)  # room for a crop between
    dets = [Detection(100, 100, 50, 50, 0.8), Detection(300, 100, 50, 50, 0.8)]
    not_a_die = np.zeros((2, 8), np.float32)
    not_a_die[:, 0] = 0.8  # facenet.NOT_A_DIE: sure, though not sure enough to flag nothing
    taught = [("blank", 0.9, own - 0.02), ("blank", 0.9, own - 0.05 - 0.02)]
    reads, unread = reader.decide(dets, not_a_die, taught)
    assert [r.box for r in reads] == [dets[0].box] and unread == [dets[1].box]

    shutil.copytree(taught_learned, tmp_path / "data")
    meta_path = tmp_path / "data" / "dice" / "sets" / "xmen" / "model.json"
    meta = json.loads(meta_path.read_text())
    del meta["near"]
    meta_path.write_text(json.dumps(meta))
    again = Reader("xmen", tmp_path / "data", tuning=reader.tuning)
    assert again.model.near == pytest.approx(model.near)  # taught again from its photos
    meta_path.write_text(json.dumps(meta))
    shutil.rmtree(meta_path.parent / "photos")
    before = Reader("xmen", tmp_path / "data", tuning=reader.tuning)
    assert before.model.near is None
    reads, unread = before.decide(dets, not_a_die, taught)
    assert len(reads) == 2 and unread == []
