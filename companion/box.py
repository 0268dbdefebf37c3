"""The owner's box: corrections to a game's component file, kept in the data folder, recorded in
every game set up with them.

A game's component file (shipped beside its engine, or the owner's full copy, see
companion/components.py) is the *base*. The owner's box is a *patch* over it, the same shape as
the file: tables merge key by key, a list of tables merges element by element on its ``id`` (or
``letter``), any other value replaces the base's. Confirming an item puts ``confirmed = true`` on
its table (an owner checked it against the box), which the engines read: an assumed value the
owner has confirmed is trusted like a printed one.

The box file (``<components>/box/<game>.toml``, also what export and import carry)::

    format = 1
    game = "incredibles"
    base = "<SHA-256 of the base data the patch was made against>"
    [patch.board]
    links = [["start", "1"], ...]
    confirmed = true

Every game records ``options["box"] = {"base", "hash", "patch"}``: the SHA-256 of the base data
it began with, and with a box the patch itself (small: only what the owner changed) and the
SHA-256 of the component data it produced, so the game and its replay keep that data after the
owner edits the box again. A game whose base changed since it began (the file edited, an update)
is not replayed with the new data: start-up holds it back until the data is put back.

A box remembers the base it was made against (``base``): when the base file changes under it (an
update of the companion, the owner's full copy edited by hand), the patch may no longer say what
the owner meant, and the Your box page and the setup page say so (``Boxed.base_warning``) until
the owner saves the box again.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from companion.components import component_file, every_key_read, load_toml
from companion.errors import DataFileError, SetupError
from companion.paths import write_whole

FORMAT = 1
MAX_BYTES = 256 * 1024      # a box file is a transcription of one box: far below this
MAX_DEPTH = 12
KEYS = ("id", "letter")     # what identifies an element of a list of tables
BOX_DIR = "box"


def merge(base: Any, patch: Any) -> Any:
    """``base`` with ``patch`` laid over it (neither changed)."""
    if isinstance(base, dict) and isinstance(patch, dict):
        out = dict(base)
        for key, value in patch.items():
            out[key] = merge(base[key], value) if key in base else value
        return out
    if _keyed(base) and isinstance(patch, list) and all(isinstance(p, dict) for p in patch):
        key = _keyed(base)
        out = list(base)
        where = {item.get(key): i for i, item in enumerate(out)}
        for item in patch:
            if item.get(key) in where:
                out[where[item[key]]] = merge(out[where[item[key]]], item)
            else:
                out.append(item)
        return out
    return patch


def _keyed(value: Any) -> str | None:
    if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
        return None
    for k in KEYS:
        ids = [v.get(k) for v in value]
        if all(isinstance(i, str) for i in ids) and len(set(ids)) == len(ids):
            return k
    return None


WORDS = frozenset({"note", "title"})     # read by people only


def _without(node: Any, keys: frozenset[str]) -> Any:
    if isinstance(node, dict):
        return {k: _without(v, keys) for k, v in node.items() if k not in keys}
    if isinstance(node, list):
        return [_without(v, keys) for v in node]
    return node


def content_hash(raw: dict[str, Any]) -> str:
    """The component data's identity: SHA-256 of its canonical JSON."""
    text = json.dumps(raw, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def check_patch(patch: Any, where: str, depth: int = 0) -> dict[str, Any]:
    """A patch is TOML-shaped: tables, lists, strings, numbers, true/false, nothing deeper than
    MAX_DEPTH. The game's own loader checks what the values mean."""
    if depth > MAX_DEPTH:
        raise DataFileError(f"{where}: nested deeper than {MAX_DEPTH} levels")
    if isinstance(patch, dict):
        for key, value in patch.items():
            if not isinstance(key, str) or not key:
                raise DataFileError(f"{where}: keys are non-empty strings")
            check_patch(value, f"{where}.{key}", depth + 1)
    elif isinstance(patch, list):
        for i, value in enumerate(patch):
            check_patch(value, f"{where}[{i}]", depth + 1)
    elif isinstance(patch, float) and patch != patch:
        raise DataFileError(f"{where}: not a number")
    elif not isinstance(patch, (str, int, float, bool)):
        raise DataFileError(f"{where}: {type(patch).__name__} is not a TOML value")
    return patch


@dataclass(frozen=True)
class Box:
    game: str
    patch: dict[str, Any] = field(default_factory=dict)
    base: str | None = None      # content_hash of the base data the patch was made against

    def to_toml(self) -> str:
        base = f"base = {_toml_value(self.base)}\n" if self.base else ""
        return f"format = {FORMAT}\ngame = {_toml_value(self.game)}\n{base}" + _toml_tables(
            {"patch": self.patch}, ())


def parse_box(text: str | bytes, game: str, where: str = "box file") -> Box:
    """A box file read from outside (the data folder, an import): checked before anything uses it."""
    if len(text) > MAX_BYTES:
        raise DataFileError(f"{where}: {len(text)} bytes is larger than a box file may be "
                            f"({MAX_BYTES} bytes)")
    try:
        raw = tomllib.loads(text.decode() if isinstance(text, bytes) else text)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DataFileError(f"{where}: not valid TOML ({exc})") from exc
    if raw.get("format") != FORMAT:
        raise DataFileError(f"{where}: format: expected {FORMAT}, got {raw.get('format')!r}")
    if raw.get("game") != game:
        raise DataFileError(f"{where}: game: this is a box for {raw.get('game')!r}, not {game!r}")
    unknown = set(raw) - {"format", "game", "patch", "base"}
    if unknown:
        raise DataFileError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    patch = raw.get("patch", {})
    if not isinstance(patch, dict):
        raise DataFileError(f"{where}: patch: expected a table")
    base = raw.get("base")
    if base is not None and not (isinstance(base, str) and len(base) == 64
                                 and all(c in "0123456789abcdef" for c in base)):
        raise DataFileError(f"{where}: base: expected the SHA-256 (64 hex digits) of the base "
                            "data the box was made against")
    return Box(game, check_patch(patch, f"{where}: patch"), base)


class BoxStore:
    """The owner's boxes, one file per game, in ``<components>/box/``."""

    def __init__(self, components_dir: str | Path | None):
        self.folder = Path(components_dir) / BOX_DIR if components_dir is not None else None

    def path(self, game: str) -> Path | None:
        return self.folder / f"{game}.toml" if self.folder is not None else None

    def load(self, game: str) -> Box:
        path = self.path(game)
        if path is None or not path.is_file():
            return Box(game)
        return parse_box(path.read_bytes(), game, str(path))

    def save(self, box: Box) -> None:
        """Written whole to a new file, then renamed over the old one: never half a box."""
        path = self.path(box.game)
        if path is None:
            raise DataFileError("this table has no data folder to keep the box in")
        text = box.to_toml()
        parse_box(text, box.game, "the box about to be saved")   # read back first, or not saved
        path.parent.mkdir(parents=True, exist_ok=True)
        write_whole(path, text)


class Boxed:
    """A game's component data: the base file with the owner's box over it, parsed by the game's
    loader (``parse(raw, where)``), once per distinct content."""

    def __init__(self, game: str, file: str | tuple[str, ...], shipped_dir: Path,
                 parse: Callable[[dict[str, Any], Any], Any],
                 components_dir: str | Path | None = None):
        """``file``: the game's component file, or its files (their top-level keys distinct:
        one base, and ``parse`` is given the tuple of their paths for its errors)."""
        self.game, self.parse = game, parse
        names = (file,) if isinstance(file, str) else file
        self.paths = [component_file(name, components_dir, shipped_dir) for name in names]
        self.path = self.paths[0] if isinstance(file, str) else ", ".join(map(str, self.paths))
        self.where: Any = str(self.path) if isinstance(file, str) else tuple(map(str, self.paths))
        self.base: dict[str, Any] = {}
        for path in self.paths:
            raw = load_toml(path)
            if not raw:
                raise DataFileError(f"{path}: the file is empty (remove it to use the shipped one)")
            twice = set(raw) & set(self.base)
            if twice:
                raise DataFileError(f"{path}: {sorted(twice)[0]}: also in another of the game's files")
            self.base.update(raw)
        self._data_hash: str | None = None
        self.store = BoxStore(components_dir)
        self.box = self.store.load(game)
        self._parsed: dict[str, Any] = {}
        # a mistake that only the box makes is the box file's: name it, not the base file
        self.data = self.resolve(self.box.patch, self.where if not self.box.patch else
                                 f"{self.store.path(game)} (your box over {self.path})")

    def raw(self, patch: dict[str, Any] | None = None) -> dict[str, Any]:
        return merge(self.base, patch if patch is not None else self.box.patch)

    def resolve(self, patch: dict[str, Any], where: str) -> Any:
        # keyed by the patch (small), not the merged data: every setup comes through here
        key = content_hash(patch)
        if key not in self._parsed:
            if len(self._parsed) >= 32:       # replays of many old boxes: keep memory bounded
                self._parsed.clear()
            with every_key_read():
                self._parsed[key] = self.parse(merge(self.base, patch), where)
        return self._parsed[key]

    def base_hash(self) -> str:
        return content_hash(self.base)

    def data_hash(self) -> str:
        """What a game pins of its base data: its identity, the notes to the reader left out
        (a note reworded changes no rule, and must not hold a game in progress back)."""
        if self._data_hash is None:          # the base is read once: hash it once
            self._data_hash = content_hash(_without(self.base, WORDS))
        return self._data_hash

    def base_warning(self) -> str | None:
        """What to tell the owner when the base data changed under their box (None: it did not,
        or the box is empty, or older than this check)."""
        if not self.box.patch or self.box.base is None or self.box.base == self.base_hash():
            return None
        return (f"The component data in {self.path} changed since your box was made (your "
                "corrections were made against other base data, e.g. before an update): check "
                "that each corrected item still matches your box, then save or confirm one to "
                "record the box against this data.")

    def record(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options a new game journals: the base data it began with (its hash) and the
        owner's box (when there is one), so that neither can change under it."""
        if "box" in options:
            return options
        box: dict[str, Any] = {"base": self.data_hash()}
        if self.box.patch:
            box.update(hash=content_hash(self.raw()), patch=self.box.patch)
        return {**options, "box": box}

    def for_options(self, options: dict[str, Any]) -> Any:
        """The data a game with these options plays with: the base with the box it recorded.
        A game whose base data changed since it began is refused: replayed with other data (an
        edited file, an update), it would silently no longer be the game on the table."""
        given = options.get("box")
        if given is None:                     # an older game: it recorded nothing
            return self.resolve({}, self.where)
        if not isinstance(given, dict) or not isinstance(given.get("patch", {}), dict):
            raise SetupError("box: expected {base, hash, patch} (the data the game began with)")
        if given.get("base", self.data_hash()) != self.data_hash():
            raise SetupError(f"the component data in {self.path} is not what this game began "
                             "with (edited since, or changed by an update of the companion)")
        if "patch" not in given:
            return self.resolve({}, self.where)
        try:
            return self.resolve(check_patch(given["patch"], "box.patch"), "the game's box")
        except DataFileError as exc:
            raise SetupError(str(exc)) from None


# -- writing TOML (the standard library reads it only) ----------------------------------------------

def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value, ascii_only=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise DataFileError(f"{value!r} cannot be written as TOML")


def _toml_key(key: str) -> str:
    plain = key.replace("_", "").replace("-", "").isalnum() and key.isascii()
    return key if plain else _toml_string(key, ascii_only=True)


def _toml_string(text: str, ascii_only: bool) -> str:
    """A TOML basic string: JSON's escapes are TOML's, but JSON leaves DEL (U+007F) as it is,
    and TOML allows no control character raw (a name with one made the box unreadable)."""
    return json.dumps(text, ensure_ascii=ascii_only).replace("\x7f", "\\u007f")


def _toml_tables(table: dict[str, Any], path: tuple[str, ...]) -> str:
    """Plain values first, then sub-tables as [a.b] sections; lists of tables stay inline."""
    plain = {k: v for k, v in table.items() if not isinstance(v, dict)}
    out = ""
    if plain or not path:
        if path:
            out += "\n[" + ".".join(_toml_key(p) for p in path) + "]\n"
        out += "".join(f"{_toml_key(k)} = {_toml_value(v)}\n" for k, v in plain.items())
    for k, v in table.items():
        if isinstance(v, dict):
            out += _toml_tables(v, (*path, k))
    return out


def check_box(boxed: Boxed, box: Box, where: str = "box file") -> Any:
    """The data ``box`` gives with this game's base file, or the DataFileError that names the
    field: nothing is saved or used before this passes."""
    if box.game != boxed.game:
        raise DataFileError(f"{where}: game: this is a box for {box.game!r}, not {boxed.game!r}")
    with every_key_read():
        return boxed.parse(merge(boxed.base, box.patch), where)
