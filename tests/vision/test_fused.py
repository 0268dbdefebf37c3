"""The fused recognizer (`--recognizer fused`, vision/fused.py): the learned reader's dice read
again by the classical readers, combined as chosen on the tuning part (vision/models/
training.json, "fused"). Real photos are of the held-out *test* part of vision/models/
split.json; thresholds sit below the figures measured on these draws."""

import json
from dataclasses import replace

import numpy as np
import pytest

from tests.vision.conftest import held_out_photos, read_real, sweep, taught_with
from vision import fused
from vision.classical.reader import ClassicalReader
from vision.fused import FusedReader, FusedTuning, classical_dir
from vision.reader import Reader, make_reader
from vision.render import render_roll, write_teaching_photos
from vision.scenes import CONDITIONS
from vision.sets import sets_dir


def _both(img):
    """The learned reads and unread boxes, the classical finder's dice and their reads."""
    learned, classical = Reader("d6"), ClassicalReader("d6")
    reads = learned.read(img)
    scene = classical.find(img)
    return reads, learned.last_unread, scene.dice, classical.read_found(img, scene.dice)


def test_make_reader_builds_the_fused_reader():
    reader = make_reader("d6", recognizer="fused")
    assert isinstance(reader, FusedReader) and reader.model is None
    assert reader.tuning == FusedTuning.shipped()
    record = json.loads(fused.RECORD.read_text())[fused.SECTION]
    assert "tuning part" in record["chosen on"]
    assert reader.tuning.to_json() == record["pips"]


def test_a_die_the_two_readers_disagree_on_asks_for_a_tap():
    """Both readers read a rendered roll alike; the classical read of one die is then made
    another face: that die, and only it, asks, and shows the primary reader's face."""
    img, faces, _ = render_roll(np.random.default_rng(3), "d6", 6)
    learned, unread, found, classical = _both(img)
    pairs = fused.match(learned, found)
    assert len(pairs) == len(faces) == len(learned)
    for primary in ("learned", "classical"):
        t = FusedTuning(primary=primary, check_below=1.01, agree="either")
        reads, left = fused.combine(t, 0.6, learned, unread, found, pairs, classical)
        assert all(r.confirmed for r in reads) and not left
        i = 0
        j = pairs[i]
        other = str(int(classical[j].face) % 6 + 1)
        changed = list(classical)
        changed[j] = replace(classical[j], face=other)
        reads, _ = fused.combine(t, 0.6, learned, unread, found, pairs, changed)
        assert not reads[i].confirmed and reads[i].confidence < 0.6
        assert reads[i].face == (other if primary == "classical" else learned[i].face)
        assert all(r.confirmed for k, r in enumerate(reads) if k != i)
        # a die checked and sure enough on the learned side alone is not checked
        t2 = replace(t, check_below=0.0)
        assert fused.to_check(t2, learned, pairs, found) == set()
        assert fused.combine(t2, 0.6, learned, unread, found, pairs, changed)[0] == learned


def test_a_sure_die_is_checked_only_where_the_finder_found_it_under_found_below():
    """Issue 14: 'a read is flagged for a tap whenever it might be wrong.' Sure wrong learned
    reads lie mostly just over ``check_below`` (tuning part); ``found_below`` has the classical
    reader read such dice where its finder found one die (``found_group``), and not at their
    own box: one the classical reader reads as another face asks, showing its learned face;
    the rest stand as read, and a sure die the finder did not see stands too (it is not read
    at its own box, as a packed one would ask)."""
    img, faces, _ = render_roll(np.random.default_rng(3), "d6", 6)
    learned, unread, found, classical = _both(img)
    pairs = fused.match(learned, found)
    assert len(pairs) == len(faces) == len(learned) and all(r.confirmed for r in learned)
    t = FusedTuning(primary="surer", check_below=0.0, found_below=1.01, alone="read")
    assert fused.to_check(t, learned, pairs, found) == set(pairs.values())
    assert fused.to_check(replace(t, found_below=0.0), learned, pairs, found) == set()
    reads, left = fused.combine(t, 0.6, learned, unread, found, pairs, classical)
    assert reads == learned and not left  # read alike: as the learned reader read them
    j = pairs[0]
    changed = list(classical)
    changed[j] = replace(classical[j], face=str(int(classical[j].face) % 6 + 1), confidence=0.5)
    reads, _ = fused.combine(t, 0.6, learned, unread, found, pairs, changed)
    assert not reads[0].confirmed and reads[0].face == learned[0].face  # as read, asking
    assert reads[1:] == learned[1:]
    # an outline over found_group times the die's top face is a group's: not checked
    (_, _), (rw, rh), _ = found[j].rect
    group = replace(t, found_group=0.9 * rw * rh / (learned[0].box[2] * learned[0].box[3]))
    assert j not in fused.to_check(group, learned, pairs, found)
    assert fused.combine(group, 0.6, learned, unread, found, pairs, changed)[0][0] == learned[0]
    # under found_below only: a confidence at or over it is not checked
    low = replace(t, found_below=min(r.confidence for r in learned))
    assert fused.combine(low, 0.6, learned, unread, found, pairs, changed)[0] == learned
    # the finder saw nothing at die 0: no own box, and it stands as read
    rest = {i: j for i, j in pairs.items() if i != 0}
    at, apart = fused.with_own_boxes(t, learned, rest, found)
    assert (at, apart) == (found, rest)
    assert fused.combine(t, 0.6, learned, unread, found, rest, changed)[0] == learned


def test_a_die_only_the_classical_finder_found_is_dropped_asked_or_kept():
    img, faces, _ = render_roll(np.random.default_rng(3), "d6", 6)
    learned, unread, found, classical = _both(img)
    missing = learned[1:]  # the learned reader "missed" a die, and flagged it unread
    left_box = [learned[0].box]
    pairs = fused.match(missing, found)
    for extra, n, asks in (("drop", 5, False), ("ask", 6, True), ("keep", 6, False)):
        t = FusedTuning(check_below=1.01, agree="either", extra=extra)
        reads, left = fused.combine(t, 0.6, missing, left_box, found, pairs, classical)
        assert len(reads) == n, extra
        assert left == ([] if extra != "drop" else left_box)
        if extra != "drop":
            added = reads[-1]
            assert added.face == learned[0].face and (not added.confirmed) == asks


def test_a_classical_die_a_fraction_of_the_rolls_dice_is_not_added():
    """A blob the finder outlines at a fifth of the roll's dice (a lighter patch of cloth,
    which a taught set's blank face reads as sure: seen on the tuning part) is not kept as a
    die with ``extra_side``; a die the size of the others still is."""
    from vision.classical.finder import Candidate
    from vision.reader import DieRead

    learned = [DieRead("xmen", 0.9, (100, 100, 60, 60), True),
               DieRead("marvel", 0.9, (200, 100, 62, 62), True)]

    def blob(x, side):
        c = x + side / 2
        return Candidate((x, 300, side, side), ((c, 300 + side / 2), (float(side), float(side)), 0.0),
                         np.array([[x, 300], [x + side, 300], [x + side, 300 + side],
                                   [x, 300 + side]], np.int32), float(side * side))

    found = [blob(400, 12), blob(500, 58)]
    classical = [DieRead("blank", 1.0, found[0].box, True), DieRead("blank", 0.9, found[1].box, True)]
    keep = FusedTuning(check_below=1.01, extra="keep", extra_side=0.0)
    reads, _ = fused.combine(keep, 0.6, learned, [], found, {}, classical)
    assert [r.box for r in reads[2:]] == [found[0].box, found[1].box]
    assert FusedTuning().extra_side == 0.5
    reads, _ = fused.combine(replace(keep, extra_side=0.5), 0.6, learned, [], found, {}, classical)
    assert [r.box for r in reads[2:]] == [found[1].box]


def test_a_group_the_finder_could_not_split_is_not_matched_to_one_die():
    """The classical outline of two dice joined is no read of either (its pips are both
    dice's): with ``group`` it is not matched, and the learned die counts as found alone."""
    from vision.classical.finder import Candidate
    from vision.reader import DieRead

    die = DieRead("3", 0.3, (100, 100, 40, 40), False)
    pair = Candidate((95, 95, 90, 50), ((140.0, 120.0), (90.0, 50.0), 0.0),
                     np.array([[95, 95], [185, 95], [185, 145], [95, 145]], np.int32), 4500.0)
    single = Candidate((96, 96, 48, 48), ((120.0, 120.0), (48.0, 48.0), 0.0),
                       np.array([[96, 96], [144, 96], [144, 144], [96, 144]], np.int32), 2304.0)
    assert fused.match([die], [pair], group=99.0) == {0: 0}
    assert fused.match([die], [pair], group=2.0) == {}
    assert fused.match([die], [pair, single], group=2.0) == {0: 1}
    t = FusedTuning(check_below=1.01, alone="drop", group=2.0)
    reads, left = fused.combine(t, 0.6, [die], [], [pair], {}, [DieRead("5", 0.9, pair.box, True)])
    assert reads == [] and left == [die.box]


def test_agreement_confirms_an_unsure_die_from_agree_from_and_a_sure_reader_overrules():
    """Issue 14: 'a read is flagged for a tap whenever it might be wrong'; a die the two
    readers read alike, from ``agree_from`` (and the classical read from ``agree_sure``), is
    not one that might be: it is confirmed. Where they disagree, the primary face stands
    confirmed only from ``overrule`` with the other reader unsure; every other die asks."""
    from vision.classical.finder import Candidate
    from vision.reader import DieRead

    def found(x):
        return Candidate((x, 100, 40, 40), ((x + 20.0, 120.0), (40.0, 40.0), 0.0),
                         np.array([[x, 100], [x + 40, 100], [x + 40, 140], [x, 140]], np.int32),
                         1600.0)

    learned = [DieRead("3", 0.45, (100, 100, 40, 40), False),
               DieRead("4", 0.25, (200, 100, 40, 40), False)]
    dice = [found(100), found(200)]
    pairs = fused.match(learned, dice)
    assert pairs == {0: 0, 1: 1}
    alike = [DieRead("3", 0.95, dice[0].box, True), DieRead("4", 0.7, dice[1].box, True)]

    def confirmed(t, classical):
        reads, left = fused.combine(t, 0.6, learned, [], dice, pairs, classical)
        assert not left and [r.box for r in reads] == [r.box for r in learned]
        return [r.confirmed for r in reads], [r.face for r in reads]

    t = FusedTuning(check_below=1.01, agree="learned")
    assert confirmed(t, alike) == ([False, False], ["3", "4"])  # agreement alone: asks
    assert confirmed(replace(t, agree_from=0.4), alike)[0] == [True, False]
    assert confirmed(replace(t, agree_from=0.2), alike)[0] == [True, True]
    assert confirmed(replace(t, agree_from=0.2, agree_sure=0.9), alike)[0] == [True, False]
    # the readers disagree on the second die: the classical face, sure, overrules a learned
    # read under the threshold from ``overrule``; never where the two are both sure
    apart = [alike[0], DieRead("6", 0.97, dice[1].box, True)]
    c = replace(t, primary="classical", agree_from=0.2)
    assert confirmed(c, apart) == ([True, False], ["3", "6"])
    assert confirmed(replace(c, overrule=0.95), apart) == ([True, True], ["3", "6"])
    assert confirmed(replace(c, overrule=0.98), apart)[0] == [True, False]
    sure = [learned[0], DieRead("4", 0.7, learned[1].box, True)]
    reads, _ = fused.combine(replace(c, overrule=0.95), 0.6, sure, [], dice, pairs, apart)
    assert not reads[1].confirmed and reads[1].confidence < 0.6


def test_reads_rendered_pip_dice():
    recall, precision = sweep(FusedReader("d6"), "d6", 18, seed=11)
    assert recall >= 0.95 and precision >= 0.95, (recall, precision)


def test_reads_dice_packed_edge_to_edge():
    """The learned detector finds each die of a packed group (the classical finder drops
    such groups); the fused reader keeps them (measured 1.0 / 1.0 on this draw with the
    networks of 2026-12-04 15:00, the learned one alone too, the classical one 0.275 / 0.583;
    0.824 / 0.977 before them)."""
    recall, precision = sweep(FusedReader("d6"), "d6", 12, seed=13,
                               opt=CONDITIONS["packed edge to edge"])
    classical, _ = sweep(ClassicalReader("d6"), "d6", 12, seed=13,
                          opt=CONDITIONS["packed edge to edge"])
    assert recall >= 0.95 and precision >= 0.95, (recall, precision)
    assert recall >= classical + 0.4, (recall, classical)


def test_a_die_of_a_group_the_finder_cannot_split_is_read_at_its_own_box():
    """Issue 14: 'A compact convolutional detector for dice ... robust to touching dice', 'A
    frame where something die-like went unread is flagged, never dropped quietly.' Six d6
    packed edge to edge (a held-out draw): the learned reader finds all six, the classical
    finder one blob it cannot split, so no learned die is matched. With ``alone`` "drop" all
    six are left unread (the roll asks, but no die is read); with "read" the classical pip
    reader reads each at the learned die's own box, every face right, and the blob is not
    added as a die of its own. A learned die on bare tray, where the pip reader finds no
    pips at its box, is left unread (flagged), not kept."""
    img, faces, outlines = render_roll(np.random.default_rng(35), "d6", 6,
                                       CONDITIONS["packed edge to edge"])
    learned, unread, found, _ = _both(img)
    t = FusedTuning(check_below=1.01, primary="learned", agree="learned", group=2.0,
                    alone="drop", drop_below=1.01, extra="keep")
    assert sorted(r.face for r in learned) == sorted(faces) and len(found) == 1
    assert fused.match(learned, found, t.group) == {}
    reads, left = fused.combine(t, 0.6, learned, unread, found, {}, [None])
    assert reads == [] and len(left) == 6
    nowhere = fused.DieRead("3", 0.3, (20, 400, 44, 44), False)
    assert all(x > 64 and y + h < 400 for x, y, w, h in outlines)  # bare tray there
    t = replace(t, alone="read")
    both = learned + [nowhere]
    at, pairs = fused.with_own_boxes(t, both, {}, found)
    assert len(at) == 8 and all(isinstance(c, fused.OwnBox) for c in at[1:])
    classical = ClassicalReader("d6").read_found(img, at)
    reads, left = fused.combine(t, 0.6, both, unread, at, pairs, classical)
    assert sorted(r.face for r in reads) == sorted(faces), (reads, faces)
    assert [r.box for r in reads] == [d.box for d in learned]
    # a cross-check, not an echo: the pip reader read most of them alike, at their own box
    agreed = [c is not None and c.face == r.face for r, c in zip(learned, classical[1:])]
    assert sum(agreed) >= 4
    assert all(not r.confirmed for r, a in zip(reads, agreed) if not a)  # the others ask
    assert left == [nowhere.box]
    # "agree" keeps only the dice read alike; "packed" keeps those of a group as "read" does
    for alone, kept in (("agree", sum(agreed)), ("packed", 6)):
        reads, left = fused.combine(replace(t, alone=alone), 0.6, both, unread, at, pairs, classical)
        assert len(reads) == kept and len(left) == 7 - kept, alone
        assert all(not r.confirmed for r in reads)
    lone = [replace(learned[0], confidence=0.3), nowhere]
    at, pairs = fused.with_own_boxes(t, lone, {}, [])
    classical = [replace(classical[1], face=str(int(lone[0].face) % 6 + 1)), None]
    reads, left = fused.combine(replace(t, alone="packed"), 0.6, lone, [], at, pairs, classical)
    assert reads == [] and left == [lone[0].box, nowhere.box]  # read otherwise, and alone


@pytest.fixture(scope="module")
def taught_fused(tmp_path_factory, teaching_photos):
    return taught_with(tmp_path_factory, teaching_photos, "data-fused", fused.teach,
                       ("incredibles", "xmen"))


@pytest.mark.parametrize("set_name, least", [("xmen", 0.9), ("incredibles", 0.8)])
def test_reads_rendered_taught_game_dice(taught_fused, set_name, least):
    recall, precision = sweep(FusedReader(set_name, taught_fused), set_name, 12, seed=21)
    assert recall >= least and precision >= least, (set_name, recall, precision)


@pytest.mark.parametrize("set_name, least, precise", [("incredibles", 0.65, 0.9),
                                                      ("xmen", 0.85, 0.85)])
def test_reads_taught_dice_packed_edge_to_edge(taught_fused, set_name, least, precise):
    """Issue 14: 'robust to touching dice', 'including dice packed edge to edge ... >= 0.99
    everywhere'. The classical finder drops groups of dice packed edge to edge it cannot
    split, and a taught set's learned dice there were left unread (the roll asked, no die
    read): 0.471 / 0.96 (Incredibles) and 0.667 / 0.756 (X-Men) on this held-out draw under
    the choice before. Each is now read by the classical templates at its own box and kept
    where both readers read it alike (``alone`` "agree", chosen on the tuning part):
    measured 0.725 / 1.0 and 0.922 / 0.887."""
    recall, precision = sweep(FusedReader(set_name, taught_fused), set_name, 12, seed=13,
                              opt=CONDITIONS["packed edge to edge"])
    assert recall >= least and precision >= precise, (set_name, recall, precision)


@pytest.mark.parametrize("set_name, fewer", [("incredibles", True), ("xmen", False)])
def test_a_taught_set_asks_less_where_the_two_readers_agree(taught_fused, set_name, fewer):
    """Issue 14: 'Silently wrong dice: <= 0.5% of dice ...; the share of rolls that need a
    tap reported beside it.' Agreement confirming: dice both readers read alike confirmed
    (and a sure classical read over an unsure learned one). On rendered rolls the taught
    choice so asks less often than with agreement not confirming, from the same reads (X-Men,
    whose plain rolls seldom ask: never more often). The shipped taught choice confirms
    nothing now (`holds_apart` turned it down on the tuning part since the taught faces were
    compared over more views), so the choice checked is the shipped one with the confirming
    settings of the choice before (agree_from 0.0, overrule 0.6)."""
    from vision.training.calibrate import tally
    from vision.training.tune_fused import UNCONFIRMING

    reader = FusedReader(set_name, taught_fused)
    unconfirming = replace(reader.tuning, **UNCONFIRMING)
    confirming = replace(reader.tuning, agree_from=0.0, overrule=0.6)
    assert confirming != unconfirming
    rng = np.random.default_rng(23)
    rolls = [render_roll(rng, set_name, 1 + i % 9)[:2] for i in range(18)]
    figs = []
    for tuning in (confirming, unconfirming):
        reader.tuning = tuning
        frames = []
        for img, faces in rolls:
            reads = reader.read(img)
            frames.append((faces, reads, list(reader.last_unread)))
        figs.append(tally(frames))
    now, before = figs
    assert (now["recall"], now["precision"]) == (before["recall"], before["precision"])
    assert now["taps"] < before["taps"] if fewer else now["taps"] <= before["taps"], (now, before)
    assert now["silent"] <= 0.012, (now, before)  # one die of 90 at most


def test_a_set_taught_for_the_learned_reader_alone_is_taught_to_the_classical_one(tmp_path):
    from vision.sets import teach

    write_teaching_photos("xmen", tmp_path / "photos", per_face=2, seed=41)
    teach("xmen", tmp_path / "photos", tmp_path / "data")
    theirs = sets_dir(classical_dir(tmp_path / "data")) / "xmen" / "model.json"
    assert not theirs.exists()
    reader = FusedReader("xmen", tmp_path / "data")
    assert theirs.is_file() and reader.classical.model is not None
    img, faces, _ = render_roll(np.random.default_rng(5), "xmen", 3)
    assert len(reader.read(img)) == 3


def _read_real(photos):
    return read_real(FusedReader("d6"), photos)


# Issue 14: "Real tray photos <= 9 dice: >= 0.98 recall and precision per die; all real tray
# photos (up to 25 dice): >= 0.96. Real webcam photos: >= 0.97"; "Silently wrong dice: <= 0.5%
# of dice". Measured with the networks of 2026-12-04 15:00 and the thresholds tuned on 90
# scenes a set and condition (17:40; with those tuned on 30: silent 0.0058 and 0.0052 on the
# tray photos, one and two dice): <= 9 dice 0.988 / 1.000, silent 0, taps 0.66; all 0.984 /
# 0.984, 0.0026 (one die of 387), 0.70; webcam 0.989 / 0.974, 0.0038 (one of 265), 0.28.
@pytest.mark.shared
@pytest.mark.parametrize("photos, least, silent_most, taps_most", [
    ("tray photos <= 9 dice", 0.98, 0.005, 0.7),
    ("tray photos", 0.96, 0.005, 0.75),
    ("webcam photos", 0.97, 0.005, 0.4)])
def test_reads_held_out_real_photos(shared, photos, least, silent_most, taps_most):
    held_out = held_out_photos(shared, "webcam" if photos.startswith("webcam") else "byler_d6")
    if "<= 9" in photos:
        held_out = [(p, f) for p, f in held_out if len(f) <= 9]
    (recall, precision), silent, taps = _read_real(held_out)
    assert recall >= least and precision >= least, (recall, precision)
    assert silent <= silent_most, silent
    assert taps <= taps_most, taps
