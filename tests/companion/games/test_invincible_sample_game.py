"""The sample replay file folds through the engine (and a real session) to a won Episode 1."""

import json
from pathlib import Path

from companion.actions import Action
from companion.games import Catalog
from companion.journal import Journal
from companion.rng import rng_for
from companion.session import Session

SAMPLE = Path(__file__).with_name("invincible_sample_game.jsonl")


def _read():
    lines = [json.loads(line) for line in SAMPLE.read_text().splitlines() if line.strip()]
    head, actions = lines[0], [Action.from_json(a) for a in lines[1:]]
    return head["setup"], head["seed"], actions


def test_sample_game_folds_to_a_win():
    engine = Catalog()("invincible")
    options, seed, actions = _read()
    state = engine.setup(options, rng_for(seed, "setup"))
    for step, action in enumerate(actions):
        state = engine.apply(state, action, rng_for(seed, step))
        assert engine.invariants(state) == [], (step, action)
    outcome = engine.outcome(state)
    assert outcome["status"] == "won"
    assert set(state.defeated) >= {"flaxan-first-wave", "flaxan-tank", "flaxan-scout"}
    assert outcome["score"] == sum(item["points"] for item in outcome["score_items"])


def test_sample_game_replays_through_a_session(tmp_path):
    options, seed, actions = _read()
    catalog = Catalog()
    path = tmp_path / "sample.sqlite3"
    with Journal(path) as journal:
        session = Session(journal, catalog)
        session.start("invincible", options, seed=seed)
        for action in actions:
            session.submit(action)
        live = session.view()
    with Journal(path) as journal:
        replayed = Session(journal, catalog).view()
    assert live["outcome"]["status"] == "won"
    assert replayed["state"] == live["state"] and replayed["outcome"] == live["outcome"]
