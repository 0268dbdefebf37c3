"""Argument schemas: each checks a value (normalised, or refused naming the field) and describes
itself as JSON Schema, so the same declaration serves Game.apply, the docs and the HTTP boundary."""

import json
import math

import pytest

from companion.errors import BadAction
from companion.schema import Arg, Args, Choice, Flag, ListOf, Number, Text, Whole

FACE = Choice(("1", "2", "alarm"), what="a face of the movement die", fold=True)
ROLL = Args({"face": Arg(FACE, required=False), "count": Arg(Whole(1, 9), required=False, default=1)})


def test_checked_data_is_normalised_and_complete():
    assert ROLL.check({"face": " Alarm "}, "roll") == {"face": "alarm", "count": 1}
    assert ROLL.check({}, "roll") == {"face": None, "count": 1}
    assert ROLL.check({"face": "2", "other": 1}, "roll") == {"face": "2", "count": 1}


@pytest.mark.parametrize("data, words", [
    ({"face": "skull"}, "roll: data.face: 'skull' is not a face of the movement die (1, 2, alarm)"),
    ({"face": 2}, "roll: data.face must be a face of the movement die"),
    ({"count": 10}, "roll: data.count must be a whole number from 1 to 9, not 10"),
    ({"count": True}, "not true/false True"),
    ({"count": 2.0}, "data.count must be a whole number"),
])
def test_a_bad_value_is_refused_naming_the_field(data, words):
    with pytest.raises(BadAction) as err:
        ROLL.check(data, "roll")
    assert words in str(err.value)


def test_required_fields_and_refused_extras():
    strict = Args({"to": Arg(Text(numbers=True))}, extra="refuse")
    assert strict.check({"to": 7}, "move") == {"to": "7"}
    with pytest.raises(BadAction, match="move needs data.to"):
        strict.check({}, "move")
    with pytest.raises(BadAction, match="unknown field"):
        strict.check({"to": "1", "x": 2}, "move")
    with pytest.raises(BadAction, match="data must be an object"):
        strict.check(["to"], "move")


def test_numbers_are_finite_and_in_range():
    seconds = Number(0, 3600)
    assert seconds.check(1, "t") == 1.0
    for bad in (0, -1, math.nan, math.inf, 3601, "5", False):
        with pytest.raises(BadAction):
            seconds.check(bad, "t")
    assert Number(0, 10, closed=True).check(0, "t") == 0.0


def test_lists_and_flags():
    heroes = ListOf(Text(max_len=20), min_len=1, max_len=4, one=True)
    assert heroes.check("storm", "deploy: data.heroes") == ["storm"]
    with pytest.raises(BadAction, match=r"data.heroes\[1\]"):
        heroes.check(["storm", 5], "deploy: data.heroes")
    with pytest.raises(BadAction, match="1 to 4"):
        heroes.check([], "deploy: data.heroes")
    assert Flag().check(False, "x") is False
    with pytest.raises(BadAction):
        Flag().check(0, "x")


def test_a_schema_describes_itself_as_json_schema():
    doc = ROLL.describe()
    assert json.loads(json.dumps(doc)) == doc
    assert doc["properties"]["face"]["enum"] == ["1", "2", "alarm"]
    assert doc["properties"]["count"] == {"type": "integer", "minimum": 1, "maximum": 9,
                                          "default": 1}
    assert doc["required"] == [] and doc["additionalProperties"] is True
    assert Number(0, 3600).describe() == {"type": "number", "exclusiveMinimum": 0,
                                          "maximum": 3600}
