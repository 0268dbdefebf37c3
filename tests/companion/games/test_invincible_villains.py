"""Advancing the episode, placing villains and minions, the Villain Phase, endangering, enemy
damage, KOs and the end of the game. Each test quotes the rulebook sentence it checks."""

import pytest

from companion.errors import IllegalAction
from companion.games.invincible import board
from invincible_helpers import engine, table  # noqa: F401 (fixtures)


def test_episode_1_second_villain_flaxan_first_wave_endangers_a_civilian(table):
    """Worked example: 'in the Episode 1 example, the second villain revealed is Flaxan First
    Wave, whose arrive power endangers a civilian — moving one civilian from safety to danger in
    its zone'."""
    t = table()
    s = t.act("advance")                      # round 1: the Level I villain and minions
    first = [v.id for z in s.zones for v in z.villains if v]
    assert first == ["bi-plane"]
    t.everyone_done()
    t.act("done", hero="invincible")
    t.act("done", hero="atom-eve")
    t.act("reveal")                           # the packaged order, untouched
    before = t.state.zone("center").safety
    s = t.act("advance")                      # round 2: the Level II villain
    ffw = [(z.name, v.id) for z in s.zones for v in z.villains if v and v.level == 2]
    assert ffw == [("center", "flaxan-first-wave")]
    assert s.zone("center").safety == before - 1
    assert "Flaxan First Wave arrives: 1 endangered in the center zone (1 to danger)." in s.log


def test_one_civilian_in_safety_endangered_two_kills_one(table):
    """Worked example: 'if a zone has one civilian left in safety and a villain's power endangers
    two, first move that one civilian into danger, then kill one civilian already in danger.'"""
    t = table()
    z = t.state.zone("right")
    z.safety, z.danger = 1, 9
    t.put_villain("thug-b", "right")          # the only villain; its power endangers two
    s = _villain_phase(t, "event-1b")         # the leftmost villain uses its power
    z = s.zone("right")
    assert (z.safety, z.danger, z.dead) == (0, 9, 1)
    assert "Getaway Driver (assumed)'s power: 2 endangered in the right zone (1 to danger, 1 killed)." in s.log


def test_endanger_kills_from_danger_when_safety_is_empty(engine, table):
    """'If there aren't enough civilians in safety to cover the full amount, kill the difference
    from the danger area instead'."""
    t = table()
    z = t.state.zone("left")
    z.safety, z.danger = 1, 9
    board.endanger(t.state, "left", 2, "test")
    z = t.state.zone("left")
    assert (z.safety, z.danger, z.dead) == (0, 9, 1)


def _villain_phase(t, event):
    t.state.phase = "villain"
    t.state.decks["event"].remove(event) if event in t.state.decks["event"] else None
    t.state.decks["event"].insert(0, event)
    return t.act("reveal")


def test_placement_leftmost_open_slot(table):
    """'Place the new villain in the leftmost open card slot of that zone.'"""
    t = table()
    t.put_villain("magmaniac", "left", slot=1)
    t.state.track[0] = ["villain 1"]
    s = t.act("advance")                       # Bi-Plane's zone is left
    assert s.zone("left").villains[0].id == "bi-plane"


def test_full_side_zone_places_toward_the_center(table):
    """'villains that would start in the two side zones default toward the center zone if
    possible'."""
    t = table()
    t.put_villain("thug-a", "left")
    t.put_villain("magmaniac", "left")
    t.state.track[0] = ["villain 1"]
    s = t.act("advance")
    assert [v.id for v in s.zone("center").villains if v] == ["bi-plane"]


def test_full_center_zone_lets_the_players_pick(table):
    """'villains that would start in the center zone let the players pick which adjacent zone
    to use'."""
    t = table()
    t.put_villain("thug-a", "center")
    t.put_villain("thug-b", "center")
    t.state.decks["villain1"].remove("magmaniac")
    t.state.decks["villain1"].insert(0, "magmaniac")   # a center villain
    t.state.track[0] = ["villain 1"]
    s = t.act("advance")
    assert s.pending["kind"] == "zone" and s.pending["options"] == ["left", "right"]
    with pytest.raises(IllegalAction):
        t.act("pull", hero="invincible")
    with pytest.raises(IllegalAction):
        t.act("choose", zone="center")
    s = t.act("choose", zone="right")
    assert s.zone("right").villains[0].id == "magmaniac"
    assert s.phase == "hero"


def test_no_room_discards_the_villain_with_least_remaining_health(table):
    """'If there's no room anywhere, discard the villain with the least remaining health to make
    space for the new arrival.'"""
    t = table()
    for zone, ids in (("left", ["thug-a", "master-gator"]), ("center", ["magmaniac", "multi-paul"]),
                      ("right", ["thug-b", "flaxan-tank"])):
        for vid in ids:
            t.put_villain(vid, zone, damage=0)
    t.state.zone("center").villains[1].damage = 3   # Multi-Paul 4 health -> 1 left
    t.state.track[0] = ["villain 1"]
    s = t.act("advance")
    assert "multi-paul" in s.discards["villain1"]
    assert s.zone("center").villains[1].id == "bi-plane"


def test_no_room_tie_is_chosen_by_the_players(table):
    """'If a tie ever comes up ... the players choose among the tied options.'"""
    t = table()
    for zone, ids in (("left", ["thug-a", "master-gator"]), ("center", ["magmaniac", "multi-paul"]),
                      ("right", ["thug-b", "flaxan-tank"])):
        for vid in ids:
            t.put_villain(vid, zone)
    for _, _, v in board.villains_in_play(t.state):
        v.damage = v.health - 2
    t.state.track[0] = ["villain 1"]
    s = t.act("advance")
    assert s.pending["kind"] == "discard" and len(s.pending["options"]) == 6
    s = t.act("choose", villain="thug-b")
    assert s.zone("right").villains[0].id == "bi-plane"


def test_reshuffle_a_level_discard_pile_when_the_deck_runs_out(table):
    """'If you ever run out of a given villain level entirely, reshuffle that level's discard
    pile into a new deck.'"""
    t = table()
    t.state.discards["villain1"] = list(t.state.decks["villain1"])
    t.state.decks["villain1"] = []
    t.state.track[0] = ["villain 1"]
    s = t.act("advance")
    assert sum(1 for z in s.zones for v in z.villains if v) == 1
    assert s.discards["villain1"] == [] and len(s.decks["villain1"]) == 5


def test_damage_arrive_power_without_a_hero_endangers(engine, table):
    """'If a villain's damage-dealing arrive power triggers but there's no hero standing in its
    zone, it endangers that many civilians instead.'"""
    t = table(episode=3)
    t.state.decks["villain3"].remove("villain-3a")
    t.state.decks["villain3"].insert(0, "villain-3a")    # arrive: 2 damage, center zone
    for h in t.state.heroes:
        h.zone = "left"
    t.state.track[0] = ["villain 3"]
    s = t.act("advance")
    z = s.zone("center")
    assert (z.safety, z.danger) == (1, 9)


def test_minions_cap_three_per_zone(table):
    """'Each zone can hold at most three minions at a time; ignore any minions that would exceed
    that cap.'"""
    t = table()
    t.state.zone("left").minions = 2
    t.state.track[0] = ["minions all 2"]
    s = t.act("advance")
    assert [z.minions for z in s.zones] == [3, 2, 2]


def test_hardcore_icons_only_on_hardcore(table):
    """'Some track icons are printed beneath a special hardcore symbol. Ignore these unless
    you're playing on hardcore difficulty'."""
    for difficulty, expected in (("normal", 0), ("hardcore", 1)):
        t = table(difficulty=difficulty)
        t.state.track[0] = ["hardcore minions all 1"]
        s = t.act("advance")
        assert [z.minions for z in s.zones] == [expected] * 3


def test_fully_thwarted_villain_skips_only_its_first_ability(table):
    """'if the event calls for both a villain's power and its strike, a fully thwarted villain
    has its power icon skipped (tokens removed) but still carries out its strike.'"""
    t = table()
    v = t.put_villain("thug-b", "right")       # power: endanger 2, strike: 1 damage
    v.thwart = v.thwart_spaces
    for h in t.state.heroes:
        h.zone = "right"
    s = _villain_phase(t, "event-1c")          # rightmost: power, strike
    assert s.zone("right").villains[0].thwart == 0
    assert s.zone("right").safety == 3          # the power was skipped
    assert [h.damage for h in s.heroes] == [1, 1]   # the strike hit every hero there


def test_partial_thwart_tokens_carry_over(table):
    """'If a villain wasn't fully thwarted, any tokens already on it simply remain'."""
    t = table()
    v = t.put_villain("flaxan-tank", "center")
    v.thwart = 1
    s = _villain_phase(t, "event-1b")
    assert s.zone("center").villains[0].thwart == 1
    assert s.zone("center").safety == 0        # endangered three


def test_villains_act_one_at_a_time_from_the_left(table):
    """'resolve them one villain at a time, starting with the leftmost villain named, working
    through all of its abilities in the order shown'."""
    t = table()
    t.put_villain("thug-a", "left")
    t.put_villain("thug-b", "right")
    s = _villain_phase(t, "event-2a")          # all: power, strike
    uses = [line for line in s.log if " uses its " in line]
    assert uses == ["Street Thug (assumed) uses its power.", "Street Thug (assumed) uses its strike.",
                    "Getaway Driver (assumed) uses its power.", "Getaway Driver (assumed) uses its strike."]


def test_enemy_damage_hits_every_hero_in_the_zone(table):
    """'Whenever an enemy deals damage, it hits every hero standing in its zone. If no hero is
    present, it endangers that many civilians instead.'"""
    t = table(heroes=("invincible", "atom-eve", "robot"))
    t.put_villain("magmaniac", "center")        # strike 2
    t.state.hero("atom-eve").zone = "center"
    t.state.hero("invincible").zone = "center"
    t.state.hero("robot").zone = "left"
    s = _villain_phase(t, "event-2c")           # all villains strike
    assert [h.damage for h in s.heroes] == [2, 2, 0]


def test_ko_at_ten_damage_moves_to_hq_and_clears_damage(table):
    """'A hero is KOed once they've accumulated 10 damage tokens. Move them to Guardians HQ,
    remove all their damage tokens, and place a KO marker'."""
    t = table()
    t.put_villain("magmaniac", "center")
    eve = t.state.hero("atom-eve")
    eve.zone, eve.damage = "center", 8
    t.state.hero("invincible").zone = "left"
    s = _villain_phase(t, "event-2c")
    eve = s.hero("atom-eve")
    assert (eve.zone, eve.damage, s.kos) == ("hq", 0, 1)


def test_third_ko_loses(table):
    """'You lose immediately if ... Your heroes are collectively KOed a third time.'"""
    t = table()
    t.state.kos = 2
    t.put_villain("magmaniac", "center")
    t.state.hero("invincible").damage = 9
    s = _villain_phase(t, "event-2c")
    assert s.result["status"] == "lost" and "third" in s.result["reason"]
    assert s.phase == "over"
    with pytest.raises(IllegalAction):
        t.act("advance")


def test_fifteen_dead_loses(engine, table):
    """'You lose immediately if ... Fifteen civilians have died in total.'"""
    t = table()
    for z, dead in zip(t.state.zones, (5, 5, 4)):
        z.safety, z.danger, z.dead = 0, 10 - dead, dead
    t.state.zone("left").safety = 0
    t.put_villain("thug-a", "left")
    s = _villain_phase(t, "event-1b")             # leftmost power: endanger 1 -> one dies
    assert s.result["status"] == "lost" and "15 civilians" in s.result["reason"]


def test_every_civilian_of_a_zone_dead_loses(table):
    """'You lose immediately if ... Every civilian in any single zone has died.'"""
    t = table()
    z = t.state.zone("right")
    z.safety, z.danger, z.dead = 0, 2, 8
    t.put_villain("thug-b", "right")
    s = _villain_phase(t, "event-1b")             # leftmost = thug-b: endanger 2
    assert s.result["status"] == "lost" and "right zone" in s.result["reason"]


def test_running_out_of_track_loses(table):
    """'You lose immediately if ... You run out of time on the episode card's track.'"""
    t = table()
    t.state.space = len(t.state.track) - 1
    s = _villain_phase(t, "event-1b")
    assert s.result == {"status": "lost", "reason": "the heroes ran out of time on the episode track",
                        "rule": "Winning and Losing"}


def test_episode_1_won_when_all_three_flaxans_are_defeated(table):
    """'In Episode 1, for example, you win once all three Flaxan villains (the entire Level II
    Villain deck) have been defeated.'"""
    t = table()
    t.to_hero_phase()
    s = t.state
    s.defeated = ["flaxan-first-wave", "flaxan-tank"]
    t.put_villain("flaxan-scout", "center", damage=4)
    t.state.hero("invincible").zone = "center"
    t.act("pull", hero="invincible", cubes=["yellow", "yellow", "blue"])
    t.act("play", hero="invincible", cube="yellow", power="attack")
    t.act("play", hero="invincible", cube="yellow", power="attack")
    s = t.act("effect", hero="invincible", target="flaxan-scout")
    assert s.result["status"] == "won"
    assert t.engine.outcome(s)["status"] == "won"


def test_bi_plane_blocked_endangers_four(table):
    """Bi-Plane: 'If this villain can't move (either because it's already in the rightmost zone,
    or the next zone already holds two villains), it instead endangers four civilians in its
    current zone.'"""
    t = table()
    t.put_villain("bi-plane", "right")
    s = _villain_phase(t, "event-1b")
    z = s.zone("right")
    assert (z.safety, z.danger, z.dead) == (0, 9, 1)
    t = table()
    t.put_villain("bi-plane", "left")
    s = _villain_phase(t, "event-1b")
    assert s.zone("center").villains[0].id == "bi-plane"


def test_flaxan_tank_endangers_two_in_the_leftmost_zone(table):
    """Flaxan Tank: 'If this villain is in the leftmost zone, its ability only endangers two
    civilians there instead of the usual amount.'"""
    t = table()
    t.put_villain("flaxan-tank", "left")
    s = _villain_phase(t, "event-1b")
    assert (s.zone("left").safety, s.zone("left").danger) == (1, 9)


def test_magmaniac_damages_villains_and_minions_or_endangers_three(table):
    """Magmaniac: 'This villain's power damages other villains and minions in its zone as well
    as any heroes there. If no hero is present, it only endangers three civilians rather than
    six.'"""
    t = table()
    t.put_villain("magmaniac", "left")
    other = t.put_villain("thug-a", "left")
    t.state.zone("left").minions = 2
    for h in t.state.heroes:
        h.zone = "right"
    s = _villain_phase(t, "event-1b")             # leftmost: magmaniac's power
    z = s.zone("left")
    assert z.minions == 0 and "thug-a" in s.defeated
    assert (z.safety, z.danger) == (0, 10)         # three endangered, not six


def test_magmaniac_does_not_damage_multi_paul_while_a_minion_shares_its_zone(table):
    """Multi-Paul: 'This villain can't be damaged while any minion shares its zone, even by an
    Explosive power that would otherwise wipe out the minions too.' Magmaniac: 'This villain's
    power damages other villains and minions in its zone' (all at once: the minions it wipes out
    still shield Multi-Paul from it)."""
    t = table()
    t.put_villain("magmaniac", "left")
    t.put_villain("multi-paul", "left")
    t.state.zone("left").minions = 1
    s = _villain_phase(t, "event-1b")             # leftmost: magmaniac's power
    z = s.zone("left")
    assert z.minions == 0 and "multi-paul" not in s.defeated
    assert [(v.id, v.damage) for v in z.villains if v] == [("magmaniac", 0), ("multi-paul", 0)]
    assert any("Multi-Paul can't be damaged now" in line for line in s.log)


def test_master_gator_moves_to_most_danger(table):
    """Master Gator: 'If this villain can't move into the zone with the most civilians in danger
    (because two villains are already there), or is already in that zone, it resolves the rest
    of its power where it stands.'"""
    t = table()
    t.put_villain("master-gator", "right")
    t.state.zone("left").danger, t.state.zone("left").safety = 9, 1
    s = _villain_phase(t, "event-1b")
    assert s.zone("left").villains[0].id == "master-gator"
    assert (s.zone("left").safety, s.zone("left").dead) == (0, 1)
    t = table()
    t.put_villain("master-gator", "right")
    t.put_villain("thug-a", "left")
    t.put_villain("bi-plane", "left")
    t.state.zone("left").danger, t.state.zone("left").safety = 9, 1
    t.state.zone("right").safety = 3
    s = _villain_phase(t, "event-3e")              # rightmost = master-gator: power
    assert s.zone("right").villains[0].id == "master-gator"
    assert s.zone("right").safety == 1


def test_multi_paul_cannot_be_damaged_while_a_minion_shares_its_zone(table):
    """Multi-Paul: 'This villain can't be damaged while any minion shares its zone, even by an
    Explosive power that would otherwise wipe out the minions too.'"""
    t = table(heroes=("rex-splode", "invincible"))
    t.to_hero_phase()
    t.state.hero("rex-splode").zone = t.state.hero("invincible").zone = "center"
    t.put_villain("multi-paul", "center")
    t.state.zone("center").minions = 1
    s = t.fill("invincible", "attack")
    options = t.engine.to_json(s)["resolving"]["steps"][0]["options"]
    assert options == [{"target": "minion", "zone": "center"}]     # not Multi-Paul
    with pytest.raises(IllegalAction, match="minion"):
        t.act("effect", hero="invincible", target="multi-paul")
    t.act("effect", hero="invincible", target="minion")
    t.state.zone("center").minions = 1
    s = t.fill("rex-splode", "starter", zone="center")            # Big 'Splode: Explosive
    assert s.zone("center").minions == 0 and s.zone("center").villains[0].damage == 0


def test_minion_area_ignored_without_minions_and_minions_deal_damage(table):
    """'The card's minion area tells every minion in play to take an action'; minions are
    enemies, so their damage 'hits every hero standing in its zone'."""
    t = table()
    t.state.zone("center").minions = 2
    t.state.zone("right").minions = 1
    s = _villain_phase(t, "event-1a")             # minions: 1 damage each; villains strike
    assert s.hero("invincible").damage == 2       # two minions in the center zone
    assert s.hero("atom-eve").damage == 0         # no minion in the left zone
    assert (s.zone("right").safety, s.zone("right").danger) == (2, 8)   # no hero: endangers
    t = table()
    s = _villain_phase(t, "event-1a")             # no minions in play: the area is ignored
    assert not any("minion" in line for line in s.log)
    assert all(z.safety == 3 for z in s.zones)


def test_cecils_contingency_cancels_up_to_two_abilities_after_the_reveal(table):
    """Cecil's Contingency: 'After an event card is revealed, you may spend this to cancel up to
    two villain powers and/or strikes for that Villain Phase — they can belong to the same
    villain or two different ones, and you don't need a hero present in the villain's zone.'"""
    t = table(helpers=["cecils-contingency"])
    with pytest.raises(IllegalAction, match="after an event card"):
        t.act("use_helper", helper="cecils-contingency")
    t.put_villain("thug-a", "left")
    t.put_villain("thug-b", "right")
    for h in t.state.heroes:
        h.zone = "center"
    s = _villain_phase(t, "event-2a")           # all villains: power, strike
    assert s.pending["kind"] == "contingency"
    assert s.pending["options"] == ["thug-a:power", "thug-a:strike", "thug-b:power", "thug-b:strike"]
    with pytest.raises(IllegalAction, match="up to 2"):
        t.act("use_helper", helper="cecils-contingency",
              cancel=["thug-a:power", "thug-a:strike", "thug-b:power"])
    s = t.act("use_helper", helper="cecils-contingency", cancel=["thug-a:power", "thug-b:power"])
    assert s.pending is None and s.phase == "advance"
    assert (s.zone("left").safety, s.zone("right").safety) == (2, 2)   # only the strikes acted
    assert s.helpers == [] and s.helpers_used == ["cecils-contingency"]
    s = _villain_phase(t, "event-2a")           # spent: no more questions
    assert s.pending is None


def test_cecils_contingency_offers_only_abilities_that_would_occur(table):
    """Cecil's Contingency: 'You can only cancel abilities that would occur in that specific
    Villain Phase.' A hurled villain 'skips both its strike and its power'; a fully thwarted one
    removes its tokens 'instead of resolving the first thing it attempts to do'. Both were
    offered, so the card could be spent on nothing."""
    t = table(helpers=["cecils-contingency"])
    t.put_villain("thug-a", "left")
    t.put_villain("thug-b", "right")
    v = t.put_villain("flaxan-scout", "center")
    v.thwart = v.thwart_spaces                     # fully thwarted: its power will not happen
    t.state.hurled = ["thug-a"]                    # Hurl Into Space this round
    for h in t.state.heroes:
        h.zone = "center"
    s = _villain_phase(t, "event-2a")              # all villains: power, strike
    assert s.pending["options"] == ["flaxan-scout:strike", "thug-b:power", "thug-b:strike"]
    with pytest.raises(IllegalAction, match="cancel up to 2 of flaxan-scout:strike, thug-b:power"):
        t.act("use_helper", helper="cecils-contingency", cancel=["thug-a:power"])


def test_an_owners_event_of_two_rows_resolves_one_villain_at_a_time(tmp_path):
    """'resolve them one villain at a time, starting with the leftmost villain named, working
    through all of its abilities in the order shown before moving to the next.' An owner's event
    card of two rows (the shipped placeholders have one) ran row by row: the rightmost villain's
    power before the leftmost one's strike."""
    import shutil

    from companion.games import Catalog
    from companion.games.invincible.data import HERE
    from invincible_helpers import Table

    for name in ("invincible.toml", "invincible_powers.toml", "invincible_episodes.toml"):
        shutil.copy(HERE / name, tmp_path / name)
    path = tmp_path / "invincible_episodes.toml"
    one_row = 'villains = [{ which = "leftmost", use = ["power"] }]'
    text = path.read_text()
    at = text.index('id = "event-1b"')
    assert text.index(one_row, at) < text.index("[[events]]", at)
    two_rows = ('villains = [{ which = "rightmost", use = ["power"] }, '
                '{ which = "all", use = ["strike"] }]')
    path.write_text(text[:at] + text[at:].replace(one_row, two_rows, 1))
    t = Table(Catalog(tmp_path)("invincible"), {"heroes": ["invincible", "atom-eve"]})
    t.put_villain("thug-a", "left")
    t.put_villain("thug-b", "right")
    s = _villain_phase(t, "event-1b")
    assert [line for line in s.log if " uses its " in line] == [
        "Street Thug (assumed) uses its strike.", "Getaway Driver (assumed) uses its power.",
        "Getaway Driver (assumed) uses its strike."]


def test_cecils_contingency_may_be_kept(table):
    t = table(helpers=["cecils-contingency"])
    t.put_villain("thug-a", "left")
    _villain_phase(t, "event-1b")
    s = t.act("resolved")
    assert s.helpers == ["cecils-contingency"] and s.zone("left").safety == 2


def test_random_zone_by_the_rescue_die(table, engine):
    """'Whenever you need a random zone, roll the rescue die; each face's background color
    corresponds to one of the three zones.'"""
    t = table(episode=3)
    t.state.track[0] = ["ability chaos"]          # endanger 2 in a random zone
    s = t.act("advance")
    assert s.pending["kind"] == "random_zone"
    assert engine.expect(s)["dice"][0]["die"] == "rescue"
    with pytest.raises(IllegalAction):
        t.act("choose", zone="left")
    s = t.act("roll", face="failure-right")
    assert s.zone("right").safety == 1 and s.zone("left").safety == 3
    assert s.phase == "hero"


def test_thwarted_episode_ability_is_skipped_once(table):
    """'Once every space on a villain or ability is covered, it's fully thwarted — the next time
    it would act, remove the tokens instead of resolving it'; a zone-tagged ability is thwarted
    from that zone."""
    t = table(episode=3)
    t.to_hero_phase()
    t.state.hero("atom-eve").zone = "left"
    t.state.hero("invincible").zone = "center"
    s = t.fill("atom-eve", "thwart")
    assert s.resolving is None         # 'chaos' is thwarted from the center zone, not the left
    assert "chaos" not in s.ability_thwart
    t.fill("invincible", "thwart", ability="chaos")
    t.state.ability_thwart["chaos"] = t.state.ability_thwart["chaos"] + 1
    t.everyone_done()
    t.act("done", hero="invincible")
    t.act("done", hero="atom-eve")
    t.state.track[1] = ["ability chaos"]
    t.state.phase = "advance"
    t.state.round = 2
    s = t.act("advance")
    assert s.pending is None and s.ability_thwart["chaos"] == 0
    assert all(z.safety == 3 for z in s.zones)


def test_an_ability_the_companion_cannot_apply_waits_for_the_players(tmp_path):
    """Card text the data does not structure ({ manual = "..." }) stops the Villain Phase: the
    players apply it with the generic effects, then send resolved, and the event goes on."""
    import shutil

    from companion.games import Catalog
    from companion.games.invincible.data import HERE
    for name in ("invincible.toml", "invincible_powers.toml", "invincible_episodes.toml"):
        shutil.copy(HERE / name, tmp_path / name)
    path = tmp_path / "invincible_episodes.toml"
    text = path.read_text()
    path.write_text(text.replace('power = [{ endanger = 1 }]\nstrike = [{ damage = 1 }]\ntext = "Placeholder Level I villain."',
                                 'power = [{ manual = "Steal a cube from every hero." }]\nstrike = [{ damage = 1 }]\ntext = "Placeholder Level I villain."', 1))
    engine = Catalog(tmp_path)("invincible")
    from invincible_helpers import Table
    t = Table(engine, {"heroes": ["invincible", "atom-eve"]})
    t.put_villain("thug-a", "left")
    t.state.hero("atom-eve").zone = "center"
    s = _villain_phase(t, "event-2a")            # all: power, strike
    assert s.pending["kind"] == "manual" and "Steal a cube" in s.pending["prompt"]
    assert set(engine.expect(s)["actions"]) >= {"resolved", "endanger", "hurt"}
    with pytest.raises(IllegalAction):
        t.act("advance")
    t.act("hurt", hero="invincible", amount=1)
    s = t.act("resolved")
    assert s.pending is None and s.phase == "advance"
    assert s.zone("left").safety == 2             # the strike still came, with no hero there
    assert s.hero("invincible").damage == 1


def test_a_revealed_event_card_follows_the_difficultys_deck_build(table):
    """'Start with a face-down stack of all the Level III events, then deal a number of Level II
    events on top based on difficulty, then a number of Level I events on top of that' (Normal:
    2 Level I, 2 Level II): a physical card of another level than the deck's top is refused."""
    t = table(episode=2, difficulty="normal")
    levels = [t.engine.data.events[c].level for c in t.state.decks["event"]]
    assert levels[:4] == [1, 1, 2, 2] and set(levels[4:]) == {3}
    t.state.phase = "villain"
    deck = t.state.decks["event"]
    for later in (deck[2], deck[4]):                        # a Level II, a Level III card
        with pytest.raises(IllegalAction, match="still has 2 Level 1 event"):
            t.act("reveal", card=later)
    first = deck[1]                                         # the other Level I card
    s = t.act("reveal", card=first)
    assert s.discards["event"] == [first]


def test_episode_1_events_are_revealed_in_their_packaged_order(table):
    """Episode 1: 'Set the Super Power, Level I Villain, Level II Villain, and Event decks near
    the zone boards exactly as packaged — do not shuffle them'."""
    t = table()
    t.state.phase = "villain"
    top, other = t.state.decks["event"][:2]
    with pytest.raises(IllegalAction, match="packaged order"):
        t.act("reveal", card=other)
    assert t.act("reveal", card=top).discards["event"] == [top]


def test_hurl_into_space_skips_strike_and_power_and_cannot_be_damaged(table):
    """Hurl Into Space: 'The targeted villain skips both its strike and its power in the Villain
    Phase, and can't be damaged, but keeps any damage and thwart tokens already on it, and still
    occupies its space in its zone'."""
    t = table(episode=2)
    t.to_hero_phase()
    v = t.put_villain("thug-b", "center", damage=1)     # power: endanger 2, strike: 1 damage
    v.thwart = 1
    t.state.hero("invincible").zone = "center"
    t.give("invincible", "flex1", "hurl-into-space")
    s = t.fill("invincible", "flex1", villain="thug-b")
    assert s.hurled == ["thug-b"] and s.resolving is None
    s = t.fill("invincible", "attack")                 # nothing it can damage in range
    assert s.resolving is None and s.zone("center").villains[0].damage == 1
    t.everyone_done()
    for h in ("invincible", "atom-eve"):
        t.act("done", hero=h)
    if "event-1a" in t.state.decks["event"]:
        t.state.decks["event"].remove("event-1a")
    t.state.decks["event"].insert(0, "event-1a")     # minions damage 1, all villains strike
    before = t.state.hero("invincible").damage
    s = t.act("reveal")
    thug = s.zone("center").villains[0]
    assert (thug.id, thug.damage, thug.thwart) == ("thug-b", 1, 1)
    assert s.hero("invincible").damage == before + s.zone("center").minions   # no strike
    assert s.hurled == []                            # only for that Villain Phase


def test_immortality_is_set_aside_and_protects_from_kos_on_later_rounds(table):
    """Immortality: 'Using this removes it from your hero board and sets it aside; from then on
    it protects you from being KOed even on a later round. Any cubes on it return to your bag at
    end of round.'"""
    t = table(episode=2)
    t.to_hero_phase()
    t.give("invincible", "flex1", "immortality")
    s = t.fill("invincible", "flex1")
    inv = s.hero("invincible")
    assert inv.immortal and "flex1" not in inv.powers and s.resolving is None
    assert sorted(inv.dropped) == ["orange", "orange", "orange"]
    assert "immortality#t" not in s.discards["super"]
    from companion.games.invincible import board
    t.state.round += 1
    board.hurt_hero(t.state, "invincible", 12, "a later round's strike")
    assert t.state.kos == 0 and t.state.hero("invincible").zone != "hq"


def test_the_last_roll_says_what_the_companions_rescue_die_roll_did(table, engine):
    """'Whenever you need a random zone, roll the rescue die ...': rolled by the companion, the
    Last roll panel said "Rolled by the companion: " and the last line of all that followed the
    roll (the next phase's), never which zone the die picked. It says the roll's own line now."""
    import random

    from companion import fold
    from companion.actions import Action

    t = table(episode=3)
    t.state.track[0] = ["ability chaos"]          # endanger 2 in a random zone
    s = t.act("advance")
    assert s.pending["kind"] == "random_zone"
    after = fold.step(engine, fold.Table(s), Action("roll", source="dashboard", at=1.0),
                      random.Random(5), 0.6)
    said = after.last_roll["said"]
    assert after.last_roll["virtual"] and said.startswith("The rescue die picks the "), said
    assert said in after.game.log and after.game.log[-1] != said       # more followed it


def test_the_villain_phase_report_holds_every_line_of_the_phase_for_the_table(table, engine):
    """'Reveal the top card of the event deck and resolve its instructions from top to bottom':
    the players mirror every instruction on the real board, but the table screen named only the
    event card and the phones' last lines lost the event's first lines in a long phase. The
    state now keeps what the latest Villain Phase said, from its event on, until the next one."""
    t = table()
    s = t.act("advance")                              # round 1: Bi-Plane and minions arrive
    t.everyone_done()
    t.act("done", hero="invincible")
    t.act("done", hero="atom-eve")
    assert t.state.phase == "villain" and t.state.villain_report == [t.state.log[-1]]
    assert t.state.log[-1].startswith("Reset: cubes return to the bags")
    s = t.act("reveal")
    assert s.phase == "advance"
    start = max(i for i, line in enumerate(s.log) if line.startswith("Reset: "))
    phase = s.log[start:-1]
    assert phase[1].startswith("Event: ")
    assert s.log[-1] == "The Villain Phase ends: advance the episode."
    report = engine.to_json(s)["villain_report"]
    assert report == phase and len(report) >= 2, (report, s.log)
    s = t.act("advance")                              # the report stays until the next phase
    assert engine.to_json(s)["villain_report"] == phase
    t.everyone_done()
    t.act("done", hero="invincible")
    t.act("done", hero="atom-eve")
    s = t.act("reveal")
    again = engine.to_json(s)["villain_report"]
    start = max(i for i, line in enumerate(s.log) if line.startswith("Reset: "))
    assert again == s.log[start:-1] and again[1] != phase[1]          # this phase's event


def test_the_log_counts_minions_in_the_tables_words(engine):
    """The log said "1 minion(s) finds no hero" and "3 minion(s) placed": one minion, three
    minions (found by a verification audit). Over random games, no line says "(s)"."""
    from xmen_helpers import random_states      # any engine's seeded random games

    said = set()
    for state, _action, _rng in random_states(engine, games=12):
        said.update(state.log)
    minion_lines = [line for line in said if "minion" in line]
    assert any(line.startswith("1 minion ") for line in minion_lines), minion_lines[:5]
    assert not [line for line in said if "(s)" in line]
    # "3 minions finds no hero": a count of minions is plural, a villain's name is not
    assert not [line for line in said if "finds no hero" in line]
    assert any(line.startswith("No hero faces ") for line in said)
