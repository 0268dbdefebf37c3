"""From a generic table command (a button, a device button, a token) to the Action it means now.

A button does not know the game: "confirm", "draw_card" or "timer_toggle" are read against the
session's current view. Reading the dice belongs to the vision adapter, which this package must
not import, so it arrives as a callback from the composition root.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from companion.actions import Action
from companion.errors import IllegalAction
from hardware.settings import Command

TURN_TIMER = "turn"
# Action types a game may offer that mean "yes, go on": confirm takes the first one expected.
CONFIRM_TYPES = ("confirm", "next", "end_turn", "end_phase", "pass")


@dataclass
class Hooks:
    """Work other adapters do, wired in by the composition root."""

    read_dice: Callable[[], Any] | None = None
    confirm: Callable[[], bool] | None = None   # True when it confirmed something (a dice reading)


def _prompt(view: dict[str, Any]) -> str:
    expect = view.get("expect") or {}
    return expect.get("prompt") or "no game is in progress"


def resolve(command: Command, view: dict[str, Any], hooks: Hooks, source: str,
            fill: dict[str, str] | None = None) -> Action | None:
    """The action to submit, or None when a hook did the work. Raises IllegalAction when the
    command means nothing now (the message says what the table expects instead)."""
    if command.action is not None:
        return _literal(command.action, source, fill)
    name = command.name
    if name == "undo":
        return Action("undo", source=source)
    if name == "read_dice":
        if hooks.read_dice is None:
            raise IllegalAction("no camera is wired to read the dice; enter the roll on the dashboard")
        hooks.read_dice()
        return None
    actions = list((view.get("expect") or {}).get("actions") or [])
    if name == "confirm":
        if hooks.confirm is not None and hooks.confirm():
            return None
        for kind in CONFIRM_TYPES:
            if kind in actions:
                return Action(kind, player=command.player, source=source)
        raise IllegalAction(f"there is nothing to confirm now: {_prompt(view)}")
    if name == "draw_card":
        for kind in actions:
            if kind.startswith("draw"):
                return Action(kind, player=command.player, source=source)
        raise IllegalAction(f"no card is to be drawn now: {_prompt(view)}")
    if name == "done":
        return Action("done", player=command.player, source=source)
    if name == "timer_toggle":
        timer = (view.get("timers") or {}).get(TURN_TIMER)
        if timer is None or timer.get("expired"):
            return Action("timer.start", source=source,
                          data={"name": TURN_TIMER, "seconds": command.seconds})
        kind = "timer.pause" if timer.get("running") else "timer.resume"
        return Action(kind, source=source, data={"name": TURN_TIMER})
    raise IllegalAction(f"the button command {name!r} is unknown")


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
