"""Every game through the same conformance test (as OpenSpiel does): random legal playouts reach
the end, never pass through an illegal state, and the journal replays to the same final state.
"""

import random

import pytest

from companion.actions import Action
from companion.games import Catalog, available
from companion.journal import Journal
from companion.rng import rng_for
from companion.session import Session

GAMES = available()
MAX_ACTIONS = 20_000


def play_out(engine, seed):
    """One random game in memory, the way the session folds it; returns (options, actions, state)."""
    rng = random.Random(seed)
    options = engine.sample_options(rng)
    state = engine.setup(options, rng_for(seed, "setup"))
    actions = []
    while engine.outcome(state)["status"] == "playing":
        assert len(actions) < MAX_ACTIONS, f"seed {seed}: no end after {MAX_ACTIONS} actions"
        action = engine.sample_action(state, rng)
        state = engine.apply(state, action, rng_for(seed, len(actions)))
        actions.append(action)
        problems = engine.invariants(state)
        assert not problems, f"seed {seed}, action {len(actions)} {action}: {problems}"
    return options, actions, state


@pytest.mark.parametrize("game", GAMES)
def test_thousands_of_random_games_end_legally(game):
    engine = Catalog()(game)
    statuses = set()
    for seed in range(2000):
        _, _, state = play_out(engine, seed)
        outcome = engine.outcome(state)
        assert outcome["status"] in engine.outcomes, outcome
        statuses.add(outcome["status"])
    missing = set(engine.outcomes) - statuses
    assert not missing, f"2000 random games never reached {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_journal_replays_to_the_same_final_state(game, tmp_path):
    catalog = Catalog()
    engine = catalog(game)
    for seed in range(25):
        options, actions, final = play_out(engine, seed)
        path = tmp_path / f"{game}-{seed}.sqlite3"
        with Journal(path) as journal:
            session = Session(journal, catalog)
            session.start(game, options, seed=seed)
            for action in actions:
                session.submit(Action(action.type, action.player, action.data, "test"))
            live = session.view()
        with Journal(path) as journal:
            replayed = Session(journal, catalog).view()
        assert live["state"] == replayed["state"] == engine.to_json(final)
        assert replayed["outcome"] == engine.outcome(final)
