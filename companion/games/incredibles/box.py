"""The Incredibles on the "Your box" page: the board as a graph (spaces and links, edited by
tapping two spaces), the 30 cards one by one (type and what it names), the rest as the generic
items of companion/box_items.py."""

from __future__ import annotations

from typing import Any

from companion import box_items
from companion.errors import DataFileError
from companion.games.incredibles.data import KINDS

#: what each card type names on the card, and its id
NAMES = {"problem": "tile", "road_destroyed": "space", "frozone": "power", "jackjack": "space",
         "edna": None}
PREFIX = {"problem": "problem", "road_destroyed": "road", "frozone": "frozone",
          "jackjack": "jackjack", "edna": "edna"}


def cards(deck: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    """(id, kind, what it names) for every card the deck table lists, in the loader's ids."""
    out = []
    for kind in KINDS[:-1]:
        out += [(f"{PREFIX[kind]}-{v}", kind, v) for v in deck.get(kind, [])]
    edna = deck.get("edna", 0)
    out += [(f"edna-{i + 1}", "edna", None) for i in range(edna if isinstance(edna, int) else 0)]
    return out


def links(board: dict[str, Any]) -> list[list[str]]:
    """Every road, the ring's included (the editor shows and saves them one by one)."""
    out = [list(link) for link in board.get("links", [])]
    n = board.get("numbered", 0)
    if board.get("ring") and isinstance(n, int):
        out += [[str(i + 1), str((i + 1) % n + 1)] for i in range(n)]
    return out


def items(raw: dict[str, Any]) -> list[dict[str, Any]]:
    board, deck = raw.get("board", {}), raw.get("deck", {})
    confirmed = deck.get("confirmed", [])
    deck_status = box_items.status(deck)
    out = [{"key": "board", "group": "board", "title": "The board", "kind": "board",
            "status": box_items.status(board), "note": board.get("note", ""), "fields": [],
            "board": {"start": board.get("start"), "numbered": board.get("numbered"),
                      "tiles": [[t.get("letter"), t.get("power")] for t in board.get("tiles", [])],
                      "links": links(board)}}]
    out += box_items.generic_items(raw, skip={"board", "deck"})
    for cid, kind, names in cards(deck):
        state = ("confirmed" if deck_status == "assumed" and (confirmed is True or cid in confirmed)
                 else deck_status)
        out.append({"key": f"card/{cid}", "group": "cards", "title": cid, "kind": "card",
                    "status": state, "note": deck.get("note", ""),
                    "fields": [{"name": "kind", "type": "choice", "choices": list(KINDS),
                                "value": kind},
                               {"name": "names", "type": "text", "value": names or ""}]})
    return out


def edit(raw: dict[str, Any], key: str, values: dict[str, Any] | None) -> dict[str, Any]:
    if key == "board":
        return {"board": _board(values)}
    if key.startswith("card/"):
        return {"deck": _card(raw.get("deck", {}), key[5:], values)}
    return box_items.generic_edit(raw, key, values)


def _board(values: dict[str, Any] | None) -> dict[str, Any]:
    patch: dict[str, Any] = {"confirmed": True}
    if values is None:
        return patch
    given = values.get("links")
    if (not isinstance(given, list) or len(given) > 2000
            or not all(isinstance(x, list) and len(x) == 2 and all(isinstance(s, str) for s in x)
                       for x in given)):
        raise DataFileError("board.links: expected a list of links, each two space names")
    patch.update(links=given, ring=False)
    if "numbered" in values:
        patch["numbered"] = box_items.check_value("board.numbered", "int", values["numbered"])
    return patch


def _card(deck: dict[str, Any], cid: str, values: dict[str, Any] | None) -> dict[str, Any]:
    listed = {c[0]: c for c in cards(deck)}
    if cid not in listed:
        raise DataFileError(f"card/{cid}: no such card in the deck")
    confirmed = [c for c in deck.get("confirmed", []) if c in listed] if isinstance(
        deck.get("confirmed"), list) else []
    if values is None:
        return {"confirmed": sorted({*confirmed, cid})}
    kind = values.get("kind")
    if kind not in KINDS:
        raise DataFileError(f"card/{cid}.kind: {kind!r} is not a card type ({', '.join(KINDS)})")
    names = values.get("names", "")
    if NAMES[kind] is not None and (not isinstance(names, str) or not names.strip()):
        raise DataFileError(f"card/{cid}.names: a {kind} card names a {NAMES[kind]}")
    lists = {k: list(deck.get(k, [])) for k in KINDS[:-1]}
    edna = deck.get("edna", 0)
    _, old_kind, old_names = listed[cid]
    if old_kind == "edna":
        edna -= 1
        confirmed = [c for c in confirmed if c != f"edna-{edna + 1}"]
    else:
        lists[old_kind].remove(old_names)
    confirmed = [c for c in confirmed if c != cid]
    if kind == "edna":
        edna += 1
        new = f"edna-{edna}"
    else:
        lists[kind].append(names.strip())
        new = f"{PREFIX[kind]}-{names.strip()}"
    return {**lists, "edna": edna, "confirmed": sorted({*confirmed, new})}
