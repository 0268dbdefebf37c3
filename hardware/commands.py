"""From a generic table command (a button, a device button, a token) to the Action it means now.

A button does not know the game: "next", "confirm", "draw_card" or "timer_toggle" mean what the
running game's table map (companion/table_map.py, data beside the game's) says for the current
phase, read against the session's current view; so does a token placed on a reader with no
action of its own. Reading the dice belongs to the vision adapter, which this package must not
import, so it arrives as a callback from the composition root.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from companion.actions import Action
from companion.dice import check_readable
from companion.errors import IllegalAction
from companion.table_map import TableMap, timer_closed
from hardware.settings import Command

TURN_TIMER = "turn"


@dataclass
class Hooks:
    """Work other adapters do, wired in by the composition root."""

    read_dice: Callable[[], Any] | None = None
    read_card: Callable[[], Any] | None = None   # the camera names the card in the card area
    confirm: Callable[[], bool] | None = None   # True when it confirmed something (a dice reading)


def _prompt(view: dict[str, Any]) -> str:
    expect = view.get("expect") or {}
    return expect.get("prompt") or "no game is in progress"


def resolve(command: Command, view: dict[str, Any], hooks: Hooks, source: str,
            fill: dict[str, str] | None = None, table: TableMap | None = None) -> Action | None:
    """The action to submit, or None when a hook did the work. Raises IllegalAction when the
    command means nothing now (the message says what the table expects instead).

    A named command means what the running game's table map (``table``,
    companion/table_map.py) says it means in the current phase; a literal action is itself."""
    if command.action is not None:
        return _literal(command.action, source, fill)
    name = command.name
    if name == "done":
        return Action("done", player=command.player, source=source)
    if table is None:
        if name == "undo":
            return Action("undo", source=source)
        raise IllegalAction("no game is in progress: start one on the dashboard")
    meaning = table.resolve(name, view, source, fill)
    if meaning.action is not None:
        return table.action(meaning, view, source, fill)
    return _own(meaning.own, command, view, hooks, source, table.timer)


def _own(own: str, command: Command, view: dict[str, Any], hooks: Hooks, source: str,
         timer_name: str) -> Action | None:
    """The table's own commands (the map's "read_dice", "read_card", "confirm_read", "undo",
    "timer")."""
    if own == "undo":
        return Action("undo", source=source)
    if own == "read_dice":
        check_readable(view.get("expect"))
        if hooks.read_dice is None:
            raise IllegalAction("no camera is wired to read the dice; enter the roll on the dashboard")
        hooks.read_dice()
        return None
    if own == "read_card":
        if hooks.read_card is None:
            raise IllegalAction("no camera is wired to read the card area; tap the card drawn "
                                "on the screen")
        hooks.read_card()
        return None
    if own == "confirm_read":
        if hooks.confirm is not None and hooks.confirm():
            return None
        raise IllegalAction(f"there is nothing to confirm now: {_prompt(view)}")
    # "timer": pause or resume the game's running timer; the table's own starts afresh once
    # it ran out (a game's timer, such as hero time, is started by the game)
    timer = (view.get("timers") or {}).get(timer_name)
    closed = timer_closed(view, timer_name)
    if closed:
        raise IllegalAction(f"{closed}: {_prompt(view)}")
    if timer is None or timer.get("expired"):
        if (view.get("outcome") or {}).get("status", "playing") != "playing":
            raise IllegalAction("the game is over: no turn to time (start a new game, or undo "
                                "the last move)")
        if timer_name != TURN_TIMER:
            raise IllegalAction(f"the {timer_name.replace('_', ' ')} timer is not running now: "
                                f"{_prompt(view)}")
        return Action("timer.start", source=source,
                      data={"name": TURN_TIMER, "seconds": command.seconds})
    kind = "timer.pause" if timer.get("running") else "timer.resume"
    return Action(kind, source=source, data={"name": timer_name})


def _literal(action: Action, source: str, fill: dict[str, str] | None) -> Action:
    data = action.data
    if fill:
        data = {k: _fill(v, fill) for k, v in data.items()}
    return Action(action.type, player=action.player, data=data, source=source)


def _fill(value: Any, fill: dict[str, str]) -> Any:
    """Token actions name where the token lies: "{space}", "{reader}", "{tag}", "{piece}"."""
    if isinstance(value, str):
        for key, sub in fill.items():
            value = value.replace("{" + key + "}", sub)
        return value
    if isinstance(value, dict):
        return {k: _fill(v, fill) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, fill) for v in value]
    return value
