"""A step's generator draws exactly what ``random.Random("companion:<seed>:<step>")`` draws (it is
only seeded later, on its first draw): journals written before replay to the same cards.

The engines draw with shuffle, choice, randint, sample, randrange and random (grep ``rng.`` in
companion/games); each is checked here in long mixed sequences, since one draw through a path
that skipped the seeding would shift every draw after it.
"""

import copy
import pickle
import random

from companion.rng import rng_for


def draws(rng: random.Random, script: random.Random, count: int) -> list:
    """``count`` draws of every kind the engines make, in an order ``script`` picks."""
    out = []
    for _ in range(count):
        kind = script.randrange(8)
        if kind == 0:
            deck = list(range(script.randint(0, 40)))
            rng.shuffle(deck)
            out.append(deck)
        elif kind == 1:
            out.append(rng.choice("abcdefghij"[:script.randint(1, 10)]))
        elif kind == 2:
            out.append(rng.randint(1, script.choice((6, 20, 1 << 40))))
        elif kind == 3:
            pool = range(script.randint(3, 60))
            out.append(rng.sample(pool, script.randint(0, 3)))
        elif kind == 4:
            out.append(rng.randrange(script.choice((2, 7, 1 << 31))))
        elif kind == 5:
            out.append(rng.random())
        elif kind == 6:
            out.append(rng.choices("xyz", k=3))
        else:
            out.append((rng.uniform(-1, 1), rng.gauss(0, 1), rng.getrandbits(70)))
    return out


def test_every_draw_the_engines_make_equals_the_seeded_generators():
    for seed, step in [(12, 0), (12, 7), (0, "setup"), (2**63 - 1, 10_000), (5, 1)] + [
            (s, s * 3) for s in range(40)]:
        ours, plain = rng_for(seed, step), random.Random(f"companion:{seed}:{step}")
        assert type(ours) is not random.Random          # the lazy one is the one checked
        assert draws(ours, random.Random(seed), 60) == draws(plain, random.Random(seed), 60)
        assert ours.getstate() == plain.getstate()


def test_each_method_alone_as_the_first_draw():
    firsts = [lambda r: r.shuffle(d := list(range(52))) or d, lambda r: r.choice(range(100)),
              lambda r: r.randint(1, 6), lambda r: r.sample(range(30), 5),
              lambda r: r.randrange(10), lambda r: r.random()]
    for first in firsts:
        for step in range(20):
            assert first(rng_for(3, step)) == first(random.Random(f"companion:3:{step}"))


def test_state_untouched_before_a_draw_reads_as_the_seeded_one():
    ours, plain = rng_for(9, 4), random.Random("companion:9:4")
    assert ours.getstate() == plain.getstate()
    ours = rng_for(9, 4)
    ours.seed(77)                                        # an explicit seed wins over the text
    assert ours.random() == random.Random(77).random()


def test_copies_and_pickles_draw_on_as_the_original():
    def untouched():
        return rng_for(8, 2)

    def drawn_from():
        rng = rng_for(8, 2)
        rng.random()
        return rng

    for made in (untouched, drawn_from):
        expected = five(made())
        original = made()
        for clone in (copy.copy(original), copy.deepcopy(original),
                      pickle.loads(pickle.dumps(original))):
            assert five(clone) == expected
        assert five(original) == expected


def five(rng: random.Random) -> list[int]:
    return [rng.randrange(1000) for _ in range(5)]
