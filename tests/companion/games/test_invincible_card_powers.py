"""Cards that add things to the table (Card Clarifications), applied by the engine from their data:
Technical Genius and the Experimental Technology cards, Robot's drone, Telekimeanness's Knock,
Convenient Creation's three effects, Autosave's later crash rescue, From the Lab, Wildcard
Energy, New and Improved, Relentless Barrage, Heroic Assembly in Campaign Mode, Such Heroic
Nonsense. Each test quotes the sentence it checks; amounts not printed are the data's."""

import random

import pytest

from companion.errors import IllegalAction
from companion.games.invincible import board, campaign
from invincible_helpers import engine, hero_phase, table  # noqa: F401 (fixtures)

EXPERIMENTAL = ["experimental-blaster", "experimental-jetbike", "experimental-optics"]


def _villain(s, villain_id):
    return next(v for _, _, v in board.villains_in_play(s) if v.id == villain_id)


def _options(t, step=0):
    return t.engine.to_json(t.state)["resolving"]["steps"][step]["options"]


# -- Technical Genius and the Experimental Technology cards ------------------------------------

def test_technical_genius_cards_are_set_aside_at_game_start(table):
    """Technical Genius: 'At game start, Robot sets the Experimental Blaster, Experimental Jetbike,
    and Experimental Optics cards aside near his hero board.' (His signature power is in play from
    Episode 2.)"""
    assert sorted(table(heroes=("robot", "atom-eve"), episode=2).state.experimental) == EXPERIMENTAL
    assert table(heroes=("robot", "atom-eve"), episode=1).state.experimental == []
    assert table(heroes=("invincible", "atom-eve"), episode=2).state.experimental == []


def test_technical_genius_gives_a_card_to_any_hero_and_it_is_used_as_printed(hero_phase):
    """'When he uses Technical Genius, he chooses one of the three and gives it to any hero
    (including himself); that hero needs an open slot for it'; 'When a hero fills an
    Experimental power, they return it to the side of Robot's hero board during the Training
    Phase'."""
    t = hero_phase(heroes=("robot", "atom-eve"), episode=2)
    t.state.hero("atom-eve").zone = "center"
    t.put_villain("magmaniac", "center")
    t.fill("robot", "signature")
    options = _options(t)
    # Eve has open yellow and flex slots: only those take the Blaster (no power is discarded)
    assert {o["into"] for o in options if o["card"] == "experimental-blaster"
            and o["target"] == "atom-eve"} == {"yellow", "flex1", "flex2"}
    assert any(o["target"] == "robot" for o in options)                  # himself too
    with pytest.raises(IllegalAction):
        t.act("effect", hero="robot", card="experimental-blaster", target="atom-eve", into="blue")
    s = t.act("effect", hero="robot", card="experimental-blaster", target="atom-eve",
              into="yellow")
    assert s.hero("atom-eve").powers["yellow"].power == "experimental-blaster"
    assert sorted(s.experimental) == EXPERIMENTAL[1:] and s.resolving is None
    s = t.fill("atom-eve", "yellow", target="magmaniac")                # Blaster: damage 2
    assert s.zone("center").villains[0].damage == 2
    t.everyone_done()
    s = t.state
    assert s.phase == "training" and "yellow" not in s.hero("atom-eve").powers
    assert sorted(s.experimental) == EXPERIMENTAL and s.hero("atom-eve").dropped == ["yellow"]
    assert engine_invariants(t) == []


def engine_invariants(t):
    return t.engine.invariants(t.state)


def test_experimental_card_replaces_a_power_only_when_no_slot_is_open(hero_phase):
    """'that hero needs an open slot for it, discarding an existing power if necessary (any cubes
    already on that power are dropped)'."""
    t = hero_phase(heroes=("robot", "atom-eve"), episode=2)
    for slot in ("yellow", "flex1", "flex2"):
        t.give("atom-eve", slot, "flurry-of-blows")
    eve = t.state.hero("atom-eve")
    eve.powers["flex1"] = eve.powers["flex1"].with_cubes(["yellow", None])
    t.fill("robot", "signature")
    assert {o["into"] for o in _options(t) if o["card"] == "experimental-blaster"
            and o["target"] == "atom-eve"} == {"yellow", "flex1", "flex2"}
    s = t.act("effect", hero="robot", card="experimental-blaster", target="atom-eve",
              into="flex1")
    eve = s.hero("atom-eve")
    assert eve.powers["flex1"].power == "experimental-blaster" and eve.dropped == ["yellow"]
    assert "flurry-of-blows#t" in s.discards["super"]


def test_an_unused_experimental_card_is_held_or_returned_to_free_a_slot(hero_phase):
    """'if they never use it, they may hold onto it for a future Hero Phase instead, or return it
    unused to free up a slot.'"""
    t = hero_phase(heroes=("robot", "atom-eve"), episode=2)
    t.fill("robot", "signature", card="experimental-jetbike", target="atom-eve", into="flex1")
    t.everyone_done()
    s = t.state
    assert s.phase == "training" and s.hero("atom-eve").powers["flex1"].power == \
        "experimental-jetbike"                                          # held
    s = t.act("discard_power", hero="atom-eve", slot="flex1")           # returned unused
    assert "flex1" not in s.hero("atom-eve").powers and "experimental-jetbike" in s.experimental
    assert s.discards["super"] == [] and t.engine.invariants(s) == []


def test_only_filling_experimental_optics_grants_its_bonus_power(hero_phase):
    """'Only filling Experimental Optics grants its bonus power.' (Its bonus, 1 confidence, and
    its thwart 1 are the data's assumptions.)"""
    t = hero_phase(heroes=("robot", "atom-eve"), episode=2)
    t.put_villain("magmaniac", "center")
    t.fill("robot", "signature", card="experimental-optics", target="robot", into="purple")
    s = t.fill("robot", "purple")
    assert [st["kind"] for st in s.resolving["steps"]] == ["thwart", "confidence"]
    t.act("effect", hero="robot", step=0, villain="magmaniac")
    s = t.act("effect", hero="robot", step=0)
    assert s.hero("robot").bonus_confidence == 1
    assert s.zone("center").villains[0].thwart == 1


# -- Robot's drone --------------------------------------------------------------------------------

def test_drone_is_placed_by_coordinated_assault_and_boosts_one_hit(hero_phase):
    """Coordinated Assault: 'Robot starts the game with the drone token on this power. It stays
    there whenever it isn't placed on an enemy. The drone only comes off when a hero uses it to
    boost their damage, or Robot moves it elsewhere by using the power again — the enemy that gets
    damaged doesn't need to be the same one holding the drone, or even in the same zone, since
    this power has Ranged.' (The boost, +1, is the data's assumption.)"""
    t = hero_phase(heroes=("robot", "invincible"))
    t.put_villain("magmaniac", "center")
    t.put_villain("bi-plane", "left")
    assert t.state.drone is None
    t.fill("robot", "starter")
    s = t.act("effect", hero="robot", step=0, target="magmaniac")        # damage here ...
    s = t.act("effect", hero="robot", step=0, target="bi-plane")           # ... drone next door
    assert s.drone == "bi-plane" and s.zone("center").villains[0].damage == 1
    t.state.hero("invincible").zone = "left"
    t.fill("invincible", "attack")
    assert {"target": "bi-plane", "drone": True} in _options(t)
    s = t.act("effect", hero="invincible", target="bi-plane", drone=True)
    assert _villain(s, "bi-plane").damage == 3 and s.drone is None       # 2 + 1, drone back
    t.give("invincible", "flex1", "flurry-of-blows")
    s = t.fill("invincible", "flex1")
    assert all("drone" not in o for o in _options(t))                    # it is on the power


def test_drone_stays_unless_the_hit_uses_it(hero_phase):
    """'The drone only comes off when a hero uses it to boost their damage'."""
    t = hero_phase(heroes=("robot", "invincible"))
    t.put_villain("magmaniac", "center")
    t.fill("robot", "starter")
    t.act("decline", hero="robot", step=0)
    t.act("effect", hero="robot", target="magmaniac")
    s = t.fill("invincible", "attack", target="magmaniac")
    assert s.drone == "magmaniac" and s.zone("center").villains[0].damage == 2


# -- Telekimeanness -------------------------------------------------------------------------------

def test_telekimeanness_knock_hits_a_minion_and_another_enemy(hero_phase):
    """Telekimeanness: '"Knock" carries no special meaning beyond its name — you simply choose a
    minion and another enemy in your zone and deal 1 damage to each.'; 'If you choose the "move
    an enemy" option' (one option or the other)."""
    t = hero_phase()
    t.put_villain("magmaniac", "center")
    t.state.zone("center").minions = 2
    t.give("invincible", "flex1", "telekimeanness")
    s = t.fill("invincible", "flex1")
    assert [st["kind"] for st in s.resolving["steps"]] == ["move_enemy", "knock"]
    assert _options(t, 1) == [{"target": "magmaniac"}, {"target": "minion"}]
    s = t.act("effect", hero="invincible", step=1, target="magmaniac")
    assert s.zone("center").minions == 1 and s.zone("center").villains[0].damage == 1
    assert s.resolving is None                      # the move option is gone with it


def test_telekimeanness_knock_needs_a_minion_and_moves_an_enemy_otherwise(hero_phase):
    """'If you choose the "move an enemy" option, move an enemy from your zone into an adjacent
    one.'"""
    t = hero_phase()
    t.put_villain("magmaniac", "center")
    t.give("invincible", "flex1", "telekimeanness")
    t.fill("invincible", "flex1")
    assert _options(t, 1) == []                     # no minion: no Knock
    s = t.act("effect", hero="invincible", step=0, target="magmaniac", to="left")
    assert s.zone("left").villains[0].id == "magmaniac" and s.resolving is None


# -- Convenient Creation -------------------------------------------------------------------------

@pytest.mark.parametrize("safe,kind", [(1, "rescue"), (3, "heal"), (4, "gain_cube")])
def test_convenient_creation_gives_one_effect_by_civilians_safe_as_it_fills(hero_phase, safe, kind):
    """Convenient Creation: 'Check how many civilians are safe in your zone at the moment you fill
    this power; you only get one of its three listed effects, not a combination'. (Four or more is
    printed; the other ranges and the three effects are the data's assumptions.)"""
    t = hero_phase()
    z = t.state.zone("left")
    z.safety, z.danger = safe, 10 - safe
    t.state.hero("atom-eve").damage = 3
    s = t.fill("atom-eve", "starter")
    steps = s.resolving["steps"]
    assert [st["kind"] for st in steps] == [kind] and steps[0]["skip"] is False


def test_convenient_creation_does_not_recount_after_its_rescue(hero_phase):
    """'you can't rescue a civilian first and then claim the bonus for having four or more safe
    afterward'."""
    t = hero_phase()
    z = t.state.zone("left")
    z.safety, z.danger = 3, 7
    t.state.hero("atom-eve").damage = 3
    s = t.fill("atom-eve", "starter", target="atom-eve")               # 3 safe: heal 2
    assert s.hero("atom-eve").damage == 1 and s.resolving is None
    assert s.zone("left").safety == 3


# -- Autosave -------------------------------------------------------------------------------------

def _crash(t, hero):
    h = t.state.hero(hero)
    h.dropped, h.bag["black"] = ["black"] * 4, 2
    return t.act("pull", hero=hero, cubes=["black", "yellow", "yellow"])


def test_autosave_lets_its_hero_attempt_a_rescue_at_the_next_crash_in_their_zone(hero_phase):
    """Autosave: 'After you use it, the next time a hero in your zone crashes (no matter where
    they were when you filled Autosave), you may attempt a rescue on them, on top of the card's
    normal Rescue 2 effect. You still roll the rescue die as usual, and you still can't pull
    further cubes this round.'"""
    t = hero_phase()
    t.give("atom-eve", "flex1", "autosave")
    t.state.hero("atom-eve").zone = "right"              # filled elsewhere
    t.fill("atom-eve", "flex1")
    s = t.act("effect", hero="atom-eve", step=2)          # the Autosave step (no one in danger?)
    assert s.autosave == ["atom-eve"]
    while s.resolving is not None:
        s = t.act("decline", hero="atom-eve")
    t.state.hero("atom-eve").zone = "center"             # now in Invincible's zone
    s = _crash(t, "invincible")
    assert s.hero("invincible").crashed and s.autosave == []
    assert s.resolving["hero"] == "atom-eve" and s.resolving["steps"][0]["kind"] == "autosave_rescue"
    assert _options(t) == [{"crashed": "invincible"}]
    s = t.act("effect", hero="atom-eve", crashed="invincible", face="rescue-center")
    assert s.hero("invincible").rescued and not s.hero("atom-eve").can_pull
    assert not s.hero("invincible").can_pull and s.resolving is None


def test_after_an_autosave_rescue_defiance_pulls_no_fresh_cubes_either(hero_phase):
    """Autosave: 'you still can't pull further cubes this round'; a crash rescue: 'Regardless of
    the result, neither you nor the crashed hero can pull any more cubes this round'. Defiance is
    to 'pull three fresh cubes': with a pull still unplayed in her ready area, Eve was offered it
    (and got six ready cubes)."""
    t = hero_phase()
    t.state.autosave = ["atom-eve"]
    t.state.hero("atom-eve").zone = "center"
    t.state.hero("atom-eve").bag = {"yellow": 3, "blue": 3, "orange": 3, "purple": 3, "black": 6}
    t.act("pull", hero="atom-eve", cubes=["yellow", "orange", "purple"])
    _crash(t, "invincible")
    s = t.act("effect", hero="atom-eve", crashed="invincible", face="rescue-center")
    mine = next(r for r in t.engine.expect(s)["heroes"] if r["hero"] == "atom-eve")
    assert "defiance" not in mine["actions"] and {"play", "drop"} <= set(mine["actions"])
    # the next step names what is left to her: no pull again, no defiance reminder
    assert "Atom Eve play or drop the ready cubes, then done" in t.engine.expect(s)["prompt"]
    assert not any("Atom Eve may flip defiance" in r["text"] for r in t.engine.reminders(s))
    with pytest.raises(IllegalAction, match="took part in a crash rescue"):
        t.act("defiance", hero="atom-eve", cubes=["blue", "blue", "orange"])


def test_autosave_waits_for_a_crash_in_its_heros_zone_and_may_be_declined(hero_phase):
    """'the next time a hero in your zone crashes ... you may attempt a rescue on them'."""
    t = hero_phase(heroes=("invincible", "atom-eve", "robot"))
    t.state.autosave = ["atom-eve"]
    t.state.hero("atom-eve").zone = "left"
    s = _crash(t, "invincible")                           # in the center: not Eve's zone
    assert s.resolving is None and s.autosave == ["atom-eve"]
    t.state.hero("robot").zone = "left"
    s = _crash(t, "robot")
    assert s.resolving["steps"][0]["skip"] and s.autosave == []
    s = t.act("decline", hero="atom-eve")
    assert s.resolving is None and s.hero("robot").crashed and not s.hero("robot").rescued


# -- From the Lab, Wildcard Energy, New and Improved, Relentless Barrage --------------------------

def test_from_the_lab_discards_a_power_from_the_hand_to_use_its_effect(hero_phase):
    """From the Lab: 'Powers discarded to use this effect don't grant their confidence, and they
    don't count toward Combo or any effect that cares how many powers of a Type you've used.'"""
    t = hero_phase(episode=2)
    t.put_villain("magmaniac", "center")
    inv = t.state.hero("invincible")
    inv.hand = ["power-conduit#1", "clean-slate#1"]
    t.give("invincible", "flex1", "from-the-lab")
    t.fill("invincible", "flex1")
    assert {"card": "power-conduit#1"} in _options(t)
    hurt = t.state.hero("invincible").damage
    s = t.act("effect", hero="invincible", card="power-conduit#1")
    assert s.hero("invincible").hand == ["clean-slate#1"]
    assert s.discards["super"] == ["power-conduit#1"]
    # Power Conduit's own damage is its cost, applied as its effects join (card_rules: no skip)
    assert s.hero("invincible").damage == hurt + 2
    steps = s.resolving["steps"]
    assert [(st["kind"], st["amount"], st["via"]) for st in steps] == [
        ("damage", 3, "from-the-lab")]
    s = t.act("effect", hero="invincible", step=0, target="magmaniac")
    assert s.zone("center").villains[0].damage == 3
    assert "flex1" in s.hero("invincible").powers            # From the Lab itself stays


def test_immortality_through_from_the_lab_is_set_aside(hero_phase):
    """Immortality: 'If it's discarded through From the Lab or Unlikely Ally, set it aside instead
    of putting it in the discard pile.'"""
    t = hero_phase(episode=2)
    t.state.hero("invincible").hand = ["immortality#1"]
    t.give("invincible", "flex1", "from-the-lab")
    s = t.fill("invincible", "flex1", card="immortality#1")
    assert s.discards["ultimate"] == [] and s.hero("invincible").hand == []
    assert s.hero("invincible").immortal and s.resolving is None


def test_wildcard_energy_discards_for_a_cube_both_colours_of_a_two_colour_ultimate(hero_phase):
    """Wildcard Energy: 'If you discard a two-color Ultimate Power to gain a cube through this
    effect, you get both colors.'"""
    t = hero_phase(episode=2)
    inv = t.state.hero("invincible")
    inv.hand = ["power-surge#1", "clean-slate#1"]     # yellow/orange Ultimate; purple Super
    bag = dict(inv.bag)
    t.give("invincible", "flex1", "wildcard-energy")
    t.fill("invincible", "flex1")
    assert _options(t) == [{"card": "power-surge#1"}, {"card": "clean-slate#1", "colour": "purple"}]
    s = t.act("effect", hero="invincible", card="power-surge#1")
    inv = s.hero("invincible")
    assert inv.bag["yellow"] == bag["yellow"] + 1 and inv.bag["orange"] == bag["orange"] + 1
    assert s.discards["ultimate"] == ["power-surge#1"] and inv.hand == ["clean-slate#1"]


def test_new_and_improved_discards_a_learned_power_and_learns_one_from_the_hand(hero_phase):
    """New and Improved: 'If the discarded power had any cubes on it, move those cubes to your
    dropped area. You may discard a Super Power to learn an Ultimate Power, or vice versa, as long
    as every Ultimate Power you hold is paired with a matching Super Power by the time you're
    done — and you may even discard New and Improved itself this way.'"""
    t = hero_phase(episode=2)
    inv = t.state.hero("invincible")
    inv.hand = ["resilient-spirit#1", "power-surge#1"]
    t.give("invincible", "orange", "miracle-grow")
    t.give("invincible", "under:orange", "immortality")
    inv.powers["orange"] = inv.powers["orange"].with_cubes(["orange", None])
    t.give("invincible", "flex1", "new-and-improved")
    t.fill("invincible", "flex1")
    options = _options(t)
    # Miracle Grow may go only for a Super that keeps Immortality paired (Resilient Spirit)
    assert {"slot": "orange", "card": "resilient-spirit#1", "into": "orange"} in options
    assert not any(o["slot"] == "orange" and o["card"] == "power-surge#1" for o in options)
    assert {"slot": "flex1", "card": "power-surge#1", "into": "under:flex1"} not in options
    assert {"slot": "flex1", "card": "resilient-spirit#1", "into": "flex1"} in options   # itself
    s = t.act("effect", hero="invincible", slot="orange", card="resilient-spirit#1", into="orange")
    inv = s.hero("invincible")
    assert inv.powers["orange"].power == "resilient-spirit" and inv.dropped == ["orange"]
    assert inv.hand == ["power-surge#1"] and s.discards["super"] == ["miracle-grow#t"]
    assert inv.confidence_spent == 0


def test_immortality_set_aside_when_used_keeps_the_confidence_it_gave(hero_phase):
    """Immortality: 'Using this removes it from your hero board and sets it aside'; 'Filling a
    power means using its text, dealing whatever damage it shows, and gaining whatever confidence
    it shows' and 'Add up the confidence values on every power you filled this round'."""
    from companion.games.invincible.moves_training import confidence
    t = hero_phase(episode=2)
    t.give("invincible", "flex1", "immortality")
    given = t.engine.data.powers["immortality"].confidence
    assert given > 0
    before = confidence(t.state.data, t.state.hero("invincible"))
    s = t.fill("invincible", "flex1")
    inv = s.hero("invincible")
    assert inv.immortal and "flex1" not in inv.powers
    assert confidence(s.data, inv) == before + given


def test_relentless_barrage_reuses_a_filled_power_without_its_confidence(hero_phase):
    """Relentless Barrage: 'Powers reused through this effect don't grant their confidence again,
    nor do they count as an additional use for effects like Flurry of Blows, Power Surge, or
    Launch the Robots.'"""
    t = hero_phase(episode=2)
    t.put_villain("magmaniac", "center")
    t.fill("invincible", "attack", target="magmaniac")
    t.give("invincible", "flex1", "relentless-barrage")
    t.fill("invincible", "flex1")
    assert _options(t) == [{"slot": "attack"}]            # not itself, nor unfilled powers
    s = t.act("effect", hero="invincible", slot="attack")
    assert [(st["kind"], st["amount"], st["via"]) for st in s.resolving["steps"]] == [
        ("damage", 2, "relentless-barrage")]
    s = t.act("effect", hero="invincible", target="magmaniac")
    assert s.zone("center").villains[0].damage == 4
    assert s.hero("invincible").bonus_confidence == 0


def test_immortality_has_no_effect_if_copied_by_relentless_barrage(hero_phase):
    """Immortality: 'It has no effect if copied by Relentless Barrage.' Using it sets it aside, so
    it is never a filled power Relentless Barrage could copy; a filled Immortality still on the
    board (as an owner's data might leave it) is copied without its effect."""
    t = hero_phase(episode=2)
    t.give("invincible", "flex1", "immortality")
    t.fill("invincible", "flex1")
    t.give("invincible", "flex2", "relentless-barrage")
    t.fill("invincible", "flex2")
    assert t.state.resolving is None                       # nothing filled to copy
    t2 = hero_phase(episode=2)
    t2.give("invincible", "flex1", "immortality")
    inv = t2.state.hero("invincible")
    inv.powers["flex1"] = inv.powers["flex1"].with_cubes(["orange"] * 3)
    t2.give("invincible", "flex2", "relentless-barrage")
    s = t2.fill("invincible", "flex2", slot="flex1")
    assert not s.hero("invincible").immortal and s.resolving is None
    assert any("no effect if copied by Relentless Barrage" in line for line in s.log)


# -- Heroic Assembly in Campaign Mode ------------------------------------------------------------

def test_heroic_assembly_helper_unused_carries_forward_in_the_campaign(engine, table):
    """Heroic Assembly: 'In Campaign Mode, unused helpers gained this way carry forward to a future
    episode.'"""
    t = table(campaign={"id": "us", "history": []})
    t.to_hero_phase()
    t.give("invincible", "flex1", "heroic-assembly")
    t.fill("invincible", "flex1", helper="helper-3")
    t.give("atom-eve", "flex1", "heroic-assembly")
    t.fill("atom-eve", "flex1", helper="helper-2")
    t.act("use_helper", helper="helper-2")                  # used: not carried
    s = t.state
    s.result = {"status": "lost", "reason": "test"}
    record = campaign.record(s, None)
    assert record["helpers_assembled"] == ["helper-3"]
    p = campaign.progress(engine.data, [record])
    assert "helper-3" in p["helpers"] and "helper-2" not in p["helpers"]
    won = {**record, "won": True, "score": 10, "attempt": 1}
    assert "helper-3" in campaign.progress(engine.data, [won])["helpers"]
    nxt = engine.setup({"heroes": ["invincible", "atom-eve"],
                        "campaign": {"id": "us", "history": [record]}}, random.Random(0))
    assert "helper-3" in nxt.helpers


# -- Such Heroic Nonsense -----------------------------------------------------------------------

@pytest.mark.parametrize("villains,acts", [
    (["magmaniac"], ["magmaniac"]),
    (["thug-a", "magmaniac", "thug-b"], ["thug-a", "thug-b"]),
])
def test_such_heroic_nonsense_uses_one_villains_power_once(table, villains, acts):
    """Such Heroic Nonsense: 'If only one villain is in play, it only uses its "leftmost and
    rightmost villain" power once rather than twice.'"""
    t = table(episode=2)
    assert t.engine.data.events["event-2b"].name == "Such Heroic Nonsense"
    t.state.decks["event"] = ["event-2b"] + [e for e in t.state.decks["event"] if e != "event-2b"]
    zones = {"thug-a": "left", "magmaniac": "center", "thug-b": "right"}
    for v in villains:
        t.put_villain(v, zones[v])
    t.state.phase = "villain"
    s = t.act("reveal")
    assert s.acted == acts                                # each named villain's power, once
    assert sum("uses its power" in line for line in s.log) == len(acts)


def test_a_card_answer_the_card_does_not_allow_is_refused_and_changes_nothing(hero_phase):
    """Bad answers are refused with the choices the card leaves; a lost Experimental card is an
    invariant's finding."""
    t = hero_phase(episode=2)
    t.state.hero("invincible").hand = ["clean-slate#1"]
    t.give("invincible", "flex1", "from-the-lab")
    before = t.fill("invincible", "flex1")
    with pytest.raises(IllegalAction, match="open to: card clean-slate#1"):
        t.act("effect", hero="invincible", card="whirlwind-mode#1")
    assert t.state is before and before.hero("invincible").hand == ["clean-slate#1"]
    r = hero_phase(heroes=("robot", "atom-eve"), episode=2)
    r.state.experimental = r.state.experimental[1:]
    assert r.engine.invariants(r.state) == [
        "the Experimental Technology cards were lost or duplicated"]


def test_the_drone_returns_to_its_power_when_its_enemy_leaves_play(hero_phase):
    """'It stays there whenever it isn't placed on an enemy': a defeated enemy holds nothing, so
    the drone is back on Coordinated Assault (and a villain coming back later does not hold it)."""
    t = hero_phase(heroes=("robot", "invincible"))
    t.put_villain("thug-a", "center")
    t.fill("robot", "starter")
    t.act("effect", hero="robot", step=0, target="thug-a")      # 1 damage
    s = t.act("effect", hero="robot", target="thug-a")
    assert s.drone == "thug-a"
    s = t.fill("invincible", "attack", target="thug-a")        # 2 more: thug-a is defeated
    assert "thug-a" in s.defeated and s.drone is None


def test_a_card_used_through_from_the_lab_keeps_its_printed_order(hero_phase):
    """Whirlwind Mode: 'You must resolve this power's damage after its move, not before' — also
    when From the Lab uses it."""
    t = hero_phase(episode=2)
    t.put_villain("magmaniac", "left")
    t.put_villain("thug-a", "center")
    t.state.hero("invincible").hand = ["whirlwind-mode#1"]
    t.give("invincible", "flex1", "from-the-lab")
    t.fill("invincible", "flex1", card="whirlwind-mode#1")
    with pytest.raises(IllegalAction, match="printed order"):
        t.act("effect", hero="invincible", step=1, target="thug-a")
    t.act("effect", hero="invincible", step=0, to="left")
    s = t.act("effect", hero="invincible", target="magmaniac")
    assert _villain(s, "magmaniac").damage == 2 and s.resolving is None
