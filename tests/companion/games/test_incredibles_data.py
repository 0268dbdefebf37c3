"""The Incredibles' component file: the owner's copy wins, every error names file and key, and
every unprinted value is reported as an assumption."""

import pytest

from companion.games.incredibles.data import SHIPPED
from companion.errors import DataFileError
from companion.games.incredibles import Incredibles

ORIGINAL = SHIPPED.read_text()


def override(tmp_path, old, new):
    assert old in ORIGINAL
    (tmp_path / "incredibles.toml").write_text(ORIGINAL.replace(old, new))
    return tmp_path


def test_the_owners_copy_wins(tmp_path):
    engine = Incredibles(override(tmp_path, "spaces = 3", "spaces = 5"))
    assert engine.data.track_spaces == 5 and engine.data.path == str(tmp_path / "incredibles.toml")


def test_the_printed_contents_hold_in_the_shipped_file():
    """"1 Game Board, 4 Movers, 4 Mover Bases, 4 Power Dice, 1 Movement Die, 1 Jack-Jack Die,
    30 Cards, 5 Rubble Markers\""""
    data = Incredibles().data
    assert len(data.cards) == 30 and len(data.heroes) == 4
    assert sum(c.kind == "road_destroyed" for c in data.cards.values()) <= 5


def test_unprinted_values_are_marked_as_assumptions():
    assumed = Incredibles().components()["assumptions"]
    assert {"board", "deck", "movement_die", "jackjack_die"} <= set(assumed)
    assert "problem_track" not in assumed      # printed: "the three spaces of the Problem Track"


@pytest.mark.parametrize("old, new, words", [
    ('power = "speed"', 'power = "flight"', "heroes[3].power: 'flight' is not one of"),
    ('edna = 3', 'edna = "three"', "deck.edna: expected int"),
    # a million Edna cards took 14 s to start a game and 4 s a move; -2 was taken as none
    ('edna = 3', 'edna = 1000000', "deck.edna: 1000000 copies: give 0 to 40"),
    ('edna = 3', 'edna = -2', "deck.edna: -2 copies: give 0 to 40"),
    ('["A", "2"]', '["A", "99"]', "board.links[4]"),
    ('jackjack = ["4",', 'jackjack = ["X",', "deck.jackjack: 'X' is not a numbered space"),
    ('faces = ["strength", "defense", "agility", "speed", "wild", "wild"]', 'faces = ["smile"]',
     "jackjack_die.faces: unknown face"),
])
def test_bad_values_name_the_file_and_key(tmp_path, old, new, words):
    with pytest.raises(DataFileError) as err:
        Incredibles(override(tmp_path, old, new))
    assert words in str(err.value) and "incredibles.toml" in str(err.value)
