"""The other adapters as the dashboard sees them: hardware status, simulated buttons, dice reads.

Each adapter is optional: with none attached the endpoints answer clearly instead of failing.
"""

from __future__ import annotations

import re

from flask import Blueprint, Response, current_app, jsonify

from companion.dice_reads import check_changes
from companion.errors import BadAction, Conflict
from web.api import json_body

devices = Blueprint("devices", __name__, url_prefix="/api")
READ_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
BUTTON = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,39}$")
TOKEN_WORD = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


def _ext():
    return current_app.extensions["companion"]


@devices.get("/hardware")
def hardware_status():
    hw = _ext().get("hardware")
    camera = _ext().get("camera")
    simulate = bool(_ext().get("simulate"))
    out = {"status": hw.status() if hw is not None else None,
           "simulate": simulate,
           "can_press": simulate and hw is not None and hasattr(hw, "press"),
           "starting": sorted(_ext().get("starting") or ())}
    if camera is not None:
        out["camera"] = camera.status()
        out["can_throw"] = simulate and hasattr(camera.source, "throw")
        out["can_lay_card"] = simulate and _ext().get("cards") is not None \
            and hasattr(camera.source, "show_card")
    pulls = _ext().get("pulls")
    if pulls is not None:
        out["pulls"] = pulls.status()
    if hw is not None:
        out["meanings"] = _meanings()
    return jsonify(out)


def _meanings() -> dict | None:
    """What each table button means now, by the running game's table map: a family learns it
    here, not from the refusal of a press."""
    session = _ext()["session"]
    view = session.view()
    if not view.get("game"):
        return None
    phase = (view.get("expect") or {}).get("phase") or "over"
    table = session.catalog(view["game"]).table_map()
    buttons = table.at(view)
    camera = _ext().get("camera")
    why = camera.press_refusal() if camera is not None else None
    if why and not buttons.get("read_dice", "").startswith("nothing now"):
        buttons["read_dice"] = f"nothing now: {why}"      # the camera's own reason (read already)
    return {"game": view["game"], "phase": phase, "buttons": buttons}


@devices.post("/camera/pull")
def lay_pull():
    """Simulation: a hero (``hero``, else the first who may pull) lays cubes drawn from their
    bag in their pull area; the pull camera reads them once they lie still."""
    pulls = _ext().get("pulls")
    if not _ext().get("simulate") or pulls is None or not pulls.status()["can_lay"]:
        raise Conflict("cubes can be laid from the dashboard only on the simulated pull mat "
                       "(companion serve --simulate)")
    hero = json_body().get("hero")
    if hero is not None and (not isinstance(hero, str) or not TOKEN_WORD.match(hero)):
        raise BadAction("pull needs data hero: a hero's id, 1 to 40 letters, digits, '-' or '_'")
    return jsonify({**pulls.lay(hero), "pulls": pulls.status()})


@devices.post("/camera/read")
def camera_read_now():
    """A player's "read the dice now": the camera reads the next frame, settled or not."""
    camera = _ext().get("camera")
    if camera is None:
        raise Conflict("no camera is attached (configure [camera], or run with --simulate)")
    json_body()
    camera.read_now()
    return jsonify({"camera": camera.status()})


@devices.post("/camera/throw")
def camera_throw():
    """Simulation: throw the dice the game expects now into the simulated tray."""
    camera = _ext().get("camera")
    if not _ext().get("simulate") or camera is None or not hasattr(camera.source, "throw"):
        raise Conflict("dice can be thrown from the dashboard only into the simulated tray "
                       "(companion serve --simulate)")
    json_body()
    return jsonify({"thrown": camera.throw(), "camera": camera.status()})


@devices.post("/camera/card")
def lay_card():
    """Simulation: lay a card's rendered stand-in in the simulated card area (``card``: its id,
    of ``game``'s deck, the game on the table by default), or take it away (``card`` null)."""
    cards = _ext().get("cards")
    if not _ext().get("simulate") or cards is None:
        raise Conflict("a card can be laid from the dashboard only in the simulated card area "
                       "(companion serve --simulate)")
    body = json_body()
    card, game = body.get("card"), body.get("game")
    if card is not None and (not isinstance(card, str) or not TOKEN_WORD.match(card)):
        raise BadAction("card: a card's id (1 to 40 letters, digits, '-' or '_'), or null to "
                        "take the card away")
    if game is None:
        game = _ext()["session"].view().get("game")
    if not isinstance(game, str) or not game:
        raise BadAction("game: which game's card to lay (no game is on the table)")
    return jsonify(cards.lay(game, card))


@devices.post("/hardware/press")
def press():
    hw = _ext().get("hardware")
    if not _ext().get("simulate") or hw is None or not hasattr(hw, "press"):
        raise Conflict("buttons can be pressed from the dashboard only in simulation "
                       "(companion serve --simulate)")
    body = json_body()
    name, hold = body.get("name"), body.get("hold", False)
    if not isinstance(name, str) or not BUTTON.match(name):
        raise BadAction("press needs data name: a button's name such as \"roll\"")
    if not isinstance(hold, bool):
        raise BadAction("hold must be true or false")
    hw.press(name, hold=hold)
    return jsonify({"status": hw.status()})


@devices.post("/hardware/token")
def place_token():
    """Simulation: a piece's token placed on the reader under a space (the game's table map says
    what that means now: a mover's move, a character's deploy)."""
    hw = _ext().get("hardware")
    if not _ext().get("simulate") or hw is None or not hasattr(hw, "place_token"):
        raise Conflict("tokens can be placed from the dashboard only in simulation "
                       "(companion serve --simulate)")
    body = json_body()
    piece, space = body.get("piece"), body.get("space")
    for name, value in (("piece", piece), ("space", space)):
        if not isinstance(value, str) or not TOKEN_WORD.match(value):
            raise BadAction(f"token needs data {name}: 1 to 40 letters, digits, '-' or '_' "
                            "(a hero or character id, a space or zone)")
    hw.place_token(piece, space)
    return jsonify({"status": hw.status()})


@devices.post("/dice/confirm")
def confirm_read():
    """One tap confirms a camera read; ``faces`` corrects it die by die (null: not a die) and
    ``added`` gives the dice the camera missed. The body is checked as the core checks the action
    (companion/dice_reads.py), so both refuse the same bodies in the same words."""
    body = json_body()
    read_id = body.get("id")
    if not isinstance(read_id, str) or not READ_ID.match(read_id):
        raise BadAction("confirm needs the read's id")
    faces, added = check_changes(body)
    session = _ext()["session"]
    if not hasattr(session, "confirm_read"):
        return jsonify({"error": "confirming dice reads needs the camera support in the core "
                                 "(session.confirm_read), which this version lacks"}), 501
    return jsonify(session.confirm_read(read_id, faces, added=added))


@devices.get("/dice/<read_id>.jpg")
def dice_photo(read_id: str):
    camera = _ext().get("camera")
    if camera is None or not READ_ID.match(read_id):
        return jsonify({"error": "no camera photo for that read"}), 404
    photo = camera.photo(read_id)
    if photo is None:
        return jsonify({"error": "no camera photo for that read (it may be too old)"}), 404
    return Response(photo, mimetype="image/jpeg", headers={"Cache-Control": "private, max-age=3600"})
