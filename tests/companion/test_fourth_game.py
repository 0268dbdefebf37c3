"""docs/adding-a-game.md stays true: its example, Beacon, is the package in fourth_game/ (file for
file), and that package plays through a real session (journal, a camera read, undo, a restart
that replays the journal) and passes the conformance checks the three games pass."""

import random
import re
from pathlib import Path

import pytest

from companion.actions import Action
from companion.errors import BadAction, IllegalAction, SetupError
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from tests.companion.test_conformance import Findings, play_out

DOC = Path(__file__).resolve().parents[2] / "docs" / "adding-a-game.md"
FOLDER = Path(__file__).with_name("fourth_game")
ENGINES = {"beacon": ("tests.companion.fourth_game", "Beacon")}
BLOCK = re.compile(r"\*\*`fourth_game/([\w.]+)`\*\*\n\n```(?:python|toml)\n(.*?)\n```", re.S)


def test_the_document_shows_every_file_of_the_example_as_it_is():
    shown = dict(BLOCK.findall(DOC.read_text()))
    assert set(shown) == {p.name for p in FOLDER.iterdir() if p.suffix in (".py", ".toml")}
    for name, text in shown.items():
        assert text + "\n" == (FOLDER / name).read_text(), f"docs/adding-a-game.md: {name} differs"


@pytest.fixture
def table(tmp_path):
    catalog = Catalog(engines=ENGINES)
    session = Session(Journal(tmp_path / "j.sqlite3"), catalog)
    session.start("beacon", {"players": ["Ana", "Ben"]}, seed=4)
    return session, catalog, tmp_path / "j.sqlite3"


def _read(*faces):
    return Action("dice.read", source="camera", data={
        "set": "beacon-die", "dice": [{"face": f, "confidence": 0.97} for f in faces]})


def test_the_fourth_game_plays_through_a_session(table):
    session, catalog, path = table
    view = session.view()
    assert view["expect"]["actions"] == ["roll"] and view["expect"]["dice"][0]["sides"] == \
        ["1", "1", "2", "2", "3", "storm"]
    view = session.submit(_read("3"))                          # the camera's read is the roll
    assert view["state"]["heights"] == {"Ana": 3, "Ben": 0} and view["expect"]["player"] == "Ben"
    with pytest.raises(IllegalAction, match="it is Ben's turn, not Ana's"):
        session.submit(Action("roll", "Ana", {"face": "1"}))
    with pytest.raises(BadAction, match="data.face"):
        session.submit(Action("roll", "Ben", {"face": "7"}))
    view = session.submit(Action("roll", "Ben", {"face": "storm"}))
    assert view["expect"]["actions"] == ["blow"] and view["expect"]["choices"] == ["Ana", "Ben"]
    with pytest.raises(IllegalAction, match="not possible now"):
        session.submit(Action("roll", "Ana", {"face": "1"}))
    view = session.submit(Action("blow", data={"player": "Ana"}))
    assert view["state"]["heights"]["Ana"] == 2
    view = session.submit(Action("undo"))                     # the storm comes back
    assert view["state"]["heights"]["Ana"] == 3 and view["expect"]["phase"] == "storm"
    session.submit(Action("blow", data={"player": "Ben"}))    # Ben stays on the ground
    view = session.submit(Action("roll", data={"face": "3"}))  # Ana: 3 + 3, the top
    assert view["outcome"] == {"status": "won", "winner": "Ana", "reason": "Ana lit the beacon"}
    with pytest.raises(IllegalAction, match="game is over"):
        session.submit(Action("roll", data={"face": "1"}))
    session.journal.close()
    with Journal(path) as journal:                            # a restart replays the journal
        again = Session(journal, catalog).view()
    assert again["state"] == view["state"] and again["outcome"] == view["outcome"]
    assert again["undo"]["action"]["type"] == "roll"


def test_the_fourth_game_passes_the_conformance_checks():
    engine = Catalog(engines=ENGINES)("beacon")
    found, statuses = Findings(), set()
    for seed in range(300):
        _, actions, state = play_out(engine, seed, found, 1)
        statuses.add(engine.outcome(state)["status"])
    assert found.found == {} and statuses == {"won"}


def test_its_moves_describe_themselves_for_docs_and_the_http_boundary():
    engine = Catalog(engines=ENGINES)("beacon")
    table = engine.moves.describe()
    assert table["roll"]["roll"]["who"] == "turn" and table["storm"]["blow"]["who"] == "table"
    assert table["roll"]["roll"]["args"]["properties"]["face"]["enum"] == ["1", "2", "3", "storm"]
    assert engine.actions["blow"].startswith("The storm blows")
    assert engine.sample_action(engine.setup({"players": ["A", "B"]}, random.Random(0)),
                                random.Random(0)).type == "roll"


def test_a_variant_is_resolved_once_into_the_state_and_read_from_there(table):
    """Beacon's ``top`` option: the tower's height lands in the state's data at setup, every move
    reads it there, and a restart resolves it again from the journaled options."""
    session, catalog, path = table
    session.start("beacon", {"players": ["Ana", "Ben"], "top": 3}, seed=1)
    view = session.submit(Action("roll", data={"face": "3"}))
    assert view["outcome"]["winner"] == "Ana" and view["state"]["heights"]["Ana"] == 3
    assert "data" not in view["state"]                     # shared data, not state JSON
    session.journal.close()
    with Journal(path) as journal:
        assert Session(journal, catalog).view()["outcome"]["winner"] == "Ana"
    with pytest.raises(SetupError, match="top"):
        catalog("beacon").setup({"players": ["A", "B"], "top": True}, random.Random(0))
