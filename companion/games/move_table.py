"""Moves declared as data, in the spirit of boardgame.io: a table from (phase, action type) to a
handler, its argument schema and who may play it.

``Game.apply`` reads the table once, before any handler runs: the game is not over, the type is
known and open in this phase, the player is the right one, the arguments are well typed. A
handler then checks only what is particular to its rule, and returns a new state without
changing the one it was given. ``expect`` lists the moves the same table says are open, so what
is listed and what is accepted cannot differ.

A game's table, in its engine.py::

    MoveTable([
        Move("roll", ("roll",), moves.roll, ROLL_ARGS, who=TURN, rule=R_ROLL,
             doc="Roll the movement die: data.face ...", sample=sampler.roll),
        Move("choose", ("choose",), moves.choose, CHOOSE_ARGS, who=TABLE, rule=R_ALARM, ...),
    ])
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from companion.actions import Action
from companion.schema import NO_ARGS, Args

#: who may play a move
TURN = "turn"      # the player whose turn it is (an action naming another player is refused)
ANY = "any"        # any player of the game (the handler reads which from the action)
TABLE = "table"    # the table as a whole: the player named, if any, does not matter

Handler = Callable[[Any, "Play"], Any]
Sampler = Callable[[Any, random.Random], "dict[str, Any] | Action | None"]


@dataclass(frozen=True, init=False)
class Play:
    """What a handler is given besides the state: the arguments its schema checked (every
    declared field, a missing optional one at its default), the action as submitted (player,
    source, ``at``), and this step's random generator (virtual dice, shuffles)."""

    args: dict[str, Any]
    action: Action
    rng: random.Random

    def __init__(self, args: dict[str, Any], action: Action, rng: random.Random):
        # one a move: its fields set in its __dict__, not through a frozen dataclass's
        # object.__setattr__ each (0.6-0.9 -> 0.4-0.5 us here)
        d = self.__dict__
        d["args"], d["action"], d["rng"] = args, action, rng

    @property
    def player(self) -> str | None:
        return self.action.player


@dataclass(frozen=True)
class Move:
    """One move: its action type, the phases it is open in, and what runs it.

    ``when`` narrows "open" further (a card to play must be held); ``rule`` is cited when the
    move is refused as not open; ``doc`` is the one line the docs and the dashboard show;
    ``sample`` returns random valid data for it (or None when no valid data exists now)."""

    type: str
    phases: tuple[str, ...]
    handler: Handler
    args: Args = NO_ARGS
    who: str = TURN
    when: Callable[[Any], bool] | None = None
    rule: str | None = None
    doc: str = ""
    sample: Sampler | None = None

    def __post_init__(self):
        if self.who not in (TURN, ANY, TABLE):
            raise ValueError(f"move {self.type}: who is turn, any or table, not {self.who!r}")
        if isinstance(self.phases, str):
            raise ValueError(f"move {self.type}: phases is a tuple of phase names")


class MoveTable:
    """The moves of a game, by (phase, type); a type may be open in several phases, each with a
    handler of its own."""

    def __init__(self, moves: Iterable[Move]):
        self.moves = tuple(moves)
        self._by_key: dict[tuple[str, str], Move] = {}
        self._by_phase: dict[str, list[Move]] = {}
        for move in self.moves:
            for phase in move.phases:
                if (phase, move.type) in self._by_key:
                    raise ValueError(f"move {move.type} is declared twice for phase {phase}")
                self._by_key[phase, move.type] = move
                self._by_phase.setdefault(phase, []).append(move)
        self.types = tuple(dict.fromkeys(m.type for m in self.moves))

    def get(self, phase: str, kind: str) -> Move | None:
        return self._by_key.get((phase, kind))

    def in_phase(self, phase: str) -> list[Move]:
        return self._by_phase.get(phase, [])

    def open(self, phase: str, state: Any) -> list[Move]:
        """The moves open now, in the order the table declares them."""
        return [m for m in self.in_phase(phase) if m.when is None or m.when(state)]

    def docs(self) -> dict[str, str]:
        """Action type -> its one line (the first move of that type that has one)."""
        out: dict[str, str] = {}
        for move in self.moves:
            if move.doc and move.type not in out:
                out[move.type] = move.doc
        return {t: out.get(t, "") for t in self.types}

    def describe(self) -> dict[str, Any]:
        """The table as JSON: per phase, each move's player rule and argument schema."""
        return {phase: {m.type: {"who": m.who, "args": m.args.describe(), "rule": m.rule,
                                 "doc": m.doc} for m in moves}
                for phase, moves in self._by_phase.items()}


# -- the state's data -------------------------------------------------------------------------

def data_field(default: Any = None) -> Any:
    """The field that holds a game's component data inside its state: resolved once from the
    options by ``Game.resolve_data`` at setup, shared (never copied) by every later state, left
    out of the state's JSON and of comparisons."""
    return field(default=default, kw_only=True, repr=False, compare=False,
                 metadata={"json": False})


def state_json(state: Any) -> dict[str, Any]:
    """A state dataclass as JSON, without the fields marked ``json: False`` (its data)."""
    return {f.name: _plain(getattr(state, f.name)) for f in dataclasses.fields(state)
            if f.metadata.get("json", True)}


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return state_json(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
