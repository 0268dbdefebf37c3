"""What X-Men Alert shares between a state and the next (issue 17): a move works on ``fork()``,
which shares the teams, Battle Zones, decks and other lists (``SHARED``) with the state it came
from until the move takes its own copy (``own_team``, ``own_zone``, ``own``). A state is never
changed once made, so no move may change a list it still shares.
"""

import dataclasses
import pickle
import random

import pytest

from companion.games import Catalog
from companion.games.xmen.state import SHARED
from companion.rng import rng_for
from xmen_helpers import random_states


@pytest.fixture(scope="module")
def engine():
    return Catalog()("xmen-alert")


def every_field(state):
    """The state's own fields, the decks' order with them (to_json leaves it out)."""
    return pickle.dumps([getattr(state, f.name) for f in dataclasses.fields(state)
                         if f.metadata.get("json", True)])


def test_a_move_never_changes_the_state_it_came_from(engine):
    """The decks and lists a move shares with the state it came from (SHARED) are copied before
    it changes them: every deck is drawn from, shuffled and added to in these games, and each
    shared list is changed by some move."""
    moved, changed = 0, set()
    for state, action, rng in random_states(engine, games=8):
        before = every_field(state)
        after = engine.apply(state, action, rng)
        assert every_field(state) == before, action
        changed |= {name for name in SHARED if getattr(after, name) != getattr(state, name)}
        assert all(getattr(after, name) is not getattr(state, name) for name in after.mine
                   if isinstance(name, str))
        moved += 1
    assert moved > 300
    assert changed == set(SHARED), "every shared list is changed by some move"


def test_a_fork_shares_a_list_until_it_takes_its_own(engine):
    state = engine.setup(engine.sample_options(random.Random(3)), rng_for(3, "setup"))
    s = state.fork()
    assert all(getattr(s, name) is getattr(state, name) for name in SHARED)
    deck = s.own("alert_deck")
    assert deck is not state.alert_deck and deck == state.alert_deck
    assert s.own("alert_deck") is deck, "copied once per move"
    top = deck.pop(0)
    assert state.alert_deck[0] == top and len(state.alert_deck) == len(deck) + 1
    assert all(getattr(s, name) is getattr(state, name) for name in SHARED if name != "alert_deck")
