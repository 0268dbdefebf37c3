"""The Hero Phase: pulls, cubes, powers resolving, crashing, crash rescues, defiance, range and
the end of the phase. Each test quotes the rulebook sentence it checks."""

import pytest

from companion.errors import BadAction, IllegalAction
from invincible_helpers import engine, hero_phase, table  # noqa: F401 (fixtures)


def test_crash_on_the_fifth_black_cube_counting_board_and_dropped(hero_phase):
    """Worked example: 'A hero crashes the moment they pull a fifth black cube, whether from the
    bag or already sitting on their board or in the dropped area'; 'Every black cube on that
    hero's board and powers counts toward the limit, including cubes sitting in the dropped
    area.'"""
    t = hero_phase()
    t.act("pull", hero="invincible", cubes=["black", "black", "yellow"])
    t.act("play", hero="invincible", cube="black", power="attack")    # black is wild
    t.act("drop", hero="invincible", cube="black")
    t.act("drop", hero="invincible", cube="yellow")
    t.act("pull", hero="invincible", cubes=["black", "black", "blue"])
    t.act("play", hero="invincible", cube="black", power="starter")
    t.act("play", hero="invincible", cube="black", power="starter")
    t.act("play", hero="invincible", cube="blue", power="move")       # fills Move
    t.act("effect", hero="invincible", to="left")
    s = t.state
    assert not s.hero("invincible").crashed                            # four black so far
    s = t.act("pull", hero="invincible", cubes=["black", "orange", "orange"])
    inv = s.hero("invincible")
    assert inv.crashed and not inv.can_pull
    assert inv.ready == ["black", "orange", "orange"]    # 'leave the three cubes you just pulled'
    with pytest.raises(IllegalAction, match="crashed"):
        t.act("play", hero="invincible", cube="orange", power="rescue")
    assert t.engine.to_json(s)["heroes"][0]["black_cubes"] == 5


def test_three_cubes_per_pull_and_play_or_drop_them_all_before_pulling_again(hero_phase):
    """'Draw three random cubes from your bag at a time' and 'All three cubes from a pull must be
    either played or dropped before you pull again'."""
    t = hero_phase()
    s = t.act("pull", hero="atom-eve")
    assert len(s.hero("atom-eve").ready) == 3 and sum(s.hero("atom-eve").bag.values()) == 15
    with pytest.raises(IllegalAction, match="before you pull again"):
        t.act("pull", hero="atom-eve")
    with pytest.raises(IllegalAction, match="pull 3"):
        t.act("pull", hero="invincible", cubes=["blue"])
    with pytest.raises(BadAction):
        t.act("pull", hero="invincible", cubes=["green", "blue", "blue"])
    t.act("pull", hero="invincible", cubes=["blue", "blue", "blue"])
    for _ in range(3):
        t.act("drop", hero="invincible", cube="blue")
    with pytest.raises(IllegalAction, match="only 0 blue"):
        t.act("pull", hero="invincible", cubes=["blue", "yellow", "yellow"])


def test_cube_colours_must_match_and_black_is_wild(hero_phase):
    """'play them onto matching colored symbols on your powers — black cubes are wild and can
    cover a symbol of any color'."""
    t = hero_phase()
    t.act("pull", hero="invincible", cubes=["orange", "black", "yellow"])
    with pytest.raises(IllegalAction, match="no open orange"):
        t.act("play", hero="invincible", cube="orange", power="attack")
    s = t.act("play", hero="invincible", cube="black", power="attack")
    assert s.hero("invincible").powers["attack"].cubes == ["black", None]


def test_power_resolves_the_moment_it_fills_and_blocks_the_next_cube(hero_phase):
    """'the moment a cube covers a power's last remaining symbol, you resolve that power
    immediately, before playing your next cube. Cubes are not removed after a power resolves —
    they stay put, blocking the power from being used again this round.'"""
    t = hero_phase()
    t.put_villain("magmaniac", "left")
    t.act("pull", hero="invincible", cubes=["blue", "yellow", "yellow"])
    s = t.act("play", hero="invincible", cube="blue", power="move")
    assert s.resolving["name"] == "Move" and s.hero("invincible").powers["move"].filled
    with pytest.raises(IllegalAction, match="resolve"):
        t.act("play", hero="invincible", cube="yellow", power="attack")
    s = t.act("effect", hero="invincible", to="left")
    assert s.resolving is None and s.hero("invincible").zone == "left"
    t.act("play", hero="invincible", cube="yellow", power="attack")
    s = t.act("play", hero="invincible", cube="yellow", power="attack")
    assert s.resolving["name"] == "Attack"
    s = t.act("effect", hero="invincible", target="magmaniac")
    # 'plays both yellow cubes to complete his basic Attack, dealing 2 damage'
    assert s.zone("left").villains[0].damage == 2 and s.resolving is None
    t.act("pull", hero="invincible", cubes=["blue", "purple", "purple"])
    with pytest.raises(IllegalAction, match="already filled"):
        t.act("play", hero="invincible", cube="blue", power="move")


def test_while_a_power_resolves_the_others_are_told_they_may_keep_playing(hero_phase, engine):
    """Hero-time variant: 'try playing in real time: set a 10-minute timer at the start of each
    Hero Phase'; 'Heroes pull and play independently — you don't need to sync your pulls with
    teammates.' Against the clock a power resolving holds up only its own hero (the reading in
    docs/invincible.md), but the next step named only the power resolving, as if the others had
    to wait. Without the timer every hero waits ('each power must fully resolve before the next
    begins'), and nothing more is said."""
    plain = hero_phase()
    plain.act("pull", hero="invincible", cubes=["blue", "yellow", "yellow"])
    s = plain.act("play", hero="invincible", cube="blue", power="move")
    assert engine.expect(s)["prompt"] == "Invincible: resolve Move: move (tap a choice)."

    t = hero_phase(hero_time=10)
    t.put_villain("magmaniac", "left")
    t.act("pull", hero="invincible", cubes=["blue", "yellow", "yellow"])
    s = t.act("play", hero="invincible", cube="blue", power="move")
    prompt = engine.expect(s)["prompt"]
    assert prompt.startswith("Invincible: resolve Move") and (
        "Meanwhile Atom Eve pull and play cubes, then done." in prompt), prompt
    s = t.act("pull", hero="atom-eve", cubes=["yellow", "blue", "orange"])  # and she may
    assert s.resolving["name"] == "Move" and s.hero("atom-eve").ready
    s = t.act("done", hero="atom-eve")                  # her ready cubes dropped, she stops
    assert "Meanwhile" not in engine.expect(s)["prompt"], engine.expect(s)["prompt"]


def test_defiance_sets_the_pull_aside_and_pulls_three_more(hero_phase):
    """'you may flip your defiance token face down to set that pull aside, pull three fresh
    cubes, and then return the first three to your ready area — as long as the original pull
    didn't cause you to crash.'"""
    t = hero_phase()
    t.act("pull", hero="invincible", cubes=["orange", "orange", "orange"])
    s = t.act("defiance", hero="invincible", cubes=["yellow", "yellow", "blue"])
    inv = s.hero("invincible")
    assert sorted(inv.ready) == sorted(["yellow", "yellow", "blue", "orange", "orange", "orange"])
    assert not inv.defiance
    for c in list(inv.ready):
        t.act("drop", hero="invincible", cube=c)
    t.act("pull", hero="invincible", cubes=["purple", "purple", "purple"])
    with pytest.raises(IllegalAction, match="face down"):
        t.act("defiance", hero="invincible")


def test_defiance_cannot_undo_a_crash(hero_phase):
    """'(Defiance cannot undo a crash.)'"""
    t = hero_phase()
    h = t.state.hero("invincible")
    h.dropped = ["black"] * 3
    h.bag["black"] = 3
    t.act("pull", hero="invincible", cubes=["black", "black", "yellow"])
    with pytest.raises(IllegalAction, match="crash"):
        t.act("defiance", hero="invincible")


def _crash(t, hero):
    h = t.state.hero(hero)
    h.dropped = ["black"] * 4
    h.bag["black"] = 2
    return t.act("pull", hero=hero, cubes=["black", "yellow", "yellow"])


def test_crash_rescue_with_the_rescue_die(hero_phase):
    """'To save a crashed teammate, use a Rescue power while standing in their zone ... then roll
    the rescue die'; 'Regardless of the result, neither you nor the crashed hero can pull any
    more cubes this round'; 'they can now use the cubes from the pull that crashed them'."""
    t = hero_phase()
    t.state.hero("atom-eve").zone = "center"
    _crash(t, "invincible")
    t.act("pull", hero="atom-eve", cubes=["orange", "orange", "blue"])
    t.act("play", hero="atom-eve", cube="orange", power="rescue")
    t.act("play", hero="atom-eve", cube="orange", power="rescue")
    s = t.act("effect", hero="atom-eve", crashed="invincible", face="rescue-center")
    eve, inv = s.hero("atom-eve"), s.hero("invincible")
    assert inv.rescued and not inv.can_pull and not eve.can_pull
    assert eve.bonus_confidence == 0 and s.resolving is None   # Rescue 1: one attempt
    s = t.act("play", hero="invincible", cube="yellow", power="attack")
    assert s.hero("invincible").powers["attack"].cubes == ["yellow", None]
    t.act("drop", hero="atom-eve", cube="blue")
    with pytest.raises(IllegalAction, match="crash rescue"):
        t.act("pull", hero="atom-eve")


def test_epic_rescue_grants_a_confidence_and_failure_leaves_the_hero_crashed(hero_phase):
    """'On an Epic Rescue (the face with the confidence icon), the rescuer also gains 1 bonus
    confidence for the next Training Phase.' / 'Failure — the attempt doesn't work, and the
    crashed hero remains in danger.' 'A Rescue power worth 2 or more lets you make a separate
    attempt for each point of value' (Autosave's 'normal Rescue 2 effect')."""
    t = hero_phase()
    t.state.hero("atom-eve").zone = "center"
    t.give("atom-eve", "flex1", "autosave")
    _crash(t, "invincible")
    t.fill("atom-eve", "flex1")
    s = t.act("effect", hero="atom-eve", crashed="invincible", face="failure-center")
    assert s.hero("invincible").crashed and not s.hero("invincible").rescued
    s = t.act("effect", hero="atom-eve", crashed="invincible", face="epic-left")
    assert s.hero("invincible").rescued and s.hero("atom-eve").bonus_confidence == 1
    # the log says what happened, not the die's face ids ('Failure (failure-center)')
    assert "Atom Eve tries to rescue Invincible: Failure." in s.log
    assert "Atom Eve rescues Invincible: Epic Rescue (+1 confidence)." in s.log


def test_crash_rescue_needs_range(hero_phase):
    """'use a Rescue power while standing in their zone (or a Ranged Rescue power from an
    adjacent zone)'."""
    t = hero_phase()
    t.state.hero("atom-eve").zone = "left"
    t.state.hero("invincible").zone = "right"
    t.state.zone("left").danger = 0
    _crash(t, "invincible")
    s = t.fill("atom-eve", "rescue")
    assert s.resolving is None         # nobody in danger in range: the Rescue does nothing
    assert "Rescue: nothing in range for rescue 1." in s.log
    assert s.hero("invincible").crashed and not s.hero("invincible").rescued


def test_end_of_phase_crash_die_with_the_one_plus_reroll(hero_phase):
    """'If they don't, you roll the crash die at the end of the phase and take the damage shown;
    rolling the "1+" face means you take 1 damage and roll again, potentially several times in
    a row.'"""
    t = hero_phase()
    _crash(t, "invincible")
    s = t.act("done", hero="atom-eve")
    assert s.phase == "crash"
    assert t.engine.expect(s)["dice"][0]["die"] == "crash"
    with pytest.raises(IllegalAction, match="ends the crash roll"):
        t.act("crash_roll", hero="invincible", faces=["2", "1"])
    s = t.act("crash_roll", hero="invincible", faces=["1+", "1+", "3"])
    inv = s.hero("invincible")
    assert inv.damage == 5 and not inv.crashed     # 'stand their standee back up'
    assert s.phase == "training"


def test_crash_die_read_one_roll_at_a_time(hero_phase, engine):
    """The camera reads each roll: '1+' takes 1 damage and the companion waits for the next
    roll ('rolling the "1+" face means you take 1 damage and roll again')."""
    t = hero_phase()
    _crash(t, "invincible")
    t.act("done", hero="atom-eve")
    entry = engine.expect(t.state)["dice"][0]
    # the camera's read becomes {entry.action, entry.data + {entry.field: face}}
    assert (entry["action"], entry["field"], entry["data"]) == ("crash_roll", "faces",
                                                                {"hero": "invincible"})
    s = t.act(entry["action"], **{**entry["data"], entry["field"]: "1+"})
    assert s.phase == "crash" and s.hero("invincible").damage == 1
    assert "Invincible rolls the crash die: 1+ — roll again." in s.log
    s = t.act("crash_roll", hero="invincible", faces="2")
    assert s.phase == "training" and s.hero("invincible").damage == 3


def test_crash_damage_can_ko(hero_phase):
    """'if this brings them to 0 health, they're KOed'."""
    t = hero_phase()
    t.state.hero("invincible").damage = 8
    _crash(t, "invincible")
    t.act("done", hero="atom-eve")
    s = t.act("crash_roll", hero="invincible", faces=["3"])
    assert s.kos == 1 and s.hero("invincible").zone == "hq"


def test_phase_ends_when_everyone_stops(hero_phase):
    """'The Hero Phase ends once every player has either chosen to stop pulling or been forced
    to stop by crashing or attempting a crash rescue — players can stop independently'."""
    t = hero_phase()
    s = t.act("done", hero="invincible")
    assert s.phase == "hero"
    with pytest.raises(IllegalAction, match="already stopped"):
        t.act("pull", hero="invincible")
    t.act("pull", hero="atom-eve", cubes=["yellow", "blue", "orange"])
    s = t.act("done", hero="atom-eve")
    assert s.phase == "training" and sorted(s.hero("atom-eve").dropped) == ["blue", "orange", "yellow"]


def test_starting_at_hq_heals_two_and_recharges_defiance(table):
    """'if you begin a Hero Phase there, you heal 2 damage and recharge your defiance token'."""
    t = table()
    h = t.state.hero("atom-eve")
    h.zone, h.damage, h.defiance = "hq", 5, False
    t.to_hero_phase()
    h = t.state.hero("atom-eve")
    assert (h.damage, h.defiance) == (3, True)


def test_range_own_zone_ranged_adjacent_and_nothing_from_hq(hero_phase):
    """'Unless a power says otherwise, it can only affect your own zone'; 'Ranged ... lets a
    power reach into an adjacent zone instead'; 'While at Guardians HQ, you can't target
    anything in any zone, even with a Ranged power'."""
    t = hero_phase()
    t.put_villain("thug-a", "left")
    t.put_villain("thug-b", "right")
    t.fill("invincible", "attack")            # nothing in the center zone: Attack does nothing
    assert t.state.resolving is None and t.state.zone("left").villains[0].damage == 0
    t.give("invincible", "flex1", "coordinated-assault")   # Ranged (assumed)
    s = t.fill("invincible", "flex1")
    with pytest.raises(IllegalAction):
        t.act("effect", hero="invincible", step=0, target="magmaniac")
    s = t.act("effect", hero="invincible", step=0, target="thug-a")
    assert s.zone("left").villains[0].damage == 1
    t.state.hero("atom-eve").zone = "hq"
    t.give("atom-eve", "flex1", "coordinated-assault")
    t.act("decline", hero="invincible")
    s = t.fill("atom-eve", "flex1")         # from HQ neither its damage nor its drone reaches
    assert s.resolving is None and s.zone("left").villains[0].damage == 1
    assert any("nothing in range for damage 1" in line for line in s.log[-3:])


def test_move_adjacent_or_hq_outer_zones_not_adjacent(hero_phase):
    """'Move your hero standee to an adjacent zone, or to Guardians HQ from anywhere (and from
    Guardians HQ back to anywhere). Note that the two outer zones are not adjacent to each
    other.'"""
    t = hero_phase()
    t.state.hero("atom-eve").zone = "left"
    t.fill("atom-eve", "move")
    with pytest.raises(IllegalAction, match="not adjacent"):
        t.act("effect", hero="atom-eve", to="right")
    s = t.act("effect", hero="atom-eve", to="hq")
    assert s.hero("atom-eve").zone == "hq" and s.resolving is None
    t.give("atom-eve", "flex1", "experimental-jetbike")
    s = t.fill("atom-eve", "flex1", to="right")
    assert s.hero("atom-eve").zone == "right"


def test_damage_defeats_a_villain_and_counts_overkill(hero_phase):
    """'Once a villain has taken damage equal to its starting health, it is defeated and
    discarded'; health for 2 heroes is the first of the three printed totals."""
    t = hero_phase()
    v = t.put_villain("thug-a", "center", damage=2)
    assert v.health == 3
    s = t.fill("invincible", "attack", target="thug-a")
    assert "thug-a" in s.defeated and "thug-a" in s.discards["villain1"]


def test_villain_health_by_hero_count_solo_uses_two(table):
    """'separate totals for 2-, 3-, and 4-hero games'; solo: 'Use the 2-player health values on
    villains and the 2-player side of the episode card.'"""
    for heroes, solo, expected in ((("invincible", "robot"), True, 3),
                                   (("invincible", "robot", "atom-eve"), False, 4),
                                   (("invincible", "robot", "atom-eve", "rex-splode"), False, 5)):
        t = table(heroes=heroes, solo=solo)
        assert t.put_villain("thug-a", "left").health == expected


def test_strengthen_only_damaging_powers_and_adds_to_damage(hero_phase):
    """'place a strengthen token on one of your own powers, permanently adding 1 to any damage
    it deals ... only powers that deal damage.'"""
    t = hero_phase()
    t.state.hero("invincible").powers["attack"] = t.state.hero("invincible").powers[
        "attack"].stronger()
    t.put_villain("magmaniac", "center")
    s = t.fill("invincible", "attack")
    assert s.resolving["steps"][0]["amount"] == 3
    s = t.act("effect", hero="invincible", target="magmaniac")
    assert s.zone("center").villains[0].damage == 3
    from companion.games.invincible import choices
    step = {"kind": "strengthen", "amount": 0}
    slots = [o["slot"] for o in choices.options(s, s.hero("invincible"), step, False)]
    assert "attack" in slots and "move" not in slots      # 'never add a damage icon'


def test_thwart_tokens_on_villains_and_global_abilities(hero_phase):
    """'place a thwart token on a villain in your zone or on an episode ability'; '"Global"
    means anywhere'; 'one ability costs one additional token in four-hero games'."""
    t = hero_phase()
    t.put_villain("thug-a", "center")
    s = t.fill("invincible", "thwart", villain="thug-a")
    assert s.zone("center").villains[0].thwart == 1 and s.resolving is None
    s = t.fill("atom-eve", "thwart")
    options = t.engine.to_json(s)["resolving"]["steps"][0]["options"]
    assert {"ability": "bombs"} in options
    s = t.act("effect", hero="atom-eve", ability="bombs")
    assert s.ability_thwart["bombs"] == 1
    assert t.engine.data.episodes[1].abilities["bombs"].spaces(4) == 3


def test_gain_cube_from_supply_and_red_only_through_fire_up(hero_phase):
    """'immediately take a cube of the indicated color from the supply ... If the supply of that
    color is empty, nothing happens. Red cubes can only be gained through Rex Splode's Fire Up'."""
    t = hero_phase()
    t.give("invincible", "flex1", "molecule-makeover")
    s = t.fill("invincible", "flex1", colour="yellow")
    assert s.hero("invincible").bag["yellow"] == 4 and s.supply["yellow"] == 27 - 6 - 1
    assert "Invincible gains a yellow cube." in s.log, s.log
    t.give("invincible", "flex1", "molecule-makeover")
    assert "Invincible gains an orange cube." in t.fill("invincible", "flex1", colour="orange").log
    t.give("invincible", "flex2", "defensive-mastery")
    t.state.supply["orange"] = 0
    s = t.fill("invincible", "flex2")
    assert s.hero("invincible").bag["orange"] == 4 and s.resolving is None
    t.give("atom-eve", "flex1", "guardians-gather")
    s = t.fill("atom-eve", "flex1")
    with pytest.raises(BadAction):
        t.act("effect", hero="atom-eve", colour="black")
    with pytest.raises(IllegalAction, match="Fire Up"):
        t.act("effect", hero="atom-eve", colour="red")


def test_ultimate_waits_for_its_super_power(table, engine):
    """'you can't play any cubes on it until the Super Power above it is filled'."""
    from companion.games.invincible.state import Played
    t = table(episode=2)
    h = t.state.hero("invincible")
    h.powers["yellow"] = Played("flurry-of-blows#1", "flurry-of-blows", [None, None])
    h.powers["under:yellow"] = Played("power-surge#1", "power-surge", [None, None, None])
    t.to_hero_phase()
    t.act("pull", hero="invincible", cubes=["yellow", "yellow", "yellow"])
    with pytest.raises(IllegalAction, match="Ultimate"):
        t.act("play", hero="invincible", cube="yellow", power="under:yellow")
    t.act("play", hero="invincible", cube="yellow", power="yellow")
    t.act("play", hero="invincible", cube="yellow", power="yellow")   # nothing to hit: resolved
    s = t.act("play", hero="invincible", cube="yellow", power="under:yellow")
    assert s.hero("invincible").powers["under:yellow"].cubes[0] == "yellow"


def test_expect_lists_the_rescue_die_while_a_hero_is_crashed(hero_phase):
    """The camera needs to know a rescue die roll means a crash rescue: while a Rescue power
    resolves with one crashed hero in range, a read of the die is that attempt."""
    t = hero_phase()
    _crash(t, "invincible")
    dice = t.engine.expect(t.state)["dice"]
    assert dice and dice[0]["die"] == "rescue" and dice[0]["set"] == "invincible-rescue"
    assert "action" not in dice[0]            # nobody is resolving a Rescue yet
    t.state.hero("atom-eve").zone = "center"
    t.act("pull", hero="atom-eve", cubes=["orange", "orange", "blue"])
    t.act("play", hero="atom-eve", cube="orange", power="rescue")
    t.act("play", hero="atom-eve", cube="orange", power="rescue")
    entry = t.engine.expect(t.state)["dice"][0]
    assert (entry["action"], entry["field"]) == ("effect", "face")
    assert entry["data"] == {"hero": "atom-eve", "step": 0, "crashed": "invincible"}
    s = t.act("effect", **{**entry["data"], "face": "epic-left"})
    assert s.hero("invincible").rescued


def test_going_to_the_limit_returns_black_cubes(table):
    """Going to the Limit: 'Black cubes pulled with this power in play are returned to the bag
    before they can cause a crash; this is not optional. Other cubes go to your ready area as
    usual.'"""
    t = table(episode=2)
    t.to_hero_phase()
    inv = t.state.hero("invincible")
    inv.dropped, inv.bag["black"] = ["black"] * 4, 2
    inv.bag["yellow"] -= 1
    inv.bag["purple"] -= 1
    inv.powers["signature"].cubes = ["yellow", "purple"]
    inv.powers["signature"].filled = True
    s = t.act("pull", hero="invincible", cubes=["black", "blue", "blue"])
    inv = s.hero("invincible")
    assert not inv.crashed and inv.ready == ["blue", "blue"] and inv.bag["black"] == 2
    # defiance: 'set that pull aside, pull three fresh cubes': a pull too
    t.act("drop", hero="invincible", cube="blue")
    t.act("drop", hero="invincible", cube="blue")
    t.act("pull", hero="invincible", cubes=["orange", "orange", "blue"])
    s = t.act("defiance", hero="invincible", cubes=["black", "yellow", "orange"])
    inv = s.hero("invincible")
    assert not inv.crashed and inv.bag["black"] == 2
    assert sorted(inv.ready) == ["blue", "orange", "orange", "orange", "yellow"]


def test_bubble_blocks_villain_damage_once_not_minions(table):
    """Bubble Up: 'It stays with them until it actually blocks damage ... The bubble only blocks
    damage from villains; it does nothing against minions, crash damage, or damage from a hero's
    own powers. Once it blocks damage, returning it is not optional.'"""
    t = table(episode=2)
    t.to_hero_phase()
    with pytest.raises(IllegalAction, match="only from a power"):
        t.act("bubble", hero="atom-eve", target="atom-eve")
    t.fill("atom-eve", "signature", target="atom-eve")
    assert t.state.bubble == "atom-eve"
    t.state.zone("left").minions = 1
    t.put_villain("thug-a", "left")
    t.state.hero("invincible").zone = "center"
    t.state.phase = "villain"
    if "event-1a" in t.state.decks["event"]:
        t.state.decks["event"].remove("event-1a")
    t.state.decks["event"].insert(0, "event-1a")     # minions damage 1, all villains strike
    s = t.act("reveal")
    assert s.hero("atom-eve").damage == 1            # the minion's damage, not the strike
    assert s.bubble is None


def test_clean_slate_clears_a_filled_power(hero_phase):
    """Clean Slate: 'Removing cubes from an already-filled power forfeits any confidence it
    granted ... Black cubes returned to your bag this way no longer count toward your crash
    limit'."""
    t = hero_phase()
    t.state.zone("center").danger = 0
    t.act("pull", hero="invincible", cubes=["black", "black", "orange"])
    t.act("play", hero="invincible", cube="black", power="rescue")
    t.act("play", hero="invincible", cube="orange", power="rescue")   # nobody to rescue
    t.give("invincible", "flex1", "clean-slate")
    s = t.fill("invincible", "flex1", slot="rescue")
    inv = s.hero("invincible")
    assert not inv.powers["rescue"].filled and inv.bag["black"] == 5 and inv.bag["orange"] == 3
    from companion.games.invincible.moves_pull import black_count
    assert black_count(inv) == 1


def test_a_crash_rescue_needs_a_rescue_power(hero_phase):
    """'To save a crashed teammate, use a Rescue power while standing in their zone'; typed
    without one it is refused: 'Filling a power means using its text'."""
    t = hero_phase()
    t.state.hero("atom-eve").zone = "center"
    _crash(t, "invincible")
    with pytest.raises(IllegalAction, match="only from a power"):
        t.act("rescue", hero="atom-eve", crashed="invincible", face="rescue-center")


def test_typed_effects_are_refused_in_the_hero_phase(hero_phase):
    """'Filling a power means using its text, dealing whatever damage it shows': damage, moves,
    rescues, thwarts, heals and cubes come from a power, with the card's amount; 'resolved'
    cannot skip a power's effect."""
    t = hero_phase()
    t.put_villain("thug-a", "center")
    for kind, data in (("damage", {"target": "thug-a", "amount": 5}), ("move", {"to": "left"}),
                       ("rescue", {"zone": "center"}), ("thwart", {"villain": "thug-a"}),
                       ("heal", {"amount": 1}), ("gain_cube", {"colour": "blue"}),
                       ("strengthen", {"power": "attack"}), ("confidence", {"amount": 1})):
        with pytest.raises(IllegalAction, match="only from a power"):
            t.act(kind, hero="invincible", **data)
    t.fill("invincible", "attack")
    with pytest.raises(IllegalAction, match="effects have been applied"):
        t.act("resolved", hero="invincible")
    with pytest.raises(IllegalAction, match="may not be skipped"):
        t.act("decline", hero="invincible")
    s = t.act("effect", hero="invincible", target="thug-a", amount=5)   # amount: the card's
    assert s.zone("center").villains[0].damage == 2


def test_a_crashed_heros_pull_stays_in_the_ready_area_until_the_phase_ends(hero_phase):
    """'When you crash, leave the three cubes you just pulled in your ready area'; 'If they
    succeed, you get to use the cubes from the pull that crashed you': a crashed hero has stopped
    (no done that would drop them), and a rescue later still finds them."""
    t = hero_phase()
    _crash(t, "invincible")
    for kind, data in (("done", {}), ("drop", {"cube": "yellow"})):    # nor dropped one by one
        with pytest.raises(IllegalAction, match="leave the three cubes"):
            t.act(kind, hero="invincible", **data)
        assert kind not in {h["hero"]: h["actions"] for h in t.engine.expect(t.state)["heroes"]}[
            "invincible"]
    t.state.hero("atom-eve").zone = "center"
    t.state.zone("center").danger = 0
    s = t.fill("atom-eve", "rescue", crashed="invincible", face="rescue-center")
    assert s.hero("invincible").rescued and s.hero("invincible").ready == ["black", "yellow", "yellow"]
    s = t.act("play", hero="invincible", cube="yellow", power="attack")
    assert s.hero("invincible").ready == ["black", "yellow"]


def test_heroic_assembly_adds_a_helper_the_team_does_not_hold(table):
    """Heroic Assembly: 'Choose any helper card your team doesn't already hold (and hasn't
    already used this game) and add it to your available helpers; you don't have to use it right
    away.'"""
    t = table(episode=2, helpers=["helper-2"])
    t.to_hero_phase()
    t.act("use_helper", helper="helper-2")
    t.give("invincible", "flex1", "heroic-assembly")
    s = t.fill("invincible", "flex1")
    options = t.engine.to_json(s)["resolving"]["steps"][0]["options"]
    assert {"helper": "helper-2"} not in options and {"helper": "helper-3"} in options
    with pytest.raises(IllegalAction):
        t.act("effect", hero="invincible", helper="helper-2")
    s = t.act("effect", hero="invincible", helper="helper-3")
    assert s.helpers == ["helper-3"] and s.resolving is None
    assert "use_helper" in t.engine.expect(s)["actions"]
