"""The "Your box" page and its API: every component a game uses, printed or assumed, the owner's
corrections saved as the box (companion/box.py), export and import of a box file.

The page is rendered here from the items' schema (companion/box_items.py), so its forms need no
script beyond web/static/box.js (send a form, toggle a board link by tapping two spaces, walk
through a deck with the camera: the card area's adapter is ``extensions["cards"]``,
vision/card_camera.py, attached with the camera, absent without one). Reading
the box is open to anyone who may watch; changing it only from the table's own screen (trusted),
like the other things that are the owner's and not the players'.
"""

from __future__ import annotations

import math

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from companion import box_items
from companion.errors import BadAction, Conflict, DataFileError, SetupError
from companion.games import available
from web.access import Denied
from web.api import json_body

box = Blueprint("box", __name__)


def _catalog():
    return current_app.extensions["companion"]["session"].catalog


def _boxed_games() -> list[str]:
    """The games with a box, those whose files do not load included (their page says why)."""
    out = []
    for name in available():
        try:
            boxed = getattr(_catalog()(name), "boxed", None) is not None
        except DataFileError:
            boxed = True              # every engine that reads files has a box
        if boxed:
            out.append(name)
    return out


def _loads(game: str) -> bool:
    try:
        _catalog()(game)
    except DataFileError:
        return False
    return True


def _engine(game: str):
    if game not in _boxed_games():
        raise SetupError(f"no box for {game!r}: the games with one are "
                         + ", ".join(_boxed_games()))
    return _catalog()(game)


def _owner_only() -> None:
    if not current_app.extensions["companion"]["access"].trusted(request):
        raise Denied(403, "the box is changed from the table's own screen (the owner's, not a "
                          "phone's): open Your box there")


@box.get("/box")
def page():
    games = _boxed_games()
    game = request.args.get("game") or next((g for g in games if _loads(g)), games[0])
    described = box_items.describe(_engine(game))
    board = next((i for i in described["items"] if i.get("kind") == "board"), None)
    return render_template("box.html", view="box", renderers=[], games=games, game=game,
                           box=described, graph=layout(board["board"]) if board else None)


@box.get("/api/box")
def overview():
    out = []
    for g in _boxed_games():
        try:
            out.append({"game": g, **box_items.describe(_engine(g))["checklist"]})
        except DataFileError as exc:          # one game's broken file leaves the others usable
            out.append({"game": g, "error": str(exc)})
    return jsonify({"games": out})


@box.get("/api/box/<game>")
def one(game: str):
    return jsonify(box_items.describe(_engine(game)))


@box.post("/api/box/<game>/items")
def edit(game: str):
    _owner_only()
    body = json_body()
    changed = box_items.edit(_engine(game), body.get("key"), body.get("values"))
    return jsonify(box_items.save(_catalog(), game, changed))


@box.get("/api/box/<game>/export")
def export(game: str):
    text = box_items.export_box(_engine(game))
    return Response(text, mimetype="application/toml", headers={
        "Content-Disposition": f'attachment; filename="{game}-box.toml"'})


@box.post("/api/box/<game>/import")
def import_(game: str):
    """The body is the box file itself (TOML)."""
    _owner_only()
    return jsonify(box_items.import_box(_catalog(), game, request.get_data(cache=False)))


# -- teaching the cards by camera: the walk-through ------------------------------------------------

def _cards():
    cards = current_app.extensions["companion"].get("cards")
    if cards is None:
        raise Conflict("no camera is attached to teach the cards with (configure [camera], or "
                       "run with --simulate); a card's photo can also be put in the data folder's "
                       "cards/<game>/ as <card id>.png")
    return cards


def _deck(value) -> str | None:
    if value is not None and (not isinstance(value, str) or not value.isidentifier()):
        raise BadAction("deck: the name of one of the game's decks")
    return value


@box.get("/api/box/<game>/cards")
def walk(game: str):
    _engine(game)
    return jsonify(_cards().walk(game, _deck(request.args.get("deck"))))


@box.post("/api/box/<game>/cards/take")
def take(game: str):
    """The card area's picture kept as ``card``'s photo (owner only: it teaches the table)."""
    _owner_only()
    _engine(game)
    body = json_body()
    card = body.get("card")
    if not isinstance(card, str) or not 0 < len(card) <= 80:
        raise BadAction("take needs card: the id of the card shown to the camera")
    deck = _deck(body.get("deck"))
    return jsonify(_cards().take(game, card, deck))


@box.get("/api/box/<game>/cards/<card>.png")
def card_photo(game: str, card: str):
    _engine(game)
    photo = _cards().photo(game, card, _deck(request.args.get("deck")))
    if photo is None:
        return jsonify({"error": f"no photo of {card!r} is taught"}), 404
    return Response(photo, mimetype="image/png", headers={"Cache-Control": "no-store"})


def layout(board: dict) -> dict:
    """Where the board editor draws each space: the numbered ring on a circle, Start in the
    middle, a lettered space outside the ring space it links to (the file holds no drawing)."""
    n = board.get("numbered") or 1
    pos: dict[str, tuple[float, float]] = {}
    for i in range(n):
        a = 2 * math.pi * i / n - math.pi / 2
        pos[str(i + 1)] = (200 + 140 * math.cos(a), 200 + 140 * math.sin(a))
    pos[board["start"]] = (200, 200)
    ring = {str(i + 1) for i in range(n)}
    for k, (letter, _power) in enumerate(board["tiles"]):
        near = next((b if a == letter else a for a, b in board["links"]
                     if letter in (a, b) and (b if a == letter else a) in ring), None)
        if near is None:
            pos[letter] = (20 + 30 * k, 390)
            continue
        x, y = pos[near]
        pos[letter] = (200 + (x - 200) * 1.3, 200 + (y - 200) * 1.3)
    spaces = [{"id": s, "x": round(x, 1), "y": round(y, 1)} for s, (x, y) in pos.items()]
    return {"spaces": spaces, "links": board["links"]}
