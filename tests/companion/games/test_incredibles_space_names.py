"""Every word the table reads names a space as the board prints it ("Start"), while the
actions and the journal keep the data's id ("start").

The rulebook: "Insert your Mover into the matching Mover Base and place it on the Start space."
"""

import json
import sqlite3

import pytest

from companion.actions import Action
from companion.errors import IllegalAction
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session


@pytest.fixture
def table(tmp_path):
    s = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    # strict: a move too far is refused by the rule (the assumed board otherwise only reminds);
    # the top card is the Road Destroyed card of space 13, a road to Start
    s.start("incredibles", {"players": ["dash"], "starting_problems": ["A", "B", "C"],
                            "deck": ["road-13"], "unconfirmed": "refuse"}, seed=7)
    return s


def act(s, type_, **data):
    return s.submit(Action(type_, player="dash", source="dashboard", data=data))


def test_a_refusal_and_the_log_name_the_start_space_as_the_board_prints_it(table):
    act(table, "roll", face="1")
    # "You may move up to the number of spaces shown on the Movement Die"
    with pytest.raises(IllegalAction) as refused:
        act(table, "move", to="3")
    assert str(refused.value).startswith("3 is more than 1 space from Start; you can reach ")
    assert "start" not in str(refused.value)
    assert str(refused.value).endswith("Start")
    act(table, "move", to="13")
    act(table, "roll", face="1")
    view = act(table, "move", to="start")
    assert view["state"]["log"][-1] == "Dash moves to Start."
    assert view["state"]["movers"][0]["space"] == "start"       # the data keeps its id


def test_a_mover_displaced_by_rubble_chooses_among_spaces_named_as_printed(table, tmp_path):
    act(table, "roll", face="1")
    act(table, "move", to="13")
    view = act(table, "roll", face="alarm")        # Road Destroyed: space 13, where Dash stands
    assert view["expect"]["phase"] == "choose"
    assert view["expect"]["prompt"] == ("Rubble fell on Dash's space 13: choose an adjacent "
                                        "space (12, 14, Start).")
    assert view["expect"]["pending"]["options"] == ["12", "14", "start"]
    view = act(table, "choose", space="start")
    assert "Dash moves off the rubble to Start." in view["state"]["log"]
    # the journal holds the id the action named, never the printed name
    rows = sqlite3.connect(tmp_path / "j.sqlite3").execute("SELECT payload FROM entries").fetchall()
    chosen = [json.loads(r[0]) for r in rows if '"choose"' in r[0]]
    assert chosen and chosen[-1]["data"] == {"space": "start"}


def test_the_printed_name_is_the_owners_data_and_a_bad_one_is_refused(tmp_path):
    from companion.errors import DataFileError
    from companion.games.incredibles import Incredibles
    from companion.games.incredibles.data import SHIPPED
    original = SHIPPED.read_text()
    assert Incredibles().components()["board"]["labels"] == {"start": "Start"}
    # a box printed in another language: the owner's copy names it, no code changes
    (tmp_path / "incredibles.toml").write_text(original.replace('labels = { start = "Start" }',
                                                                'labels = { start = "Départ" }'))
    assert Incredibles(tmp_path).data.label("start") == "Départ"
    (tmp_path / "incredibles.toml").write_text(original.replace('labels = { start = "Start" }',
                                                                'labels = { nowhere = "X" }'))
    with pytest.raises(DataFileError, match="labels.nowhere"):
        Incredibles(tmp_path)
