"""Camera reads become actions: a confident read is the roll itself; a doubtful one waits in the
table's state until a player confirms or corrects it with one tap.

Both steps are journaled actions (`dice.read`, `dice.confirm`, `dice.dismiss`), so an unconfirmed
read survives a restart and an undo after a confirmation brings the read back. Which game action a
read stands for comes from the engine's ``expect()``: its first DiceRequest (companion/dice.py)
names the action type and the data field the faces go into.
"""

from __future__ import annotations

import re
from typing import Any

from companion.actions import Action
from companion.dice import DiceRequest, requests
from companion.errors import BadAction, IllegalAction

READ_ACTIONS = ("dice.read", "dice.confirm", "dice.dismiss")
MAX_DICE = 30
# A die read with less confidence waits for a tap. `[camera] threshold` in the config sets it
# for the camera's reader and the session alike; pages never judge a read themselves: they show
# the read's own "doubtful" list.
DEFAULT_THRESHOLD = 0.6
READ_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# Every dashboard shows a read's photo: only the service's own photo log may be named, never an
# address elsewhere that each screen would then fetch.
OWN_PHOTO = re.compile(r"^/api/dice/[A-Za-z0-9_-]{1,64}\.jpg$")


def check_source(data: dict[str, Any], offered: list[DiceRequest]) -> None:
    """A read's id, photo and set: an id a URL can carry, a photo of our own photo log, and a
    set of the dice (or cubes) a read may stand for now."""
    read_id, image, name = data.get("id"), data.get("image"), data.get("set")
    if read_id is not None and (not isinstance(read_id, str) or not READ_ID.match(read_id)):
        raise BadAction("dice.read: data.id must be 1 to 64 letters, digits, '-' or '_'")
    if image is not None and (not isinstance(image, str) or not OWN_PHOTO.match(image)):
        raise BadAction("dice.read: data.image must be a photo of the service's own photo log "
                        "(/api/dice/<id>.jpg), not another address")
    sets = sorted({d.set for r in offered for d in r.dice if d.set})
    if name is not None and (not isinstance(name, str) or name not in sets):
        raise BadAction(f"dice.read: data.set {str(name)[:40]!r} is not a set of the dice "
                        f"expected now ({', '.join(sets) or 'no dice are expected'})")


def check_dice(data: dict[str, Any]) -> list[dict[str, Any]]:
    dice = data.get("dice")
    if not isinstance(dice, list) or not 0 < len(dice) <= MAX_DICE:
        raise BadAction(f"dice.read needs data.dice: a list of 1 to {MAX_DICE} dice")
    out = []
    for i, die in enumerate(dice):
        if not isinstance(die, dict) or not isinstance(die.get("face"), str):
            raise BadAction(f"dice.read: data.dice[{i}] needs a face")
        conf = die.get("confidence", 1.0)
        if isinstance(conf, bool) or not isinstance(conf, (int, float)) or not 0 <= conf <= 1:
            raise BadAction(f"dice.read: data.dice[{i}].confidence must be between 0 and 1")
        box = die.get("box")
        if box is not None and (not isinstance(box, list) or len(box) != 4
                                or not all(isinstance(v, (int, float)) for v in box)):
            raise BadAction(f"dice.read: data.dice[{i}].box must be [x, y, w, h]")
        out.append({"face": die["face"], "confidence": float(conf), "box": box})
    return out


def chosen(expect: dict[str, Any] | None, extra: list[DiceRequest], name: str | None,
           player: str | None) -> DiceRequest:
    """The roll a read stands for: expect's first DiceRequest (of the read's set, where it
    names one); else, for a read of a set only the engine's further ``extra`` reads have, the
    reader's own (a hero's pull area is that hero's)."""
    wanted = requests(expect)
    if name is not None:
        wanted = [r for r in wanted if any(d.set == name for d in r.dice)] or [
            r for r in extra if any(d.set == name for d in r.dice)
            and (r.player is None or r.player == player)]
        if not wanted and any(any(d.set == name for d in r.dice) for r in extra):
            raise IllegalAction(f"a read of {name} for {str(player)[:40]!r} stands for no roll "
                                "now: name the player whose roll it is")
    if not wanted or wanted[0].action is None:
        raise IllegalAction("no dice roll is expected now: "
                            + ((expect or {}).get("prompt") or "start a game first"))
    return wanted[0]


def with_roll(read: dict[str, Any], expect: dict[str, Any] | None,
              extra: list[DiceRequest]) -> dict[str, Any]:
    """A waiting read of a roll expect does not list (a hero's pull) carries that roll, so a
    page can offer its faces for a correction; refused now if it stands for no roll."""
    if not read["set"] or any(d.set == read["set"] for r in requests(expect) for d in r.dice):
        return read
    return {**read, "roll": chosen(expect, extra, read["set"], read.get("player")).to_json()}


def action_for(expect: dict[str, Any] | None, request: DiceRequest, faces: list[str],
               player: str | None, source: str) -> Action:
    """The game action a list of read faces stands for now: ``request`` says which action,
    which data field, how many dice and which faces."""
    return request.action_for(faces, player, source, (expect or {}).get("player"))


def proposal(action: Action, dice: list[dict[str, Any]], threshold: float) -> dict[str, Any]:
    """The read as the table's state keeps it; confirmed at once when every die is sure."""
    data = action.data
    doubtful = [i for i, d in enumerate(dice) if d["confidence"] < threshold]
    read_id = data.get("id")
    if not isinstance(read_id, str):
        read_id = f"read-{int((action.at or 0) * 1000)}"
    return {
        "id": read_id,
        "set": data.get("set"),
        **({"player": action.player} if data.get("set") and action.player else {}),
        "dice": dice,
        "faces": [d["face"] for d in dice],
        "image": data.get("image") if isinstance(data.get("image"), str) else None,
        "threshold": threshold,
        "confirmed": not doubtful,
        "corrected": [],
        "doubtful": doubtful,
    }


def confirmed(read: dict[str, Any], faces: list[str]) -> dict[str, Any]:
    """A waiting read as the players confirmed it, noting which dice they corrected."""
    corrected = [i for i, (d, f) in enumerate(zip(read["dice"], faces)) if d["face"] != f]
    return {**read, "faces": list(faces), "confirmed": True, "corrected": corrected,
            "dice": [{**d, "face": f} for d, f in zip(read["dice"], faces)]}
