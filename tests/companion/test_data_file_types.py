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
