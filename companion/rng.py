"""All randomness the companion makes comes from the journal's seed, so a replay draws the same."""

import random


def rng_for(seed: int, step: int | str) -> random.Random:
    """The generator for one step of a game: setup, or the n-th effective action.

    Deriving a fresh generator per step (rather than sharing one stream) keeps an undone
    action from shifting every later draw, and makes an undone-then-redone roll draw the same.
    """
    return _SeededOnFirstDraw(seed, step)


class _SeededOnFirstDraw(random.Random):
    """``random.Random(text)``, seeded only when something is first drawn from it: seeding from
    text (a SHA-512 and a Mersenne Twister set-up) is a good part of a step that draws nothing,
    a timer's or a camera read's. Every draw of ``random.Random`` goes through ``random`` or
    ``getrandbits`` (tests/companion/test_rng.py holds every method the engines use to that)."""

    def __init__(self, seed: int | None = None, step: int | str | None = None):
        # None: a copy or an unpickling, whose state is set next (Random.__reduce__ passes no
        # arguments, then calls setstate). Until the first draw the state is a placeholder, and
        # the seed's text is written only then: most steps draw nothing (0.85 -> 0.63 us here)
        self._unseeded = None if seed is None else (seed, step)
        self.gauss_next = None

    def _ready(self) -> None:
        if self._unseeded is not None:
            (seed, step), self._unseeded = self._unseeded, None
            super().seed(f"companion:{seed}:{step}")
            # Seeded now: later draws go straight to the generator's own methods (a shuffle
            # draws dozens of times; this check would cost each of them a Python call). The
            # same methods and state, so the same draws. A draw under way (a shuffle) still
            # holds the methods below, so they ask ``_unseeded`` rather than calling ``_ready``.
            self.__class__ = _Seeded

    def seed(self, a=None, version=2) -> None:
        self._unseeded = None
        super().seed(a, version)

    def random(self) -> float:
        if self._unseeded is not None:
            self._ready()
        return random.Random.random(self)      # not super(): self is a _Seeded by now

    def getrandbits(self, k: int) -> int:
        if self._unseeded is not None:
            self._ready()
        return random.Random.getrandbits(self, k)

    def getstate(self):
        if self._unseeded is not None:
            self._ready()
        return random.Random.getstate(self)

    def setstate(self, state) -> None:
        self._unseeded = None
        super().setstate(state)


class _Seeded(random.Random):
    """A step's generator once seeded: ``random.Random`` itself, under a name of its own."""
