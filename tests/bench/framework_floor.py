"""The floor under bench_core's random games: what one action of the benchmark's loop costs
when the engine does nothing, in the shape every engine of this project has (a move table,
companion/games/move_table.py, checked by ``Game.check`` before its handler runs).

The loop is the one bench_core and ab_random_games.py time (random_loop.py): ``outcome`` after every action,
``sample_action`` (the open moves, shuffled, the move's sampler), ``apply`` (``Game.check``, the
handler, ``after_move``) and a step's generator from ``rng_for``. The engine here has one move,
open to the player whose turn it is, with no arguments; its handler passes the turn on in a new
state, and the game ends after ``length`` moves. No rule is checked and nothing is drawn, so any
engine of the three pays at least this per action; what 4x the code before asks per action is
set beside it by bench_core.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any

from companion.games.base import Game
from companion.games.move_table import TURN, Move, MoveTable, Play
from random_loop import play


@dataclass(frozen=True)
class Counter:
    players: tuple[str, ...]
    length: int
    moves: int = 0
    turn: int = 0
    phase: str = "play"


def _step(state: Counter, play: Play) -> Counter:
    return dataclasses.replace(state, moves=state.moves + 1,
                               turn=(state.turn + 1) % len(state.players))


class NothingGame(Game):
    """An engine whose one move does nothing but pass the turn."""

    name = title = "nothing"

    def __init__(self) -> None:
        super().__init__()
        self.declare(MoveTable([Move("pass", ("play",), _step, who=TURN,
                                     sample=lambda state, rng: {})]))

    def setup(self, options: dict[str, Any], rng: random.Random) -> Counter:
        return Counter(tuple(options["players"]), options["length"])

    def sample_options(self, rng: random.Random) -> dict[str, Any]:
        return {"players": ["a", "b", "c"][:rng.randint(1, 3)], "length": self.length}

    def turn_of(self, state: Counter) -> tuple[str, ...]:
        return (state.players[state.turn],)

    def outcome(self, state: Counter) -> dict[str, Any]:
        return {"status": "playing" if state.moves < state.length else "won"}

    def expect(self, state: Counter) -> dict[str, Any]:
        return {"prompt": "pass"}


def per_action_us(length: int, games: int) -> float:
    """CPU microseconds an action of ``games`` random games ``length`` actions long, played by
    the benchmarks' loop (random_loop.py)."""
    engine = NothingGame()
    engine.length = length
    actions, cpu = play(engine, games)
    return cpu / actions * 1e6


if __name__ == "__main__":
    for length in (18, 280):
        print(length, [round(per_action_us(length, 20_000 // length), 2) for _ in range(5)])
