"""The Incredibles: Save the Day, rule by rule. Each test quotes the rulebook sentence it checks
(shared/seeds/000_ecc340ccf4c7d0ae.txt). Board, dice and deck are the assumed component data of
companion/games/incredibles/incredibles.toml; scenarios stack the deck so every draw is known.
The rules are checked strictly here (``unconfirmed = "refuse"``): by default a move the assumed
board forbids is accepted with a reminder (tests/companion/test_box.py).
"""

import random

import pytest

from companion.actions import Action
from companion.errors import BadAction, IllegalAction, SetupError
from companion.games.incredibles import Incredibles
from companion.games.incredibles.state import R_ROAD

ENGINE = Incredibles()


def game(players=("dash",), start=("A", "B", "C"), deck=()):
    return ENGINE.setup({"players": list(players), "starting_problems": list(start),
                         "deck": list(deck), "unconfirmed": "refuse"}, random.Random(0))


def do(state, type_, player=None, **data):
    return ENGINE.apply(state, Action(type_, player, data), random.Random(0))


def at(state, space, who=0):
    state.movers[who].space = space
    return state


def slots(state):
    return [(s.tile, s.face_up) if s else None for s in state.track]


# -- Set Up ------------------------------------------------------------------------------------

def test_setup_three_random_problems_face_up_and_their_tiles_turned():
    """"Randomly select three Problem Cards ... Turn over the corresponding lettered tiles in the
    game board so the problem sides are showing." / "Place the three starting Problem Cards
    face-up on the three spaces of the Problem Track next to the Alarm space.\""""
    seen = set()
    for seed in range(20):
        s = ENGINE.setup({"players": ["dash"]}, random.Random(seed))
        assert len(s.track) == 3 and all(slot.face_up for slot in s.track)
        assert {t for t, side in s.tiles.items() if side == "problem"} == {x.tile for x in s.track}
        seen.add(tuple(x.tile for x in s.track))
    assert len(seen) > 5, "starting problems should be random"


def test_setup_remaining_cards_shuffled_into_the_deck():
    """"Shuffle the remaining cards and place them in a face-down deck on the Alarm space.\""""
    a = ENGINE.setup({"players": ["dash"]}, random.Random(1))
    b = ENGINE.setup({"players": ["dash"]}, random.Random(2))
    assert len(a.deck) == 27 and len(b.deck) == 27
    assert set(a.deck) | {x.card for x in a.track} == set(ENGINE.data.cards)
    assert a.deck != b.deck


def test_setup_jackjack_on_space_one_and_movers_on_start():
    """"Place the Jack-Jack Die on the space numbered 1 on the game board." / "Insert your Mover
    into the matching Mover Base and place it on the Start space.\""""
    s = game(players=("violet", "dash"))
    assert s.jackjack == "1"
    assert [m.space for m in s.movers] == ["start", "start"]


def test_setup_one_to_four_different_characters():
    """"Each player chooses a character (Mr. Incredible, Mrs. Incredible, Violet, or Dash)\""""
    assert len(game(players=("mr-incredible", "Mrs. Incredible", "violet", "Dash")).movers) == 4
    for bad in ([], ["dash", "dash"], ["dash", "violet", "mr-incredible", "mrs-incredible", "dash"],
                ["frozone"], [42]):
        with pytest.raises(SetupError):
            ENGINE.setup({"players": bad}, random.Random(0))


def test_youngest_player_first_then_in_turn():
    """"The youngest player goes first." Players are given youngest first."""
    s = game(players=("violet", "dash"), deck=["road-16"] * 0)
    assert ENGINE.expect(s)["player"] == "violet"
    s = do(s, "roll", face="1")
    s = do(s, "move", to="start")
    assert ENGINE.expect(s)["player"] == "dash"


def test_a_turn_move_by_someone_not_playing_is_refused_as_such():
    """"The youngest player goes first." A move of Dash's turn named for Violet, who is in the
    game, is another player's turn; named for someone not in the game, it says so (it said "it is
    Dash's turn, not violet's" with Violet not playing). Each is named as the players read it
    (a token's refusal said "not mr-incredible's")."""
    s = game(players=("dash", "mr-incredible"))
    with pytest.raises(IllegalAction, match="it is Dash's turn, not Mr. Incredible's"):
        do(s, "roll", "mr-incredible", face="1")
    with pytest.raises(BadAction, match="'violet' is not a player of this game"):
        do(s, "roll", "violet", face="1")


def test_stacked_deck_draws_in_the_given_order():
    s = game(deck=["edna-1", "problem-D"])
    assert s.deck[:2] == ["edna-1", "problem-D"]


# -- On Your Turn ------------------------------------------------------------------------------

def test_roll_first_even_if_not_moving():
    """"Roll the Movement Die at the start of your turn, even if you do not plan to move.\""""
    s = game()
    with pytest.raises(IllegalAction) as err:
        do(s, "move", to="start")
    assert "roll the Movement Die" in err.value.reason
    assert any(r["text"].startswith("Roll the Movement Die") for r in ENGINE.reminders(s))


def test_alarm_draws_the_top_card():
    """"If you roll an Alarm symbol: Draw a card and follow the instructions for that card type.\""""
    s = game(deck=["edna-1", "problem-D"])
    s = do(s, "roll", face="alarm")
    assert s.last_card == "edna-1" and s.deck[0] == "problem-D"
    assert "edna-1" in s.discard


def test_move_up_to_the_roll():
    """"You may move up to the number of spaces shown on the Movement Die\""""
    s = do(game(), "roll", face="3")
    assert "3" in ENGINE.expect(s)["reachable"]          # start-1-2-3
    with pytest.raises(IllegalAction) as err:
        do(s, "move", to="E")                            # start-5-6-7-E: four spaces
    assert "more than 3" in err.value.reason
    assert do(s, "move", to="3").movers[0].space == "3"


def test_may_share_spaces_and_need_not_move():
    """"you may move through or share spaces with other Movers. But you don't have to move if you
    don't want to.\""""
    s = game(players=("dash", "violet"))
    s = at(s, "5", who=1)
    s = do(s, "roll", face="2")
    s = do(s, "move", to="5")                    # shares Violet's space
    assert s.movers[0].space == s.movers[1].space == "5"
    s = do(s, "roll", face="4")
    s = do(s, "move", to="5")                    # Violet stays put
    assert s.movers[1].space == "5"


def test_ending_on_jackjack_rescues_him():
    """"If you end your movement on the space with the Jack-Jack Die, you rescue Jack-Jack! Remove
    the Jack-Jack Die from the game board.\""""
    s = do(game(), "roll", face="1")
    s = do(s, "move", to="1")
    assert s.jackjack is None


def test_moving_through_jackjack_does_not_rescue():
    s = do(game(), "roll", face="2")
    s = do(s, "move", to="2")                    # through space 1
    assert s.jackjack == "1"


def test_jackjack_die_not_rolled_while_on_the_board():
    """"When the Jack-Jack Die is on the game board, players may not roll his die.\""""
    s = at(game(), "A")
    s = do(s, "roll", face="1")
    s = do(s, "move", to="A")
    with pytest.raises(IllegalAction) as err:
        do(s, "fix", power="defense", jackjack="strength")
    assert "Jack-Jack is on space 1" in err.value.reason
    assert ENGINE.expect(s)["dice"] == [d for d in ENGINE.expect(s)["dice"] if d["die"] == "power"]


def test_fix_with_the_required_power():
    """"If you roll the required Power symbol or a Wild on either your Power Die or the Jack-Jack
    Die, you've fixed the problem!" / "When a problem is fixed, the card is turned over and stays
    on the Problem Track.\""""
    s = do(at(game(), "A"), "roll", face="1")
    s = do(s, "move", to="A")
    assert ENGINE.expect(s)["problem"] == {"tile": "A", "power": "strength"}
    s = do(s, "fix", power="strength")
    assert s.tiles["A"] == "safe"
    assert slots(s)[0] == ("A", False)


def test_wild_counts_as_every_power():
    """"Wild: this side counts as all powers.\""""
    s = do(at(game(), "B"), "roll", face="1")
    s = do(s, "move", to="B")
    assert slots(do(s, "fix", power="wild"))[1] == ("B", False)


def test_jackjack_die_fixes_once_rescued():
    """"If Jack-Jack has been rescued, you may roll the Jack-Jack Die in addition to your Power Die.\""""
    s = at(game(), "C")
    s.jackjack = None
    s = do(s, "roll", face="1")
    s = do(s, "move", to="C")
    s = do(s, "fix", power="strength", jackjack="agility")
    assert slots(s)[2] == ("C", False)


def test_a_jackjack_face_without_the_power_dies_is_refused_not_replaced():
    """"If Jack-Jack has been rescued, you may roll the Jack-Jack Die in addition to your Power
    Die": the Power Die is always rolled. A fix naming Jack-Jack's face alone was rolled afresh
    on virtual dice, both of them, the face the table read thrown away; it is refused, and the
    state is untouched."""
    s = at(game(), "C")
    s.jackjack = None
    s = do(s, "roll", face="1")
    s = do(s, "move", to="C")
    with pytest.raises(BadAction, match="without data.power"):
        do(s, "fix", jackjack="agility")          # problem C's power: this read fixes it
    assert slots(do(s, "fix", power="speed", jackjack="agility"))[2] == ("C", False)


def test_failed_fix_stays_and_may_try_again_next_turn():
    """"If you did not fix the problem, stay on that space without turning over the tile or the
    Problem Card. You may try to fix the problem again on your next turn.\""""
    s = do(at(game(), "A"), "roll", face="1")
    s = do(s, "move", to="A")
    s = do(s, "fix", power="speed")
    assert s.tiles["A"] == "problem" and s.movers[0].space == "A" and slots(s)[0] == ("A", True)
    s = do(s, "roll", face="2")
    s = do(s, "move", to="A")                    # does not move: ends on the problem again
    assert ENGINE.expect(s)["phase"] == "fix"


def test_fix_refuses_a_face_the_die_does_not_have():
    s = do(at(game(), "A"), "roll", face="1")
    s = do(s, "move", to="A")
    with pytest.raises(BadAction):
        do(s, "fix", power="laser")


def test_an_alarm_without_a_number_ends_the_movement_where_the_mover_stands():
    """"You may move up to the number of spaces shown on the Movement Die" - the assumed Alarm faces
    show no number, so the mover stays (the data file's `move` on those faces can change that)."""
    s = game(players=("dash", "violet"), deck=["edna-1"])
    s = do(s, "roll", face="alarm")
    assert ENGINE.expect(s)["player"] == "violet" and s.movers[0].space == "start"


def test_out_of_turn_is_refused():
    s = game(players=("dash", "violet"))
    with pytest.raises(IllegalAction) as err:
        do(s, "roll", player="violet", face="1")
    assert "Dash's turn" in err.value.reason


# -- Card Types --------------------------------------------------------------------------------

def test_problem_card_slides_the_track_and_enters_closest_to_the_deck():
    """"Turn over the corresponding lettered tile in the game board so the problem side is showing.
    Then slide all the cards on the Problem Track one space to the right and place the new Problem
    Card face-up on the space closest to the deck.\""""
    s = game(deck=["problem-D"])
    s.track[2].face_up = False                   # C already fixed
    s.tiles["C"] = "safe"
    s = do(s, "roll", face="alarm")
    assert slots(s) == [("D", True), ("A", True), ("B", True)]
    assert s.tiles["D"] == "problem"


def test_face_down_problem_sliding_to_too_late_is_discarded():
    """"If a face-down Problem Card slides onto the "Too Late!" space, discard it. You fixed that
    problem in time!\""""
    s = game(deck=["problem-D"])
    s.track[2].face_up = False
    s.tiles["C"] = "safe"
    s = do(s, "roll", face="alarm")
    assert "problem-C" in s.discard and ENGINE.outcome(s)["status"] == "playing"


def test_face_up_problem_sliding_to_too_late_loses():
    """"If a face-up Problem Card slides onto the "Too Late!" space, the game is over" / "If a
    face-up Problem Card ever slides onto the "Too Late!" space, then The Incredibles were not able
    to save the city this time.\""""
    s = do(game(deck=["problem-D"]), "roll", face="alarm")
    out = ENGINE.outcome(s)
    assert out["status"] == "lost" and "C" in out["reason"]
    with pytest.raises(IllegalAction):
        do(s, "move", to="start")


def test_road_destroyed_places_rubble_that_blocks_movement():
    """"Place a Rubble Marker on the corresponding numbered space on the game board and discard this
    card. Players may not move onto or through the space with the Rubble Marker.\""""
    s = do(game(deck=["road-3"]), "roll", face="alarm")
    assert s.rubble == ["3"] and "road-3" in s.discard
    s = do(at(s, "2"), "roll", face="2")
    with pytest.raises(IllegalAction) as err:
        do(s, "move", to="3")
    assert "rubble" in err.value.reason
    assert "4" not in ENGINE.expect(s)["reachable"]     # 2-3-4 would cross the rubble
    assert "B" not in ENGINE.expect(s)["reachable"]
    assert any("Rubble" in r["text"] for r in ENGINE.reminders(s))
    # through it: refused for the rubble, not as too far (4 is two spaces from 2)
    with pytest.raises(IllegalAction, match="the way from 2 to 4 crosses rubble on 3") as err:
        do(s, "move", to="4")
    assert err.value.rule == R_ROAD
    # on the assumed board (by default) it is accepted, and the reminder says why the same way
    s = ENGINE.setup({"players": ["dash"], "starting_problems": ["A", "B", "C"],
                      "deck": ["road-3"]}, random.Random(0))
    s = do(at(do(s, "roll", face="alarm"), "2"), "roll", face="2")
    s = do(s, "move", to="4")
    assert s.movers[0].space == "4"
    assert any("the way from 2 to 4 crosses rubble on 3" in r["text"] for r in ENGINE.reminders(s))


def test_rubble_on_a_mover_moves_it_to_an_adjacent_space_of_the_players_choice():
    """"Note: If a Mover is on the space where a Rubble Marker appears, move that Mover to an
    adjacent space of your choice.\""""
    s = at(game(deck=["road-3"]), "3")
    s = do(s, "roll", face="alarm")
    exp = ENGINE.expect(s)
    assert exp["phase"] == "choose" and set(exp["pending"]["options"]) == {"2", "4", "B"}
    with pytest.raises(IllegalAction):
        do(s, "choose", space="7")
    s = do(s, "choose", space="B")
    assert s.movers[0].space == "B"
    # The Alarm face shows no number (assumed data), so the mover's movement ends there, on
    # problem B: the next step is to try to fix it.
    assert ENGINE.expect(s)["phase"] == "fix" and ENGINE.expect(s)["problem"]["tile"] == "B"


def test_frozone_fixes_a_matching_problem_of_the_players_choice():
    """"Choose one problem with a matching Power symbol to fix and discard this card. Turn over the
    tile ... and turn the corresponding Problem Card on the Problem Track face-down.\""""
    s = game(start=("A", "E", "B"), deck=["frozone-strength"])   # A and E both need Strength
    s = do(s, "roll", face="alarm")
    assert ENGINE.expect(s)["pending"]["options"] == ["A", "E"]
    with pytest.raises(IllegalAction):
        do(s, "choose", tile="B")
    s = do(s, "choose", tile="E")
    assert slots(s) == [("A", True), ("E", False), ("B", True)] and s.tiles["E"] == "safe"
    s = do(game(start=("C", "G", "A"), deck=["frozone-agility"]), "roll", face="alarm")
    assert ENGINE.expect(s)["prompt"].startswith("Frozone helps: choose an Agility problem")


def test_frozone_with_one_match_fixes_it():
    s = do(game(deck=["frozone-defense"]), "roll", face="alarm")
    assert slots(s)[1] == ("B", False)


def test_frozone_without_a_match_has_no_effect():
    """"Note: If there are no problems with a matching Power symbol, the Frozone Card is discarded
    with no effect.\""""
    s = do(game(deck=["frozone-speed"]), "roll", face="alarm")
    assert all(up for _, up in slots(s)) and "frozone-speed" in s.discard


def test_jackjack_card_places_or_moves_his_die():
    """"Place the Jack-Jack Die on the corresponding numbered space on the game board and discard
    this card. If the Jack-Jack Die is already on the game board, move it to the new space.\""""
    s = do(game(deck=["jackjack-7"]), "roll", face="alarm")
    assert s.jackjack == "7" and "jackjack-7" in s.discard
    s = game(deck=["jackjack-7"])
    s.jackjack = None
    assert do(s, "roll", face="alarm").jackjack == "7"


def test_jackjack_appearing_on_a_mover_is_rescued_at_once():
    """"Note: If a Mover is on the space where Jack-Jack appears, Jack-Jack is immediately rescued,
    and his die is removed from the game board.\""""
    s = do(at(game(deck=["jackjack-7"]), "7"), "roll", face="alarm")
    assert s.jackjack is None
    # on the space, not 'right next to a hero' (which reads as the next space)
    mover = next(m for m in s.movers if m.space == "7")
    assert f"Jack-Jack teleports to space 7, where {mover.name} stands: rescued at once!" in s.log


def test_edna_rescues_jackjack():
    """"If the Jack-Jack Die is on the game board, remove it and discard this card.\""""
    assert do(game(deck=["edna-1"]), "roll", face="alarm").jackjack is None


def test_edna_without_jackjack_on_the_board_has_no_effect():
    """"Note: If the Jack-Jack Die is not on the game board, the Edna Card is discarded with no
    effect.\""""
    s = game(deck=["edna-1"])
    s.jackjack = None
    s = do(s, "roll", face="alarm")
    assert s.jackjack is None and "edna-1" in s.discard


def test_empty_deck_each_alarm_slides_the_track_without_reshuffling():
    """"IMPORTANT: If the cards run out, each time the Alarm symbol is rolled, slide all the cards on
    the Problem Track one space to the right. Do not shuffle or reuse discarded cards.\""""
    s = game()
    s.discard, s.deck = s.discard + s.deck, []
    s.track[2].face_up = False
    s.tiles["C"] = "safe"
    assert any("deck is empty" in r["text"] for r in ENGINE.reminders(s))
    s = do(s, "roll", face="alarm")
    assert slots(s) == [None, ("A", True), ("B", True)]
    assert s.deck == [] and s.last_card is None
    s = do(s, "roll", face="alarm")
    assert ENGINE.outcome(s)["status"] == "lost"     # B slid off face up


# -- Ending the Game ----------------------------------------------------------------------------

def test_win_at_any_time_when_all_fixed_and_jackjack_off_the_board():
    """"At any time during the game, if there are no problems left to fix (all the cards on the
    Problem Track are face-down) AND the Jack-Jack Die is not on the game board, The Incredibles
    have saved the city! All the players win!\""""
    s = game(start=("A", "B", "D"), deck=["frozone-speed"])
    s.track[0].face_up = s.track[1].face_up = False
    s.tiles["A"] = s.tiles["B"] = "safe"
    s.jackjack = None
    s = do(s, "roll", face="alarm")                  # Frozone fixes D mid-turn: won at once
    assert ENGINE.outcome(s)["status"] == "won"
    assert ENGINE.expect(s)["actions"] == []


def test_no_win_while_jackjack_is_on_the_board():
    s = game(start=("A", "B", "D"), deck=["frozone-speed"])
    s.track[0].face_up = s.track[1].face_up = False
    s = do(s, "roll", face="alarm")
    assert ENGINE.outcome(s)["status"] == "playing"


def test_reminder_when_a_problem_is_one_slide_from_too_late():
    s = game()
    texts = [r["text"] for r in ENGINE.reminders(s)]
    assert any("one slide from" in t and "Problem C" in t for t in texts)
    assert all(r["rule"] for r in ENGINE.reminders(s))


def test_apply_never_changes_the_state_it_is_given():
    s = game(deck=["road-3"])
    before = ENGINE.to_json(s)
    do(s, "roll", face="alarm")
    assert ENGINE.to_json(s) == before
