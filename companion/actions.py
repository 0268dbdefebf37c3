"""Actions: the one currency of the design. Every input, whatever its source, becomes one."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from companion.errors import BadAction

_TYPE = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$")
_KNOWN_KEYS = {"type", "player", "data", "source", "at", "if_seq"}
MAX_ACTION_BYTES = 16 * 1024


_NO_DATA: Any = object()    # Action's data when none is given: a new empty dict


@dataclass(frozen=True, init=False)
class Action:
    """A small JSON-able record of something that happened at the table.

    ``at`` is the server's clock (seconds since the epoch) when the session accepted the action;
    it is journaled so that timers replay to the same remaining time.
    """

    type: str
    player: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    source: str = "api"
    at: float | None = None

    def __init__(self, type: str, player: str | None = None, data: dict[str, Any] = _NO_DATA,
                 source: str = "api", at: float | None = None):
        # the dataclass's own __init__ of a frozen class sets each field through
        # object.__setattr__; set in its __dict__, an action takes half the time to make (1.3 ->
        # 0.65 us here): one is made for every action the random player or the table submits
        d = self.__dict__
        d["type"], d["player"], d["source"], d["at"] = type, player, source, at
        d["data"] = {} if data is _NO_DATA else data

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.player is not None:
            out["player"] = self.player
        if self.data:
            out["data"] = self.data
        out["source"] = self.source
        if self.at is not None:
            out["at"] = self.at
        return out

    @classmethod
    def from_json(cls, obj: Any) -> "Action":
        """Build an action from untrusted JSON, with a clear error for every malformed part."""
        if not isinstance(obj, dict):
            raise BadAction(f"an action must be a JSON object, not {type(obj).__name__}")
        unknown = set(obj) - _KNOWN_KEYS
        if unknown:
            raise BadAction(
                f"unknown field(s) {', '.join(sorted(unknown))}: an action has "
                "'type', optional 'player', 'data' and 'source'"
            )
        kind = obj.get("type")
        if not isinstance(kind, str) or not _TYPE.match(kind):
            raise BadAction("an action needs a 'type' such as \"roll\" or \"timer.start\"")
        player = obj.get("player")
        if player is not None and (not isinstance(player, str) or not player.strip()):
            raise BadAction("'player' must be a non-empty string when given")
        data = obj.get("data", {})
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise BadAction("'data' must be a JSON object")
        source = obj.get("source", "api")
        if not isinstance(source, str) or len(source) > 40:
            raise BadAction("'source' must be a short string such as \"api\" or \"button\"")
        at = obj.get("at")
        if at is not None and (isinstance(at, bool) or not isinstance(at, (int, float))):
            raise BadAction("'at' must be a number of seconds")
        encoded = json.dumps(data)
        if len(encoded) > MAX_ACTION_BYTES:
            raise BadAction(f"the action's data is too large ({len(encoded)} bytes)")
        return cls(type=kind, player=player, data=data, source=source, at=at)

    def stamped(self, at: float) -> "Action":
        return Action(self.type, self.player, self.data, self.source, at)
