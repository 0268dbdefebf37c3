"""The table's last roll: one record, whatever channel entered it (a tap, the camera, a button,
the serial peripheral, a replayed file), so every screen shows the same, newest roll.

An action is a roll when the engine's ``expect()`` just before it asked for it (a DiceRequest,
companion/dice.py, naming its action); the faces are the ones the action carried in each kind
of die's field (a virtual roll carries none: the engine drew them, and its own state and log
say what came up).
"""

from __future__ import annotations

from typing import Any

from companion.actions import Action
from companion.dice import DiceRequest, requests


def is_roll(expect: dict[str, Any] | None, action: Action) -> bool:
    return any(r.action == action.type for r in requests(expect))


def as_read(expect: dict[str, Any] | None, extra: list[DiceRequest],
            action: Action) -> dict[str, Any] | None:
    """``expect`` with the dice of the read ``action`` stands for, where it is one that the
    engine's ``read_requests`` or ``drawn_requests`` list and expect does not (Invincible's pull,
    typed on a phone or pulled by the companion, after one the camera read; its defiance's fresh
    cubes): the newest pull, whatever channel entered it, is the last roll. None where the
    action is no such roll. Whose roll it is: the request its data names (a hero's pull area),
    else the action's player."""
    same = [r for r in extra if r.action == action.type]
    if not same or is_roll(expect, action):
        return None
    mine = [r for r in same if r.data and all(action.data.get(k) == v for k, v in r.data.items())]
    player = mine[0].player if mine else action.player
    return {**(expect or {}), "dice": [r.to_json() for r in mine or same], "player": player}


def record(expect: dict[str, Any] | None, action: Action, state_json: dict[str, Any] | None,
           read: dict[str, Any] | None = None, before: list[str] | None = None,
           whose: str | None = None) -> dict[str, Any]:
    """The roll ``action`` made, as the view shows it. ``read`` is the camera read it came from;
    ``before``: the game's log before the roll, so what it says is its own first line (a roll
    the companion makes may run on to the end of a phase: "The Villain Phase ends" said nothing
    of the rescue die). ``whose``: the roller where it is not the one who entered it (a hero's
    pull tapped on another player's phone)."""
    dice = []
    fields = set()    # several requests may name the same action (one per hero who must roll)
    for request in requests(expect):
        if request.action != action.type:
            continue
        for kind in request.dice:
            if kind.field in fields:
                continue
            fields.add(kind.field)
            value = action.data.get(kind.field)
            for face in value if isinstance(value, list) else [] if value is None else [value]:
                dice.append({"die": kind.die, "face": face})
    log = (state_json or {}).get("log")
    return {
        "type": action.type,
        "player": whose or action.player or (expect or {}).get("player"),
        "source": "camera" if read is not None else action.source,
        "confirmed_by": None if read is None or not (read.get("doubtful") or read.get("miscounted"))
        else action.source,
        "at": action.at,
        "dice": dice,
        "virtual": not dice,
        "read": read["id"] if read is not None else None,
        "said": _first_new(before, log) if isinstance(log, list) and log else None,
    }


def _first_new(before: list[str] | None, after: list[str]) -> str:
    """The first line of ``after`` that ``before`` did not have: every engine's roll says one.
    A log keeps its newest lines only: the old part is the longest end of ``before`` that
    ``after`` begins with, leaving at least one line new (a full log of repeated lines, "rolled
    alarm" / "drew Edna", would otherwise read as unchanged)."""
    if not isinstance(before, list):
        return after[-1]
    for old in range(min(len(before), len(after) - 1), -1, -1):
        if after[:old] == before[len(before) - old:]:
            return after[old]
    return after[-1]
