"""All randomness the companion makes comes from the journal's seed, so a replay draws the same."""

import random


def rng_for(seed: int, step: int | str) -> random.Random:
    """The generator for one step of a game: setup, or the n-th effective action.

    Deriving a fresh generator per step (rather than sharing one stream) keeps an undone
    action from shifting every later draw, and makes an undone-then-redone roll draw the same.
    """
    return random.Random(f"companion:{seed}:{step}")
