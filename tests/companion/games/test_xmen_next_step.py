"""The next step the table is told, read from the Session's view (what every screen shows),
checked against what the rules then accept."""

import pytest

from companion.actions import Action
from companion.errors import IllegalAction
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from xmen_helpers import roll


@pytest.fixture
def session(tmp_path):
    s = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    s.start("xmen-alert", {"players": ["Ana", "Ben"], "advanced": True, "first_player": "Ana",
                           "stat_cards": {"Ana": ["wolverine", "storm"],
                                          "Ben": ["archangel", "cyclops"]},
                           "alert_deck": ["blob", "pyro", "toad", "juggernaut"]}, seed=5)
    return s


def act(session, kind, player=None, **data):
    return session.submit(Action(kind, player, data, source="dashboard"))


def storm_seriously_wounded(session):
    """Storm leads and is seriously wounded; Wolverine takes over and captures Blob; on Ana's next
    turn Storm must roll to recover and Wolverine, at Headquarters unhurt, may battle."""
    act(session, "deploy", "Ana", zone=1, heroes=["storm", "wolverine"], leader="storm")
    act(session, "battle.roll", "Ana", zone=1, faces=roll(4, evil=4))
    act(session, "battle.roll", "Ana", zone=1, faces=roll(9, marvel=4))
    act(session, "turn.end", "Ana")
    return act(session, "turn.end", "Ben")


def test_battles_are_named_before_a_seriously_wounded_characters_recovery(session):
    """ "Step 2 BATTLE ... Step 4 RECOVER" and "On your next turn, the seriously wounded character
    must roll to recover." The companion keeps the steps in order (docs/xmen-alert.md: "once it
    recovers, it cannot battle or recruit this turn"), so a next step that asked for the
    recovery roll first would cost the team its battles: it names the deployment first."""
    view = storm_seriously_wounded(session)
    e = view["expect"]
    assert e["player"] == "Ana" and e["must"] == ["Storm (seriously wounded) at Headquarters"]
    assert e["deploy"]["1"] == ["wolverine"] and "deploy" in e["actions"]
    prompt = e["prompt"]
    assert "deploy X-Men to a Battle Zone before anyone recovers" in prompt, prompt
    assert prompt.index("deploy") < prompt.index("Storm (seriously wounded)"), prompt
    assert "must still roll" in prompt, prompt

    # the order the prompt gives is the one the rules take: Wolverine battles, then Storm rolls
    act(session, "deploy", "Ana", zone=1, heroes=["wolverine"])
    view = act(session, "battle.roll", "Ana", zone=1, faces=roll(9, xmen=1))
    assert view["expect"]["prompt"] == "Ana: Storm (seriously wounded) at Headquarters must still roll."
    view = act(session, "recover.roll", "Ana", hero="storm", faces=roll(3, marvel=1))
    assert "turn.end" in view["expect"]["actions"]


def test_the_recovery_rolled_first_ends_the_battles_as_the_next_step_warned(session):
    """What the words "before anyone recovers" guard against: after the recovery roll, Wolverine's
    deployment is refused ("Your character can only do one of these two actions (Battle or
    Recover) in a turn", Steps 2 to 4 in order)."""
    storm_seriously_wounded(session)
    view = act(session, "recover.roll", "Ana", hero="storm", faces=roll(3, marvel=1))
    assert view["expect"]["prompt"] == "Ana: end the turn."
    with pytest.raises(IllegalAction, match="battles \\(Step 2\\) come before"):
        act(session, "deploy", "Ana", zone=2, heroes=["wolverine"])


DEPLOY_FIRST = ("Deploy first: once a character rolls to recover (Step 4), nobody battles or "
                "recruits this turn (Steps 2 and 3 come before it).")


def test_a_team_that_may_deploy_and_recover_is_reminded_that_recovery_ends_its_battles(session):
    """ "NOTE: Your character can only do one of these two actions (Battle or Recover) in a turn"
    is each character's, and the reminder says so; the steps' order (Step 2 BATTLE before Step 4
    RECOVER) binds the whole team: Cyclops's recovery rolled first leaves Archangel, unhurt at
    Headquarters, no battle this turn. Where a team may do either, the screens say it first."""
    act(session, "turn.end", "Ana")
    act(session, "deploy", "Ben", zone=1, heroes=["archangel", "cyclops"], leader="archangel")
    act(session, "battle.roll", "Ben", zone=1, attack="wing_missile", hits_to="cyclops",
        faces=["evil_mutant", "blank"])
    act(session, "battle.roll", "Ben", zone=1, faces=roll(5, marvel=4))      # Blob captured
    act(session, "turn.end", "Ben")
    act(session, "bonus.roll", "Ben", faces=roll(2))        # Cyclops: "Hero and Leader"
    view = act(session, "turn.end", "Ana")
    e, said = view["expect"], [r["text"] for r in view["reminders"]]
    assert e["player"] == "Ben" and {"deploy", "recover.roll"} <= set(e["actions"])
    assert e["deploy"]["1"] == ["archangel", "cyclops"]
    assert DEPLOY_FIRST in said, said

    view = act(session, "recover.roll", "Ben", hero="cyclops", faces=roll(3, xmen=1))
    assert DEPLOY_FIRST not in [r["text"] for r in view["reminders"]]
    with pytest.raises(IllegalAction, match="battles \\(Step 2\\) come before"):
        act(session, "deploy", "Ben", zone=1, heroes=["archangel"])


def test_the_deploy_first_reminder_goes_once_nobody_may_deploy(session):
    view = storm_seriously_wounded(session)
    assert DEPLOY_FIRST in [r["text"] for r in view["reminders"]]        # Wolverine may still
    act(session, "deploy", "Ana", zone=1, heroes=["wolverine"])
    view = act(session, "battle.roll", "Ana", zone=1, faces=roll(9, xmen=1))
    assert view["expect"]["deploy"] == {}
    assert DEPLOY_FIRST not in [r["text"] for r in view["reminders"]]


def test_what_must_still_roll_is_told_in_the_order_it_rolls(session):
    """ "The team leader is always the first character to battle." and "When you have other team
    members backing up the leader ..., these characters will fight one at a time after the
    leader." Storm leads Wolverine (dealt to Ana before her): the next step and the phone's
    "Still to do" name Storm first, as the roll the table is asked for."""
    view = act(session, "deploy", "Ana", zone=1, heroes=["storm", "wolverine"], leader="storm")
    e = view["expect"]
    assert e["dice"][0]["data"]["hero"] == "storm"
    assert e["must"] == ["Storm in Battle Zone 1", "Wolverine in Battle Zone 1"]
    assert e["prompt"] == "Ana: Storm in Battle Zone 1; Wolverine in Battle Zone 1 must still roll."


def gambit_home_with_three_hits(tmp_path, **options):
    """A Basic game: Gambit (a Power Stat card the rulebook does not print: his Durability of 3
    is assumed) takes 3 hits from Sabretooth and goes home; the view of Ana's next turn."""
    s = Session(Journal(tmp_path / "gambit.sqlite3"), Catalog())
    s.start("xmen-alert", {"players": ["Ana", "Ben"], "first_player": "Ana",
                           "stat_cards": {"Ana": ["gambit"], "Ben": ["storm"]},
                           "alert_deck": ["sabretooth", "mystique", "blob"], **options}, seed=1)
    view = act(s, "deploy", "Ana", zone=1, heroes=["gambit"])
    view = act(s, "battle.roll", "Ana", zone=1,
               faces=roll(view["expect"]["dice"][0]["count"], evil=3))
    assert view["state"]["teams"][0]["headquarters"][0]["hits"] == 3
    act(s, "turn.end", "Ana")
    return s, act(s, "turn.end", "Ben")


GAMBIT_CAVEAT = ("Gambit would deploy unchecked: a character with as many hits as its Durability "
                 "(3 of 3) recovers first, and Gambit's Power Stat card is assumed, not confirmed "
                 "(confirm it on the Your box page).")


def test_a_deployment_only_an_assumed_durability_forbids_is_offered_where_the_words_say_deploy(
        tmp_path):
    """ "If you have one or more characters at Headquarters and they have fewer hits than their
    Durability number, they can move to a Battle Zone Deployment Area." Gambit's Durability is
    the companion's guess, so the engine accepts his deployment with a reminder and the next step
    says "deploy"; expect listed nobody who could (the phone drew no deploy form). It lists him
    now apart from the checked deployments, with the caveat the reminder then gives."""
    s, view = gambit_home_with_three_hits(tmp_path)
    e = view["expect"]
    assert e["player"] == "Ana"
    assert e["prompt"] == ("Ana: deploy X-Men to a Battle Zone, recover at Headquarters, or end "
                           "the turn.")
    assert e["deploy"] == {}                    # never as a deployment the printed rule allows
    assert e["deploy_unchecked"] == [{"zone": z, "hero": "gambit", "caveat": GAMBIT_CAVEAT}
                                     for z in (1, 2, 3)]
    view = act(s, "deploy", "Ana", zone=2, heroes=["gambit"])
    assert view["state"]["teams"][0]["headquarters"][0]["where"] == "zone 2"
    said = GAMBIT_CAVEAT.replace("would deploy", "deployed to Battle Zone 2")
    assert {"text": said, "rule": "Step 2: Fighting Battles"} in view["reminders"]


def test_strict_checks_neither_say_deploy_nor_offer_it(tmp_path):
    """With ``unconfirmed = "refuse"`` the assumed Durability refuses as a printed one: the words
    leave "deploy" out and nothing is offered."""
    _, view = gambit_home_with_three_hits(tmp_path, unconfirmed="refuse")
    e = view["expect"]
    assert e["prompt"] == "Ana: recover at Headquarters or end the turn."
    assert "deploy" not in e["actions"] and "deploy_unchecked" not in e


# -- Step 3 after Step 2: a deployment to recruit closes the team's battles ----------------------

STEPS = ("Step 2 BATTLE: Decide which Evil Mutant your X-Men character(s) will battle ... Step 3 "
         "(Advanced) If there is an X-Men Recruit card in a Battle Zone, you may choose to "
         "recruit. Step 4 RECOVER")
BATTLE_FIRST = ("Battle first: once a character deploys to recruit (Step 3), nobody starts a "
                "battle this turn (Step 2 comes before it).")


@pytest.fixture
def recruiting(tmp_path):
    """Ben's turn, Advanced: Jubilee waits to be recruited in Battle Zone 1, Blob and Pyro in
    zones 2 and 3; Archangel and Cyclops are at Headquarters, unhurt."""
    s = Session(Journal(tmp_path / "recruit.sqlite3"), Catalog())
    s.start("xmen-alert", {"players": ["Ana", "Ben"], "advanced": True, "first_player": "Ana",
                           "stat_cards": {"Ana": ["wolverine", "storm"],
                                          "Ben": ["archangel", "cyclops"]},
                           "alert_deck": ["recruit-1", "blob", "pyro", "toad"],
                           "stat_deck": ["jubilee"]}, seed=5)
    return s, act(s, "turn.end", "Ana")


def test_a_battle_refused_after_a_recruiting_deployment_names_it_and_undo(recruiting):
    """ "Following is a brief explanation of the 6 steps in a player's turn." with "%s": a
    deployment to recruit moves the turn to Step 3, so Archangel's battle is refused though
    nothing was rolled. The refusal names what closed the battles and how to take it back, and
    Undo does.""" % STEPS
    s, _ = recruiting
    act(s, "deploy", "Ben", zone=1, heroes=["cyclops"])
    with pytest.raises(IllegalAction) as err:
        act(s, "deploy", "Ben", zone=2, heroes=["archangel"])
    assert str(err.value) == (
        "battles (Step 2) come before recruiting and recovery (Steps 3 and 4): deploying Cyclops "
        "to recruit in Battle Zone 1 moved this turn past them (Undo takes that deployment back)")
    view = s.submit(Action("undo"))
    assert view["state"]["teams"][1]["headquarters"][1]["where"] == "headquarters"
    view = act(s, "deploy", "Ben", zone=2, heroes=["archangel"])
    assert view["state"]["teams"][1]["headquarters"][0]["where"] == "zone 2"


def test_the_next_step_warns_before_and_after_a_deployment_to_recruit_closes_the_battles(
        recruiting):
    """ "%s": where a team may deploy to battle or to recruit, the screens say to battle first,
    as "Deploy first" does for recovery; once Cyclops deployed to recruit while Archangel could
    still have battled, they say the battles are closed, by what, and that Undo reopens them.""" \
        % STEPS
    s, view = recruiting
    said = [r["text"] for r in view["reminders"]]
    assert view["expect"]["player"] == "Ben" and set(view["expect"]["deploy"]) == {"1", "2", "3"}
    assert BATTLE_FIRST in said, said
    view = act(s, "deploy", "Ben", zone=1, heroes=["cyclops"])
    said = [r["text"] for r in view["reminders"]]
    assert BATTLE_FIRST not in said
    assert ("Battles are closed this turn: deploying Cyclops to recruit in Battle Zone 1 moved "
            "it past them (Step 3 comes after Step 2); Undo takes that deployment back.") in said
    assert view["expect"]["deploy"] == {"1": ["archangel"]}      # only to recruit, as said


def test_a_battle_first_leaves_no_recruiting_warning(recruiting):
    """Deploying to battle first keeps the order: no warning about closed battles follows."""
    s, _ = recruiting
    view = act(s, "deploy", "Ben", zone=2, heroes=["archangel"])
    said = " ".join(r["text"] for r in view["reminders"])
    assert "Battles are closed" not in said and "Battle first" not in said


def test_a_table_naming_its_first_alert_cards_is_not_told_how_characters_battle(tmp_path):
    """ "Before you start your turn, check to see if any of the Battle Zones are empty. If they
    are, draw the top X-Men Alert Card" (Step 1): while the table names the cards it drew from its
    own deck, the reminders are Step 1's, not the battles' and recoveries' of Steps 2 to 4."""
    s = Session(Journal(tmp_path / "own.sqlite3"), Catalog())
    view = s.start("xmen-alert", {"players": ["Ana", "Ben"], "advanced": True,
                                  "first_player": "Ana", "physical_decks": ["alert"],
                                  "stat_cards": {"Ana": ["wolverine"], "Ben": ["storm"]}}, seed=2)
    for card in ("sabretooth", "mystique"):
        assert view["expect"]["phase"] == "draw", view["expect"]
        said = " ".join(r["text"] for r in view["reminders"])
        for words in ("battles (or recruits) or recovers", "join a battle already in progress"):
            assert words not in said, said
        view = act(s, "draw", None, card=card)
    view = act(s, "draw", None, card="toad")
    assert view["expect"]["phase"] == "play"
    assert "Each character either battles (or recruits) or recovers in a turn, never both." in [
        r["text"] for r in view["reminders"]]
