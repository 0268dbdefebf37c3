"""The renderer's dice are the games' dice: faces and sides from the engines' data (issue 11),
so the simulated camera can throw and read every die an engine asks for, the rescue die too."""

import numpy as np

from companion.dice import game_dice
from vision.classical.reader import ClassicalReader as Reader
from vision.render import GAME_DICE, GAME_SETS, RenderOptions, render_scene


def test_the_rendered_dice_are_the_engines_dice():
    boxes = game_dice()
    assert GAME_SETS == {box: list(dice) for box, dice in boxes.items()}
    for dice in boxes.values():
        for name, sides in dice.items():
            assert GAME_DICE[name] == list(sides)


def test_a_taught_stand_in_set_reads_the_rescue_die(taught):
    faces = ["rescue-left", "failure-right", "epic-left"]
    img, _ = render_scene(np.random.default_rng(3), faces, RenderOptions(touching=0.0), pips=False)
    assert sorted(d.face for d in Reader("invincible", taught).read(img)) == sorted(faces)
