"""All randomness the companion makes comes from the journal's seed, so a replay draws the same."""

import random


def rng_for(seed: int, step: int | str) -> random.Random:
    """The generator for one step of a game: setup, or the n-th effective action.

    Deriving a fresh generator per step (rather than sharing one stream) keeps an undone
    action from shifting every later draw, and makes an undone-then-redone roll draw the same.
    """
    return _SeededOnFirstDraw(f"companion:{seed}:{step}")


class _SeededOnFirstDraw(random.Random):
    """``random.Random(text)``, seeded only when something is first drawn from it: seeding from
    text (a SHA-512 and a Mersenne Twister set-up) is a good part of a step that draws nothing,
    a timer's or a camera read's. Every draw of ``random.Random`` goes through ``random`` or
    ``getrandbits`` (tests/companion/test_rng.py holds every method the engines use to that)."""

    def __init__(self, text: str | None = None):
        # None: a copy or an unpickling, whose state is set next (Random.__reduce__ passes no
        # arguments, then calls setstate)
        self._text = text          # the state is a placeholder until the first draw
        self.gauss_next = None

    def _ready(self) -> None:
        if self._text is not None:
            text, self._text = self._text, None
            super().seed(text)

    def seed(self, a=None, version=2) -> None:
        self._text = None
        super().seed(a, version)

    def random(self) -> float:
        self._ready()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._ready()
        return super().getrandbits(k)

    def getstate(self):
        self._ready()
        return super().getstate()

    def setstate(self, state) -> None:
        self._text = None
        super().setstate(state)
