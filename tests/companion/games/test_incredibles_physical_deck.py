"""The table's own deck (option physical_deck): "If you roll an Alarm symbol ... Draw a card and
follow the instructions for that card type." The players draw the real card and name it with one
tap; the companion checks it is still in the deck and keeps the deck's count."""

import pytest

from companion.errors import IllegalAction, SetupError
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session


@pytest.fixture
def session(tmp_path):
    with Journal(tmp_path / "j.sqlite3") as journal:
        s = Session(journal, Catalog())
        s.start("incredibles", {"players": ["dash"], "physical_deck": True,
                                "starting_problems": ["A", "B", "C"]}, seed=4)
        yield s


def test_an_alarm_waits_for_the_card_the_table_drew_and_checks_it_is_in_the_deck(session):
    before = session.view()["state"]["deck_count"]
    view = session.submit({"type": "roll", "player": "dash", "data": {"face": "alarm"}})
    expect = view["expect"]
    assert expect["phase"] == "draw" and expect["actions"] == ["draw"]
    assert "draw the top card of the deck and name it" in expect["prompt"]
    assert expect["deck_count"] == before == len(expect["deck"])
    assert "problem-A" not in {c["id"] for c in expect["deck"]}       # on the Problem Track
    # the cards to tap in the order a family looks for them: "space 4" before "space 12"
    spaces = [int(c["title"].rsplit(" ", 1)[1]) for c in expect["deck"]
              if c["title"].startswith("Jack-Jack Teleports: space ")]
    assert len(spaces) > 2 and spaces == sorted(spaces), spaces
    with pytest.raises(IllegalAction, match="Problem A is not in the deck: it is on the Problem Track"):
        session.submit({"type": "draw", "data": {"card": "problem-A"}})
    view = session.submit({"type": "draw", "data": {"card": "edna-1"}})
    assert view["state"]["last_card"] == "edna-1" and view["state"]["deck_count"] == before - 1
    assert view["expect"]["phase"] == "roll"                           # an Alarm moves no spaces
    session.submit({"type": "roll", "player": "dash", "data": {"face": "alarm"}})
    with pytest.raises(IllegalAction, match="Edna Rescues is not in the deck: it was drawn already"):
        session.submit({"type": "draw", "data": {"card": "edna-1"}})
    with pytest.raises(Exception, match="is not a card of the deck"):
        session.submit({"type": "draw", "data": {"card": "the-joker"}})


def test_the_companion_draws_by_default_and_the_option_is_checked():
    from random import Random

    engine = Catalog()("incredibles")
    state = engine.setup({"players": ["dash"]}, Random(1))
    from companion.actions import Action

    after = engine.apply(state, Action("roll", "dash", {"face": "alarm"}), Random(1))
    assert after.phase != "draw" and after.last_card is not None
    with pytest.raises(SetupError, match="physical_deck must be true"):
        engine.setup({"players": ["dash"], "physical_deck": "yes"}, Random(1))


def test_a_misspelt_option_is_refused_not_ignored(session):
    """{"physcial_deck": true} started a game in which the companion drew the cards the table
    meant to draw itself: an option the game does not have is refused, naming the ones it has
    (as X-Men Alert's and Invincible's setups do)."""
    with pytest.raises(SetupError, match="unknown option.s. physcial_deck; the options are .*physical_deck"):
        session.start("incredibles", {"players": ["dash"], "physcial_deck": True}, seed=1)
    assert session.view()["state"]["deck_count"] > 0          # the game in progress goes on


def test_with_the_tables_own_deck_the_table_selects_the_starting_problems_and_names_each(tmp_path):
    """Set Up: "Randomly select three Problem Cards (with the red circle icon and red lower
    section). Turn over the corresponding lettered tiles in the game board so the problem sides
    are showing." and "Place the three starting Problem Cards face-up on the three spaces of the
    Problem Track next to the Alarm space." A family drawing its own cards selected three of them,
    while the companion picked three others: every screen showed a track the table did not have,
    and a card the family later drew from its deck was refused as "on the Problem Track"."""
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = Session(journal, Catalog())
        view = session.start("incredibles", {"players": ["dash", "violet"], "physical_deck": True},
                             seed=4)
        expect = view["expect"]
        assert expect["phase"] == "draw" and view["state"]["track"] == []
        assert "Set up: pick a Problem Card at random" in expect["prompt"]
        assert "next to the Alarm" in expect["prompt"]
        assert {c["id"] for c in expect["deck"]} == {f"problem-{x}" for x in "ABCDEFGHIJKL"}
        assert set(view["state"]["tiles"].values()) == {"safe"}
        with pytest.raises(IllegalAction, match="Edna Rescues is not a Problem Card") as refused:
            session.submit({"type": "draw", "data": {"card": "edna-1"}})
        assert refused.value.rule == "Set Up"
        with pytest.raises(IllegalAction, match="roll is not possible now: Set up: pick") as refused:
            session.submit({"type": "roll", "player": "dash", "data": {"face": "2"}})
        assert refused.value.rule == "Set Up"
        for card in ("problem-D", "problem-K", "problem-B"):       # in the order they lie
            view = session.submit({"type": "draw", "data": {"card": card}})
        state = view["state"]
        assert [(s["tile"], s["face_up"]) for s in state["track"]] == [("D", True), ("K", True),
                                                                       ("B", True)]
        assert {t for t, side in state["tiles"].items() if side == "problem"} == {"B", "D", "K"}
        assert state["deck_count"] == 27 and view["expect"]["phase"] == "roll"
        assert view["expect"]["player"] == "dash"                  # the youngest goes first
        # a Problem Card the companion would have laid on its own track is still in the deck
        session.submit({"type": "roll", "player": "dash", "data": {"face": "alarm"}})
        in_deck = {c["id"] for c in session.view()["expect"]["deck"]}
        assert {"problem-A", "problem-C", "problem-E"} <= in_deck and "problem-D" not in in_deck
        # the option is what the journal keeps: the game replays the same
        assert journal.current_game().options["starting_problems"] == "drawn"
