"""The view of each change, made once: what the HTTP answer, every event stream and every
listener are given.

A ``Change`` holds the view as a dict and the same view as strict JSON bytes, encoded once; the
answer to the request that made the change is those bytes, and so is every stream's frame
(web/streams.py). The game's part of a view (its state, what the table should do next, the
reminders, the outcome) depends on the game's state alone, so it is made and encoded once per
state: a change that leaves the game's state as it was (a table timer, a camera read waiting for
its tap, a notice) reuses it, bytes included. The parts are shared between views: read them,
never change them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion import dice_reads, strict_json
from companion.fold import Table
from companion.games.base import Game
from companion.timers import Timer


@dataclass(frozen=True)
class Change:
    seq: int
    view: dict[str, Any]            # as at the change: its "now", its timers
    body: bytes                     # ``view`` as strict JSON
    timers: dict[str, Timer]        # to show the same timers at another moment
    outcome: dict[str, Any] | None  # the game's, for the journal's games row

    def at(self, now: float) -> dict[str, Any]:
        """The view as it reads at ``now`` (only the clock and the timers differ)."""
        view = dict(self.view)
        view["now"] = now
        view["timers"] = {name: t.to_json(now) for name, t in self.timers.items()}
        return view


class View(dict):
    """A change's view as a dict, with the same view as bytes in ``body``."""

    __slots__ = ("body",)

    @classmethod
    def of(cls, change: Change) -> "View":
        view = cls(change.view)
        view.body = change.body
        return view


def encode(value: Any) -> bytes:
    return strict_json.compact(value).encode()


class Views:
    """Makes each change's view, keeping the game's part of the latest game state."""

    def __init__(self) -> None:
        self._engine: Game | None = None
        self._game: Any = None
        self._parts: dict[str, Any] = {}
        self._fragment = b""

    def change(self, seq: int, record: Any, engine: Game, table: Table,
               undo: dict[str, Any] | None, notices: list[dict[str, Any]], now: float,
               undone: dict[str, Any] | None = None) -> Change:
        """The view after a change (``undone``: the action an undo took back, when the change
        is one, for every screen to say). ValueError when some part is not strict JSON."""
        parts, fragment = self._game_parts(engine, table.game)
        timers = {**table.timers, **engine.timers(table.game)}
        head = {"seq": seq, "game": record.game, "game_id": record.id, "title": engine.title}
        tail = {"timers": {name: t.to_json(now) for name, t in timers.items()},
                "timer_controls": engine.timer_controls(table.game), "undo": undo,
                "undone": undone,
                "dice_read": table.dice_read, "last_roll": table.last_roll, "notices": notices,
                "read_waits": dice_reads.waiting_words(
                    table.dice_read, parts["expect"], lambda p: engine.shown_name(table.game, p)),
                "now": now}
        body = b"".join((encode(head)[:-1], b",", fragment, b",", encode(tail)[1:]))
        return Change(seq, {**head, **parts, **tail}, body, timers, parts["outcome"])

    def expect_of(self, game: Any) -> dict[str, Any] | None:
        """``expect`` of ``game`` where the latest view was made of it (None otherwise), so the
        next action's step does not ask the engine again. Shared: read it, never change it."""
        return self._parts["expect"] if game is self._game and self._parts else None

    @staticmethod
    def empty(seq: int, notices: list[dict[str, Any]], now: float) -> Change:
        """The view with no game in progress."""
        view = {"seq": seq, "game": None, "state": None, "expect": None, "reminders": [],
                "timers": {}, "timer_controls": None, "outcome": None, "undo": None, "undone": None, "dice_read": None,
                "last_roll": None, "notices": notices, "read_waits": None, "now": now}
        return Change(seq, view, encode(view), {}, None)

    def _game_parts(self, engine: Game, game: Any) -> tuple[dict[str, Any], bytes]:
        if game is not self._game:
            before = (self._game, self._parts["state"]) if engine is self._engine else None
            parts = {"state": engine.view_json(game, before), "expect": engine.expect(game),
                     "reminders": engine.reminders(game), "outcome": engine.outcome(game)}
            self._fragment = encode(parts)[1:-1]
            self._engine, self._game, self._parts = engine, game, parts
        return self._parts, self._fragment
