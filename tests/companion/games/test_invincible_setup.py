"""Setup and the component data. Each test quotes the rulebook sentence it checks."""

import random
import shutil

import pytest

from companion.errors import DataFileError, SetupError
from companion.games import Catalog
from companion.games.invincible.data import HERE
from invincible_helpers import engine  # noqa: F401 (fixtures)


def _setup(engine, seed=1, **options):
    options.setdefault("heroes", ["invincible", "atom-eve"])
    return engine.setup(options, random.Random(seed))


def test_three_zones_of_ten_civilians(engine):
    """'In each zone, place ten civilians: three in the safety area and seven in the danger
    area.'"""
    s = _setup(engine)
    assert [(z.name, z.safety, z.danger, z.dead) for z in s.zones] == [
        ("left", 3, 7, 0), ("center", 3, 7, 0), ("right", 3, 7, 0)]
    assert all(z.villains == [None, None] and z.minions == 0 for z in s.zones)


def test_episode_1_decks_are_in_fixed_order(engine):
    """'Episode 1: Set the Super Power, Level I Villain, Level II Villain, and Event decks near
    the zone boards exactly as packaged — do not shuffle them'."""
    a, b = _setup(engine, seed=1), _setup(engine, seed=2)
    for deck in ("villain1", "villain2", "event"):
        assert a.decks[deck] == b.decks[deck]
    assert a.decks["villain2"] == ["flaxan-first-wave", "flaxan-tank", "flaxan-scout"]
    assert a.decks["villain3"] == [] and a.decks["ultimate"] == []
    assert a.level_decks["villain2"] == sorted(["flaxan-first-wave", "flaxan-tank", "flaxan-scout"])


@pytest.mark.parametrize("difficulty,level1,level2", [("easy", 3, 3), ("normal", 2, 2),
                                                      ("hardcore", 0, 3)])
def test_full_game_event_deck_by_difficulty(engine, difficulty, level1, level2):
    """'Start with a face-down stack of all the Level III events, then deal a number of Level II
    events on top based on difficulty, then a number of Level I events on top of that' (Easy 3 +
    3, Normal 2 + 2, Hardcore 0 + 3)."""
    s = _setup(engine, episode=3, difficulty=difficulty)
    levels = [engine.data.events[e].level for e in s.decks["event"]]
    n3 = sum(1 for e in engine.data.events.values() if e.level == 3)
    assert levels == [1] * level1 + [2] * level2 + [3] * n3


def test_level_three_villains_not_used_in_episode_2(engine):
    """'(Level III Villains aren't used in Episode 2).'"""
    assert _setup(engine, episode=2).decks["villain3"] == []
    assert _setup(engine, episode=3).decks["villain3"]


def test_bags_supply_and_learn_by_punching(engine):
    """'Fill your bag with 6 black cubes and 3 each of yellow, blue, orange, and purple. Return any
    leftover black cubes to the box, and place the rest ... as a shared supply.' / 'For each hero
    in play, put one "Learn By Punching" card face up'."""
    s = _setup(engine, heroes=["invincible", "atom-eve", "robot"])
    for h in s.heroes:
        assert h.bag == {"black": 6, "yellow": 3, "blue": 3, "orange": 3, "purple": 3}
        assert h.defiance is True and h.damage == 0
    assert s.supply == {"yellow": 27 - 9, "blue": 27 - 9, "orange": 27 - 9, "purple": 24 - 9,
                        "red": 0}
    assert s.punch_left == 3


def test_red_cubes_only_for_rex_in_the_full_game(engine):
    """'The 6 red cubes belong to Rex Splode's "Fire Up" signature power in the full game; put
    them back in the box if you're playing Episode 1 or not using Rex.'"""
    assert _setup(engine, heroes=["rex-splode", "robot"], episode=2).supply["red"] == 6
    assert _setup(engine, heroes=["rex-splode", "robot"], episode=1).supply["red"] == 0
    assert _setup(engine, heroes=["invincible", "robot"], episode=2).supply["red"] == 0


def test_starting_hands_and_signature_powers(engine):
    """'In the full game, each hero draws four cards from the Super Power deck and one from the
    Ultimate Power deck. In Episode 1, each hero instead draws five cards from the Super Power
    deck' / 'starting with Episode 2, each hero also unlocks a signature power'."""
    kinds = lambda h: sorted(engine.data.powers[c.split("#")[0]].kind for c in h.hand)  # noqa: E731
    ep1 = _setup(engine)
    assert all(kinds(h) == ["super"] * 5 and "signature" not in h.powers for h in ep1.heroes)
    ep2 = _setup(engine, episode=2)
    assert all(kinds(h) == ["super"] * 4 + ["ultimate"] and h.powers["signature"].power
               for h in ep2.heroes)
    assert ep2.hero("invincible").powers["signature"].power == "going-to-the-limit"
    assert ep2.hero("invincible").powers["starter"].power == "flying-charge"


def test_solo_two_heroes_one_seven_card_hand(engine):
    """'one person controls two heroes, each with its own bag and hero board ... draw a single
    seven-card hand shared by both heroes (in the full game ... five Super Powers and two
    Ultimate Powers).'"""
    s = _setup(engine, heroes=["robot", "atom-eve"], solo=True)
    assert len(s.shared_hand) == 7 and s.hero_count == 2
    full = _setup(engine, heroes=["robot", "atom-eve"], solo=True, episode=4)
    kinds = sorted(engine.data.powers[c.split("#")[0]].kind for c in full.shared_hand)
    assert kinds == ["super"] * 5 + ["ultimate"] * 2
    with pytest.raises(SetupError, match="exactly two"):
        _setup(engine, heroes=["robot", "atom-eve", "invincible"], solo=True)


def test_up_to_two_helpers_and_challenges(engine):
    """'your team may choose up to two helper cards (to ease the game) and/or up to two challenge
    cards (to toughen it).'"""
    s = _setup(engine, helpers=["helper-2", "helper-3"], challenges=["still-have-a-job"])
    assert s.helpers == ["helper-2", "helper-3"] and s.challenges == ["still-have-a-job"]
    with pytest.raises(SetupError, match="up to two"):
        _setup(engine, helpers=["helper-2", "helper-3", "helper-4"])
    with pytest.raises(SetupError, match="unknown"):
        _setup(engine, challenges=["nope"])


@pytest.mark.parametrize("options,message", [
    ({"heroes": ["invincible"]}, "2 to 4"),
    ({"heroes": ["invincible", "invincible"]}, "already taken"),
    ({"heroes": ["invincible", "omni-man"]}, "not a hero"),
    ({"heroes": ["invincible", "robot"], "episode": 9}, "episode"),
    ({"heroes": ["invincible", "robot"], "difficulty": "brutal"}, "difficulty"),
    ({"heroes": ["invincible", "robot"], "colour": "red"}, "unknown option"),
    ({"heroes": ["invincible", "robot"], "stack": {"villain1": ["flaxan-tank"]}}, "not"),
])
def test_bad_options_are_refused_with_the_option_named(engine, options, message):
    with pytest.raises(SetupError, match=message):
        engine.setup(options, random.Random(0))


def test_still_have_a_job_endangers_one_more_on_every_arrival(engine):
    """Still Have a Job: 'Every villain endangers one extra civilian upon arriving, even ones
    that don't normally have an arrive power at all.'"""
    from companion.actions import Action
    s = _setup(engine, challenges=["still-have-a-job"])
    s = engine.apply(s, Action("advance", at=0.0), random.Random(0))   # Bi-Plane, left zone
    assert s.zone("left").safety == 2


def test_owner_can_replace_the_data_and_errors_name_file_and_key(tmp_path):
    """An owner's copy in the components folder wins; a broken one names file and key."""
    for name in ("invincible.toml", "invincible_powers.toml", "invincible_episodes.toml"):
        shutil.copy(HERE / name, tmp_path / name)
    text = (tmp_path / "invincible.toml").read_text()
    (tmp_path / "invincible.toml").write_text(text.replace("safety = 3", "safety = 4", 1))
    engine = Catalog(tmp_path)("invincible")
    assert engine.setup({"heroes": ["invincible", "robot"]}, random.Random(0)).zones[0].safety == 4
    (tmp_path / "invincible.toml").write_text(text.replace("minion_cap = 3", "minion_cap = \"x\"", 1))
    with pytest.raises(DataFileError, match=r"invincible.toml: board.minion_cap"):
        Catalog(tmp_path)("invincible")
    episodes = (tmp_path / "invincible_episodes.toml").read_text()
    (tmp_path / "invincible.toml").write_text(text)
    (tmp_path / "invincible_episodes.toml").write_text(
        episodes.replace('health = [5, 6, 7]', 'health = [5, 6]', 1))
    with pytest.raises(DataFileError, match=r"invincible_episodes.toml: villains\[0\].health"):
        Catalog(tmp_path)("invincible")
    # a supply too small for four bags refused every setup ("the cube supply cannot fill every
    # hero's bag") without naming the file
    (tmp_path / "invincible_episodes.toml").write_text(episodes)
    (tmp_path / "invincible.toml").write_text(text.replace("\nyellow = 27\n", "\nyellow = 0\n", 1))
    with pytest.raises(DataFileError, match=r"invincible.toml: cubes.yellow: 0 cannot fill four heroes"):
        Catalog(tmp_path)("invincible")


def test_components_mark_every_assumption(engine):
    """What the rulebook does not print is data marked as an assumption."""
    c = engine.components()
    for key in ("rescue_die", "crash_die", "powers.deck", "villain bi-plane", "episode 1",
                "event event-1a", "helper helper-2", "challenge still-have-a-job"):
        assert key in c["assumptions"], key
    assert "board" not in c["assumptions"] and "limits" not in c["assumptions"]
    assert {v["id"] for v in c["villains"]} >= {"flaxan-first-wave", "flaxan-tank", "bi-plane",
                                                "magmaniac", "master-gator", "multi-paul"}


def test_players_is_another_name_for_heroes(engine):
    """`companion replay --players a,b` passes options.players."""
    s = engine.setup({"players": ["robot", "rex-splode"]}, random.Random(0))
    assert [h.id for h in s.heroes] == ["robot", "rex-splode"]
    with pytest.raises(SetupError, match="not both"):
        engine.setup({"players": ["robot"], "heroes": ["robot", "atom-eve"]}, random.Random(0))
