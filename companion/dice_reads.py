"""Camera reads become actions: a confident read of the roll's number of dice is the roll itself;
a doubtful one, or one with a die too few or too many, waits in the table's state until a player
confirms or corrects it with one tap.

Both steps are journaled actions (`dice.read`, `dice.confirm`, `dice.dismiss`), so an unconfirmed
read survives a restart and an undo after a confirmation brings the read back. A confirmation may
correct a die's face, mark a read die "not a die" (a tray feature the camera took for one) and add
the dice the camera missed (two dice touching), so a read with a die too few or too many is put
right with a tap instead of a new throw. Which game action a
read stands for comes from the engine's ``expect()``: its first DiceRequest (companion/dice.py)
names the action type and the data field the faces go into.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from companion.actions import Action
from companion.dice import DiceRequest, requests
from companion.errors import BadAction, IllegalAction

READ_ACTIONS = ("dice.read", "dice.confirm", "dice.dismiss")
MAX_DICE = 30
MAX_FACE_CHARS = 40   # a face's id in a game's data ("evil_mutant"); far longer is not a face
# A die read with less confidence waits for a tap. `[camera] threshold` in the config sets it
# for the camera's reader and the session alike; pages never judge a read themselves: they show
# the read's own "doubtful" list.
DEFAULT_THRESHOLD = 0.6
READ_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# Every dashboard shows a read's photo: only the service's own photo log may be named, never an
# address elsewhere that each screen would then fetch.
OWN_PHOTO = re.compile(r"^/api/dice/[A-Za-z0-9_-]{1,64}\.jpg$")


def waiting_words(read: dict[str, Any] | None, expect: dict[str, Any] | None,
                  name_of: Callable[[str], str]) -> str | None:
    """The next step while a camera read waits for a tap (it holds every game up), in the words
    every screen shows and kid mode speaks: the view's ``read_waits``. None when none waits."""
    if not read or read.get("confirmed"):
        return None
    roll = read.get("roll") or ((expect or {}).get("dice") or [None])[0] or {}
    what = "pull" if "cube" in (read.get("set") or "") else "roll"    # a pull mat's read is of cubes
    whose = f"{name_of(roll['player'])}'s {what}" if roll.get("player") else f"The {what}"
    # a die thrown that may not be yet: the words say which one and the rule (Confirm is refused)
    request = DiceRequest.from_json(roll) if roll.get("too_many") and read.get("miscounted") else None
    held = request and held_out(request, len(read["faces"]))
    if held:
        return f"{whose} waits for a tap: {held} on a phone."
    return whose + " waits for a tap: confirm or correct the camera's read on a phone."


def held_out(request: DiceRequest, found: int) -> str | None:
    """Why a read's die too many may not be in the roll (the engine's words, with the rule), where
    the roll says: the players then know which die to take out or mark."""
    return request.too_many if found > request.span[1] else None


def count_words(request: DiceRequest, read: dict[str, Any]) -> str:
    """ "this roll is one die and the camera found 2": a miscounted read's first words."""
    fewest, most = request.span
    wanted = ("one die" if most == 1 else f"{most} dice" if fewest == most
              else f"{fewest} to {most} dice")
    has = ("with your changes the read has" if read.get("removed") or read.get("added")
           else "the camera found")
    return f"this roll is {wanted} and {has} {len(read['faces'])}"


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


def unsure(read: dict[str, Any], expect: dict[str, Any] | None, extra: list[DiceRequest],
           player: str | None) -> dict[str, Any]:
    """An unsure read as it waits: with its roll (``with_roll``) and, where a roll is expected
    and the read has a die too few or too many, also marked ``miscounted``, so the table's
    hardware says a screen must fix it (Confirm alone is refused). A read made when no roll is
    expected still waits unmarked, as recorded journals hold it."""
    read = with_roll(read, expect, extra)
    try:
        request = chosen(expect, extra, read["set"], read.get("player") or player)
    except IllegalAction:
        return read
    return {**read, "miscounted": True} if miscounted(request, read) else read


def miscounted(request: DiceRequest, read: dict[str, Any]) -> bool:
    """A read with more or fewer dice than the roll (two touching dice read as one, a shadow
    read as a die), sure of each die or not: it waits for a tap, marked ``miscounted``, so the
    players add the missing die or mark what is not a die instead of throwing again. A face
    no die of the roll has is refused when the read is applied, not here: a tap may correct it."""
    fewest, most = request.span
    return not fewest <= len(read["faces"]) <= most


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


def _face(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_FACE_CHARS


def check_changes(data: dict[str, Any]) -> tuple[list[str | None] | None, list[str]]:
    """A confirmation's changes, well formed: ``faces`` (absent: as read) has one entry a die
    read, its face or None where the camera read something that is not a die; ``added`` the
    faces of dice the camera missed. Whether they fit the read and the roll is checked against
    them (``confirmed``, ``check_count``). The dashboard's endpoint checks a body with this too."""
    unknown = set(data) - {"id", "faces", "added"}
    if unknown:
        raise BadAction(f"confirm takes id, faces and added, not {', '.join(sorted(unknown))[:80]}")
    faces, added = data.get("faces"), data.get("added")
    if faces is not None and (not isinstance(faces, list) or len(faces) > MAX_DICE
                              or not all(f is None or _face(f) for f in faces)):
        raise BadAction("dice.confirm: data.faces must be a list with one entry for each die "
                        "read: its face, or null where the camera read something that is not a die")
    if added is None:
        added = []
    if not isinstance(added, list) or len(added) > MAX_DICE or not all(_face(f) for f in added):
        raise BadAction(f"dice.confirm: data.added must be a list of up to {MAX_DICE} faces, "
                        "one for each die the camera missed")
    return faces, added


def confirmed(read: dict[str, Any], faces: list[str | None] | None,
              added: list[str]) -> dict[str, Any]:
    """A waiting read as the players confirmed it: ``faces`` one entry a die read (None: not a
    die), ``added`` the dice the camera missed. It notes which read dice they corrected and,
    only when they did so, which they removed and the faces they added: the roll's faces are
    the kept dice in the order read, then the added ones."""
    dice = read["dice"]
    if faces is None:
        faces = [d["face"] for d in dice]
    if len(faces) != len(dice):
        raise BadAction(f"dice.confirm: data.faces has {len(faces)} entries and the read "
                        f"{len(dice)} dice: one entry for each die read (null: not a die)")
    kept = [f for f in faces if f is not None]
    if not kept and not added:
        raise IllegalAction("every die read is marked 'not a die' and none is added: add the "
                            "dice of the roll, or throw the read away")
    if len(kept) + len(added) > MAX_DICE:
        raise BadAction(f"dice.confirm: a roll of at most {MAX_DICE} dice")
    out = {**read, "faces": kept + list(added), "confirmed": True,
           "corrected": [i for i, (d, f) in enumerate(zip(dice, faces))
                         if f is not None and d["face"] != f],
           "dice": [d if f is None else {**d, "face": f} for d, f in zip(dice, faces)]}
    removed = [i for i, f in enumerate(faces) if f is None]
    if removed:
        out["removed"] = removed
    if added:
        out["added"] = list(added)
    return out


def check_count(request: DiceRequest, read: dict[str, Any]) -> None:
    """A confirmed read with more or fewer dice than the roll, refused in words that say how
    to put it right with a tap (nothing is journaled: the read still waits)."""
    if not miscounted(request, read):
        return
    found = len(read["faces"])
    fix = held_out(request, found) or ("add each die the camera missed" if found < request.span[0]
                                       else "mark each one that is not a die as 'not a die'")
    raise IllegalAction(f"{count_words(request, read)}: {fix}; the read still waits")
