"""Invincible's event card revealed from the table's own deck and named with one tap: expect
lists the cards the difficulty's deck build lets come up now ('Start with a face-down stack of
all the Level III events, then deal a number of Level II events on top based on difficulty, then
a number of Level I events on top of that'), each is accepted, and any other is refused with the
reason."""

import re

import pytest

from companion.errors import IllegalAction
from invincible_helpers import engine, table  # noqa: F401 (fixtures)


def villain_phase(t):
    t.to_hero_phase()
    t.everyone_done()
    for h in t.state.heroes:                          # the Training Phase: nothing learned
        t.act("done", hero=h.id)
    assert t.state.phase == "villain"
    return t.engine.expect(t.state)


def test_the_phone_lists_the_event_cards_the_deck_build_lets_come_up(table, engine):
    """'Reveal the top card of the event deck' with Normal's build (2 Level I, 2 Level II, then
    the Level III events): the two Level I cards are offered; each is accepted; a Level II card
    and a card already revealed are refused with why."""
    t = table(episode=2, difficulty="normal")
    expect = villain_phase(t)
    deck = t.state.decks["event"]
    events = engine.data.events
    assert expect["deck_action"] == "reveal" and expect["deck_count"] == len(deck)
    offered = [c["id"] for c in expect["deck"]]
    assert sorted(offered) == sorted(deck[:2]) and {c["level"] for c in expect["deck"]} == {1}
    assert [c["title"] for c in expect["deck"]] == [events[c].name for c in offered]
    before = t.state
    for card in offered:                              # every card listed is accepted
        t.state = before
        s = t.act("reveal", card=card)
        assert s.discards["event"] == [card] and len(s.decks["event"]) == len(deck) - 1
    with pytest.raises(IllegalAction, match="still has 2 Level 1 event"):
        t.state = before
        t.act("reveal", card=deck[2])
    unused = next(c for c in events if c not in deck)
    why = (f"{events[unused].name} is not in the event deck: this episode's normal deck was "
           f"built without it; name the card you revealed ({len(deck)} left in the event deck)")
    with pytest.raises(IllegalAction, match=re.escape(why)):
        t.act("reveal", card=unused)
    s = t.act("reveal", card=offered[0])
    assert s.phase != "villain"
    t.state.phase = "villain"                         # the next Villain Phase, made by hand
    with pytest.raises(IllegalAction, match="is not in the event deck: it was revealed already"):
        t.act("reveal", card=offered[0])
    assert [c["id"] for c in engine.expect(t.state)["deck"]] == [offered[1]]


def test_episode_1_offers_only_the_packaged_top_card(table, engine):
    """Episode 1: the decks 'exactly as packaged — do not shuffle them': the one card offered is
    the top one."""
    t = table()
    expect = villain_phase(t)
    assert [c["id"] for c in expect["deck"]] == [t.state.decks["event"][0]]


def test_villain_cards_drawn_from_the_real_decks_are_offered_per_icon(table, engine):
    """'Move the round marker one space along the episode card's track ... Each space lists icons
    underneath it that you resolve in order': for a table drawing its own villain cards, expect
    lists each villain icon's level and the cards of that deck that may come up; each is
    accepted, and a card of another level or not in the deck is refused."""
    t = table(episode=2)
    offered = engine.expect(t.state)["villains"]
    assert [r["level"] for r in offered] == [1]
    ids = [v["id"] for v in offered[0]["deck"]]
    assert sorted(ids) == sorted(set(t.state.decks["villain1"]))
    assert all(v["title"] == engine.data.villains[v["id"]].name for v in offered[0]["deck"])
    before = t.state
    for vid in ids:
        t.state = before
        s = t.act("advance", villains=[vid])
        assert vid not in s.decks["villain1"]
        assert vid in [v.id for z in s.zones for v in z.villains if v]
    t.state = before
    level_2 = next(v for v in before.decks["villain2"])
    with pytest.raises(IllegalAction, match="this space reveals a Level 1 villain"):
        t.act("advance", villains=[level_2])
    with pytest.raises(IllegalAction, match="reveals 1 villain"):
        t.act("advance", villains=ids[:2])
