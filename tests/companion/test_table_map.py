"""Each game's table map (companion/table_map.py): owner-editable data, checked on load with
errors that name the file and the key, and shown in docs/hardware.md exactly as the data says."""

from pathlib import Path

import pytest

from companion.errors import DataFileError
from companion.games import Catalog
from companion.table_map import markdown, parse

CATALOG = Catalog(None)
DOCS = Path(__file__).resolve().parents[2] / "docs" / "hardware.md"


@pytest.mark.parametrize("bad, key", [
    ({"buttons": {"jump": {}}}, "buttons.jump: unknown button"),
    ({"buttons": {"next": {"flying": "undo"}}}, "buttons.next.flying: 'flying' is not a phase"),
    ({"buttons": {"next": {"move": "dance"}}}, "buttons.next.move: 'dance' is not one of the table's own"),
    ({"buttons": {"next": {"move": {"type": "teleport"}}}}, "buttons.next.move.type: 'teleport' is not one of this game's actions"),
    ({"buttons": {"next": {"move": {"type": "move", "colour": 1}}}}, "buttons.next.move.colour: unknown key"),
    ({"buttons": {"next": {"move": {"type": "move", "data": {"to": "{space}"}}}}}, "buttons.next.move: {space} is not a placeholder here"),
    ({"buttons": {"next": {"move": {"type": "move", "data": 3}}}}, "buttons.next.move.data: expected a table"),
    ({"buttons": {"next": {"note": 4}}}, "buttons.next.note: expected text"),
    ({"tokens": {"move": "undo"}}, "tokens.move: 'undo' is not one of the table's own"),
    ({"tokens": {"fly": {"type": "move"}}}, "tokens.fly: 'fly' is not a phase"),
    ({"timer": 5}, "timer: expected a timer's name"),
    ({"lights": {}}, "lights: unknown key"),
])
def test_a_bad_map_is_refused_naming_its_key(bad, key):
    with pytest.raises(DataFileError) as err:
        parse(bad, CATALOG("incredibles"), "owner/incredibles.table.toml")
    assert str(err.value).startswith("owner/incredibles.table.toml: " + key), str(err.value)


def test_the_owners_copy_wins_and_a_broken_one_is_an_error_naming_it(tmp_path):
    (tmp_path / "incredibles.table.toml").write_text('[buttons.next]\nroll = "read_dice"\n')
    mine = Catalog(tmp_path)("incredibles").table_map()
    assert mine.meaning("next", "roll").own == "read_dice" and mine.meaning("next", "move") is None
    (tmp_path / "incredibles.table.toml").write_text("[buttons.next\n")
    with pytest.raises(DataFileError, match="incredibles.table.toml: not valid TOML"):
        Catalog(tmp_path)("incredibles").table_map()


@pytest.mark.parametrize("game", ["incredibles", "xmen-alert", "invincible"])
def test_docs_show_each_games_map_as_its_data_says(game):
    """docs/hardware.md shows each game's map as a table, the same rows the data gives."""
    assert markdown(CATALOG(game).table_map()) in DOCS.read_text()


@pytest.mark.parametrize("game", ["incredibles", "xmen-alert", "invincible"])
def test_what_a_button_says_at_the_table_is_in_a_familys_words(game):
    """Each meaning and refusal a press puts on the table screen: an X-Men play-through read
    'option physical_decks' there, a setup option's name from the API. No identifier (a word
    with an underscore) and no JSON path ("data.")."""
    import re

    table = CATALOG(game).table_map()
    said = [text for _input, _phase, text in table.rows()]
    assert said
    for text in said:
        assert not re.search(r"\b[a-z]+_[a-z_]+\b|\bdata\.", text), text
