"""The encoders made once (companion/strict_json.py) write what ``json.dumps`` with the same
settings writes, and refuse a non-finite number naming where it sits, as ``dumps`` does."""

import json
import math

import pytest

from companion import strict_json

VALUES = [{"b": 1, "a": [1, 2.5, None, True], "c": {"z": "é\n", "y": []}}, [], "text", 3,
          {"seq": 10, "state": {"players": [{"name": "dash", "hp": 3}]}, "undo": None}]


@pytest.mark.parametrize("value", VALUES)
def test_the_cached_encoders_write_what_json_dumps_writes(value):
    assert strict_json.compact(value) == json.dumps(value, separators=(",", ":"))
    assert strict_json.compact(value, sort_keys=True) == json.dumps(
        value, separators=(",", ":"), sort_keys=True)
    assert strict_json.sorted_keys(value) == json.dumps(value, sort_keys=True)


@pytest.mark.parametrize("encode", [strict_json.compact, strict_json.sorted_keys])
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_non_finite_number_is_refused_naming_where(encode, bad):
    with pytest.raises(ValueError, match=r"at state\.players\[1\]\.hp"):
        encode({"state": {"players": [{"hp": 1}, {"hp": bad}]}})
