"""X-Men Alert with the table's own decks (setup option ``physical_decks``,
companion/games/xmen/draws.py): the players draw the real card and name it; the companion checks
it is still in that deck, keeps the deck's count and reshuffles as the rules say. Companion-drawn
decks stay the default."""

import dataclasses
import random

import pytest

from companion.errors import IllegalAction, SetupError
from companion.games.xmen.state import Zone

def physical(game, decks=True, **options):
    return game(stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]}, physical_decks=decks,
                **options)


def test_step_1_waits_for_each_alert_card_the_table_draws(game):
    """ "Before you start your turn, check to see if any of the Battle Zones are empty. If they
    are, draw the top X-Men Alert Card and place it face up on the X in the center of the Battle
    Zone. Do the same for all empty Battle Zones." Each is named in turn, and the deck's count
    follows."""
    t = physical(game)
    deck = len(t.s.alert_deck)
    for zone, card in ((1, "sabretooth"), (2, "mystique"), (3, "Toad")):     # "Toad": its name
        expect = t.engine.expect(t.s)
        assert (expect["phase"], expect["actions"]) == ("draw", ["draw", "game.abandon"])
        assert expect["deck_name"] == "alert" and expect["zone"] == zone
        assert "Battle Zone %d is empty: draw the top X-Men Alert card" % zone in expect["prompt"]
        assert expect["deck_count"] == deck == len(expect["deck"])
        assert t.view()["drawing"] == {"deck": "alert", "zone": zone, "player": None}
        t.do("draw", card=card)
        deck -= 1
    assert [z.card for z in t.s.zones] == ["sabretooth", "mystique", "toad"]
    assert t.zone(1).indicator == t.s.data.alert["sabretooth"].strength      # placed as drawn
    assert t.s.phase == "play" and t.view()["decks"]["alert"] == deck
    assert t.engine.expect(t.s)["player"] == "Ana" and t.view()["drawing"] is None


def test_a_card_not_in_the_alert_deck_is_refused_with_the_reason(game):
    """ "If a Battle Zone is empty, draw the top X-Men Alert Card" (Step 1): the card named must
    still be in that deck; and the Basic game's deck: "Remove all X-Men Alert cards with the
    Advanced symbol from the deck. Also remove all "Recruit Another X-Men" cards." """
    t = physical(game)
    t.do("draw", card="sabretooth")
    before = t.s
    cases = {"sabretooth": "Sabretooth is not in the deck: it is in Battle Zone 1",
             "magneto": "Magneto is not in a Basic game's deck: 'Remove all X-Men Alert cards "
                        "with the Advanced symbol",
             "recruit-2": "Recruit Another X-Man is not in a Basic game's deck",
             "medi-lab-1": "Medi-Lab is a Training & Luck card, but the table draws from the "
                           "X-Men Alert deck now",
             "the-joker": "'the-joker' is not a card of the X-Men Alert deck"}
    for card, why in cases.items():
        with pytest.raises(IllegalAction) as err:
            t.do("draw", card=card)
        assert why in str(err.value), str(err.value)
        assert f"({len(before.alert_deck)} left in the X-Men Alert deck)" in str(err.value)
        assert err.value.rule == "Step 1: Setting Up a Battle Zone"
        assert t.s is before
    # a card turned in lies face up beside the deck
    waiting = dataclasses.replace(t.s, alert_deck=[c for c in t.s.alert_deck if c != "blob"],
                                  alert_discard=["blob"])
    with pytest.raises(IllegalAction, match="Blob is not in the deck: it was turned in"):
        t.engine.apply(waiting, _draw("blob"), random.Random(0))


def _draw(card):
    from companion.actions import Action

    return Action("draw", None, {"card": card})


def test_a_used_up_alert_deck_is_reshuffled_from_the_cards_turned_in(game):
    """ "When all the X-Men Alert Cards have been played, shuffle the cards already turned in and
    place them face down in the space marked on the board." The state is made by hand: every
    card but those in zones 2 and 3 has been turned in and zone 1 is empty again."""
    t = physical(game)
    for card in ("sabretooth", "mystique", "toad"):
        t.do("draw", card=card)
    s = t.s
    used = s.alert_deck + ["sabretooth"]
    t.state = dataclasses.replace(s, zones=[Zone(), *s.zones[1:]], alert_deck=[],
                                  alert_discard=used)
    assert t.engine.invariants(t.s) == []
    t.do("turn.end", "Ana")                           # Ben's turn: zone 1 is empty
    expect = t.engine.expect(t.s)
    assert expect["phase"] == "draw" and expect["zone"] == 1
    assert f"shuffle the {len(used)} used cards into a new face-down deck" in expect["prompt"]
    assert expect["deck_count"] == len(used) and {c["id"] for c in expect["deck"]} == set(used)
    assert t.s.alert_discard == []
    t.do("draw", card="sabretooth")                   # back from the turned-in cards
    assert t.zone(1).card == "sabretooth" and len(t.s.alert_deck) == len(used) - 1
    assert t.engine.expect(t.s)["player"] == "Ben"


def _captured(t, card, player="Ana"):
    """``player``'s team has captured ``card`` (made by hand: taken from the deck)."""
    s = t.s
    i = s.team_index(player)
    team = dataclasses.replace(s.teams[i], captured=[card])
    teams = [team if j == i else x for j, x in enumerate(s.teams)]
    t.state = dataclasses.replace(s, teams=teams, alert_deck=[c for c in s.alert_deck if c != card])
    assert t.engine.invariants(t.s) == []


def test_a_training_and_luck_space_waits_for_the_card_the_table_draws(game):
    """ "If your Team's Experience mover lands on a Training & Luck space, draw the top Training &
    Luck Card. If the card reads "Play At Once," you must use that card immediately. If the card
    reads "Hold Until Needed," place the card face down near your other cards" """
    t = physical(game)
    for card in ("sabretooth", "mystique", "toad"):
        t.do("draw", card=card)
    _captured(t, "black-tom")                         # Experience 3: space 3 is Training & Luck
    assert 3 in t.s.data.training_luck_spaces
    deck = len(t.s.luck_deck)
    t.do("turn.end", "Ana")
    expect = t.engine.expect(t.s)
    assert expect["phase"] == "draw" and expect["deck_name"] == "training_luck"
    assert "Ana's mover landed on a Training & Luck space" in expect["prompt"]
    assert expect["deck_count"] == deck and "zone" not in expect
    assert t.view()["drawing"] == {"deck": "training_luck", "zone": None, "player": "Ana"}
    with pytest.raises(IllegalAction, match="Blob is a X-Men Alert card, but the table draws "
                                            "from the Training & Luck deck now") as err:
        t.do("draw", card="blob")
    assert err.value.rule == "Step 5 › Training & Luck Space"
    t.do("draw", card="Medi-Lab")                     # its name: the first of its copies
    assert t.team("Ana").held == ["medi-lab-1"] and len(t.s.luck_deck) == deck - 1
    assert t.engine.expect(t.s)["player"] == "Ben"    # then play passes to the left
    # Ben lands on space 3 too and draws a card to play at once: Blackbird moves him on
    _captured(t, "arcade", "Ben")                     # Experience 2
    t.do("turn.end", "Ben")                           # Ben 2: no draw; Ana's turn
    _captured(t, "unus", "Ana")      # Experience 1: Ana from 3 to 4
    t.do("turn.end", "Ana")
    _captured(t, "vanisher", "Ben")                   # Experience 2: Ben from 2 to 4
    t.do("turn.end", "Ben")
    _captured(t, "fabian-cortez", "Ana")              # Ana from 4 to 7
    t.do("turn.end", "Ana")
    _captured(t, "avalanche", "Ben")   # Ben from 4 to 6: Training & Luck
    t.do("turn.end", "Ben")
    assert t.engine.expect(t.s)["deck_name"] == "training_luck"
    with pytest.raises(IllegalAction, match="Medi-Lab is not in the deck: Ana holds it"):
        t.do("draw", card="medi-lab-1")
    spaces = t.s.data.luck["blackbird-1"].params["spaces"]
    t.do("draw", card="blackbird-2")
    assert t.team("Ben").mover == 6 + spaces == 8 and "blackbird-2" in t.s.luck_discard
    assert t.engine.expect(t.s)["player"] == "Ana"     # space 8 is Training & Luck too, but a
    assert t.team("Ben").held == []                    # card's own move draws no card


def test_the_companion_draws_by_default_and_the_option_is_checked(game, engine):
    t = game(stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]})
    assert t.s.phase == "play" and all(z.card for z in t.s.zones)
    assert "drawing" not in t.view()
    only_luck = physical(game, ["training_luck"])     # the Alert deck stays the companion's
    assert only_luck.s.phase == "play" and all(z.card for z in only_luck.s.zones)
    assert only_luck.view()["options"]["physical_decks"] == ["training_luck"]
    for bad in ("yes", ["power_stat"], ["alert", "alert"], [1]):
        with pytest.raises(SetupError, match="physical_decks: a list of the decks the table "
                                             "draws itself"):
            engine.setup({"players": ["Ana", "Ben"], "physical_decks": bad}, random.Random(0))


def test_draw_is_refused_when_no_card_is_to_be_drawn(game):
    t = game(stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]}, physical_decks=True)
    t.do("draw", card="sabretooth")
    t.do("draw", card="mystique")
    t.do("draw", card="toad")
    with pytest.raises(IllegalAction, match="draw is not possible now: Ana: deploy X-Men"):
        t.do("draw", card="blob")
