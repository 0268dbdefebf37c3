"""Set up, going first, recovery (Step 4), the Experience Track (Step 5), Training & Luck cards,
the decks running out and winning: each test quotes the rulebook sentence it checks."""

import random

import pytest

from companion.errors import IllegalAction, SetupError
from companion.games.xmen.state import HQ, R_LUCK, Hero
from xmen_helpers import BASIC_DECK, CEREBRO_OPTIONS, CEREBRO_PLAY, Table, roll


# -- Set Up -------------------------------------------------------------------------------------

def test_movers_start_at_the_start_with_one_card_each_in_basic(engine):
    """ "Each player takes a Team Experience Mover and places it at the start of the Experience
    Track." "Mix the X-Men Power Stat Cards and deal one card to each player" """
    s = engine.setup({"players": ["Ana", "Ben", "Chloe"]}, random.Random(3))
    assert [t.mover for t in s.teams] == [0, 0, 0]
    assert [len(t.heroes) for t in s.teams] == [1, 1, 1]
    assert len(s.stat_deck) == 18 - 3


def test_two_cards_each_in_advanced(engine):
    """ "(Advanced) In the Advanced game, deal two X-Men Power Stat Cards to each player" """
    s = engine.setup({"players": ["Ana", "Ben"], "advanced": True}, random.Random(3))
    assert [len(t.heroes) for t in s.teams] == [2, 2]


def test_players_may_choose_their_x_men(engine):
    """ "*If all players agree, each player may look through the Power Cards and take the X-Men of
    his choice." """
    s = engine.setup({"players": ["Ana", "Ben"], "stat_cards": {"Ana": ["Wolverine"], "Ben": "storm"}},
                     random.Random(0))
    assert [t.heroes[0].id for t in s.teams] == ["wolverine", "storm"]
    with pytest.raises(SetupError, match="only one team"):
        engine.setup({"players": ["Ana", "Ben"], "stat_cards": {"Ana": "storm", "Ben": "storm"}},
                     random.Random(0))
    # one of the Advanced game's two chosen: the other dealt ('deal two')
    s = engine.setup({"players": ["Ana", "Ben"], "advanced": True, "stat_cards": {"Ana": ["storm"]}},
                     random.Random(0))
    assert s.teams[0].heroes[0].id == "storm" and [len(t.heroes) for t in s.teams] == [2, 2]
    assert "storm" not in {h.id for h in s.teams[1].heroes + s.teams[0].heroes[1:]}
    with pytest.raises(SetupError, match="takes 2"):
        engine.setup({"players": ["Ana", "Ben"], "advanced": True,
                      "stat_cards": {"Ana": ["storm", "beast", "cyclops"]}}, random.Random(0))
    with pytest.raises(SetupError, match="takes 1"):
        engine.setup({"players": ["Ana", "Ben"], "stat_cards": {"Ana": []}}, random.Random(0))


def test_basic_decks_leave_out_advanced_and_recruit_cards(engine):
    """ "Remove all X-Men Alert cards with the Advanced symbol from the deck. Also remove all
    'Recruit Another X-Men' cards." "Remove all Training & Luck cards with the Advanced symbol" """
    s = engine.setup({"players": ["Ana", "Ben"]}, random.Random(1))
    alert = s.alert_deck + [z.card for z in s.zones if z.card]
    assert alert and all(not engine.data.alert[c].advanced and engine.data.alert[c].kind == "evil_mutant"
                         for c in alert)
    assert all(not engine.data.luck[c].advanced for c in s.luck_deck)


def test_advanced_uses_the_entire_decks(engine):
    """ "(Advanced) In the Advanced game, use the entire deck of X-Men Alert cards." and "use the
    entire deck of Training & Luck cards." """
    s = engine.setup({"players": ["Ana", "Ben"], "advanced": True, "first_player": "Ana"},
                     random.Random(1))
    alert = s.alert_deck + s.alert_discard + [z.card for z in s.zones if z.card]
    assert sorted(alert) == sorted(engine.data.alert)
    assert sorted(s.luck_deck) == sorted(engine.data.luck)


@pytest.mark.parametrize("options,match", [
    ({"players": ["Ana"]}, "2 to 4"),
    ({"players": ["Ana", "Ana"]}, "2 to 4"),
    ({"players": ["A", "B", "C", "D", "E"]}, "2 to 4"),
    ({"players": ["Ana", "Ben"], "advanced": "yes"}, "advanced"),
    ({"players": ["Ana", "Ben"], "colour": "red"}, "unknown option"),
    ({"players": ["Ana", "Ben"], "first_player": "Zed"}, "first_player"),
    ({"players": ["Ana", "Ben"], "alert_deck": ["doctor-doom"]}, "alert_deck"),
    ({"players": ["Ana", "Ben"], "stat_cards": {"Ana": ["hulk"]}}, "not an X-Men"),
])
def test_bad_options_are_refused(engine, options, match):
    with pytest.raises(SetupError, match=match):
        engine.setup(options, random.Random(0))


# -- Going First --------------------------------------------------------------------------------

def test_going_first_highest_total_ties_roll_again(engine):
    """ "Each player rolls 5 dice. The highest point total goes first. X-Men = 1 point. Marvel = 2
    points. Evil Mutants and blanks don't count." """
    t = Table(engine, engine.setup({"players": ["Ana", "Ben", "Chloe"]}, random.Random(0)))
    entry = engine.expect(t.s)["dice"][0]
    assert (entry["count"], entry["purpose"], entry["player"]) == (5, "going first", "Ana")
    t.do("first.roll", "Ana", faces=roll(5, marvel=1, xmen=2, evil=2))     # 4
    t.do("first.roll", "Ben", faces=roll(5, marvel=2))                     # 4
    t.do("first.roll", "Chloe", faces=roll(5, xmen=1, evil=4))             # 1
    assert t.s.phase == "first" and t.s.first_to_roll == ["Ana", "Ben"]
    with pytest.raises(IllegalAction):
        t.do("first.roll", "Chloe", faces=roll(5))
    t.do("first.roll", "Ana", faces=roll(5, xmen=1))
    t.do("first.roll", "Ben", faces=roll(5, marvel=1))
    assert t.s.phase == "play" and t.s.current.player == "Ben"
    assert engine.expect(t.s)["player"] == "Ben"


def test_play_continues_to_the_left(game):
    """ "Once you have completed your turn, play continues to the left." (the next name in the
    seating order) """
    t = game(players=("Ana", "Ben", "Chloe"), first_player="Ben")
    order = []
    for _ in range(4):
        order.append(t.s.current.player)
        t.do("turn.end")
    assert order == ["Ben", "Chloe", "Ana", "Ben"]
    assert t.s.round == 2


# -- Step 4: recovery ---------------------------------------------------------------------------

def test_recovery_rolls_durability_dice(game):
    """ "To recover, roll the number of dice equal to the character's Durability number. For every
    X-Men rolled, remove one Hit Chip. For every Marvel rolled, remove two Hit Chips. Evil Mutant
    and blank rolls have no effect at Headquarters." """
    t = game(stat_cards={"Ana": ["archangel"], "Ben": ["storm"]})
    t.hero("Ana", "archangel").hits = 3
    entry = t.engine.expect(t.s)["dice"][0]
    assert (entry["count"], entry["purpose"]) == (4, "recovery")
    t.do("recover.roll", "Ana", hero="archangel", faces=["xmen", "marvel", "evil_mutant", "blank"])
    assert t.hero("Ana", "archangel").hits == 0


def test_wolverine_regeneration(game):
    """ "When Wolverine is recovering at Headquarters, each Marvel rolled removes 4 hit markers.
    Each X-Men rolled still only removes 1 hit marker." """
    t = game(stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]})
    t.hero("Ana", "wolverine").hits = 4
    t.do("recover.roll", "Ana", hero="wolverine", faces=roll(5, marvel=1))
    assert t.hero("Ana", "wolverine").hits == 0
    t2 = game(stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]})
    t2.hero("Ana", "wolverine").hits = 4
    t2.do("recover.roll", "Ana", hero="wolverine", faces=roll(5, xmen=2))
    assert t2.hero("Ana", "wolverine").hits == 2


def seriously_wounded(game, **kw):
    t = game(stat_cards={"Ana": ["archangel"], "Ben": ["storm"]}, stat_deck=["cable"], **kw)
    t.hero("Ana", "archangel").hits = 6          # 4 X symbols covered, 2 on the picture
    t.do("turn.end", "Ana")
    t.do("turn.end", "Ben")
    return t


def test_the_seriously_wounded_must_roll_on_the_next_turn(game):
    """ "On your next turn, the seriously wounded character must roll to recover." """
    t = seriously_wounded(game)
    assert t.s.must_recover == ["archangel"]
    with pytest.raises(IllegalAction, match="must roll to recover"):
        t.do("turn.end", "Ana")


def test_a_serious_wound_only_an_assumed_durability_makes_may_go_unrolled_with_a_reminder(
        game, tmp_path):
    """The same rule on Havok, whose Power Stat card the rulebook does not print ("It does NOT
    print the other 15 stat cards": his Durability of 3 is assumed, so whether 5 hits make him
    seriously wounded is too): "On your next turn, the seriously wounded character must roll to
    recover." By default the turn may end without his roll, and the players are reminded it was
    not checked; with ``unconfirmed = "refuse"``, or once the owner confirms his card on the Your
    box page, it is refused."""
    from companion.games.xmen.state import R_SERIOUS
    from xmen_helpers import confirmed_table

    def wounded(t):
        t.hero("Ana", "havok").hits = 5              # 3 X symbols covered, 2 on the picture
        t.do("turn.end", "Ana")
        t.do("turn.end", "Ben")
        assert t.s.must_recover == ["havok"]
        return t.do("turn.end", "Ana")

    options = {"stat_cards": {"Ana": ["havok"], "Ben": ["storm"]}, "stat_deck": ["cable"]}
    t = game(**options)
    s = wounded(t)
    assert s.current.player == "Ben" and t.hero("Ana", "havok").hits == 5
    text = ("Ana's turn ended without the recovery roll of Havok (5 hits, Durability 3): a "
            "seriously wounded character must roll to recover, and the Durability is assumed, "
            "not confirmed (confirm the card on the Your box page).")
    assert {"text": text, "rule": R_SERIOUS} in t.engine.reminders(s)
    assert "Reminder: " + text in s.log
    t.do("turn.end", "Ben")                                 # the reminder lasts Ben's turn
    assert {"text": text, "rule": R_SERIOUS} not in t.engine.reminders(t.s)

    with pytest.raises(IllegalAction, match="must roll to recover"):
        wounded(game(unconfirmed="refuse", **options))
    with pytest.raises(IllegalAction, match="must roll to recover"):
        wounded(confirmed_table(tmp_path, "havok", {"players": ["Ana", "Ben"],
                                                    "first_player": "Ana", **options}))


def test_a_character_seriously_wounded_this_turn_rolls_to_survive_on_the_next(game):
    """ "When a character is moved back to Headquarters and has all their X symbols covered and
    has Hit Chips on their Power Stat Card picture, they are seriously wounded. ... On your next
    turn, the seriously wounded character must roll to recover." Archangel's Wing Missile ("Evil
    Mutant rolls give 1 hit to a teammate") sends Storm home so before she has rolled: her roll
    to survive waits for Ana's next turn. Cyclops's Durability is assumed: there it is accepted
    with a reminder."""
    from companion.games.xmen.state import R_SERIOUS

    def wing_missile(backer):
        t = game(advanced=True, alert_deck=BASIC_DECK,
                 stat_cards={"Ana": ["archangel", backer], "Ben": ["wolverine", "cable"]})
        t.hero("Ana", backer).hits = 2
        t.do("deploy", "Ana", zone=1, heroes=["archangel", backer], leader="archangel")
        t.do("battle.roll", "Ana", zone=1, attack="wing_missile",
             faces=["evil_mutant", "evil_mutant"], hits_to=backer)
        hero = t.hero("Ana", backer)
        assert (hero.where, hero.hits, hero.acted) == (HQ, 4, False)   # Durability 3: 1 on the picture
        return t

    t = wing_missile("storm")
    assert not [e for e in t.engine.expect(t.s)["dice"] if e["action"] == "recover.roll"]
    with pytest.raises(IllegalAction, match="On your next turn") as refused:
        t.do("recover.roll", "Ana", hero="storm", faces=roll(3, marvel=1))
    assert refused.value.rule == R_SERIOUS
    t.do("turn.end", "Ana")
    t.do("turn.end", "Ben")
    assert t.s.must_recover == ["storm"]
    t.do("battle.roll", "Ana", zone=1, faces=roll(5))          # Archangel first: he is in the zone
    t.do("recover.roll", "Ana", hero="storm", faces=roll(3, marvel=1))
    assert t.hero("Ana", "storm").hits == 2

    t = wing_missile("cyclops")
    t.do("recover.roll", "Ana", hero="cyclops", faces=roll(3, marvel=1))
    assert any("Cyclops was seriously wounded this turn (by an assumed Durability)" in r["text"]
               for r in t.engine.reminders(t.s))


def test_a_failed_serious_recovery_loses_the_character(game):
    """ "The roll must be successful in removing all the Hit Chips from the character's picture (not
    the X symbols) or the character is lost!" "the character's Power Stat Card is placed at the
    bottom of the X-Men Power Stat Card deck." """
    t = seriously_wounded(game)
    t.do("recover.roll", "Ana", hero="archangel", faces=roll(4, xmen=1))
    assert t.team("Ana").heroes == [] and t.s.stat_deck[-1] == "archangel"


def test_a_player_who_loses_the_whole_team_recruits_the_top_card(game):
    """ "In the event a player loses their entire team of characters, at the start of his next turn,
    that player recruits one X-Men by taking the top X-Men Power Stat Card from the deck." """
    t = seriously_wounded(game)
    t.do("recover.roll", "Ana", hero="archangel", faces=roll(4))
    t.do("turn.end", "Ana")
    t.do("turn.end", "Ben")
    assert [h.id for h in t.team("Ana").heroes] == ["cable"]


def test_a_successful_serious_recovery_clears_the_picture_first(game):
    """ "If the character's recovery is successful, first remove all the Hit Chips on the
    character's picture. ... Now the character is simply recovering at Headquarters". By default
    the rest of the same roll comes off the X symbols; serious_remainder="drop" keeps it off."""
    t = seriously_wounded(game)
    t.do("recover.roll", "Ana", hero="archangel", faces=roll(4, marvel=1, xmen=1))    # removes 3
    assert t.hero("Ana", "archangel").hits == 3
    t.do("turn.end", "Ana")
    t2 = seriously_wounded(game, serious_remainder="drop")
    t2.do("recover.roll", "Ana", hero="archangel", faces=roll(4, marvel=1, xmen=1))
    assert t2.hero("Ana", "archangel").hits == 4


# -- Step 5: the Experience Track ------------------------------------------------------------------

def capture_blob(t, player="Ana", hero="wolverine", dice=9):
    t.do("deploy", player, zone=3, heroes=[hero])
    t.do("battle.roll", player, zone=3, faces=roll(dice, marvel=4))


def test_turning_in_moves_the_mover_by_the_experience(game):
    """ "Total the amount of Experience your team gained from the capture. The Experience number
    ... is the number of spaces you move ahead on the Experience Track." "Place the captured Evil
    Mutant Cards face up near the X-Men Alert deck." """
    t = game(alert_deck=BASIC_DECK, stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]})
    capture_blob(t)
    assert t.team("Ana").mover == 0
    t.do("turn.end", "Ana")
    assert t.team("Ana").mover == 2 and t.team("Ana").captured == []
    assert "blob" in t.s.alert_discard


def test_movers_may_share_a_space(game):
    """ "Your Team Experience Mover can occupy the same space as another Team's Mover on the
    Experience Track." """
    t = game(alert_deck=BASIC_DECK, stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]})
    t.team("Ben").mover = 2
    capture_blob(t)
    t.do("turn.end", "Ana")
    assert t.team("Ana").mover == t.team("Ben").mover == 2


def test_step_one_refills_the_captured_zone_before_the_next_turn(game):
    """ "Before you start your turn, check to see if any of the Battle Zones are empty. If they are,
    draw the top X-Men Alert Card" """
    t = game(alert_deck=BASIC_DECK, stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]})
    capture_blob(t)
    assert t.zone(3).card is None
    t.do("turn.end", "Ana")
    assert t.zone(3).card == "toad" and t.zone(3).indicator == 5


def test_the_alert_deck_reshuffles_its_turned_in_cards(game):
    """ "When all the X-Men Alert Cards have been played, shuffle the cards already turned in and
    place them face down in the space marked on the board." """
    t = game(alert_deck=BASIC_DECK, stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]})
    played = list(t.s.alert_deck)
    t.s.alert_discard.extend(played)
    t.s.alert_deck.clear()
    capture_blob(t)
    t.do("turn.end", "Ana")
    # the deck was empty: Blob, now turned in, and the other turned-in cards made the new deck
    assert t.zone(3).card in played + ["blob"]
    assert t.s.alert_discard == [] and len(t.s.alert_deck) == len(played)


def test_basic_win_on_reaching_or_passing_the_first_recruit_space(game):
    """ "In the Basic game, the first player to reach or pass the first X-Men Recruit space on the
    Experience Track wins!" """
    t = game(alert_deck=BASIC_DECK, stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]})
    first = t.engine.data.recruit_spaces[0]
    t.team("Ana").mover = first - 1
    capture_blob(t)                                   # Experience 2: passes it
    t.do("turn.end", "Ana")
    out = t.engine.outcome(t.s)
    assert out["status"] == "won" and out["winner"] == "Ana" and t.s.phase == "over"
    with pytest.raises(IllegalAction, match="over"):
        t.do("turn.end", "Ben")


def test_advanced_win_on_the_victory_space_not_by_exact_count(game):
    """ "(Advanced) In the Advanced game, the first player to reach the Victory space on the
    Experience Track wins! You do not have to reach the Victory space by exact count." """
    t = game(advanced=True, alert_deck=BASIC_DECK,
             stat_cards={"Ana": ["wolverine", "havok"], "Ben": ["storm", "cable"]})
    victory = t.engine.data.track_spaces
    t.team("Ana").mover = t.engine.data.recruit_spaces[0] - 1
    capture_blob(t)
    t.do("turn.end", "Ana")
    assert t.engine.outcome(t.s)["status"] == "playing"       # a Recruit space does not win here
    t.team("Ana").mover = victory - 1
    t.do("turn.end", "Ben")
    capture_blob(t, dice=9)
    t.do("turn.end", "Ana")
    assert t.team("Ana").mover == victory and t.engine.outcome(t.s)["winner"] == "Ana"


def test_advanced_recruit_space_draws_the_top_stat_card(game):
    """ "(Advanced) If your Team's Experience Mover lands on an X-Men Recruit space, draw the top
    X-Men Power Stat Card." """
    t = game(advanced=True, alert_deck=BASIC_DECK, stat_deck=["jubilee"],
             stat_cards={"Ana": ["wolverine", "havok"], "Ben": ["storm", "cable"]})
    t.team("Ana").mover = t.engine.data.recruit_spaces[0] - 2
    capture_blob(t)
    t.do("turn.end", "Ana")
    assert [h.id for h in t.team("Ana").heroes] == ["wolverine", "havok", "jubilee"]


def test_bonus_experience_dice(game):
    """ "These characters receive Experience Bonus dice when at Headquarters and their team is
    turning in Evil Mutants." "For each X-Men rolled, gain 1 Experience bonus point. For each Marvel
    rolled, gain 2 points." (Cyclops's Hero and Leader ability is an assumed card.) """
    t = game(advanced=True, alert_deck=BASIC_DECK,
             stat_cards={"Ana": ["wolverine", "cyclops"], "Ben": ["storm", "cable"]})
    capture_blob(t)
    t.do("turn.end", "Ana")
    expect = t.engine.expect(t.s)
    assert t.s.phase == "bonus" and expect["dice"][0]["count"] == 2
    assert expect["dice"][0]["purpose"] == "bonus experience"
    t.do("bonus.roll", "Ana", faces=["marvel", "xmen"])
    assert t.team("Ana").mover == 2 + 3 and t.s.current.player == "Ben"


def test_no_bonus_dice_in_the_basic_game(game):
    """Bonus Experience Points are an Advanced section."""
    t = game(alert_deck=BASIC_DECK, stat_cards={"Ana": ["wolverine"], "Ben": ["cyclops"]})
    capture_blob(t)
    t.do("turn.end", "Ana")
    assert t.s.phase == "play" and t.team("Ana").mover == 2


# -- Training & Luck ----------------------------------------------------------------------------

def land_on_luck(game, card):
    t = game(alert_deck=BASIC_DECK, luck_deck=[card], stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]})
    space = min(t.engine.data.training_luck_spaces)
    t.team("Ana").mover = space - 2
    capture_blob(t)
    t.do("turn.end", "Ana")
    assert t.s.luck_deck[:1] != [card]
    return t, space


def test_a_hold_card_is_held(game):
    """ "If the card reads 'Hold Until Needed,' place the card face down near your other cards until
    you believe using it will benefit your team the most." """
    t, space = land_on_luck(game, "medi-lab-1")
    assert t.team("Ana").mover == space and t.team("Ana").held == ["medi-lab-1"]
    assert t.view()["teams"][0]["held"][0]["title"] == "Medi-Lab"


def test_a_play_at_once_card_is_played_at_once(game):
    """ "If the card reads 'Play At Once,' you must use that card immediately." """
    t, space = land_on_luck(game, "blackbird-1")
    assert t.team("Ana").mover == space + 2 and t.team("Ana").held == []
    assert t.s.luck_discard == ["blackbird-1"]


def test_cerebro_on_another_player_before_his_turn(game):
    """ "Play this card on another player. Cerebro is on the fritz! Their entire team must report to
    Headquarters to repair the computer for one turn, with no other actions." "Right before his
    turn begins, announce that you are using this card and he will have to return his team to
    Headquarters." """
    t = game(alert_deck=BASIC_DECK, stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]})
    t.s.luck_deck.remove("cerebro-1")
    t.team("Ana").held.append("cerebro-1")
    t.do("turn.end", "Ana")
    t.do("deploy", "Ben", zone=1, heroes=["storm"])
    t.do("battle.roll", "Ben", zone=1, faces=roll(4, xmen=2))
    with pytest.raises(IllegalAction, match="already begun"):
        t.do("card.play", "Ana", card="cerebro", target="Ben")
    t.do("turn.end", "Ben")
    t.do("card.play", "Ana", card="cerebro", target="Ben")     # during Ana's turn, before Ben's
    # the reminder says whose turn it takes ("the next turn" read as Ana's own next, or as the
    # next player's in a game of three)
    assert {"text": "Cerebro is on the fritz for Ben: the whole team reports to Headquarters at "
                    "the start of Ben's next turn.", "rule": R_LUCK} in t.engine.reminders(t.s)
    t.do("turn.end", "Ana")
    assert t.hero("Ben", "storm").where == HQ and t.zone(1).side("Ben") is None
    assert t.s.current.player == "Ana"          # Ben's turn passed with no other actions
    # "After you have played a Training & Luck Card, place the card face up next to the deck"
    assert t.s.luck_discard == ["cerebro-1"]


def test_a_turn_passed_by_cerebro_is_told_in_the_next_step(tmp_path):
    """ "Right before his turn begins, announce that you are using this card and he will have to
    return his team to Headquarters." "Cerebro is on the fritz! Their entire team must report to
    Headquarters to repair the computer for one turn, with no other actions." Ben's turn passes
    at once: the next step the table shows (and speaks) says so, rather than Ana simply going
    again, and says it through Ana's turn only."""
    from companion.actions import Action
    from companion.games import Catalog
    from companion.journal import Journal
    from companion.session import Session

    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    session.start("xmen-alert", CEREBRO_OPTIONS, seed=1)
    for kind, player, data in CEREBRO_PLAY[:-1]:
        view = session.submit(Action(kind, player, data))
    assert view["state"]["teams"][1]["cerebro_next_turn"] == 1
    assert "passed" not in view["expect"]
    view = session.submit(Action(*CEREBRO_PLAY[-1]))
    assert view["state"]["player"] == "Ana"
    assert view["expect"]["passed"] == "Cerebro is on the fritz! Ben's turn passed."
    assert view["expect"]["prompt"] == ("Cerebro is on the fritz! Ben's turn passed. Ana: deploy "
                                        "X-Men to a Battle Zone or end the turn.")
    view = session.submit(Action("turn.end", "Ana"))
    assert view["state"]["player"] == "Ben" and "passed" not in view["expect"]
    assert view["expect"]["prompt"].startswith("Ben: ")


def test_a_held_card_can_be_played_by_its_holder_only(game):
    """ "Training & Luck Cards go into a common pool and can be used by any of your team members." """
    t = game(alert_deck=BASIC_DECK, stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]})
    t.s.luck_deck.remove("medi-lab-1")
    t.team("Ana").held.append("medi-lab-1")
    t.hero("Ben", "storm").hits = 2
    with pytest.raises(IllegalAction, match="holds no"):
        t.do("card.play", "Ben", card="medi-lab", hero="storm")
    t.hero("Ana", "wolverine").hits = 4
    t.do("card.play", "Ana", card="medi-lab", hero="wolverine")
    assert t.hero("Ana", "wolverine").hits == 1


def test_the_training_and_luck_deck_reshuffles_when_used_up(game):
    """ "When all the Training & Luck Cards have been used, shuffle them and put them face down in
    the space marked on the board." """
    t = game(alert_deck=BASIC_DECK, stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]})
    t.s.luck_discard.extend(t.s.luck_deck)
    t.s.luck_deck.clear()
    space = min(t.engine.data.training_luck_spaces)
    t.team("Ana").mover = space - 2
    capture_blob(t)
    t.do("turn.end", "Ana")
    assert len(t.s.luck_deck) + len(t.s.luck_discard) + len(t.team("Ana").held) == 23
    assert len(t.s.luck_deck) >= 21


# -- the view for the dashboard -------------------------------------------------------------------

def test_the_view_shows_zones_headquarters_track_and_decks(game):
    t = game(alert_deck=BASIC_DECK, stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]})
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    t.do("battle.roll", "Ana", zone=1, faces=roll(9, marvel=1, evil=1))
    v = t.view()
    zone = v["zones"][0]
    assert zone["card"]["name"] == "Sabretooth" and zone["indicator"] == 12
    assert zone["strength_track"] == 21
    assert zone["teams"] == [{"player": "Ana", "leader": "wolverine", "leader_name": "Wolverine",
                              "position": 2, "backers": [], "started": True}]
    hq = v["teams"][0]["headquarters"][0]
    assert hq["hits"] == 1 and hq["where"] == "zone 1"
    assert v["experience_track"]["goal"] == t.engine.data.recruit_spaces[0]
    basic_deck = [c for c in t.engine.data.alert.values() if not c.advanced and c.kind == "evil_mutant"]
    assert v["decks"]["alert"] == len(basic_deck) - 3 and "alert_deck" not in v
    assert v["log"][-1].startswith("Ana's leader Wolverine moves to space 2")
