"""Strict JSON at every edge: what comes in from outside and what goes out to a client.

Python's ``json`` reads ``NaN``, ``Infinity`` and ``1e400`` (which becomes ``inf``) and writes
them back out, but JSON has no such numbers: a browser's ``JSON.parse`` throws on them, so one
NaN in a state freezes every dashboard. Bodies are therefore read with those refused, nesting
bounded, duplicate keys and unpaired surrogates refused, and every refusal names the field.
Answers are written with ``allow_nan=False``, so a non-finite number that got in some other way
is an error on our side, never a frame a client chokes on.
"""

from __future__ import annotations

import json
import math
from typing import Any

from companion.errors import BadJSON

MAX_DEPTH = 32      # an action is three or four levels deep; a game's options six or seven


class _NonFinite:
    """Stands in for a number JSON does not have, until the walk can say where it was."""

    def __init__(self, text: str):
        self.text = text


def _constant(text: str) -> _NonFinite:
    return _NonFinite(text)


def _float(text: str) -> float | _NonFinite:
    value = float(text)
    return value if math.isfinite(value) else _NonFinite(text)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def _plain(exc: ValueError) -> str:
    """The parser's complaint in a reader's words, not Python's advice to its programmer."""
    text = str(exc)
    if "integer string conversion" in text:
        return "a number with more than 4300 digits"
    if "BOM" in text:
        return "it begins with a byte-order mark: send UTF-8 without one"
    return text


def loads(raw: bytes | str, *, what: str = "the body", max_depth: int = MAX_DEPTH) -> Any:
    """Parse untrusted JSON; raise BadJSON naming the field for anything JSON does not allow."""
    if isinstance(raw, (bytes, bytearray)):
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadJSON(f"{what} is not UTF-8 (byte {exc.start})") from None
    try:
        value = json.loads(raw, parse_constant=_constant, parse_float=_float,
                           object_pairs_hook=_object)
    except RecursionError:
        raise BadJSON(f"{what} is nested more than {max_depth} levels deep") from None
    except ValueError as exc:
        raise BadJSON(f"{what} is not valid JSON ({_plain(exc)})") from None
    _check(value, what, max_depth)
    return value


def _check(value: Any, what: str, max_depth: int) -> None:
    """Walk the parsed value without recursion: depth, non-finite numbers, bad strings."""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, _NonFinite):
            raise BadJSON(f"{_where(what, path)}: {item.text} is not a number JSON allows "
                          "(send a finite number)")
        if isinstance(item, str):
            _check_text(item, what, path)
            continue
        if not isinstance(item, (dict, list)):
            continue
        if depth >= max_depth:
            raise BadJSON(f"{_where(what, path)}: nested more than {max_depth} levels deep")
        if isinstance(item, dict):
            for key, child in item.items():
                _check_text(key, what, path)
                stack.append((child, f"{path}.{key}" if path else key, depth + 1))
        else:
            for i, child in enumerate(item):
                stack.append((child, f"{path}[{i}]", depth + 1))


def _check_text(text: str, what: str, path: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise BadJSON(f"{_where(what, path)}: text with an unpaired surrogate (\\ud800-\\udfff) "
                      "is not valid Unicode") from None


def _where(what: str, path: str) -> str:
    if not path:
        return what
    return path if len(path) <= 80 else path[:38] + "..." + path[-38:]


# Made once: json.dumps builds a new encoder for every call with arguments of its own, which is
# most of the cost of encoding a small value (an entry, a view's parts) once per change. A view
# is built fresh from plain values, never a cycle, so the compact one skips the check for one
# (a sixth of the time of a large view; a cycle would still fail, as a RecursionError).
_ENCODERS = {(False, False): json.JSONEncoder(allow_nan=False, separators=(",", ":"),
                                              check_circular=False),
             (False, True): json.JSONEncoder(allow_nan=False, separators=(",", ":"), sort_keys=True,
                                             check_circular=False),
             (True, True): json.JSONEncoder(allow_nan=False, sort_keys=True)}


def dumps(value: Any, **kwargs: Any) -> str:
    """JSON for a client or the journal: a non-finite number raises ValueError naming where."""
    kwargs.setdefault("allow_nan", False)
    try:
        return json.dumps(value, **kwargs)
    except ValueError as exc:
        raise _where_not_finite(value, exc) from None


def compact(value: Any, sort_keys: bool = False) -> str:
    """``dumps`` with no spaces (a view, a frame); ValueError naming where a NaN sits."""
    try:
        return _ENCODERS[False, sort_keys].encode(value)
    except ValueError as exc:
        raise _where_not_finite(value, exc) from None


def sorted_keys(value: Any) -> str:
    """``dumps(value, sort_keys=True)``, the way the journal writes every entry."""
    try:
        return _ENCODERS[True, True].encode(value)
    except ValueError as exc:
        raise _where_not_finite(value, exc) from None


def _where_not_finite(value: Any, exc: ValueError) -> ValueError:
    where = non_finite_path(value)
    return ValueError(f"{exc} (at {where})" if where else str(exc))


def non_finite_path(value: Any) -> str | None:
    """Where the first NaN or infinity sits in a JSON-like value, or None."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return path or "the top"
        if isinstance(item, dict):
            stack.extend((v, f"{path}.{k}" if path else str(k)) for k, v in item.items())
        elif isinstance(item, (list, tuple)):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(item))
    return None
