"""The sample replay file plays a whole Basic game to a win, folded through the engine the way the
session folds its journal (and `companion replay FILE --game xmen-alert` reads the same file)."""

import json
from pathlib import Path

from companion.actions import Action
from companion.games import Catalog
from companion.journal import Journal
from companion.rng import rng_for
from companion.session import Session

SAMPLE = Path(__file__).with_name("xmen_sample_game.jsonl")


def read_sample():
    lines = SAMPLE.read_text().splitlines()
    head = json.loads(lines[0])
    return head["setup"], head["seed"], [Action.from_json(json.loads(x)) for x in lines[1:]]


def test_the_sample_game_folds_to_a_win():
    engine = Catalog()("xmen-alert")
    options, seed, actions = read_sample()
    state = engine.setup(options, rng_for(seed, "setup"))
    kinds = set()
    for i, action in enumerate(actions):
        assert engine.outcome(state)["status"] == "playing", f"the game ended before line {i + 2}"
        state = engine.apply(state, action, rng_for(seed, i))
        assert engine.invariants(state) == [], f"line {i + 2}"
        kinds.add(action.type)
    out = engine.outcome(state)
    assert out["status"] == "won" and out["winner"] == "Ana"
    # Basic: "the first player to reach or pass the first X-Men Recruit space ... wins!"
    assert state.team("Ana").mover >= engine.data.recruit_spaces[0]
    assert {"first.roll", "deploy", "battle.roll", "recover.roll", "turn.end"} <= kinds
    assert any(a.data.get("attack") for a in actions)            # Archangel's Wing Missile
    # every roll came from the table: no virtual dice in the file
    assert all("faces" in a.data for a in actions if a.type.endswith(".roll"))


def test_the_sample_game_replays_through_the_journal_to_the_same_state(tmp_path):
    catalog = Catalog()
    engine = catalog("xmen-alert")
    options, seed, actions = read_sample()
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = Session(journal, catalog)
        session.start("xmen-alert", options, seed=seed)
        for action in actions:
            session.submit(action)
        live = session.view()
    with Journal(tmp_path / "j.sqlite3") as journal:
        replayed = Session(journal, catalog).view()
    assert live["state"] == replayed["state"]
    assert replayed["outcome"]["winner"] == "Ana"
    assert replayed["expect"]["phase"] == "over"
    assert engine.outcome(engine.setup(options, rng_for(seed, "setup")))["status"] == "playing"
