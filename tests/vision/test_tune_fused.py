"""The fused recognizer's tuning search (vision/training/tune_fused.py): its pip sets mirror
issue 14's goal sets, and a set too small to show the silent budget still guards the choice.
The reads here are made up (no image is read): the search is scored on them as on real ones."""

from vision.reader import DieRead
from vision.training import tune_fused
from vision.training.calibrate import SILENT_BUDGET


def _frame(faces, reads):
    """(labelled faces, learned reads, learned unread boxes, classical dice, their reads)."""
    return (faces, reads, [], [], [])


def _sure(face):
    return DieRead(face, 0.9, (10, 10, 20, 20), True)


def test_the_tray_photos_with_nine_dice_or_fewer_are_a_goal_set_of_their_own():
    """Issue 14: 'Real tray photos <= 9 dice: >= 0.98 ...; all real tray photos (up to 25
    dice): >= 0.96.'"""
    small, big = _frame(["1"] * 9, []), _frame(["2"] * 10, [])
    sets = tune_fused.with_goal_sets({tune_fused.TRAY: [small, big, small], "other": [big]})
    assert sets[tune_fused.LE9] == [small, small]
    assert sets[tune_fused.TRAY] == [small, big, small] and sets["other"] == [big]
    assert {tune_fused.TRAY, tune_fused.LE9} <= set(tune_fused.KINDS["pips"])
    assert tune_fused.LE9 not in tune_fused.with_goal_sets({"other": [big]})


class _Found:
    """A classical finder's die: its rotated rectangle, as the finder gives it."""
    rect = ((20.0, 20.0), (20.0, 20.0), 0.0)


def test_a_set_too_small_to_show_the_budget_is_guarded_at_the_least_any_reaches():
    """A die no combination reads and none flags is one silent error in two on the small
    set, over the budget for every combination. The search still holds the other set to the
    budget and weighs the combinations within both guards (not just the one least silent on
    its worst set): the dice only the classical reader read are added."""
    missed = _frame(["1"], [])  # the die read by no one, and nothing flags the roll
    theirs = (["5"], [], [], [_Found()], [_sure("5")])  # only the classical reader read it
    sets = {"big": [_frame(["2"], [_sure("2")])] * 90 + [theirs] * 10,
            "small": [missed, _frame(["2"], [_sure("2")])]}
    t, figs = tune_fused.choose(sets, log=lambda *_: None)
    assert figs["small"]["silent"] == 0.5 > SILENT_BUDGET
    assert figs["big"]["silent"] == 0.0  # dropping them would be 10 silent errors in 100
    assert t.extra == "keep" and figs["big"]["recall"] == 1.0, (t, figs["big"])
