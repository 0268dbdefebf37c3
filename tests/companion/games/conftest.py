"""Fixtures for the X-Men Alert tests: the engine, and games with stacked decks."""

import random

import pytest

from companion.games import Catalog
from xmen_helpers import Table


@pytest.fixture(scope="session")
def engine():
    return Catalog()("xmen-alert")


@pytest.fixture
def game(engine):
    """game(players=..., advanced=..., **options) -> Table; Ana goes first unless told."""

    def make(players=("Ana", "Ben"), advanced=False, seed=0, **options):
        options = {"players": list(players), "advanced": advanced, **options}
        options.setdefault("first_player", players[0])
        return Table(engine, engine.setup(options, random.Random(seed)))

    return make
