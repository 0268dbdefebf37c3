"""Argument schemas: small declarative values that check an action's data before any rule runs.

A schema is a frozen dataclass: it can be read (its fields say what is allowed), it checks a
value (``check`` returns the value normalised, or raises BadAction naming the field), and it
describes itself as JSON Schema (``describe``) for the docs, the pages and the HTTP boundary::

    ROLL = Args({"face": Arg(Choice(("1", "2", "alarm"), what="a face of the movement die",
                                    fold=True), required=False)})
    ROLL.check({"face": " Alarm"}, "roll")        # -> {"face": "alarm"}
    ROLL.describe()                               # -> {"type": "object", "properties": ...}

Only what is true of a value on its own is said here (its type, range, length, allowed values);
whether it is allowed now (a reachable space, a card in hand) is the rule's own check.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Mapping

from companion.errors import BadAction

MAX_TEXT = 200


class Schema:
    """What every schema offers: check a value, describe the values allowed."""

    def check(self, value: Any, where: str) -> Any:
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        raise NotImplementedError

    def wanted(self) -> str:
        """The values allowed, in a few words, for error messages."""
        raise NotImplementedError


def _type_name(value: Any) -> str:
    return "true/false" if isinstance(value, bool) else type(value).__name__


def _wrong(where: str, wanted: str, value: Any) -> BadAction:
    return BadAction(f"{where} must be {wanted}, not {_type_name(value)} {_short(value)}")


def _digits(value: Any, numbers: bool) -> Any:
    """A whole number as its digits, where a schema takes numbers for names (space 7)."""
    if numbers and isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True)
class Text(Schema):
    """A string; ``fold`` trims it and lowers its case (face names typed by hand)."""

    min_len: int = 1
    max_len: int = MAX_TEXT
    fold: bool = False
    numbers: bool = False     # a whole number is taken as its digits (space "7" typed as 7)

    def check(self, value: Any, where: str) -> str:
        value = _digits(value, self.numbers)
        if not isinstance(value, str):
            raise _wrong(where, self.wanted(), value)
        if self.fold:
            value = value.strip().lower()
        if not self.min_len <= len(value) <= self.max_len:
            raise BadAction(f"{where} must be {self.min_len} to {self.max_len} characters long")
        return value

    def wanted(self) -> str:
        return "a name (text)" if not self.numbers else "a name or a number"

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": ["string", "integer"] if self.numbers else "string",
                               "minLength": self.min_len, "maxLength": self.max_len}
        if self.fold:
            out["x-folded"] = "trimmed, lower case"
        return out


def shown(text: str) -> bool:
    """A name a screen can show: no control character (a NUL, an escape, a line break), and at
    least one character that is seen (not only spaces or zero-width marks; an emoji family's
    zero-width joiners are welcome)."""
    cats = [unicodedata.category(c) for c in text]
    return "Cc" not in cats and any(c not in ("Cf", "Zs", "Zl", "Zp", "Mn") for c in cats)


@dataclass(frozen=True)
class Choice(Schema):
    """One of a fixed list of strings (a die's faces, a board's spaces, a slot's names)."""

    values: tuple[str, ...]
    what: str = "one of the choices"
    fold: bool = False
    numbers: bool = False     # a whole number is taken as its digits (space "7" typed as 7)

    def check(self, value: Any, where: str) -> str:
        value = _digits(value, self.numbers)
        if not isinstance(value, str):
            raise _wrong(where, f"{self.what} ({', '.join(self.values)})", value)
        key = value.strip().lower() if self.fold else value
        if key not in self.values:
            raise BadAction(f"{where}: {value!r} is not {self.what} ({', '.join(self.values)})")
        return key

    def wanted(self) -> str:
        return self.what

    def describe(self) -> dict[str, Any]:
        return {"type": "string", "enum": list(self.values), "description": self.what}


@dataclass(frozen=True)
class Whole(Schema):
    """A whole number between ``low`` and ``high`` (true/false is not a number)."""

    low: int = 0
    high: int = 1_000_000

    def check(self, value: Any, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _wrong(where, self.wanted(), value)
        if not self.low <= value <= self.high:
            raise BadAction(f"{where} must be {self.wanted()}, not {value}")
        return value

    def wanted(self) -> str:
        return f"a whole number from {self.low} to {self.high}"

    def describe(self) -> dict[str, Any]:
        return {"type": "integer", "minimum": self.low, "maximum": self.high}


@dataclass(frozen=True)
class Number(Schema):
    """A finite number above ``low`` (or from it, with ``closed``) and at most ``high``."""

    low: float = 0.0
    high: float = 1e9
    closed: bool = False
    unit: str = ""

    def check(self, value: Any, where: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _wrong(where, self.wanted(), value)
        low_ok = value >= self.low if self.closed else value > self.low
        if not math.isfinite(value) or not low_ok or value > self.high:
            raise BadAction(f"{where} must be {self.wanted()}, not {value!r}")
        return float(value)

    def wanted(self) -> str:
        low = f"from {self.low:g}" if self.closed else f"above {self.low:g}"
        unit = f" {self.unit}" if self.unit else ""
        return f"a number{unit} {low} and at most {self.high:g}"

    def describe(self) -> dict[str, Any]:
        bound = "minimum" if self.closed else "exclusiveMinimum"
        return {"type": "number", bound: self.low, "maximum": self.high}


@dataclass(frozen=True)
class Flag(Schema):
    """true or false."""

    def check(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise _wrong(where, self.wanted(), value)
        return value

    def wanted(self) -> str:
        return "true or false"

    def describe(self) -> dict[str, Any]:
        return {"type": "boolean"}


@dataclass(frozen=True)
class ListOf(Schema):
    """A list of ``min_len`` to ``max_len`` items, each checked by ``item``; ``one`` also takes a
    single item as a list of one (``"heroes": "storm"``)."""

    item: Schema
    min_len: int = 0
    max_len: int = 50
    one: bool = False

    def check(self, value: Any, where: str) -> list[Any]:
        if self.one and not isinstance(value, list):
            value = [value]
        if not isinstance(value, list):
            raise _wrong(where, self.wanted(), value)
        if not self.min_len <= len(value) <= self.max_len:
            raise BadAction(f"{where} must be {self.wanted()}, not {len(value)} items")
        check = self.item.check
        try:
            return [check(v, where) for v in value]
        except BadAction:
            # the item's place goes into the message only when there is one to write (as in
            # Args.check: the same checks again, each item named)
            return [check(v, f"{where}[{i}]") for i, v in enumerate(value)]

    def wanted(self) -> str:
        return f"a list of {self.min_len} to {self.max_len} ({self.item.wanted()})"

    def describe(self) -> dict[str, Any]:
        out = {"type": "array", "items": self.item.describe(), "minItems": self.min_len,
               "maxItems": self.max_len}
        return {"anyOf": [out, self.item.describe()]} if self.one else out


@dataclass(frozen=True)
class Arg:
    """One field of an action's data: its schema, whether it must be given, and its default."""

    schema: Schema
    required: bool = True
    default: Any = None
    doc: str = ""


@dataclass(frozen=True)
class Args(Schema):
    """An action's ``data``: named fields, each an Arg. Fields it does not name are left alone
    (``extra="ignore"``: journals written before a field was declared still replay) or refused
    (``extra="refuse"``)."""

    fields: Mapping[str, Arg] = field(default_factory=dict)
    extra: str = "ignore"

    def __post_init__(self):
        # each field's check, read once per table rather than once per action
        object.__setattr__(self, "_plan", tuple((key, arg.required, arg.default, arg.schema.check)
                                                for key, arg in self.fields.items()))

    def check(self, value: Any, where: str) -> dict[str, Any]:
        """The checked data: every declared field (a missing optional one at its default)."""
        if not isinstance(value, dict):
            raise BadAction(f"{where}: data must be an object")
        out = {}
        for key, required, default, check in self._plan:
            got = value.get(key)
            if got is None:
                if required:
                    raise BadAction(f"{where} needs data.{key} ({self.fields[key].schema.wanted()})")
                out[key] = default
                continue
            try:
                out[key] = check(got, where)
            except BadAction:
                # the field's name goes into the message only when there is one to write: the
                # same check again, naming it (a check is a pure function of its value)
                check(got, f"{where}: data.{key}")
                raise
        if self.extra == "refuse":
            unknown = sorted(set(value) - set(self.fields))
            if unknown:
                raise BadAction(f"{where}: unknown field(s) data.{', data.'.join(unknown)}; "
                                f"{where} takes {', '.join(self.fields) or 'no data'}")
        return out

    def wanted(self) -> str:
        return "an object with " + (", ".join(self.fields) or "no fields")

    def describe(self) -> dict[str, Any]:
        props = {}
        for key, arg in self.fields.items():
            props[key] = {**arg.schema.describe(), **({"description": arg.doc} if arg.doc else {})}
            if not arg.required and arg.default is not None:
                props[key]["default"] = arg.default
        return {"type": "object", "properties": props,
                "required": [k for k, a in self.fields.items() if a.required],
                "additionalProperties": self.extra != "refuse"}


NO_ARGS = Args()
