"""Input from outside: physical cards and dice arrive as data; bad input gets a clear error and
loses nothing."""

import pickle
import random

import pytest

from companion.actions import Action
from companion.errors import BadAction, IllegalAction
from invincible_helpers import engine, table  # noqa: F401 (fixtures)


def test_a_villain_drawn_from_a_physical_deck(table, engine):
    """'a player can also enter a card drawn from a physical deck' (the issue): the named card
    leaves its deck and is placed by the normal rules."""
    t = table()
    with pytest.raises(IllegalAction, match="Level 1 villain"):
        t.act("advance", villains=["flaxan-tank"])
    with pytest.raises(IllegalAction, match="reveals 1 villain"):
        t.act("advance", villains=["magmaniac", "thug-a"])
    with pytest.raises(BadAction):
        t.act("advance", villains=["nobody"])
    s = t.act("advance", villains=["magmaniac"])
    assert s.zone("center").villains[0].id == "magmaniac"
    assert "magmaniac" not in s.decks["villain1"] and s.decks["villain1"][0] == "bi-plane"
    view = engine.to_json(s)
    assert view["last_villain_revealed"]["name"] == "Magmaniac"
    assert view["last_villain_revealed"]["health"] == 6


def test_an_event_drawn_from_a_physical_deck(table, engine):
    t = table(episode=2)
    t.state.phase = "villain"
    with pytest.raises(IllegalAction, match="not in the event deck"):
        t.act("reveal", card="event-zzz")
    card = t.state.decks["event"][1]          # the other Level I card on top of the build
    s = t.act("reveal", card=card)
    assert card not in s.decks["event"] and s.discards["event"] == [card]
    assert engine.to_json(s)["last_event"]["name"] == engine.data.events[card].name


def test_bad_input_is_refused_and_loses_nothing(table, engine):
    t = table()
    t.to_hero_phase()
    before = pickle.dumps(t.state)
    bad = [
        Action("fly"),
        Action("pull", data={}),
        Action("pull", data={"hero": "omni-man"}),
        Action("pull", data={"hero": "invincible", "cubes": "yellow"}),
        Action("play", data={"hero": "invincible", "cube": "yellow"}),
        Action("damage", data={"hero": "invincible", "target": "bi-plane", "amount": 0}),
        Action("damage", data={"hero": "invincible", "target": "bi-plane", "amount": True}),
        Action("move", data={"hero": "invincible", "to": "mars"}),
        Action("heal", data={"hero": "invincible", "target": "omni-man"}),
        Action("move", data={"hero": "invincible", "to": "left", "target": "omni-man"}),
        Action("bubble", data={"hero": "atom-eve", "target": "omni-man"}),
        Action("damage", data={"hero": "invincible", "target": "nobody", "amount": 1}),
        Action("thwart", data={"hero": "invincible", "ability": "nope"}),
        Action("choose", data={"zone": "left"}),
        Action("roll", data={"face": "x"}),
        Action("use_helper", data={"helper": "helper-9"}),
        Action("episode_bonus", data={"met": "yes"}),
        Action("gain_cube", data={"hero": "invincible", "colour": "green"}),
        Action("minions", data={"zone": "left", "count": 9}),
        Action("endanger", data={"zone": "nowhere", "count": 1}),
        Action("strengthen", data={"hero": "invincible", "power": "nope"}),
        Action("clear_power", data={"hero": "invincible", "power": "attack"}),
        Action("play", data={"hero": "invincible", "cube": "yellow", "power": "attack", "symbol": "0"}),
        Action("arrange", data={"hero": "invincible", "slots": ["yellow"]}),
        Action("rescue", data={"hero": "invincible", "crashed": "atom-eve", "face": "six"}),
        Action("reveal"),
        Action("learn", data={"hero": "invincible", "card": "x", "slot": "yellow"}),
        Action("crash_roll", data={"hero": "invincible", "faces": ["1"]}),
        Action("timer.pause", data={"name": "hero_time"}),
    ]
    for action in bad:
        with pytest.raises((BadAction, IllegalAction)) as err:
            engine.apply(t.state, action, random.Random(0))
        assert str(err.value)
    assert pickle.dumps(t.state) == before


def test_player_field_names_the_hero(table):
    t = table()
    t.to_hero_phase()
    s = t.act("pull", player="Atom Eve", cubes=["blue", "blue", "blue"])
    assert s.hero("atom-eve").ready == ["blue", "blue", "blue"]


def test_expect_names_the_dice_for_the_camera(table, engine):
    t = table()
    e = engine.expect(t.state)
    assert e["actions"][0] == "advance" and e["dice"] == []
    t.to_hero_phase()
    h = t.state.hero("invincible")
    h.dropped, h.bag["black"] = ["black"] * 4, 2
    t.act("pull", hero="invincible", cubes=["black", "yellow", "yellow"])
    t.act("done", hero="atom-eve")
    e = engine.expect(t.state)
    assert e["phase"] == "crash" and e["dice"] == [{
        "die": "crash", "set": "invincible-crash", "count": 1,
        "faces": sorted({f.id for f in engine.data.crash_die}),
        "sides": [f.id for f in engine.data.crash_die],
        "meanings": {"0": "0 damage", "1": "1 damage", "2": "2 damage", "3": "3 damage",
                     "1+": "1 damage, roll again"},
        "action": "crash_roll", "field": "faces", "single": True, "data": {"hero": "invincible"},
        "player": "invincible"}]


def test_a_players_name_names_their_hero_except_in_solo(engine):
    s = engine.setup({"heroes": [{"hero": "robot", "name": "Ana"}, "atom-eve"]}, random.Random(0))
    s.track[0] = []
    s = engine.apply(s, Action("advance", at=0.0), random.Random(0))
    s = engine.apply(s, Action("done", player="Ana", at=1.0), random.Random(0))
    assert s.hero("robot").done
    solo = engine.setup({"heroes": ["robot", "atom-eve"], "solo": True}, random.Random(0))
    solo.track[0] = []
    solo = engine.apply(solo, Action("advance", at=0.0), random.Random(0))
    with pytest.raises(BadAction, match="not a hero"):
        engine.apply(solo, Action("done", player="Solo player", at=1.0), random.Random(0))
