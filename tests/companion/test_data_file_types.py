"""An owner's copy of a component file with a value of the wrong shape (a number where a list
goes, a list where a number goes, a word where a number goes) is refused naming the file and
key: never a traceback. `heroes = [[3, 4]]` in an episode's track side reached the table as
'internal error' (TypeError: unhashable type: 'list'; found by an owner's-box audit)."""

import copy
import random

import pytest

from companion.errors import DataFileError
from companion.games import Catalog, available

# per game, drawn with a fixed seed (the same ones on every run; all of them take about 20 s)
MUTATIONS = 600


def leaves(node, path=()):
    """(path, value) of every number, string and true/false in the data."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from leaves(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from leaves(value, (*path, i))
    else:
        yield path, node


def wrong_shapes(value):
    return [[value], {"x": value}, "x" if not isinstance(value, str) else 7, None]


def put(raw, path, value):
    node = raw
    for key in path[:-1]:
        node = node[key]
    if value is None:
        del node[path[-1]]
    else:
        node[path[-1]] = value


@pytest.mark.parametrize("game", available())
def test_a_value_of_the_wrong_shape_is_refused_naming_where(game):
    boxed = Catalog()(game).boxed
    found = list(leaves(boxed.base))
    rng = random.Random(f"shapes:{game}")
    for path, value in rng.sample(found, min(MUTATIONS, len(found))):
        for wrong in wrong_shapes(value):
            raw = copy.deepcopy(boxed.base)
            put(raw, path, wrong)
            try:
                boxed.parse(raw, "owner.toml")
            except DataFileError as exc:
                assert "owner.toml" in str(exc), (path, wrong, exc)
            except Exception as exc:  # noqa: BLE001 - the defect under test
                pytest.fail(f"{game}: {'.'.join(map(str, path))} = {wrong!r}: "
                            f"{type(exc).__name__}: {exc}")


@pytest.mark.parametrize("game, file, right, typo, where", [
    ("incredibles", "incredibles.toml", "\nring = true", "\nrign = true", "board.rign"),
    ("xmen-alert", "xmen-alert.toml", "\ncount = 6", "\ncuont = 6", ".cuont"),
    ("invincible", "invincible_episodes.toml", " extra_4 = 1", " extra4 = 1", "abilities[0].extra4"),
])
def test_a_misspelt_key_is_refused_naming_it_and_the_keys_that_table_may_hold(
        tmp_path, game, file, right, typo, where):
    """`ring` spelt `rign` took the ring road off the board; `count = 6` spelt `cuont` left one
    Recruit card of six; both without a word (found by an owner's-box audit)."""
    shipped = Catalog()(game).boxed.paths[0].parent / file
    text = shipped.read_text()
    assert right in text
    (tmp_path / file).write_text(text.replace(right, typo, 1))
    with pytest.raises(DataFileError) as refused:
        Catalog(tmp_path)(game)
    said = str(refused.value)
    assert str(tmp_path / file) in said and where in said and "a typo?" in said, said
    assert right.split()[0] in said.split("may hold ")[1], said     # the right spelling


def test_a_mistake_in_the_box_file_names_the_box_file(tmp_path):
    """A box file saying `max_health = -5` was reported against the shipped invincible.toml,
    which the owner never touched (found by an owner's-box audit)."""
    (tmp_path / "box").mkdir()
    box = tmp_path / "box" / "invincible.toml"
    box.write_text('format = 1\ngame = "invincible"\n[patch]\nheros = []\n')
    with pytest.raises(DataFileError) as refused:
        Catalog(tmp_path)("invincible")
    said = str(refused.value)
    assert said.startswith(f"{box} (your box over ") and "heros: not a key read here" in said, said


def test_a_file_saved_by_notepad_an_empty_file_and_an_empty_name(tmp_path):
    """Notepad's UTF-8 starts with a byte-order mark: refused as 'Invalid statement (at line 1,
    column 1)'. An empty file said 'powers: missing'; an empty name showed a blank on the table
    (found by an owner's-box audit)."""
    shipped = Catalog()("incredibles").boxed.paths[0]
    text = shipped.read_text()
    copy = tmp_path / "incredibles.toml"
    copy.write_bytes(b"\xef\xbb\xbf" + text.replace('name = "Dash"', 'name = "Dashiell"').encode())
    assert "Dashiell" in {h.name for h in Catalog(tmp_path)("incredibles").data.heroes.values()}
    copy.write_text("")
    with pytest.raises(DataFileError, match=r"incredibles.toml: the file is empty \(remove it"):
        Catalog(tmp_path)("incredibles")
    copy.write_text(text.replace('name = "Dash"', 'name = "  "'))
    with pytest.raises(DataFileError, match=r"heroes\[\d\]\.name: empty"):
        Catalog(tmp_path)("incredibles")


@pytest.mark.parametrize("game, file, first, second", [
    ("incredibles", "incredibles.toml", 'name = "Dash"', 'name = "Violet"'),
    ("xmen-alert", "xmen-alert.toml", 'name = "Storm"', 'name = "Wolverine"'),
    ("invincible", "invincible.toml", 'name = "Atom Eve"', 'name = "Invincible"'),
])
def test_two_heroes_of_one_name_are_refused(tmp_path, game, file, first, second):
    """Two heroes named "Violet" showed as Violet and Violet on the table (found by an
    owner's-box audit)."""
    text = (Catalog()(game).boxed.paths[0].parent / file).read_text()
    assert first in text and second in text
    (tmp_path / file).write_text(text.replace(first, second.lower(), 1))
    with pytest.raises(DataFileError, match="names two (heroes|characters): the table could not"):
        Catalog(tmp_path)(game)
