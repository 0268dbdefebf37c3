"""Step 2 (battles) and Step 3 (recruiting): each test quotes the rulebook sentence it checks."""

import random

import pytest

from companion.errors import BadAction, IllegalAction, SetupError
from companion.games.xmen.state import HQ
from xmen_helpers import BASIC_DECK, roll


def basic(game, **kw):
    kw.setdefault("stat_cards", {"Ana": ["wolverine"], "Ben": ["archangel"]})
    return game(alert_deck=BASIC_DECK, **kw)


def test_step_one_fills_the_zones_and_sets_the_indicators(game):
    """ "If a Battle Zone is empty, draw the top X-Men Alert Card and place it face up on the large
    X in the Battle Zone." "the Strength Indicator is placed on the number space on the Strength
    Track that corresponds with the Evil Mutant's Strength." """
    t = basic(game)
    assert [z.card for z in t.s.zones] == ["sabretooth", "mystique", "blob"]
    assert [z.indicator for z in t.s.zones] == [12, 11, 7]


def test_a_leader_rolls_fighting_skill_and_moves_a_space_per_point(game):
    """ "The Fighting Skill number is equal to the number of dice your character rolls in battle."
    "For each X-Men rolled, score 1 point. For each Marvel rolled, score 2 points." "Advance your
    leader 1 space on the Battle Zone's Strength Track for each point you score." """
    t = basic(game, stat_cards={"Ana": ["storm"], "Ben": ["archangel"]})
    t.do("deploy", "Ana", zone=1, heroes=["storm"])
    assert t.engine.expect(t.s)["dice"][0]["count"] == 4
    t.do("battle.roll", "Ana", zone=1, faces=roll(4, marvel=1, xmen=2))
    side = t.zone(1).side("Ana")
    assert side.leader == "storm" and side.position == 4


def test_wolverine_rolls_three_more_dice_when_leading(game):
    """ "When Wolverine is leading the team in a Battle Zone, he can roll 3 additional dice when
    doing battle." """
    t = basic(game)
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    entry = t.engine.expect(t.s)["dice"][0]
    assert entry["count"] == 9 and entry["purpose"] == "battle" and entry["player"] == "Ana"
    with pytest.raises(IllegalAction):
        t.do("battle.roll", "Ana", zone=1, faces=roll(6))


def test_hits_per_evil_mutant_rolled(game):
    """ "The character who is fighting receives one Hit Chip for each Evil Mutant rolled." """
    t = basic(game)
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    t.do("battle.roll", "Ana", zone=1, faces=roll(9, xmen=2, evil=2))
    assert t.hero("Ana", "wolverine").hits == 2
    assert t.zone(1).side("Ana").position == 2


def test_every_x_covered_sends_the_character_home_before_advancing(game):
    """ "If all the character's X symbols are covered, the character figure must return to
    Headquarters to recover before advancing on the Strength Track." """
    t = basic(game, stat_cards={"Ana": ["storm"], "Ben": ["archangel"]})
    t.do("deploy", "Ana", zone=1, heroes=["storm"])
    t.do("battle.roll", "Ana", zone=1, faces=["evil_mutant"] * 3 + ["marvel"])
    storm = t.hero("Ana", "storm")
    assert storm.hits == 3 and storm.where == HQ
    # no backer, so "your team loses its position on the Strength Track"
    assert t.zone(1).side("Ana") is None


def test_wolverine_worked_example_seriously_wounded(game):
    """ "For example: Wolverine is able to take 5 hits. He has already taken three hits, so three
    of his X symbols are covered. On your turn, you roll four Evil Mutants. Cover the remaining two
    X symbols and put the extra two hits on Wolverine's picture." """
    t = basic(game)
    t.hero("Ana", "wolverine").hits = 3
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    t.do("battle.roll", "Ana", zone=1, faces=roll(9, xmen=3, evil=4))
    hq = t.view()["teams"][0]["headquarters"][0]
    assert (hq["hits"], hq["x_covered"], hq["on_picture"]) == (7, 5, 2)
    assert hq["seriously_wounded"] and hq["where"] == "headquarters"
    # "Return to Headquarters (See Step 4: Seriously Wounded Characters)."
    assert t.zone(1).side("Ana") is None
    # "The character who is fighting receives one Hit Chip for each Evil Mutant rolled": the
    # table places four chips (three are on already), so the log says four, not seven
    log = t.state.log[-3:]
    assert log[0].endswith(" points, 4 Evil Mutants."), log
    assert log[1] == ("Wolverine takes 4 hits (7 in all), seriously wounded, and returns to "
                      "Headquarters."), log


def test_a_wounded_character_with_every_x_covered_cannot_deploy(game):
    """ "If you have one or more characters at Headquarters and they have fewer hits than their
    Durability number, they can move to a Battle Zone Deployment Area." """
    t = basic(game)
    t.hero("Ana", "wolverine").hits = 5
    with pytest.raises(IllegalAction, match="fewer than a Durability"):
        t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    t.hero("Ana", "wolverine").hits = 4
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])


def test_a_deployment_only_an_assumed_durability_forbids_is_accepted_with_a_reminder(game,
                                                                                   tmp_path):
    """The same rule on Havok, whose Power Stat card the rulebook does not print ("It does NOT
    print the other 15 stat cards": his Durability of 3 is assumed): "If you have one or more
    characters at Headquarters and they have fewer hits than their Durability number, they can
    move to a Battle Zone Deployment Area." With 3 hits, by default he deploys and the players
    are reminded it was not checked; with ``unconfirmed = "refuse"``, or once the owner confirms
    his card on the Your box page, it is refused."""
    from companion.games.xmen.state import R_FIGHT, invariants
    from xmen_helpers import confirmed_table

    def wounded(t):
        t.hero("Ana", "havok").hits = 3
        return t.do("deploy", "Ana", zone=1, heroes=["havok"])

    t = basic(game, stat_cards={"Ana": ["havok"], "Ben": ["archangel"]})
    t.hero("Ana", "havok").hits = 3
    assert t.engine.expect(t.s)["deploy"] == {}             # expect lists what the data allows
    s = wounded(t)
    assert t.hero("Ana", "havok").where == 0 and invariants(s) == []
    text = ("Havok deployed to Battle Zone 1 unchecked: a character with as many hits as its "
            "Durability (3 of 3) recovers first, and Havok's Power Stat card is assumed, not "
            "confirmed (confirm it on the Your box page).")
    assert {"text": text, "rule": R_FIGHT} in t.engine.reminders(s)
    assert s.log[-1] == "Reminder: " + text
    t.do("battle.roll", "Ana", zone=1, faces=roll(t.engine.expect(t.s)["dice"][0]["count"]))
    t.do("turn.end", "Ana")                                 # the reminder lasts the turn
    assert not [r for r in t.engine.reminders(t.s) if "unchecked" in r["text"]]

    with pytest.raises(IllegalAction, match="fewer than a Durability"):
        wounded(basic(game, stat_cards={"Ana": ["havok"], "Ben": ["archangel"]},
                      unconfirmed="refuse"))

    confirmed = confirmed_table(tmp_path, "havok", {         # the owner confirms Havok's card
        "players": ["Ana", "Ben"], "first_player": "Ana", "alert_deck": BASIC_DECK,
        "stat_cards": {"Ana": ["havok"], "Ben": ["archangel"]}})
    with pytest.raises(IllegalAction, match="fewer than a Durability"):
        wounded(confirmed)


def test_leaders_bump_on_the_strength_track(game):
    """ "If your leader lands on the same space as another leader, move the other leader back one
    space. Two leaders cannot occupy the same space on the Strength Track." """
    t = basic(game)
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    t.do("battle.roll", "Ana", zone=1, faces=roll(9, marvel=3))      # Wolverine to 6
    t.do("turn.end", "Ana")
    t.do("deploy", "Ben", zone=1, heroes=["archangel"])
    t.do("battle.roll", "Ben", zone=1, faces=roll(5, marvel=2, xmen=2))  # Archangel lands on 6
    assert t.zone(1).side("Ben").position == 6
    assert t.zone(1).side("Ana").position == 5


def test_a_bumped_leader_pushes_the_next_one_and_space_one_falls_to_the_deployment_area(game):
    """ "Two leaders cannot occupy the same space on the Strength Track." Read literally, a leader
    pushed onto a third leader pushes that one back too."""
    t = basic(game, players=("Ana", "Ben", "Chloe"),
              stat_cards={"Ana": ["wolverine"], "Ben": ["archangel"], "Chloe": ["storm"]})
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    t.do("battle.roll", "Ana", zone=1, faces=roll(9, xmen=2))        # Ana on 2
    t.do("turn.end", "Ana")
    t.do("deploy", "Ben", zone=1, heroes=["archangel"])
    t.do("battle.roll", "Ben", zone=1, faces=roll(5, xmen=1))        # Ben on 1
    t.do("turn.end", "Ben")
    t.do("deploy", "Chloe", zone=1, heroes=["storm"])
    t.do("battle.roll", "Chloe", zone=1, faces=roll(4, marvel=1))    # Chloe lands on 2
    positions = {x.player: x.position for x in t.zone(1).sides}
    assert positions == {"Chloe": 2, "Ana": 1, "Ben": 0}


def test_capture_on_reaching_or_passing_the_indicator_sends_every_team_home(game):
    """ "When your team leader moves onto or past the space with the Strength Indicator, your team
    captures the Evil Mutant!" "All X-Men in that Battle Zone from all teams are returned to their
    Headquarters." """
    t = basic(game)
    t.do("deploy", "Ana", zone=3, heroes=["wolverine"])
    t.do("battle.roll", "Ana", zone=3, faces=roll(9, xmen=1))
    t.do("turn.end", "Ana")
    t.do("deploy", "Ben", zone=3, heroes=["archangel"])
    t.do("battle.roll", "Ben", zone=3, faces=roll(5, marvel=4))       # 8 points, past 7
    assert t.team("Ben").captured == ["blob"]
    assert t.zone(3).card is None and t.zone(3).indicator is None and t.zone(3).sides == []
    assert t.hero("Ana", "wolverine").where == HQ and t.hero("Ben", "archangel").where == HQ


def test_characters_in_a_zone_must_continue_to_battle(game):
    """ "If your character(s) is already in a Battle Zone, you must continue to battle that Evil
    Mutant." """
    t = basic(game)
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    with pytest.raises(IllegalAction, match="must continue to battle"):
        t.do("turn.end", "Ana")
    t.do("battle.roll", "Ana", zone=1, faces=roll(9))
    t.do("turn.end", "Ana")
    t.do("turn.end", "Ben")
    assert "battle.roll" in t.engine.expect(t.s)["actions"]
    assert "turn.end" not in t.engine.expect(t.s)["actions"]


def test_no_more_than_nine_dice(game):
    """ "The maximum number of dice you can roll at one time is nine. Any number over nine while
    fighting or performing another action is disregarded." """
    t = basic(game)
    t.s.luck_deck.remove("danger-room-1")
    t.team("Ana").held.append("danger-room-1")
    t.do("card.play", "Ana", card="danger-room", hero="wolverine")    # 6 + 3 + 2 = 11
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    assert t.engine.expect(t.s)["dice"][0]["count"] == 9
    with pytest.raises(IllegalAction, match="no more than 9"):
        t.do("battle.roll", "Ana", zone=1, faces=roll(10))
    t.do("battle.roll", "Ana", zone=1, faces=roll(9, marvel=1))
    assert t.zone(1).side("Ana").position == 2


def test_bad_dice_input_is_refused_and_loses_nothing(game):
    t = basic(game)
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    before = t.view()
    with pytest.raises(BadAction, match="not a face"):
        t.do("battle.roll", "Ana", zone=1, faces=["skull"] * 9)
    with pytest.raises(BadAction):
        t.do("battle.roll", "Ana", zone=1, faces="xmen")
    with pytest.raises(BadAction, match="zone"):
        t.do("battle.roll", "Ana", zone=7, faces=roll(9))
    with pytest.raises(IllegalAction, match="Ana's turn"):
        t.do("battle.roll", "Ben", zone=1, faces=roll(9))
    assert t.view() == before


def test_omitted_faces_roll_virtual_dice(game):
    t = basic(game)
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    t.do("battle.roll", "Ana", zone=1)
    assert len(t.s.last_roll["faces"]) == 9


# -- Archangel's Wing Missile ---------------------------------------------------------------------

def test_wing_missile_worked_scoring(game):
    """ "When battling with his wings, roll 2 dice. Each Marvel rolled counts as 4 points and each
    X-Men rolled counts as 2 points." """
    t = basic(game, stat_cards={"Ana": ["archangel"], "Ben": ["wolverine"]})
    t.do("deploy", "Ana", zone=1, heroes=["archangel"])
    entries = t.engine.expect(t.s)["dice"]
    wing = next(e for e in entries if e["data"].get("attack") == "Wing Missile")
    assert wing["count"] == 2
    t.do("battle.roll", "Ana", zone=1, attack="wing_missile", faces=["marvel", "xmen"])
    assert t.zone(1).side("Ana").position == 6


def test_wing_missile_hits_fall_on_archangel_when_alone(game):
    """ "Evil Mutant rolls give 1 hit to a teammate. When no teammates are in the Battle Zone, all
    hits are taken by Archangel." """
    t = basic(game, stat_cards={"Ana": ["archangel"], "Ben": ["wolverine"]})
    t.do("deploy", "Ana", zone=1, heroes=["archangel"])
    t.do("battle.roll", "Ana", zone=1, attack="Wing Missile", faces=["evil_mutant", "marvel"])
    assert t.hero("Ana", "archangel").hits == 1
    assert t.zone(1).side("Ana").position == 4


def test_wing_missile_hits_named_for_a_teammate_elsewhere_are_refused(game):
    """ "When no teammates are in the Battle Zone, all hits are taken by Archangel": naming a
    teammate in another zone was accepted and silently ignored."""
    t = game(advanced=True, alert_deck=BASIC_DECK,
             stat_cards={"Ana": ["archangel", "storm"], "Ben": ["wolverine", "cable"]})
    t.do("deploy", "Ana", zone=1, heroes=["archangel"])
    t.do("deploy", "Ana", zone=2, heroes=["storm"])
    with pytest.raises(IllegalAction, match="all hits are taken by Archangel"):
        t.do("battle.roll", "Ana", zone=1, attack="wing_missile", faces=["evil_mutant", "marvel"],
             hits_to="storm")
    t.do("battle.roll", "Ana", zone=1, attack="wing_missile", faces=["evil_mutant", "marvel"],
         hits_to="archangel")
    assert t.hero("Ana", "archangel").hits == 1 and t.hero("Ana", "storm").hits == 0


def test_wing_missile_hits_go_to_a_teammate(game):
    """ "Evil Mutant rolls give 1 hit to a teammate." (Advanced: a team of two) """
    t = game(advanced=True, alert_deck=BASIC_DECK,
             stat_cards={"Ana": ["storm", "archangel"], "Ben": ["wolverine", "cable"]})
    t.do("deploy", "Ana", zone=1, heroes=["storm", "archangel"], leader="storm")
    t.do("battle.roll", "Ana", zone=1, faces=roll(4, xmen=1))
    t.do("battle.roll", "Ana", zone=1, hero="archangel", attack="wing_missile",
         faces=["evil_mutant", "evil_mutant"], hits_to="storm")
    assert t.hero("Ana", "archangel").hits == 0 and t.hero("Ana", "storm").hits == 2
    with pytest.raises(IllegalAction):
        t.do("battle.roll", "Ana", zone=1, hero="archangel", attack="wing_missile", faces=roll(2))


# -- Advanced: backers, team work, flight, zones ---------------------------------------------------

def adv(game, cards, **kw):
    return game(advanced=True, alert_deck=BASIC_DECK,
                stat_cards={"Ana": cards, "Ben": ["cable", "colossus"]}, **kw)


def test_backers_fight_one_at_a_time_after_the_leader(game):
    """ "When you have other team members backing up the leader in the Battle Zone Deployment Area,
    these characters will fight one at a time after the leader." "Advance the leader one space on
    the Strength Track for every point that other character scored." "Put one Hit Chip on that
    character's (not the leader's) Power Stat Card X symbol for every Evil Mutant rolled." """
    t = adv(game, ["wolverine", "havok"])
    t.do("deploy", "Ana", zone=1, heroes=["wolverine", "havok"], leader="wolverine")
    with pytest.raises(IllegalAction, match="always the first"):
        t.do("battle.roll", "Ana", zone=1, hero="havok", faces=roll(5))
    t.do("battle.roll", "Ana", zone=1, faces=roll(9, xmen=1))
    t.do("battle.roll", "Ana", zone=1, hero="havok", faces=roll(5, marvel=1, evil=1))
    side = t.zone(1).side("Ana")
    assert side.position == 3 and side.leader == "wolverine"
    assert t.hero("Ana", "havok").hits == 1 and t.hero("Ana", "wolverine").hits == 0


@pytest.mark.parametrize("reading, position", [("advances", 9), ("lost", 3)])
def test_a_backer_sent_home_by_his_own_roll_still_moves_the_leader(game, reading, position):
    """ "Advance the leader one space on the Strength Track for every point that other character
    scored. Put one Hit Chip on that character's (not the leader's) Power Stat Card X symbol for
    every Evil Mutant rolled." and "roll the dice, move the leader on the Strength Track and record
    hits on the character doing battle": the leader moves, then the backer's hits send him home.
    The earlier reading ("must return to Headquarters to recover before advancing") threw his
    points away; a game journaled before the option keeps it ("lost")."""
    t = adv(game, ["wolverine", "havok"], knocked_out_backer=reading)
    t.hero("Ana", "havok").hits = 2                                     # Durability 3
    t.do("deploy", "Ana", zone=1, heroes=["wolverine", "havok"], leader="wolverine")
    t.do("battle.roll", "Ana", zone=1, faces=roll(9, marvel=1, xmen=1))  # Wolverine to 3
    t.do("battle.roll", "Ana", zone=1, hero="havok", faces=roll(5, marvel=3, evil=1))
    assert t.hero("Ana", "havok").where == HQ
    assert t.zone(1).side("Ana").position == position


def test_new_games_record_the_literal_reading_of_a_backer_sent_home(engine):
    new = engine.prepare_options({"players": ["Ana", "Ben"], "advanced": True}, [])
    assert new["knocked_out_backer"] == "advances"
    assert "knocked_out_backer" not in engine.prepare_options({"players": ["Ana", "Ben"]}, [])
    with pytest.raises(SetupError, match="knocked_out_backer"):
        engine.setup({"players": ["Ana", "Ben"], "knocked_out_backer": "maybe"}, random.Random(0))


def test_storm_adds_two_dice_to_each_teammate_when_leading(game):
    """ "When she is leading the team in a Battle Zone ... Add 2 dice to each teammate's fighting
    skill number." Wolverine backing rolls his Fighting Skill only: his 3 extra dice are for
    leading."""
    t = adv(game, ["storm", "wolverine"])
    t.do("deploy", "Ana", zone=1, heroes=["storm", "wolverine"], leader="storm")
    t.do("battle.roll", "Ana", zone=1, faces=roll(4))
    assert t.engine.expect(t.s)["dice"][0]["count"] == 8


def test_team_work_a_backer_takes_the_leaders_space_and_completes_the_roll(game):
    """ "another X-Men on your team's Battle Zone Deployment Area can jump in and take the same
    space the leader held on the Strength Track. He can complete the movement of the leader's roll.
    This character becomes the new team leader." """
    t = adv(game, ["storm", "wolverine"])
    t.do("deploy", "Ana", zone=1, heroes=["storm", "wolverine"], leader="storm")
    t.do("battle.roll", "Ana", zone=1, faces=roll(4, xmen=2))          # Storm to 2
    t.do("battle.roll", "Ana", zone=1, faces=roll(8))
    t.do("turn.end", "Ana")
    t.do("turn.end", "Ben")
    t.do("battle.roll", "Ana", zone=1, faces=["evil_mutant"] * 3 + ["marvel"])
    side = t.zone(1).side("Ana")
    assert t.hero("Ana", "storm").where == HQ
    assert side.leader == "wolverine" and side.position == 4
    # the new leader still fights his own battle this turn, now as leader
    assert t.engine.expect(t.s)["dice"][0]["count"] == 9


def test_team_work_names_a_backer_of_that_zone_or_is_refused(game):
    """ "another X-Men on your team's Battle Zone Deployment Area can jump in": data.new_leader
    naming a character at Headquarters, or the leader himself, was accepted and another backer
    silently took over."""
    t = adv(game, ["storm", "wolverine"])
    t.do("deploy", "Ana", zone=1, heroes=["storm"])
    with pytest.raises(IllegalAction, match="Wolverine is not backing the leader"):
        t.do("battle.roll", "Ana", zone=1, faces=roll(4, marvel=1), new_leader="wolverine")
    with pytest.raises(IllegalAction, match="Storm is not backing the leader"):
        t.do("battle.roll", "Ana", zone=1, faces=roll(4, marvel=1), new_leader="storm")


def test_without_a_backer_the_team_loses_its_position(game):
    """ "If you don't have another character in the team's deployment area, your team loses its
    position on the Strength Track. If you later decide to return to battle this Evil Mutant, your
    team must begin from the Deployment Area." """
    t = adv(game, ["storm", "wolverine"])
    t.do("deploy", "Ana", zone=1, heroes=["storm"])
    t.do("battle.roll", "Ana", zone=1, faces=roll(4, marvel=2))
    t.do("turn.end", "Ana")
    t.do("turn.end", "Ben")
    t.do("battle.roll", "Ana", zone=1, faces=["evil_mutant"] * 3 + ["marvel"])
    assert t.zone(1).side("Ana") is None
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    assert t.zone(1).side("Ana").position == 0


def test_only_flyers_join_a_battle_in_progress(game):
    """ "Only characters with the Extra Ability of flight can fly from Headquarters to a Battle
    Zone's Deployment Area and join a teammate already fighting in the Zone." Wolverine's card is
    printed (no flight): refused with the rule's authority."""
    t = adv(game, ["havok", "wolverine"])
    t.do("deploy", "Ana", zone=1, heroes=["havok"])
    t.do("battle.roll", "Ana", zone=1, faces=roll(t.engine.expect(t.s)["dice"][0]["count"], xmen=1))
    with pytest.raises(IllegalAction, match="only characters with flight"):
        t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    t2 = adv(game, ["wolverine", "archangel"])
    t2.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    t2.do("battle.roll", "Ana", zone=1, faces=roll(9, xmen=1))
    t2.do("deploy", "Ana", zone=1, heroes=["archangel"])
    assert t2.zone(1).side("Ana").order == ["wolverine", "archangel"]
    assert not t2.s.unchecked


def test_a_join_only_an_assumed_card_forbids_is_accepted_with_a_reminder(game, tmp_path):
    """The same rule on Havok, whose Power Stat card the rulebook does not print ("It does NOT
    print the other 15 stat cards": whether he flies is assumed): by default the join is accepted
    and the players reminded it was not checked; with ``unconfirmed = "refuse"``, or once the
    owner confirms his card on the Your box page, it is refused."""
    from companion.games.xmen.state import R_JOIN
    from xmen_helpers import confirmed_table

    def joined(t):
        t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
        t.do("battle.roll", "Ana", zone=1, faces=roll(9, xmen=1))
        return t.do("deploy", "Ana", zone=1, heroes=["havok"])

    t = adv(game, ["wolverine", "havok"])
    s = joined(t)
    assert s.zones[0].side("Ana").order == ["wolverine", "havok"]
    reminder = [r for r in t.engine.reminders(s) if "unchecked" in r["text"]]
    assert reminder == [{"text": "Havok joined the battle in progress in Battle Zone 1 unchecked: "
                                 "only characters with flight may, and Havok's Power Stat card is "
                                 "assumed, not confirmed (confirm it on the Your box page).",
                         "rule": R_JOIN}]
    assert s.log[-1].startswith("Reminder: Havok joined the battle in progress")
    t.do("battle.roll", "Ana", zone=1, hero="havok",
         faces=roll(t.engine.expect(t.s)["dice"][0]["count"]))
    assert [r for r in t.engine.reminders(t.s) if "unchecked" in r["text"]] == reminder
    t.do("turn.end", "Ana")                                 # the reminder lasts the turn
    assert not [r for r in t.engine.reminders(t.s) if "unchecked" in r["text"]]

    with pytest.raises(IllegalAction, match="only characters with flight"):
        joined(adv(game, ["wolverine", "havok"], unconfirmed="refuse"))
    with pytest.raises(Exception, match='unconfirmed: "remind"'):
        adv(game, ["wolverine", "havok"], unconfirmed="sometimes")

    confirmed = confirmed_table(tmp_path, "havok", {         # the owner confirms Havok's card
        "players": ["Ana", "Ben"], "advanced": True, "first_player": "Ana",
        "alert_deck": BASIC_DECK, "stat_cards": {"Ana": ["wolverine", "havok"],
                                                 "Ben": ["cable", "colossus"]}})
    with pytest.raises(IllegalAction, match="only characters with flight"):
        joined(confirmed)


def test_complete_one_zone_before_another(game):
    """ "If your team has characters in different Battle Zones, always complete all your character
    actions in one Battle Zone before going on to the actions in another zone." """
    t = adv(game, ["wolverine", "havok"])
    t.do("deploy", "Ana", zone=1, heroes=["wolverine", "havok"], leader="wolverine")
    t.do("battle.roll", "Ana", zone=1, faces=roll(9))
    with pytest.raises(IllegalAction, match="Battle Zone 1 before"):
        t.do("deploy", "Ana", zone=2, heroes=["havok"])


def test_one_battle_or_recovery_per_character_per_turn(game):
    """ "NOTE: Your character can only do one of these two actions (Battle or Recover) in a
    turn." """
    t = basic(game)
    t.hero("Ana", "wolverine").hits = 2
    t.do("deploy", "Ana", zone=3, heroes=["wolverine"])
    t.do("battle.roll", "Ana", zone=3, faces=roll(9, marvel=4))    # captures, back at HQ
    assert t.hero("Ana", "wolverine").where == HQ
    with pytest.raises(IllegalAction, match="only one of the two"):
        t.do("recover.roll", "Ana", hero="wolverine", faces=roll(5))
    with pytest.raises(IllegalAction, match="already acted this turn: battled or recovered"):
        t.do("deploy", "Ana", zone=1, heroes=["wolverine"])


# -- Step 3: recruiting (Advanced) -------------------------------------------------------------------

def recruiting(game, cards=("wolverine", "storm")):
    return game(advanced=True, alert_deck=["recruit-1", "sabretooth", "blob", "toad"],
                stat_deck=["jubilee", "beast"], stat_cards={"Ana": list(cards), "Ben": ["cable", "colossus"]})


def test_a_recruit_card_turns_over_the_top_stat_card(game):
    """ "When an X-Men Alert Card is drawn that reads, 'Recruit Next X-Men,' turn over the top X-Men
    Power Stat Card. The Strength Indicator is placed on the number space that corresponds to that
    X-Men character's Total Power Number." """
    t = recruiting(game)
    assert t.zone(1).recruit == "jubilee" and t.zone(1).indicator == 8


def test_recruiting_rolls_intelligence_and_still_takes_hits(game):
    """ "when your team is recruiting, your X-Men characters will use their Intelligence number to
    roll dice, not their Fighting Skill." "When you are recruiting, your characters will still
    receive hits when you roll Evil Mutants." """
    t = recruiting(game)
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    entry = t.engine.expect(t.s)["dice"][0]
    assert (entry["count"], entry["purpose"], entry["action"]) == (2, "recruit", "recruit.roll")
    with pytest.raises(IllegalAction, match="recruit.roll"):
        t.do("battle.roll", "Ana", zone=1, faces=roll(2))
    t.do("recruit.roll", "Ana", zone=1, faces=["marvel", "evil_mutant"])
    assert t.zone(1).side("Ana").position == 2 and t.hero("Ana", "wolverine").hits == 1


def test_recruiting_on_reaching_the_indicator(game):
    """ "When your team leader moves onto or past the space with the Strength Indicator, your team
    recruits the X-Men character." "That X-Men is now part of your team at Headquarters." """
    t = recruiting(game)
    t.zone(1).indicator = 4          # as if the recruit's Total Power were 4
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    t.do("recruit.roll", "Ana", zone=1, faces=["marvel", "marvel"])
    assert [h.id for h in t.team("Ana").heroes] == ["wolverine", "storm", "jubilee"]
    assert t.hero("Ana", "jubilee").where == HQ and t.zone(1).card is None
    assert "recruit-1" in t.s.alert_discard


def test_a_character_recruiting_is_told_to_roll_to_recruit_not_to_battle(game):
    """ "The same rules apply when recruiting another team member as the rules for battling an
    Evil Mutant. Remember that when your team is recruiting, your X-Men characters will use their
    Intelligence number to roll dice, not their Fighting Skill." Wolverine stays in the recruit
    zone into the next turn: he must roll to recruit again, and what the players read says so
    (it said 'must continue to battle', which sends a family for Fighting Skill dice)."""
    t = recruiting(game)
    t.hero("Ana", "storm").hits = 2
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    t.do("recruit.roll", "Ana", zone=1, faces=roll(2, xmen=1))
    t.do("turn.end", "Ana")
    t.do("turn.end", "Ben")
    with pytest.raises(IllegalAction, match="Wolverine must still roll to recruit in Battle Zone 1"):
        t.do("recover.roll", "Ana", hero="storm", faces=roll(3))
    with pytest.raises(IllegalAction, match="must continue to roll to recruit before the turn"):
        t.do("turn.end", "Ana")
    said = [r["text"] for r in t.engine.reminders(t.s)]
    assert any("must continue to roll to recruit, with Intelligence dice" in x for x in said), said
    assert not any("must continue to battle" in x for x in said), said


def test_a_character_recruited_this_turn_is_refused_naming_why(game):
    """ "That X-Men is now part of your team at Headquarters." A character that joined this turn
    does nothing more that turn (docs/xmen-alert.md); refused, the players read that it joined,
    not only 'already battled or recovered', which it never did."""
    t = recruiting(game)
    t.zone(1).indicator = 4
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    t.do("recruit.roll", "Ana", zone=1, faces=["marvel", "marvel"])
    with pytest.raises(IllegalAction, match="Jubilee has already acted this turn: .*or joined the team"):
        t.do("recover.roll", "Ana", hero="jubilee", faces=roll(3))


def test_a_team_of_four_cannot_recruit(game):
    """ "Remember — you can only have a maximum of four X-Men characters on your team. Once your
    team has four characters, you cannot recruit another X-Men." """
    t = recruiting(game)
    for hid in ("beast",):
        t.s.stat_deck.remove(hid)
        t.team("Ana").heroes.append(type(t.team("Ana").heroes[0])(hid))
    for hid in ("rogue",):
        t.s.stat_deck.remove(hid)
        t.team("Ana").heroes.append(type(t.team("Ana").heroes[0])(hid))
    with pytest.raises(IllegalAction, match="cannot recruit"):
        t.do("deploy", "Ana", zone=1, heroes=["wolverine"])


def test_recruiting_comes_after_the_battles(game):
    """Step 2 BATTLE, then "Step 3 (Advanced) If there is an X-Men Recruit card in a Battle Zone,
    you may choose to recruit." """
    t = recruiting(game)
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    t.do("recruit.roll", "Ana", zone=1, faces=roll(2))
    with pytest.raises(IllegalAction, match="Step 2"):
        t.do("deploy", "Ana", zone=2, heroes=["storm"])


def test_recruit_cards_are_set_aside_when_every_team_is_full(game):
    """ "(Advanced) NOTE: If all players already have the maximum number of four X-Men characters
    on their teams, place the recruit card to the side and draw another card." """
    t = game(advanced=True, alert_deck=["sabretooth", "blob", "toad", "recruit-1", "pyro"],
             stat_cards={"Ana": ["wolverine", "storm"], "Ben": ["cable", "colossus"]})
    for team, extra in (("Ana", ["beast", "rogue"]), ("Ben", ["gambit", "havok"])):
        for hid in extra:
            t.s.stat_deck.remove(hid)
            t.team(team).heroes.append(type(t.team(team).heroes[0])(hid))
    t.do("deploy", "Ana", zone=3, heroes=["wolverine"])
    t.do("battle.roll", "Ana", zone=3, faces=roll(9, marvel=3))        # captures Toad (5)
    t.do("turn.end", "Ana")
    assert t.zone(3).card == "pyro" and "recruit-1" in t.s.alert_discard
