"""A state dataclass as plain JSON and back again, driven by its fields' type hints.

This is how a journal snapshot stores a table (companion/snapshots.py). It reads JSON only
(never pickle: a journal file can be edited by anyone with the SD card), builds nothing but the
dataclasses a hint names, and refuses, with ``NotRestorable``, whatever it cannot bring back
exactly: a set, an object that is not a dataclass, a dict with keys that are not text. A field
marked ``json: False`` (a game's component data, see move_table.data_field) is not stored: it is
taken from ``like``, the game's first state, which holds the same data.

What cannot be told from a hint (a tuple inside an ``Any``) would come back different, so a
snapshot is only trusted once a decoded copy has been found equal to the state it was made from.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any

_PLAIN = (str, int, float, bool, type(None))


class NotRestorable(TypeError):
    """A value this codec cannot store and bring back exactly."""


def encode(value: Any) -> Any:
    """``value`` as JSON-able lists, dicts and scalars (dataclasses as dicts of their fields)."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                raise NotRestorable(f"a dict key of type {type(key).__name__}")
            out[str(key)] = encode(item)
        return out
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)
                if f.metadata.get("json", True)}
    raise NotRestorable(f"a {type(value).__name__} is not plain data")


def decode(hint: Any, data: Any, like: Any = None) -> Any:
    """The value of type ``hint`` that ``encode`` turned into ``data``; ``like`` supplies the
    fields that were not stored (top level only)."""
    origin = typing.get_origin(hint)
    if hint is Any or hint is object:
        return data
    if hint in _PLAIN:
        return _scalar(hint, data)
    if origin in (typing.Union, types.UnionType):
        return _union(typing.get_args(hint), data)
    if origin is typing.Literal:
        if data not in typing.get_args(hint):
            raise NotRestorable(f"{data!r} is none of {typing.get_args(hint)}")
        return data
    if hint is list or hint is dict:
        return _check(hint, data)
    if hint is tuple:
        return tuple(_check(list, data))
    if origin in (list, tuple):
        args = typing.get_args(hint)
        items = _check(list, data)
        if origin is list:
            return [decode(args[0], v) for v in items]
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v) for v in items)
        if len(args) != len(items):
            raise NotRestorable(f"{len(items)} items for {hint}")
        return tuple(decode(a, v) for a, v in zip(args, items))
    if origin is dict:
        key_hint, value_hint = typing.get_args(hint) or (str, Any)
        return {_key(key_hint, k): decode(value_hint, v) for k, v in _check(dict, data).items()}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass(hint, data, like)
    raise NotRestorable(f"no way to bring back a {hint!r}")


def _scalar(hint: type, data: Any) -> Any:
    if hint is float and isinstance(data, (int, float)) and not isinstance(data, bool):
        return data                     # an int stays one: it is written back the same way
    if hint is int and isinstance(data, bool):
        return data
    if not isinstance(data, hint) or (hint is not bool and isinstance(data, bool)):
        raise NotRestorable(f"{data!r} is not a {hint.__name__}")
    return data


def _union(options: tuple, data: Any) -> Any:
    if data is None and type(None) in options:
        return None
    failures = []
    for option in options:
        if option is type(None):
            continue
        try:
            return decode(option, data)
        except NotRestorable as exc:
            failures.append(str(exc))
    raise NotRestorable(f"{data!r} fits none of {options}: {'; '.join(failures)}")


def _key(hint: Any, key: str) -> Any:
    if hint is str or hint is Any:
        return key
    if hint is int and key.lstrip("-").isdigit():
        return int(key)
    raise NotRestorable(f"a dict key of type {hint!r}")


def _check(kind: type, data: Any) -> Any:
    if not isinstance(data, kind):
        raise NotRestorable(f"expected a {kind.__name__}, found {type(data).__name__}")
    return data


@functools.lru_cache(maxsize=None)
def _fields(cls: type) -> tuple[tuple[str, Any, bool, bool], ...]:
    """(name, hint, stored, set by __init__) of each field of ``cls``."""
    hints = typing.get_type_hints(cls)
    return tuple((f.name, hints[f.name], f.metadata.get("json", True), f.init)
                 for f in dataclasses.fields(cls))


def _dataclass(cls: type, data: Any, like: Any) -> Any:
    data = _check(dict, data)
    known = {name for name, _h, stored, _i in _fields(cls) if stored}
    if set(data) != known:
        raise NotRestorable(f"{cls.__name__} has fields {sorted(known)}, not {sorted(data)}")
    init, later = {}, {}
    for name, hint, stored, by_init in _fields(cls):
        if stored:
            value = decode(hint, data[name])
        elif isinstance(like, cls):
            value = getattr(like, name)
        else:
            raise NotRestorable(f"{cls.__name__}.{name} is not stored and nothing holds it")
        (init if by_init else later)[name] = value
    obj = cls(**init)
    for name, value in later.items():
        object.__setattr__(obj, name, value)
    return obj
