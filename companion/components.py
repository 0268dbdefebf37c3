"""Component data: dice, decks, boards, characters. Shipped as TOML beside the engines; an owner
may replace any file from the components folder of the data or config directory to match the box
on their table.
"""

from __future__ import annotations

import threading
import tomllib
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from companion.errors import DataFileError

# Keys any table may carry for the people who edit the file, read by no rule.
NOTES = frozenset({"title", "note", "assumption", "confirmed"})
_parsing = threading.local()


def component_file(name: str, override_dir: str | Path | None, shipped_dir: Path) -> Path:
    """The file to load for ``name`` (e.g. "incredibles.toml"): the owner's copy wins over the one
    shipped in ``shipped_dir`` (the game's package)."""
    if override_dir is not None:
        candidate = Path(override_dir) / name
        if candidate.is_file():
            return candidate
    return shipped_dir / name


def load_toml(path: Path) -> dict[str, Any]:
    try:
        # utf-8-sig: Windows' Notepad starts a file it saves as UTF-8 with a byte-order mark
        data = tomllib.loads(path.read_bytes().decode("utf-8-sig"))
    except FileNotFoundError as exc:
        raise DataFileError(f"{path}: file not found") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DataFileError(f"{path}: not valid TOML ({exc})") from exc
    except RecursionError:      # the standard library's reader recurses per level of nesting
        raise DataFileError(f"{path}: not valid here: arrays or tables nested too deeply") from None
    except OSError as exc:
        raise DataFileError(f"{path}: cannot be read ({exc})") from exc
    return data


class Reader:
    """Typed access to a parsed TOML table that names the file and key in every error."""

    def __init__(self, data: dict[str, Any], path: Path | str, where: str = ""):
        self.data = data
        self.path = path
        self.where = where
        self.read: set[str] = set()          # the keys the parser asked for
        made = getattr(_parsing, "readers", None)
        if made is not None:
            made.append(self)

    def took(self, *keys: str) -> None:
        """Keys read from ``data`` directly (all of them without any)."""
        self.read.update(keys or self.data)

    def _key(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def fail(self, key: str, message: str) -> DataFileError:
        return DataFileError(f"{self.path}: {self._key(key)}: {message}")

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        self.read.add(key)
        if key == "name" and key in self.data and isinstance(self.data[key], str) \
                and not self.data[key].strip():
            raise self.fail(key, "empty: a name the table can read")
        if key not in self.data:
            if default is ...:
                raise self.fail(key, "missing")
            return default
        value = self.data[key]
        if isinstance(value, bool) and kind in (int, float, (int, float)):
            raise self.fail(key, f"expected a number, got {value!r}")
        if not isinstance(value, kind):
            name = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            raise self.fail(key, f"expected {name}, got {type(value).__name__} {value!r}")
        return value

    def table(self, key: str) -> "Reader":
        return Reader(self.get(key, dict), self.path, self._key(key))

    def tables(self, key: str) -> list["Reader"]:
        items = self.get(key, list)
        out = []
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                raise self.fail(f"{key}[{i}]", "expected a table")
            out.append(Reader(item, self.path, f"{self._key(key)}[{i}]"))
        return out

    def strings(self, key: str, default: Any = ...) -> list[str]:
        values = self.get(key, list, default)
        if not all(isinstance(v, str) for v in values):
            raise self.fail(key, "expected a list of strings")
        return list(values)

    def one_of(self, key: str, choices: set[str] | list[str], default: Any = ...) -> str:
        value = self.get(key, str, default)
        if value not in choices:
            raise self.fail(key, f"{value!r} is not one of {', '.join(sorted(choices))}")
        return value


@contextmanager
def every_key_read() -> Iterator[None]:
    """A file parsed inside may hold no key its parser never asked for: a misspelt optional key
    (``cuont = 6``, ``rign``) was dropped without a word and the default used instead. The
    first one is refused, naming the keys that table may hold."""
    outer = getattr(_parsing, "readers", None)
    _parsing.readers = made = []
    try:
        yield
    finally:
        _parsing.readers = outer
    read: dict[int, set[str]] = {}           # a table may be read through several readers
    for reader in made:
        read.setdefault(id(reader.data), set()).update(reader.read)
    for reader in made:
        if not isinstance(reader.data, dict):
            continue
        for key in reader.data:
            if key not in read[id(reader.data)] and key not in NOTES:
                known = sorted(read[id(reader.data)] | NOTES)
                raise reader.fail(key, f"not a key read here (a typo?); this table may hold "
                                       f"{', '.join(known)}")
