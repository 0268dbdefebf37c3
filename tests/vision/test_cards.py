"""Cards taught by camera (vision/cards.py): real OpenCV ORB features and homographies on
rendered draws (tilt, glare, a hand over part of the card). The full measure is
tests/bench/bench_cards.py; here a few cards, few draws, seeds the tuning never used."""

import numpy as np
import pytest

from vision.card_render import card, draw
from vision.cards import CardBook

IDS = ["problem-A", "problem-B", "road-3", "frozone-speed", "jackjack-4", "edna-1"]


@pytest.fixture(scope="module")
def book():
    b = CardBook()
    for i, cid in enumerate(IDS):
        assert b.teach(cid, card(cid, kind=i)) > 100
    return b


def test_each_taught_card_is_named_under_tilt_glare_and_cover(book):
    for cid in IDS:
        for seed in (5000, 5001):
            read = book.read(draw(card(cid, kind=IDS.index(cid)), seed, "all"))
            assert read.name == cid and not read.ask, (cid, seed, read)
            assert read.inliers >= 2 * max(read.runner_up, 1)


def test_a_card_never_taught_or_an_empty_table_asks_for_a_tap(book):
    for seed in (5000, 5001):
        read = book.read(draw(card("villain-9", kind=3), seed, "all"))
        assert read.name is None and read.ask, read
    empty = book.read(np.full((480, 640, 3), 120, np.uint8))
    assert empty.ask and empty.name is None and empty.to_json()["card"] is None


def test_bad_pictures_are_refused_with_a_reason(book):
    with pytest.raises(ValueError, match="taught already"):
        book.teach("road-3", card("road-3"))
    with pytest.raises(ValueError, match="too little detail"):
        CardBook().teach("blank", np.full((336, 240, 3), 250, np.uint8))
    with pytest.raises(ValueError, match="at least 32 pixels"):
        book.read(np.zeros((8, 8), np.uint8))
    with pytest.raises(ValueError, match="no card is taught"):
        CardBook().read(np.zeros((100, 100), np.uint8))
