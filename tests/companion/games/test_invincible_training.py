"""The Training Phase and the reset. Each test quotes the rulebook sentence it checks."""

import re

import pytest

from companion.actions import Action
from companion.errors import BadAction, IllegalAction, SetupError
from companion.games.invincible.state import Played
from companion.games.invincible.moves_training import learnable
from invincible_helpers import engine, table  # noqa: F401 (fixtures)


def to_training(t):
    """``t`` played to the Training Phase, Invincible having filled Rescue and Thwart (1 + 1
    confidence) and Atom Eve nothing."""
    t.to_hero_phase()
    inv = t.state.hero("invincible")
    inv.bag["orange"], inv.bag["purple"] = 1, 1
    inv.powers["rescue"].cubes = ["orange", "orange"]
    inv.powers["thwart"].cubes = ["purple", "purple"]
    inv.powers["rescue"].filled = inv.powers["thwart"].filled = True
    t.everyone_done()
    assert t.state.phase == "training"
    return t


@pytest.fixture
def training(table):
    """A table in the Training Phase (to_training)."""
    return lambda **options: to_training(table(**options))


def test_confidence_is_the_sum_of_filled_powers(training, engine):
    """'Add up the confidence values on every power you filled this round — that total is what
    you can spend learning new powers this Training Phase.'"""
    t = training()
    assert engine.expect(t.state)["confidence"] == {"invincible": 2, "atom-eve": 0}


def test_learn_within_confidence_into_a_colour_matched_or_flex_slot(training):
    """'When you learn a Super Power, slot it into the color-matched space beneath your hero
    board'; 'two "flex slots" that can hold a power of any color'. Costs refused as the players
    asked (option unconfirmed = "refuse": the deck's costs are assumed)."""
    t = training(unconfirmed="refuse")
    h = t.state.hero("invincible")
    h.hand = ["flurry-of-blows#1", "turn-the-tide#1", "whirlwind-mode#1", "clean-slate#1"]
    with pytest.raises(IllegalAction, match="costs 3"):
        t.act("learn", hero="invincible", card="turn-the-tide#1", slot="orange")
    with pytest.raises(IllegalAction, match="yellow slot holds a yellow power"):
        t.act("learn", hero="invincible", card="clean-slate#1", slot="yellow")
    s = t.act("learn", hero="invincible", card="flurry-of-blows#1", slot="yellow")
    assert s.hero("invincible").powers["yellow"].power == "flurry-of-blows"
    with pytest.raises(IllegalAction, match="costs 2"):
        t.act("learn", hero="invincible", card="whirlwind-mode#1", slot="flex1")
    with pytest.raises(IllegalAction, match="not in"):
        t.act("learn", hero="atom-eve", card="whirlwind-mode#1", slot="flex1")


def test_a_cost_only_assumed_numbers_forbid_is_learned_with_a_reminder(training, tmp_path):
    """'you may learn as many powers as you can afford' — but the Super Power deck's costs and
    every confidence value are assumed ("every cost, symbol, confidence and copy count, are
    assumed"): by default a power the assumed numbers say is too dear is learned, and the table
    reminded the cost was not checked; with unconfirmed = "refuse", or once the owner confirms the
    deck on the Your box page, it is refused with the rule."""
    from companion.games.invincible.state import R_LEARN

    t = training()
    t.state.hero("invincible").hand = ["turn-the-tide#1", "flurry-of-blows#1"]
    # what the table is offered stays what the numbers allow: Flurry of Blows (2), not the Tide
    assert [c for c, _ in learnable(t.state, t.state.hero("invincible"))] == ["flurry-of-blows#1"] * 3
    s = t.act("learn", hero="invincible", card="turn-the-tide#1", slot="orange")
    assert s.hero("invincible").powers["orange"].power == "turn-the-tide"
    assert s.log[-2].startswith("Reminder: Turn the Tide costs 3 confidence and Invincible had 2 "
                                "left by the companion's count; both numbers are assumed")
    assert {"text": "Invincible has learned 1 confidence past the companion's count: those costs "
                    "are assumed, not printed, and were not checked.",
            "rule": R_LEARN} in t.engine.reminders(s)

    strict = training(unconfirmed="refuse")
    strict.state.hero("invincible").hand = ["turn-the-tide#1"]
    with pytest.raises(IllegalAction, match="Turn the Tide costs 3 confidence; Invincible has 2 left"):
        strict.act("learn", hero="invincible", card="turn-the-tide#1", slot="orange")

    confirmed = to_training(confirmed_table(tmp_path, "deck"))  # the owner confirms the deck
    assert not confirmed.engine.data.powers["turn-the-tide"].assumed
    confirmed.state.hero("invincible").hand = ["turn-the-tide#1"]
    with pytest.raises(IllegalAction, match="Turn the Tide costs 3 confidence"):
        confirmed.act("learn", hero="invincible", card="turn-the-tide#1", slot="orange")


def confirmed_table(tmp_path, *items, **options):
    """A table whose owner confirmed ``items`` (box paths) on the Your box page."""
    from companion import box_items
    from companion.games import Catalog
    from invincible_helpers import Table

    catalog = Catalog(tmp_path / "components")
    engine = catalog("invincible")
    for item in items:
        engine.boxed.store.save(box_items.edit(engine, item, None))
        catalog.reload("invincible")
        engine = catalog("invincible")
    return Table(engine, engine.boxed.record({"heroes": ["invincible", "atom-eve"], **options}))


def test_a_slot_only_an_assumed_colour_forbids_is_filled_with_a_reminder(training, tmp_path):
    """'When you learn a Super Power, slot it into the color-matched space beneath your hero
    board' — but the deck's colours are assumed, not printed: by default Clean Slate (assumed
    purple) is learned into the yellow slot, and the table reminded the colour was not checked,
    in the log and the Training Phase's reminders; swapping it back is let through the same way
    ('as long as the color restrictions on your first four slots are respected'); with
    unconfirmed = "refuse", or once the owner confirms the deck, it is refused with the rule."""
    from companion.games.invincible.state import R_LEARN

    t = training()
    t.state.hero("invincible").hand = ["clean-slate#1"]
    # what the table is offered stays what the colours allow: no yellow slot for Clean Slate
    assert ("clean-slate#1", "yellow") not in learnable(t.state, t.state.hero("invincible"))
    s = t.act("learn", hero="invincible", card="clean-slate#1", slot="yellow")
    assert s.hero("invincible").powers["yellow"].power == "clean-slate"
    why = ("Clean Slate is purple in the yellow slot: its colours are assumed, not printed, so "
           "the slot's colour was not checked (confirm the card on the Your box page)")
    assert s.log[-1] == f"Reminder: {why}."
    assert {"text": f"Invincible: {why}.", "rule": R_LEARN} in t.engine.reminders(s)
    s = t.act("arrange", hero="invincible", slots=["yellow", "blue"])
    assert s.hero("invincible").powers["blue"].power == "clean-slate"
    assert s.log[-1].startswith("Reminder: Clean Slate is purple in the blue slot")

    strict = training(unconfirmed="refuse")
    strict.state.hero("invincible").hand = ["clean-slate#1"]
    with pytest.raises(IllegalAction, match="the yellow slot holds a yellow power; Clean Slate"):
        strict.act("learn", hero="invincible", card="clean-slate#1", slot="yellow")

    confirmed = to_training(confirmed_table(tmp_path, "deck"))
    assert not confirmed.engine.data.powers["clean-slate"].assumed
    confirmed.state.hero("invincible").hand = ["clean-slate#1"]
    with pytest.raises(IllegalAction, match="the yellow slot holds a yellow power"):
        confirmed.act("learn", hero="invincible", card="clean-slate#1", slot="yellow")


def test_an_ultimate_only_assumed_colours_keep_apart_is_learned_with_a_reminder(table, tmp_path):
    """'When you learn an Ultimate Power, it must be placed beneath a Super Power that shares at
    least one cube color with it' — both decks' colours are assumed: by default Immortality
    (assumed orange) goes beneath Flurry of Blows (assumed yellow), with a reminder in the log
    and the Training Phase's reminders; with unconfirmed = "refuse", or once the owner confirms
    the deck (Super and Ultimate Powers are one section), it is refused."""
    from companion.games.invincible.state import R_LEARN

    def ultimate_table(t):
        t.to_hero_phase()
        inv = t.state.hero("invincible")
        inv.powers["yellow"] = Played("flurry-of-blows#1", "flurry-of-blows", [None, None])
        inv.bonus_confidence = 9
        inv.hand = ["immortality#1"]
        t.everyone_done()
        return t

    t = ultimate_table(table(episode=2))
    s = t.act("learn", hero="invincible", card="immortality#1", slot="yellow")
    assert s.hero("invincible").powers["under:yellow"].power == "immortality"
    why = ("Immortality shares no cube colour with Flurry of Blows above it: their colours are "
           "assumed, not printed, so this was not checked (confirm the cards on the Your box "
           "page)")
    assert s.log[-1] == f"Reminder: {why}."
    assert {"text": f"Invincible: {why}.", "rule": R_LEARN} in t.engine.reminders(s)

    for strict in (table(episode=2, unconfirmed="refuse"),
                   confirmed_table(tmp_path, "deck", episode=2)):   # the owner confirmed the deck
        with pytest.raises(IllegalAction, match="share a cube colour"):
            ultimate_table(strict).act("learn", hero="invincible", card="immortality#1",
                                       slot="yellow")


def test_learn_by_punching_once_in_play(training):
    """'instead of learning a power from your hand, you may discard a card from your hand to take
    a Learn By Punching card' / 'You may only take this if you don't already have a copy in
    play.'"""
    t = training()
    eve = t.state.hero("atom-eve")
    first, second = eve.hand[0], eve.hand[1]
    s = t.act("punch", hero="atom-eve", discard=first, slot="flex1")
    assert s.hero("atom-eve").powers["flex1"].power == "learn-by-punching"
    assert first in s.discards["super"] and s.punch_left == 1
    with pytest.raises(IllegalAction, match="already has Learn By Punching"):
        t.act("punch", hero="atom-eve", discard=second, slot="flex2")


def test_learn_by_punching_is_taken_instead_of_learning_a_power(training, engine):
    """'Learn By Punching is always available as a fallback: instead of learning a power from
    your hand, you may discard a card from your hand to take a Learn By Punching card' and, solo,
    'that hero may take Learn By Punching instead (discarding a card as usual), even if your other
    hero already learned a power this round': a hero does one or the other in a Training Phase
    (option learn_by_punching = "instead", which every new game records), not both ("also")."""
    def table(reading):
        t = training(**({"learn_by_punching": reading} if reading else {}))
        t.state.hero("invincible").hand = ["flurry-of-blows#1", "whirlwind-mode#1", "clean-slate#1"]
        t.state.hero("atom-eve").hand = ["autosave#1", "telekimeanness#1"]
        return t

    t = table("instead")
    t.act("learn", hero="invincible", card="flurry-of-blows#1", slot="yellow")
    from companion.games.invincible.moves_training import PUNCH_MOVE
    assert [h.id for h in PUNCH_MOVE.heroes(t.state)] == ["atom-eve"]    # what the sampler offers
    with pytest.raises(IllegalAction, match="learned a power this Training Phase"):
        t.act("punch", hero="invincible", discard="clean-slate#1", slot="flex1")
    s = t.act("punch", hero="atom-eve", discard="autosave#1", slot="flex1")    # the other hero may
    with pytest.raises(IllegalAction, match="took Learn By Punching this Training Phase"):
        t.act("learn", hero="atom-eve", card="telekimeanness#1", slot="flex2")
    assert s.hero("atom-eve").trained == "punch"

    for reading in ("also", None):          # None: a game begun before the reading was recorded
        t = table(reading)
        t.act("learn", hero="invincible", card="flurry-of-blows#1", slot="yellow")
        s = t.act("punch", hero="invincible", discard="clean-slate#1", slot="flex1")
        assert s.hero("invincible").powers["flex1"].power == "learn-by-punching"
    assert engine.prepare_options({"heroes": ["invincible"]}, [])["learn_by_punching"] == "instead"
    assert engine.prepare_options({"learn_by_punching": "also"}, [])["learn_by_punching"] == "also"
    with pytest.raises(SetupError, match="learn_by_punching"):
        training(learn_by_punching="sometimes")


def test_random_games_learning_or_punching_keep_to_what_expect_lists(engine):
    """The random player (engine.sample_action) under learn_by_punching = "instead": every move
    it takes is accepted, to the end of each game."""
    import random

    from companion.rng import rng_for
    trained = set()
    for seed in range(12):
        rng = random.Random(seed)
        state = engine.setup({**engine.sample_options(rng), "learn_by_punching": "instead"},
                             rng_for(seed, "setup"))
        step = 0
        while engine.outcome(state)["status"] == "playing" and step < 3000:
            state = engine.apply(state, engine.sample_action(state, rng), rng_for(seed, step))
            trained |= {h.trained for h in state.heroes}
            step += 1
    assert {"learn", "punch"} <= trained


def training_states(engine, seeds):
    """(seed, step, state) for every Training Phase state of one random game a seed."""
    import random

    from companion.rng import rng_for
    for seed in seeds:
        rng = random.Random(seed)
        state = engine.setup(engine.prepare_options(engine.sample_options(rng), []),
                             rng_for(seed, "setup"))
        step = 0
        while engine.outcome(state)["status"] == "playing" and step < 3000:
            if state.phase == "training":
                yield seed, step, state
            state = engine.apply(state, engine.sample_action(state, rng), rng_for(seed, step))
            step += 1


def test_every_training_choice_expect_lists_is_accepted(engine):
    """What the phones offer in the Training Phase (expect["training"]: the cards and slots to
    learn, Learn By Punching's discards and slots, the cubes, the learned powers to discard, the
    swaps) is accepted by apply, over the Training Phases of random games."""
    import collections

    from companion.rng import rng_for
    tried = collections.Counter()
    for seed, step, state in training_states(engine, range(8)):
        for hero, offered in engine.expect(state)["training"].items():
            moves = [("learn", o) for o in offered["learn"]] + [
                ("train_cube", {"discard": o["card"], "colour": o["colour"]})
                for o in offered["cube"]]
            if offered["punch"]:
                moves += [("punch", {"discard": c, "slot": x})
                          for c in offered["punch"]["discard"][:2]
                          for x in offered["punch"]["slots"]]
            moves += [("discard_power", {"slot": x}) for x in offered["discard"]]
            moves += [("arrange", {"slots": pair}) for pair in offered["arrange"]]
            for kind, data in moves:
                engine.apply(state, Action(kind, None, {"hero": hero, **data}),
                             rng_for(seed, step))
                tried[kind] += 1
    assert sum(tried.values()) > 100 and tried["discard_power"] and tried["arrange"], tried


def test_one_cube_per_training_phase_matching_the_discarded_power(training):
    """'Once per Training Phase, each hero may discard a power from their hand to take a cube
    matching that power's color from the shared supply' / 'If a cube color runs out in the
    supply, heroes simply can no longer gain that color.'"""
    t = training()
    h = t.state.hero("atom-eve")
    h.hand = ["flurry-of-blows#1", "resilient-spirit#1", "whirlwind-mode#1"]
    t.state.supply["orange"] = 0
    with pytest.raises(IllegalAction, match="no orange"):
        t.act("train_cube", hero="atom-eve", discard="resilient-spirit#1")
    with pytest.raises(IllegalAction, match="colour"):
        t.act("train_cube", hero="atom-eve", discard="flurry-of-blows#1", colour="blue")
    s = t.act("train_cube", hero="atom-eve", discard="flurry-of-blows#1")
    assert s.hero("atom-eve").bag["yellow"] == 4
    with pytest.raises(IllegalAction, match="once per phase"):
        t.act("train_cube", hero="atom-eve", discard="whirlwind-mode#1", colour="blue")
    assert s.log[-1].endswith("to gain a yellow cube.")
    t = training()
    t.state.hero("atom-eve").hand = ["resilient-spirit#1"]
    s = t.act("train_cube", hero="atom-eve", discard="resilient-spirit#1")
    assert s.log[-1].endswith("to gain an orange cube."), s.log[-1]     # it read "a orange cube"


def test_reset_returns_cubes_and_refills_five(training):
    """'Once you've finished learning powers and/or gaining a cube, return all your cubes to your
    bag and draw power cards until you have five in hand again.'"""
    t = training()
    eve = t.state.hero("atom-eve")
    t.act("punch", hero="atom-eve", discard=eve.hand[0], slot="flex1")
    t.act("done", hero="invincible")
    s = t.act("done", hero="atom-eve")
    assert s.phase == "villain"
    for h in s.heroes:
        assert len(h.hand) == 5
        assert sum(h.bag.values()) == 18 and not h.ready and not h.dropped
        assert not any(p.filled for p in h.powers.values())


def test_episode_1_has_no_ultimate_deck(training):
    """'Leave the Level III Villain deck and the Ultimate Power deck in the box; they aren't used
    in Episode 1.'"""
    t = training()
    with pytest.raises(IllegalAction, match="Ultimate"):
        t.act("done", hero="invincible", ultimates=1)


def test_at_most_one_ultimate_per_refill_and_unpaired_ultimates_discarded(table):
    """'you may draw at most one card from the Ultimate Power deck per refill' / 'if it ends the
    phase without a paired Super Power, discard it.'"""
    t = table(episode=2)
    t.to_hero_phase()
    inv = t.state.hero("invincible")
    inv.powers["under:yellow"] = Played("power-surge#1", "power-surge", [None, None, None])
    t.everyone_done()
    with pytest.raises(BadAction, match="0 to 1"):
        t.act("done", hero="invincible", ultimates=2)
    inv = t.state.hero("invincible")
    inv.hand = inv.hand[:2]
    t.act("done", hero="invincible", ultimates=1)
    s = t.act("done", hero="atom-eve")
    inv = s.hero("invincible")
    kinds = [t.engine.data.powers[c.split("#")[0]].kind for c in inv.hand[2:]]
    assert kinds.count("ultimate") == 1 and len(inv.hand) == 5
    assert "under:yellow" not in inv.powers and "power-surge#1" in s.discards["ultimate"]


def test_ultimate_learned_beneath_a_super_sharing_a_colour(table):
    """'When you learn an Ultimate Power, it must be placed beneath a Super Power that shares at
    least one cube color with it (you cannot pair one with your signature power).' Refused as
    the players asked (option unconfirmed = "refuse": the decks' colours are assumed)."""
    t = table(episode=2, unconfirmed="refuse")
    t.to_hero_phase()
    inv = t.state.hero("invincible")
    inv.powers["yellow"] = Played("flurry-of-blows#1", "flurry-of-blows", [None, None])
    inv.bonus_confidence = 9
    inv.hand = ["power-surge#1", "immortality#1"]
    t.everyone_done()
    with pytest.raises(IllegalAction, match="share a cube colour"):
        t.act("learn", hero="invincible", card="immortality#1", slot="yellow")
    with pytest.raises(IllegalAction, match="Super Powers"):
        t.act("learn", hero="invincible", card="power-surge#1", slot="signature")
    s = t.act("learn", hero="invincible", card="power-surge#1", slot="yellow")
    assert s.hero("invincible").powers["under:yellow"].power == "power-surge"


def test_an_ultimates_pairing_changes_by_rearranging_in_training(table):
    """'You may rearrange powers during the Training Phase to change an Ultimate's pairing, but
    if it ends the phase without a paired Super Power, discard it.' The Ultimates beneath two
    Super Powers swap places (slots = two under:<slot>), each beneath a Super sharing a cube
    colour with it ('it must be placed beneath a Super Power that shares at least one cube color
    with it'); refused as the players asked (unconfirmed = "refuse")."""
    t = table(episode=2, unconfirmed="refuse")
    t.to_hero_phase()
    t.everyone_done()
    inv = t.state.hero("invincible")
    inv.powers["blue"] = Played("whirlwind-mode#1", "whirlwind-mode", [None, None])
    inv.powers["under:blue"] = Played("hurl-into-space#1", "hurl-into-space", [None] * 3)
    inv.powers["yellow"] = Played("weapon-mastery#1", "weapon-mastery", [None, None])
    inv.powers["orange"] = Played("resilient-spirit#1", "resilient-spirit", [None, None])
    with pytest.raises(IllegalAction, match="share a cube colour"):       # orange only
        t.act("arrange", hero="invincible", slots=["under:blue", "under:orange"])
    with pytest.raises(IllegalAction, match="holds none"):
        t.act("arrange", hero="invincible", slots=["under:blue", "under:flex1"])
    with pytest.raises(IllegalAction, match="under:<slot> and under:<slot>"):
        t.act("arrange", hero="invincible", slots=["under:blue", "yellow"])
    from companion.games.invincible.moves_training import arrangements
    assert ("under:blue", "under:yellow") in arrangements(t.state, inv)
    s = t.act("arrange", hero="invincible", slots=["under:blue", "under:yellow"])
    powers = {slot: p.power for slot, p in s.hero("invincible").powers.items()}
    assert powers["yellow"] == "weapon-mastery" and powers["under:yellow"] == "hurl-into-space"
    assert powers["blue"] == "whirlwind-mode" and "under:blue" not in powers


def test_solo_shared_hand_separate_confidence(table):
    """Solo: 'Your two heroes share one hand of cards during the Training Phase, but track
    confidence separately' and 'Don't refill the hand until both heroes have finished'."""
    t = table(heroes=("robot", "rex-splode"), solo=True, unconfirmed="refuse")
    assert len(t.state.shared_hand) == 7 and all(not h.hand for h in t.state.heroes)
    t.to_hero_phase()
    t.state.hero("robot").bonus_confidence = 2
    t.everyone_done()
    t.state.shared_hand[0] = "flurry-of-blows#1"
    t.act("learn", hero="robot", card="flurry-of-blows#1", slot="yellow")
    t.act("done", hero="robot")
    assert len(t.state.shared_hand) == 6
    with pytest.raises(IllegalAction, match="costs"):
        t.act("learn", hero="rex-splode", card=next(c for c in t.state.shared_hand
                                                      if t.engine.data.powers[c.split('#')[0]].cost), slot="flex1")
    s = t.act("done", hero="rex-splode")
    assert len(s.shared_hand) == 7


def test_refill_with_cards_drawn_from_the_physical_decks(training):
    """'draw power cards until you have five in hand again': the table may draw from its own
    decks and name the cards; the rest are drawn by the companion."""
    t = training()
    inv = t.state.hero("invincible")
    inv.hand = inv.hand[:3]
    top = t.state.decks["super"][5]
    with pytest.raises(IllegalAction, match="draws 2"):
        t.act("done", hero="invincible", drawn=[top, top, top])
    with pytest.raises(IllegalAction, match="not in the Super"):
        t.act("done", hero="invincible", drawn=["immortality"])
    t.act("done", hero="invincible", drawn=[top])
    s = t.act("done", hero="atom-eve")
    assert s.hero("invincible").hand[3] == top and len(s.hero("invincible").hand) == 5
    assert top not in s.decks["super"]


def test_cubes_on_a_discarded_power_go_to_the_dropped_area(training):
    """New and Improved: 'If the discarded power had any cubes on it, move those cubes to your
    dropped area.' (the companion does this for every discarded power, so no cube is lost)."""
    t = training()
    inv = t.state.hero("invincible")
    inv.powers["yellow"] = Played("flurry-of-blows#1", "flurry-of-blows", ["black", None])
    inv.bag["black"] -= 1
    s = t.act("discard_power", hero="invincible", slot="yellow")
    inv = s.hero("invincible")
    assert "yellow" not in inv.powers and inv.dropped.count("black") == 1
    assert "flurry-of-blows#1" in s.discards["super"]


def test_a_filled_power_discarded_or_replaced_keeps_its_confidence(training, engine):
    """'Add up the confidence values on every power you filled this round — that total is what
    you can spend learning new powers this Training Phase.' and 'Each slot holds one power; if
    you're out of room, you may discard an existing power to make space': a power filled this
    round counts though it leaves the board to make space (Clean Slate's 'Removing cubes from an
    already-filled power forfeits any confidence it granted' is the one way to lose it)."""
    t = training(unconfirmed="refuse")
    inv = t.state.hero("invincible")
    inv.powers["yellow"] = Played("flurry-of-blows#9", "flurry-of-blows", ["yellow", "yellow"], True)
    inv.bag["yellow"] -= 2
    inv.hand = ["whirlwind-mode#1", "telekimeanness#1"]
    assert engine.expect(t.state)["confidence"]["invincible"] == 3    # Rescue, Thwart, Flurry
    before = t.state
    s = t.act("discard_power", hero="invincible", slot="yellow")
    assert engine.expect(s)["confidence"]["invincible"] == 3
    # or replaced: Whirlwind Mode (2) learned over the filled Flurry leaves 1 of the 3 to spend
    t.state = before
    s = t.act("learn", hero="invincible", card="whirlwind-mode#1", slot="yellow")
    assert s.hero("invincible").powers["yellow"].power == "whirlwind-mode"
    shown = engine.to_json(s)["heroes"][0]
    assert (shown["id"], shown["confidence"], shown["confidence_left"]) == ("invincible", 3, 1)
    with pytest.raises(IllegalAction, match="costs 2"):
        t.act("learn", hero="invincible", card="telekimeanness#1", slot="flex1")


def test_learn_by_punching_confidence_is_kept_when_it_is_discarded(training, engine):
    """Learn By Punching: 'Like any power, you must fill it to trigger its text; once filled, you
    keep its confidence whether or not you later discard it.'"""
    t = training()
    inv = t.state.hero("invincible")
    inv.powers["flex1"] = Played("learn-by-punching", "learn-by-punching", ["yellow"], True)
    inv.bag["yellow"] -= 1
    assert engine.expect(t.state)["confidence"]["invincible"] == 3
    s = t.act("discard_power", hero="invincible", slot="flex1")
    assert "flex1" not in s.hero("invincible").powers
    assert engine.expect(s)["confidence"]["invincible"] == 3


def test_the_next_step_names_only_what_each_hero_may_still_do(engine):
    """ "During the Training Phase, each hero may learn powers from their hand by spending
    confidence (or discard a power to take Learn By Punching instead), gain a cube by discarding a
    matching-colored power from their hand (once per phase)". The prompt said 'learn powers, gain
    a cube, then done' to every hero, even one with nothing left to learn and the cube taken; it
    now names, for each hero, only the choices its phone offers, over random games' Training
    Phases."""
    words = {"learn": "learn a power", "punch": "Learn By Punching", "cube": "gain a cube",
             "arrange": "rearrange", "discard": "discard"}
    seen = set()
    for _seed, _step, state in training_states(engine, range(6)):
        expect = engine.expect(state)
        parts = re.findall(r"([^,(]+) \((\d+) confidence: ([^)]*)\)", expect["prompt"])
        assert len(parts) == len(expect["training"]), expect["prompt"]
        for (name, _left, steps), (hero, offered) in zip(parts, expect["training"].items()):
            assert name.strip().removeprefix("Training Phase: ") == state.hero(hero).name, name
            for key, said in words.items():
                assert (said in steps) == bool(offered[key]), (key, steps, offered)
            seen.add(steps)
    assert len(seen) > 5, seen
