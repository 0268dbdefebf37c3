"""Printed power effects the engine applies (Card Clarifications, Keywords): each test quotes
the rulebook sentence it checks; the amounts not printed are the data's assumptions."""

import pytest

from companion.errors import IllegalAction
from invincible_helpers import engine, hero_phase, table  # noqa: F401 (fixtures)


def test_fire_up_red_cubes_add_one_damage_and_hurt_their_hero(hero_phase):
    """Fire Up: 'any power filled using a red cube gets +1 to its damage, exactly as if a
    strengthen token were applied. Whenever a hero fills a power using red cubes, they take 1
    damage per red cube used'."""
    t = hero_phase(heroes=("rex-splode", "atom-eve"), episode=2)
    t.state.hero("rex-splode").zone = "center"
    t.put_villain("magmaniac", "center")
    rex = t.state.hero("rex-splode")
    rex.ready, rex.last_pull = ["red", "red"], []
    t.act("play", hero="rex-splode", cube="red", power="attack")
    s = t.act("play", hero="rex-splode", cube="red", power="attack")
    assert s.hero("rex-splode").damage == 2                   # one per red cube
    assert s.resolving["steps"][0]["amount"] == 3             # 2 printed, +1 once
    s = t.act("effect", hero="rex-splode", target="magmaniac")
    assert s.zone("center").villains[0].damage == 3


def test_whirlwind_mode_damages_after_its_move(hero_phase):
    """Whirlwind Mode: 'You must resolve this power's damage after its move, not before.'"""
    t = hero_phase()
    t.put_villain("magmaniac", "left")
    t.put_villain("thug-a", "center")
    t.give("invincible", "flex1", "whirlwind-mode")
    t.fill("invincible", "flex1")
    with pytest.raises(IllegalAction, match="printed order"):
        t.act("effect", hero="invincible", step=1, target="thug-a")
    s = t.act("effect", hero="invincible", step=0, to="left")
    s = t.act("effect", hero="invincible", target="magmaniac")
    assert s.zone("left").villains[0].damage == 2 and s.resolving is None


def test_turn_the_tide_deals_one_per_civilian_rescued_this_round(hero_phase):
    """Turn the Tide: 'Deals 1 damage for each civilian you personally moved from danger to
    safety this round'."""
    t = hero_phase()
    t.put_villain("magmaniac", "center")
    t.fill("invincible", "rescue", zone="center")
    assert t.state.hero("invincible").rescued_civilians == 1
    t.give("invincible", "flex1", "turn-the-tide")
    s = t.fill("invincible", "flex1", target="magmaniac")
    assert s.zone("center").villains[0].damage == 1
    t.give("atom-eve", "flex1", "turn-the-tide")              # Eve rescued nobody: no damage
    s = t.fill("atom-eve", "flex1")
    assert s.resolving is None


def test_flying_charge_may_move_and_skip_its_damage(hero_phase):
    """'Invincible's Flying Charge lets him deal 2 damage and/or move, in either order, or skip
    the move entirely' — 'When a power offers multiple effects, you may do them in any order and
    skip any you don't want'."""
    t = hero_phase()
    t.put_villain("magmaniac", "center")
    t.fill("invincible", "starter")
    s = t.act("decline", hero="invincible", step=1)            # skip the move
    assert s.hero("invincible").zone == "center" and len(s.resolving["steps"]) == 1
    s = t.act("effect", hero="invincible", target="magmaniac")
    assert s.zone("center").villains[0].damage == 2 and s.resolving is None


def test_home_cooked_meal_rescues_a_crashed_hero_with_no_roll_and_no_range(hero_phase):
    """Home-Cooked Meal: 'Automatically rescues a crashed hero with no die roll required. You
    don't need another hero in range, and the rescued hero doesn't lose their future cube
    pulls'."""
    t = hero_phase()
    inv = t.state.hero("invincible")
    inv.zone, inv.dropped, inv.bag["black"] = "right", ["black"] * 4, 2
    t.act("pull", hero="invincible", cubes=["black", "yellow", "yellow"])
    t.state.hero("atom-eve").zone = "left"
    t.give("atom-eve", "flex1", "home-cooked-meal")
    s = t.fill("atom-eve", "flex1", crashed="invincible")
    inv = s.hero("invincible")
    assert inv.rescued and inv.can_pull and s.hero("atom-eve").can_pull


def test_miracle_grow_heals_a_hero_in_range_never_above_maximum(hero_phase):
    """'Healing removes damage tokens from a hero, never taking them above their maximum health
    ... can only reach heroes in your own zone unless it also has Ranged.'"""
    t = hero_phase()
    t.state.hero("atom-eve").zone = "center"
    t.state.hero("atom-eve").damage = 1
    t.state.hero("invincible").damage = 0
    t.give("invincible", "flex1", "miracle-grow")
    s = t.fill("invincible", "flex1")
    options = t.engine.to_json(s)["resolving"]["steps"][0]["options"]
    assert options == [{"target": "atom-eve"}]               # nobody else is hurt
    s = t.act("effect", hero="invincible", target="atom-eve")
    assert s.hero("atom-eve").damage == 0
