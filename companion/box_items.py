"""What the "Your box" page lists: every component a game's file holds, as items an owner can read,
correct and confirm, and the checklist of what is still assumed.

An item is one table of the component file (``board``, ``jackjack_die``) or one element of a list
of tables with an id (``heroes/dash``, ``alert.cards/doctor-doom``). Its status is ``printed`` (the
file says ``assumption = false``: from the rulebook, read-only), ``confirmed`` (assumed, and the
owner checked it against the box) or ``assumed``. Its fields, and the form built from them, come
from the values it holds: a whole number stays a whole number, a list of names a list of names.
An edit becomes a patch (companion/box.py) that the game's own loader checks before it is saved.

A game may add its own items (The Incredibles' board as a graph, its 30 cards one by one) with a
module ``companion.games.<game>.box`` offering ``items(raw)`` and ``edit(raw, key, values)``.
"""

from __future__ import annotations

from typing import Any

from companion.box import KEYS, _keyed
from companion.errors import DataFileError

META = {"assumption", "note", "confirmed"}
MAX_TEXT = 400


def status(table: dict[str, Any], default_assumed: bool = True) -> str:
    if not table.get("assumption", default_assumed):
        return "printed"
    return "confirmed" if table.get("confirmed") is True else "assumed"


def field_type(value: Any) -> str | None:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "names"
    if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return "numbers"
    if isinstance(value, list):
        return "json"
    return None


def fields(table: dict[str, Any], skip: set[str] = frozenset()) -> list[dict[str, Any]]:
    out = []
    for name, value in table.items():
        kind = field_type(value)
        if name in META or name in KEYS or name in skip or kind is None or _keyed(value):
            continue
        out.append({"name": name, "type": kind, "value": value})
    return out


def generic_items(raw: dict[str, Any], skip: set[str] = frozenset()) -> list[dict[str, Any]]:
    """One item per table that says whether it is assumed, one per element of each list of
    tables with ids (at the top level or inside such a table)."""
    items = []

    def elements(path: str, group: list[dict[str, Any]], parent_assumed: bool) -> None:
        key = _keyed(group)
        for element in group:
            items.append(_item(f"{path}/{element[key]}", path,
                               element.get("name") or element.get("title") or element[key],
                               status(element, parent_assumed), element))

    for name, value in raw.items():
        if name in skip:
            continue
        if isinstance(value, dict):
            if "assumption" in value:
                items.append(_item(name, name, name.replace("_", " ").capitalize(),
                                   status(value), value))
            for sub, inner in value.items():
                if _keyed(inner):
                    elements(f"{name}.{sub}", inner, value.get("assumption", True))
        elif _keyed(value):
            elements(name, value, True)
    return items


def _item(key: str, group: str, title: str, state: str, table: dict[str, Any]) -> dict[str, Any]:
    return {"key": key, "group": group, "title": str(title), "status": state,
            "note": table.get("note", ""), "fields": fields(table)}


def locate(raw: dict[str, Any], key: str) -> tuple[list[str], str | None, dict[str, Any]]:
    """The table an item key names: (path to it, the element's id or None, the table)."""
    path, _, ident = key.partition("/")
    parts = path.split(".")
    node: Any = raw
    for part in parts:
        node = node.get(part) if isinstance(node, dict) else None
    if not ident:
        if not isinstance(node, dict):
            raise DataFileError(f"{key}: no such component")
        return parts, None, node
    id_key = _keyed(node) if isinstance(node, list) else None
    found = next((e for e in node if e.get(id_key) == ident), None) if id_key else None
    if found is None:
        raise DataFileError(f"{key}: no such component")
    return parts, ident, found


def generic_edit(raw: dict[str, Any], key: str, values: dict[str, Any] | None) -> dict[str, Any]:
    """The patch that sets ``values`` on the item (None: confirms it as it is), each value of the
    type the item's field has; ``confirmed = true`` on it either way."""
    parts, ident, table = locate(raw, key)
    if table.get("assumption", True) is False:
        raise DataFileError(f"{key}: printed in the rulebook, not editable")
    known = {f["name"]: f["type"] for f in fields(table)}
    change: dict[str, Any] = {}
    for name, value in (values or {}).items():
        if name not in known:
            raise DataFileError(f"{key}.{name}: not a field of this component "
                                f"({', '.join(known) or 'none'})")
        change[name] = check_value(f"{key}.{name}", known[name], value)
    change["confirmed"] = True
    if ident is not None:
        change = {_keyed(_at(raw, parts)): ident, **change}
        change = [change]
    for part in reversed(parts):
        change = {part: change}
    return change


def _at(raw: dict[str, Any], parts: list[str]) -> Any:
    for part in parts:
        raw = raw[part]
    return raw


def check_value(where: str, kind: str, value: Any) -> Any:
    """A form's value, of the type its field has: the loader checks what it means."""
    ok = {
        "bool": lambda v: isinstance(v, bool),
        "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "text": lambda v: isinstance(v, str) and len(v) <= MAX_TEXT,
        "names": lambda v: isinstance(v, list) and all(isinstance(x, str) and len(x) <= MAX_TEXT
                                                       for x in v),
        "numbers": lambda v: isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool)
                                                         for x in v),
        "json": lambda v: isinstance(v, list),
    }[kind]
    if not ok(value):
        wanted = {"bool": "true or false", "int": "a whole number", "text": "text",
                  "names": "a list of names", "numbers": "a list of whole numbers",
                  "json": "a list"}[kind]
        raise DataFileError(f"{where}: expected {wanted}, got {type(value).__name__} {value!r}"[:300])
    return value


def checklist(title: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    """"Incredibles: board confirmed, 23 of 30 cards confirmed": per group, what is known (printed
    or confirmed) of what there is, and the items still assumed."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for item in items:
        groups.setdefault(item["group"], []).append(item)
    parts = []
    for group, members in groups.items():
        name = group.replace("_", " ").replace(".", " ")
        known = sum(i["status"] != "assumed" for i in members)
        if len(members) == 1:
            parts.append(f"{name} {members[0]['status']}")
        else:
            parts.append(f"{known} of {len(members)} {name} confirmed")
    assumed = [i["key"] for i in items if i["status"] == "assumed"]
    return {"summary": f"{title}: " + ", ".join(parts), "assumed": assumed,
            "known": len(items) - len(assumed), "total": len(items)}


# -- one game's box, as the page and the API see it -----------------------------------------------

def _view(engine):
    return getattr(engine, "box_view", None)


def items_of(engine, raw: dict[str, Any]) -> list[dict[str, Any]]:
    view = _view(engine)
    return view.items(raw) if view is not None else generic_items(raw)


def describe(engine) -> dict[str, Any]:
    """Everything the "Your box" page shows of one game."""
    from companion.box import content_hash

    boxed = engine.boxed
    raw = boxed.raw()
    items = items_of(engine, raw)
    return {"game": boxed.game, "title": engine.title, "file": str(boxed.path),
            "hash": content_hash(raw), "edited": bool(boxed.box.patch), "items": items,
            "warning": boxed.base_warning(),
            "checklist": checklist(engine.title, items)}


def edit(engine, key: str, values: dict[str, Any] | None):
    """The owner's box with one item corrected (or confirmed), checked by the game's loader;
    the caller saves it."""
    from companion.box import Box, check_box, merge

    if not isinstance(key, str) or len(key) > 200:
        raise DataFileError("key: expected the item's key (text)")
    if values is not None and not isinstance(values, dict):
        raise DataFileError(f"{key}: values: expected an object of field -> value")
    boxed = engine.boxed
    view = _view(engine)
    change = (view.edit if view is not None else generic_edit)(boxed.raw(), key, values)
    box = Box(boxed.game, merge(boxed.box.patch, change), boxed.base_hash())
    check_box(boxed, box, f"{key}")
    return box


def save(catalog, game: str, box) -> dict[str, Any]:
    """Save a checked box and build the game afresh for the next game; the one in progress keeps
    what it began with (its options recorded the box)."""
    engine = catalog(game)
    engine.boxed.store.save(box)
    catalog.reload(game)
    return describe(catalog(game))


def import_box(catalog, game: str, text: str | bytes) -> dict[str, Any]:
    """A box file from another owner: read, checked by the game's loader, then saved whole; a bad
    file raises the DataFileError that names the place and changes nothing."""
    from companion.box import check_box, parse_box

    engine = catalog(game)
    box = parse_box(text, game, "box file")     # its base: the one it was made against, kept
    check_box(engine.boxed, box, "box file")
    return save(catalog, game, box)


def export_box(engine) -> str:
    return engine.boxed.box.to_toml()
