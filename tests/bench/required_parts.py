"""Two parts of a random action that any engine of a game pays, whatever its rules code, timed
alone: the random player's draws (the dice it rolls, the move and the data it picks: a random
game is made of them) and the checks of each action's arguments against its move's schema (the
brief: every input is validated). With framework_floor.py's loop they bound from below what a
random action of that game can cost in this project's shape.

Both are recorded from seeded random games played by bench_core's loop (random_loop.py), then
replayed alone: the generator's calls, the same arguments on a fresh generator; each action's
data through its move's ``Args.check``. CPU time, best of three passes.
"""

from __future__ import annotations

import random
import time
from typing import Any

from companion.games import Catalog
from random_loop import play

DRAWS = ("shuffle", "choice", "choices", "sample", "randint", "randrange", "random", "getrandbits",
         "uniform")


class Recording(random.Random):
    """A generator that notes each call the engine makes of it (not the calls those make)."""

    def __init__(self, seed: int, calls: list):
        self.calls, self._outer = calls, True
        super().__init__(seed)


def _noted(name: str):
    method = getattr(random.Random, name)

    def noted(self, *args: Any, **kwargs: Any) -> Any:
        if not self._outer:
            return method(self, *args, **kwargs)
        self.calls.append((name, [list(a) if isinstance(a, (list, tuple, set)) else a
                                  for a in args], kwargs))
        self._outer = False
        try:
            return method(self, *args, **kwargs)
        finally:
            self._outer = True
    return noted


for _name in DRAWS:
    setattr(Recording, _name, _noted(_name))


class Recorded:
    """``engine`` as bench_core's loop sees it, noting the random player's draws and each
    action's move and data."""

    def __init__(self, engine):
        self.engine, self.draws, self.checks = engine, [], []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def sample_action(self, state, rng):
        recording = Recording(0, self.draws)
        recording.setstate(rng.getstate())
        action = self.engine.sample_action(state, recording)
        rng.setstate(recording.getstate())
        move = self.engine.moves.get(self.engine.phase_of(state), action.type)
        if move is not None:          # not a timer's action, which the engine checks apart
            self.checks.append((move.args, action.data, action.type))
        return action


def _best(run, passes: int = 3) -> float:
    best = float("inf")
    for _ in range(passes):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best


def per_action_us(game: str | Any, games: int = 30) -> tuple[float, float, float]:
    """(draws a random action makes, us of CPU those draws take, us its argument checks take),
    per action of ``games`` seeded random games of ``game`` (a name, or an engine)."""
    recorded = Recorded(Catalog()(game) if isinstance(game, str) else game)
    actions, _cpu = play(recorded, games)
    fresh = random.Random(1)

    def draws() -> None:
        for name, args, kwargs in recorded.draws:
            getattr(fresh, name)(*args, **kwargs)

    def checks() -> None:
        for args, data, where in recorded.checks:
            args.check(data, where)
    return (len(recorded.draws) / actions, _best(draws) / actions * 1e6,
            _best(checks) / actions * 1e6)


if __name__ == "__main__":
    from framework_floor import NothingGame
    nothing = NothingGame()
    nothing.length = 280
    for name in ("xmen-alert", "invincible", "incredibles", nothing):
        print(name, [round(x, 2) for x in per_action_us(name)])
