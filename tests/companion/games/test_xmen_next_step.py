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
