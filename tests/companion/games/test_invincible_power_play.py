"""The power-play Card Clarifications the engine applies from the cards' data: Combo and Power
Surge, the repeats (Flurry of Blows, Launch the Robots, Miracle Grow, Two Places at Once), the
limits (Resilient Spirit, Power Conduit, Molecule Makeover, Turn the Tide), a cube gained and
played at once (the Masteries, Guardians, Gather!), Learn By Punching's kept confidence, Chain
Lightning's crash rule and Flying Charge moving an enemy. Each test quotes its sentence; the
amounts and which card carries which rule are the data's assumptions (invincible_powers.toml)."""

import pytest

from companion.errors import BadAction, IllegalAction, SetupError
from companion.games.invincible.state import Played
from invincible_helpers import engine, hero_phase, table  # noqa: F401 (fixtures)


def _filled(t, hero, slot, power_id):
    """``power_id`` in ``hero``'s ``slot``, already filled this round."""
    symbols = t.engine.data.powers[power_id].symbols
    t.state.hero(hero).powers[slot] = Played(f"{power_id}#f", power_id, list(symbols), True)


def _steps(s):
    return [(st["kind"], st["amount"]) for st in s.resolving["steps"]]


# -- Combo and Power Surge ---------------------------------------------------------------------------

def test_combo_bonus_once_when_another_power_of_its_type_is_filled(hero_phase):
    """Combo: 'A Combo effect gives you a bonus if you've already filled a power of the matching
    Type this round. You only get the bonus once per power, no matter how many qualifying powers
    you've used; ... it only looks at powers currently filled on your board'."""
    t = hero_phase()
    t.put_villain("magmaniac", "center")
    t.give("invincible", "flex1", "chain-lightning")           # Energy, damage 2, Combo +1
    t.fill("invincible", "flex1")
    assert _steps(t.state) == [("damage", 2)]                  # no other Energy power filled
    # ... and the table is not told of a bonus it does not get (the log said "(Combo +1)")
    said = [line for line in t.state.log if "fills Chain Lightning" in line]
    assert said == ["Invincible fills Chain Lightning: damage 2."], said
    assert [st["hint"] for st in t.state.resolving["steps"]] == ["damage 2"]
    t.act("effect", hero="invincible", target="magmaniac")

    t = hero_phase()
    t.put_villain("magmaniac", "center")
    _filled(t, "invincible", "flex2", "resilient-spirit")      # Energy
    _filled(t, "invincible", "purple", "miracle-grow")          # Energy: still one bonus
    inv = t.state.hero("invincible")
    inv.powers["yellow"] = Played("power-conduit#f", "power-conduit", ["yellow", None])  # not filled
    t.give("invincible", "flex1", "chain-lightning")
    s = t.fill("invincible", "flex1", target="magmaniac")
    assert s.zone("center").villains[0].damage == 3


def test_combo_is_not_triggered_by_a_cleared_power(hero_phase):
    """Clean Slate: 'Removing cubes from an already-filled power ... no longer counts as "filled"
    for Combo purposes.'"""
    t = hero_phase()
    t.put_villain("magmaniac", "center")
    _filled(t, "invincible", "flex2", "resilient-spirit")
    t.give("invincible", "purple", "clean-slate")
    t.fill("invincible", "purple", slot="flex2")
    assert not t.state.hero("invincible").powers["flex2"].filled
    t.give("invincible", "flex1", "chain-lightning")
    t.fill("invincible", "flex1")
    assert _steps(t.state) == [("damage", 2)]


def test_power_surge_counts_the_other_filled_powers_of_its_type(hero_phase):
    """Relentless Barrage's clarification names Power Surge among 'effects like Flurry of Blows,
    Power Surge, or Launch the Robots' that count powers used; Flurry of Blows: 'your other
    currently filled powers of the matching Type' (Power Surge's 1 damage per such power is the
    data's assumption)."""
    t = hero_phase()
    t.put_villain("magmaniac", "center")
    _filled(t, "invincible", "flex2", "resilient-spirit")      # Energy
    _filled(t, "invincible", "purple", "chain-lightning")       # Energy
    _filled(t, "invincible", "yellow", "whirlwind-mode")        # Might: does not count
    t.give("invincible", "flex1", "power-surge")
    s = t.fill("invincible", "flex1", target="magmaniac")
    assert s.zone("center").villains[0].damage == 2


# -- repeats -----------------------------------------------------------------------------------------

def test_flurry_of_blows_repeats_once_per_other_filled_power_of_its_type(hero_phase):
    """Flurry of Blows: 'Repeat this power's effect once for each of your other currently filled
    powers of the matching Type ... Each repetition grants that power's damage and any
    accompanying text, except for the instruction to repeat.'"""
    t = hero_phase()
    t.put_villain("magmaniac", "center")
    _filled(t, "invincible", "starter", "flying-charge")       # Might
    _filled(t, "invincible", "flex2", "whirlwind-mode")        # Might
    _filled(t, "invincible", "purple", "chain-lightning")       # Energy: does not count
    t.give("invincible", "flex1", "flurry-of-blows")
    t.fill("invincible", "flex1")
    assert _steps(t.state) == [("damage", 1)] * 3
    with pytest.raises(IllegalAction, match="may not be skipped"):
        t.act("decline", hero="invincible")                   # one effect, used each time
    for _ in range(3):
        s = t.act("effect", hero="invincible", target="magmaniac")
    assert s.zone("center").villains[0].damage == 3 and s.resolving is None


def test_launch_the_robots_counts_only_tech_powers_and_strengthen_applies_to_each(hero_phase):
    """Launch the Robots — 'See Flurry of Blows'; Strengthen: 'The bonus applies to any damage the
    card deals'."""
    t = hero_phase(heroes=("robot", "atom-eve"))
    t.state.hero("robot").zone = "center"
    t.put_villain("magmaniac", "center")
    _filled(t, "robot", "flex2", "autosave")                   # Tech
    _filled(t, "robot", "purple", "chain-lightning")            # Energy
    t.give("robot", "flex1", "launch-the-robots")
    t.state.hero("robot").powers["flex1"] = t.state.hero("robot").powers["flex1"].stronger()
    t.fill("robot", "flex1")
    assert _steps(t.state) == [("damage", 2)] * 2


def test_miracle_grow_repeats_its_heal(hero_phase):
    """Miracle Grow — 'See Flurry of Blows': each repetition heals again."""
    t = hero_phase()
    t.state.hero("atom-eve").zone = "center"
    t.state.hero("atom-eve").damage = 3
    _filled(t, "invincible", "flex2", "chain-lightning")       # Energy
    t.give("invincible", "flex1", "miracle-grow")
    t.fill("invincible", "flex1", target="atom-eve")
    s = t.act("effect", hero="invincible", target="atom-eve")
    assert s.hero("atom-eve").damage == 1 and s.resolving is None


def test_two_places_at_once_may_repeat_all_of_it_once_after_the_rest(hero_phase):
    """Two Places at Once: 'After resolving everything else this power offers (damage, movement,
    and/or Rescue 2), you may repeat all of it once more; you don't repeat the instruction to
    repeat itself.'"""
    t = hero_phase()
    t.put_villain("magmaniac", "center")
    t.give("invincible", "flex1", "two-places-at-once")
    s = t.fill("invincible", "flex1")
    assert [k for k, _ in _steps(s)] == ["damage", "move", "rescue", "rescue", "repeat"]
    assert "repeat all of it once more (after the rest)" in t.engine.expect(s)["prompt"]
    with pytest.raises(IllegalAction, match="cannot be applied now: it comes after everything else"):
        t.act("effect", hero="invincible", step=4)
    t.act("effect", hero="invincible", step=0, target="magmaniac")
    for _ in range(3):
        t.act("decline", hero="invincible", step=0)
    s = t.act("effect", hero="invincible", step=0)             # the repeat, now alone
    assert [k for k, _ in _steps(s)] == ["damage", "move", "rescue", "rescue"]
    s = t.act("effect", hero="invincible", step=0, target="magmaniac")
    assert s.zone("center").villains[0].damage == 4
    for _ in range(3):
        s = t.act("decline", hero="invincible", step=0)
    assert s.resolving is None


def test_two_places_at_once_repeat_may_be_declined(hero_phase):
    t = hero_phase()
    t.give("invincible", "flex1", "two-places-at-once")
    s = t.fill("invincible", "flex1")
    for _ in range(4):
        s = t.act("decline", hero="invincible", step=0)
    assert _steps(s) == [("repeat", 0)]
    s = t.act("decline", hero="invincible")
    assert s.resolving is None


# -- limits ------------------------------------------------------------------------------------------

def test_resilient_spirit_counts_only_heroes_below_maximum(hero_phase):
    """Resilient Spirit: 'You only count as having healed a hero if that hero was below maximum
    health at the time.' Heal: 'never taking them above their maximum health ... can only reach
    heroes in your own zone'."""
    t = hero_phase(heroes=("invincible", "atom-eve", "robot"))
    t.state.hero("atom-eve").zone = "center"
    t.state.hero("atom-eve").damage = 1
    t.state.hero("robot").zone = "right"
    t.state.hero("robot").damage = 4                           # out of range
    t.state.hero("invincible").damage = 0                      # at maximum: not healed
    t.give("invincible", "flex1", "resilient-spirit")
    s = t.fill("invincible", "flex1")
    s = t.act("effect", hero="invincible", step=0)             # heal each hero in range
    assert s.hero("atom-eve").damage == 0 and s.hero("robot").damage == 4
    assert s.resolving["healed"] == 1
    s = t.act("effect", hero="invincible", step=0)             # 1 confidence per hero healed
    assert s.hero("invincible").bonus_confidence == 1 and s.resolving is None


def test_power_conduit_damage_is_capped_by_remaining_health_and_not_skipped(hero_phase):
    """Power Conduit: 'You can't take more damage than your remaining health (though you may still
    choose to KO yourself deliberately).' (Its self-damage, 2, is the data's assumption.)"""
    t = hero_phase()
    t.put_villain("magmaniac", "center")
    t.state.hero("invincible").damage = 3
    t.give("invincible", "flex1", "power-conduit")
    s = t.fill("invincible", "flex1")
    assert s.hero("invincible").damage == 5                    # the cost, not a step to skip
    assert _steps(s) == [("damage", 3)]
    t = hero_phase()
    t.state.hero("invincible").damage = 9
    t.give("invincible", "flex1", "power-conduit")
    s = t.fill("invincible", "flex1")
    assert "Invincible can't take more damage than their remaining health (1)." in s.log
    assert s.kos == 1 and s.hero("invincible").zone == "hq"    # KOed deliberately


def test_molecule_makeover_and_guardians_gather_never_gain_red_or_black(hero_phase):
    """Molecule Makeover — 'This power cannot gain a red or black cube.' Guardians, Gather! —
    'This power cannot gain red or black cubes.' Gain Cube: 'a card that says "gain a cube of any
    color" can only choose among yellow, blue, orange, and purple'."""
    t = hero_phase(heroes=("rex-splode", "atom-eve"), episode=2)
    _filled(t, "rex-splode", "signature", "fire-up")           # Rex may gain red elsewhere
    t.give("rex-splode", "flex1", "molecule-makeover")
    s = t.fill("rex-splode", "flex1")
    colours = {o["colour"] for o in t.engine.to_json(s)["resolving"]["steps"][0]["options"]}
    assert colours == {"yellow", "blue", "orange", "purple"}
    with pytest.raises(IllegalAction, match="open to"):
        t.act("effect", hero="rex-splode", colour="red")
    t.act("effect", hero="rex-splode", colour="blue")
    t.give("rex-splode", "flex2", "guardians-gather")
    s = t.fill("rex-splode", "flex2")
    options = t.engine.to_json(s)["resolving"]["steps"][0]["options"]
    assert {o["colour"] for o in options} == {"yellow", "blue", "orange", "purple"}


def test_turn_the_tide_counts_only_civilians_this_hero_moved_to_safety(hero_phase):
    """Turn the Tide: 'Deals 1 damage for each civilian you personally moved from danger to
    safety this round' — a crash rescue moves no civilian."""
    t = hero_phase()
    t.put_villain("magmaniac", "center")
    t.state.hero("atom-eve").zone = "center"
    inv = t.state.hero("invincible")
    inv.dropped, inv.bag["black"] = ["black"] * 4, 2
    t.act("pull", hero="invincible", cubes=["black", "yellow", "yellow"])   # crashes
    t.fill("atom-eve", "rescue", crashed="invincible", face="rescue-center")
    t.fill("atom-eve", "thwart", villain="magmaniac")
    assert s_rescued(t) == 0
    t.give("atom-eve", "flex1", "turn-the-tide")
    s = t.fill("atom-eve", "flex1")
    assert s.resolving is None and s.zone("center").villains[0].damage == 0


def s_rescued(t):
    return t.state.hero("atom-eve").rescued_civilians


# -- a cube gained and played at once ---------------------------------------------------------------

def test_defensive_mastery_plays_its_cube_at_once_and_resolves_first(hero_phase):
    """Defensive Mastery: 'Permanently gain a cube of the indicated color and immediately play it
    to another eligible power (or drop it if you can't or don't want to play it). Resolve
    Defensive Mastery itself completely before resolving any power the new cube might
    complete.'"""
    t = hero_phase()
    t.state.zone("center").danger = 2
    inv = t.state.hero("invincible")
    inv.powers["rescue"] = inv.powers["rescue"].with_cubes(["orange", None])
    supply, bag = t.state.supply["orange"], dict(inv.bag)
    t.give("invincible", "flex1", "defensive-mastery")
    s = t.fill("invincible", "flex1", colour="orange")
    assert s.supply["orange"] == supply - 1 and s.hero("invincible").ready == ["orange"]
    r = t.engine.to_json(s)["resolving"]
    assert r["name"] == "Defensive Mastery" and r["steps"][0]["kind"] == "place_cube"
    assert {o["slot"] for o in r["steps"][0]["options"]} == {"rescue"}
    s = t.act("effect", hero="invincible", slot="rescue")
    assert s.resolving["name"] == "Rescue"                     # opens after the Mastery
    assert "Defensive Mastery is resolved." in s.log
    s = t.act("effect", hero="invincible", zone="center")
    assert s.zone("center").danger == 1 and s.resolving is None
    assert s.hero("invincible").bag == bag                     # the cube is on a power, not bagged


def test_weapon_mastery_cube_is_dropped_when_declined(hero_phase):
    """'(or drop it if you can't or don't want to play it)'."""
    t = hero_phase()
    t.give("invincible", "flex1", "weapon-mastery")
    t.fill("invincible", "flex1", colour="yellow")
    s = t.act("decline", hero="invincible")
    assert s.hero("invincible").ready == [] and s.hero("invincible").dropped == ["yellow"]
    assert s.resolving is None


def test_guardians_gather_cube_waits_for_a_crashed_heros_rescue(hero_phase):
    """Guardians, Gather!: 'If a crashed hero gains a cube through it, they can't play the cube
    until they're rescued.'"""
    t = hero_phase()
    t.state.hero("atom-eve").zone = "center"
    inv = t.state.hero("invincible")
    inv.dropped, inv.bag["black"] = ["black"] * 4, 2
    t.act("pull", hero="invincible", cubes=["black", "yellow", "yellow"])   # crashes
    t.give("atom-eve", "flex1", "guardians-gather")
    s = t.fill("atom-eve", "flex1", colour="blue", target="invincible")
    assert s.resolving is None
    assert sorted(s.hero("invincible").ready) == ["black", "blue", "yellow", "yellow"]
    with pytest.raises(IllegalAction, match="crashed"):
        t.act("play", hero="invincible", cube="blue", power="move")


# -- Learn By Punching, Chain Lightning, Flying Charge ----------------------------------------------

def test_learn_by_punching_confidence_is_kept_when_a_power_replaces_it(table, engine):
    """Learn By Punching: 'once filled, you keep its confidence whether or not you later discard
    it' — learning a power into its slot discards it."""
    t = table()
    t.to_hero_phase()
    inv = t.state.hero("invincible")
    inv.powers["flex1"] = Played("learn-by-punching", "learn-by-punching", ["yellow"], True)
    inv.bag["yellow"] -= 1
    t.everyone_done()
    assert t.state.phase == "training"
    t.state.hero("invincible").bonus_confidence = 5          # enough for any card in hand
    before = engine.expect(t.state)["confidence"]["invincible"]
    card = t.state.hero("invincible").hand[0]
    cost = engine.data.powers[card.split("#")[0]].cost
    s = t.act("learn", hero="invincible", card=card, slot="flex1")
    assert s.hero("invincible").powers["flex1"].power != "learn-by-punching"
    assert engine.expect(s)["confidence"]["invincible"] == before - cost


def test_chain_lightning_pull_does_not_crash_but_black_cannot_be_played_to_crash(hero_phase):
    """Chain Lightning: 'Pulling a black cube with this power in play doesn't force an immediate
    crash, though you still can't play a black cube if doing so would cause you to crash.'"""
    t = hero_phase()
    _filled(t, "invincible", "flex1", "chain-lightning")
    inv = t.state.hero("invincible")
    inv.dropped, inv.bag["black"] = ["black"] * 4, 2
    s = t.act("pull", hero="invincible", cubes=["black", "yellow", "yellow"])
    assert not s.hero("invincible").crashed
    with pytest.raises(IllegalAction, match="would cause you to crash"):
        t.act("play", hero="invincible", cube="black", power="attack")
    s = t.act("play", hero="invincible", cube="yellow", power="attack")
    assert s.hero("invincible").powers["attack"].cubes == ["yellow", None]


def test_chain_lightning_keeps_pulling_after_a_crash_rescue(hero_phase):
    """Chain Lightning: 'You may keep pulling cubes even in situations that would normally stop
    you (having already crashed, or having just attempted a crash rescue).'"""
    t = hero_phase()
    t.state.hero("atom-eve").zone = "center"
    inv = t.state.hero("invincible")
    inv.dropped, inv.bag["black"] = ["black"] * 4, 2
    t.act("pull", hero="invincible", cubes=["black", "yellow", "yellow"])   # crashes
    _filled(t, "atom-eve", "flex1", "chain-lightning")
    t.fill("atom-eve", "rescue", crashed="invincible", face="failure-center")
    assert not t.state.hero("atom-eve").can_pull
    s = t.act("pull", hero="atom-eve")
    assert len(s.hero("atom-eve").ready) == 3


def test_flying_charge_can_bring_a_villain_into_a_teammates_zone(hero_phase):
    """'Seeing that Invincible already has two of the three purple cubes needed to fill Flying
    Charge — which could bring a villain into her zone' (Telekimeanness: 'move an enemy from
    your zone into an adjacent one')."""
    t = hero_phase()
    t.put_villain("magmaniac", "center")
    t.state.hero("atom-eve").zone = "left"
    t.fill("invincible", "starter")
    s = t.act("effect", hero="invincible", step=1, target="magmaniac", to="left")
    assert s.zone("left").villains[0].id == "magmaniac" and s.hero("invincible").zone == "center"
    assert s.resolving is None                                 # nothing left in his zone to hit


def test_a_move_answer_naming_an_enemy_it_cannot_move_is_refused_with_words(hero_phase):
    """Telekimeanness: 'move an enemy from your zone into an adjacent one'; a zone holds two
    villain cards. Answers naming a boss not in play, a zone whose slots are full, or an enemy on
    a Move that moves only heroes raised a Python TypeError (the table read 'the data could not
    be used'); each is refused in words now."""
    t = hero_phase()
    t.put_villain("magmaniac", "center")
    t.put_villain("thug-a", "left")
    t.put_villain("thug-b", "left")
    t.fill("invincible", "starter")                            # Flying Charge: moves an enemy
    with pytest.raises(IllegalAction, match="no boss is in play"):
        t.act("effect", hero="invincible", step=1, target="boss", to="left")
    with pytest.raises(IllegalAction, match="the left zone's villain slots are full"):
        t.act("effect", hero="invincible", step=1, target="magmaniac", to="left")
    t = hero_phase(heroes=("robot", "atom-eve"))
    t.fill("robot", "move")                                    # Move: the hero alone
    with pytest.raises(BadAction, match="'boss' is not a hero in this game"):
        t.act("effect", hero="robot", step=0, target="boss", to="left")


def test_fire_up_hurts_once_per_fill_even_when_the_power_repeats(hero_phase):
    """Fire Up: 'Whenever a hero fills a power using red cubes, they take 1 damage per red cube
    used ... this happens only once per fill, even if some other effect causes the power to
    repeat' — and the +1 'exactly as if a strengthen token were applied' is on every damage."""
    t = hero_phase(heroes=("rex-splode", "atom-eve"), episode=2)
    t.state.hero("rex-splode").zone = "center"
    t.put_villain("magmaniac", "center")
    _filled(t, "rex-splode", "flex2", "whirlwind-mode")       # Might
    t.give("rex-splode", "flex1", "flurry-of-blows")          # Might: repeats once
    rex = t.state.hero("rex-splode")
    rex.ready, rex.last_pull = ["red", "red"], []
    t.act("play", hero="rex-splode", cube="red", power="flex1")
    s = t.act("play", hero="rex-splode", cube="red", power="flex1")
    assert s.hero("rex-splode").damage == 2
    assert _steps(s) == [("damage", 2)] * 2


def test_hero_time_a_gained_cube_left_in_the_ready_area_is_dropped_at_expiry(hero_phase):
    """Hero time: 'Heroes may finish resolving any power they were already in the middle of, but
    any cubes still sitting in their ready area count as dropped' — a Mastery's cube not yet
    played among them; the Mastery then resolves with nothing left to place."""
    t = hero_phase(hero_time={"seconds": 60})
    t.give("invincible", "flex1", "weapon-mastery")
    t.fill("invincible", "flex1", colour="yellow")
    assert t.state.hero("invincible").ready == ["yellow"]
    t.clock += 60
    s = t.act("timer.expire", name="hero_time")
    assert s.hero("invincible").dropped == ["yellow"] and s.resolving is None
    assert s.phase == "training"


def test_hero_time_a_cube_given_to_a_hero_resolving_their_own_power_is_dropped(hero_phase):
    """Guardians, Gather! in hero time ('Heroes pull and play independently'): the cube cannot be
    played at once while its hero resolves a power of their own, so it is dropped ('or drop it
    if you can't ... play it')."""
    t = hero_phase(hero_time={"seconds": 600})
    t.state.hero("atom-eve").zone = "center"
    t.fill("invincible", "move")                               # Invincible resolving his Move
    t.give("atom-eve", "flex1", "guardians-gather")
    s = t.fill("atom-eve", "flex1", colour="blue", target="invincible")
    assert "atom-eve" not in s.resolutions and s.resolutions["invincible"]["name"] == "Move"
    assert s.hero("invincible").dropped == ["blue"] and s.hero("invincible").ready == []


def test_the_power_play_data_is_owner_editable_and_checked(tmp_path):
    """Power Conduit's self-damage (not printed) is the owner's to change; a broken field names
    the file and the key."""
    import shutil
    from pathlib import Path

    from companion.errors import DataFileError
    from companion.games import Catalog
    from invincible_helpers import Table

    here = Path(__file__).resolve().parents[3] / "companion" / "games" / "invincible"
    for name in ("invincible.toml", "invincible_powers.toml", "invincible_episodes.toml"):
        shutil.copy(here / name, tmp_path / name)
    powers = (tmp_path / "invincible_powers.toml").read_text()
    conduit = '{ kind = "hurt_self", amount = 2 }'
    assert conduit in powers
    (tmp_path / "invincible_powers.toml").write_text(
        powers.replace(conduit, '{ kind = "hurt_self", amount = 1 }'))
    t = Table(Catalog(tmp_path)("invincible"), {"heroes": ["invincible", "atom-eve"]})
    t.to_hero_phase()
    t.give("invincible", "flex1", "power-conduit")
    assert t.fill("invincible", "flex1").hero("invincible").damage == 1
    for bad, key in (('repeat = "type", effects', 'repeat = "twice", effects'),
                     ('play = true }', 'play = "yes" }'), ('combo = 1 }', 'combo = 99 }')):
        (tmp_path / "invincible_powers.toml").write_text(powers.replace(bad, key, 1))
        with pytest.raises(DataFileError, match=r"invincible_powers.toml: deck.powers\[\d+\]"):
            Catalog(tmp_path)("invincible")
    (tmp_path / "invincible_powers.toml").write_text(
        powers.replace('{ kind = "damage", amount = 1 }] },\n  { id = "autosave"',
                       '{ kind = "damage", amount = 1, play = true }] },\n  { id = "autosave"'))
    with pytest.raises(DataFileError, match="play is for a gain_cube effect"):
        Catalog(tmp_path)("invincible")


def test_power_conduit_self_damage_is_a_step_taken_in_any_order(hero_phase):
    """'When a power offers multiple effects, you may do them in any order and skip any you don't
    want' and Power Conduit: 'You can't take more damage than your remaining health (though you
    may still choose to KO yourself deliberately).' Under the "any_order" reading (every new
    game's), a hero one damage from a KO deals the card's 3 damage and then KOs themself; taken
    as the power filled, the KO sent the hero to Guardians HQ first and the damage was lost."""
    t = hero_phase(self_damage="any_order")
    v = t.put_villain("magmaniac", "center")
    t.state.hero("invincible").damage = 9
    t.give("invincible", "flex1", "power-conduit")
    s = t.fill("invincible", "flex1")
    assert s.hero("invincible").damage == 9 and s.kos == 0     # not yet: the hero's choice
    assert _steps(s) == [("damage", 3), ("hurt_self", 2)]      # the cost is not skippable ...
    assert [st["skip"] for st in s.resolving["steps"]] == [True, False]
    assert [st["hint"] for st in s.resolving["steps"]] == ["damage 3", "take 2 damage yourself"]
    s = t.act("effect", hero="invincible", step=0, target="magmaniac")
    assert s.zone("center").villains[0].damage == v.damage + 3
    assert "Invincible can't take more damage than their remaining health (1)." in s.log
    assert s.kos == 1 and s.hero("invincible").zone == "hq"    # ... and then taken, deliberately
    assert s.resolving is None

    # ... or the cost first, when the hero chooses
    t = hero_phase(self_damage="any_order")
    t.put_villain("magmaniac", "center")
    t.state.hero("invincible").damage = 3
    t.give("invincible", "flex1", "power-conduit")
    t.fill("invincible", "flex1")
    s = t.act("effect", hero="invincible", step=1)
    assert s.hero("invincible").damage == 5 and _steps(s) == [("damage", 3)]


def test_a_game_begun_before_the_any_order_reading_takes_power_conduits_cost_as_it_fills(
        hero_phase, engine):
    """A recorded game without the option replays as it was played (the cost at the fill); the
    session records "any_order" for every new game, and a reading that is neither is refused."""
    t = hero_phase()
    t.put_villain("magmaniac", "center")
    t.state.hero("invincible").damage = 9
    t.give("invincible", "flex1", "power-conduit")
    s = t.fill("invincible", "flex1")
    assert s.kos == 1 and s.hero("invincible").zone == "hq"
    assert engine.prepare_options({}, [])["self_damage"] == "any_order"
    assert engine.prepare_options({"self_damage": "at_fill"}, [])["self_damage"] == "at_fill"
    with pytest.raises(SetupError, match="self_damage is"):
        hero_phase(self_damage="sometimes")
