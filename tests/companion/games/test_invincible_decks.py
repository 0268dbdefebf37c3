"""Deck sizes as printed: the full game's decks hold the rulebook's counts, the cards it does not
print as named placeholders (listed as assumed on the "Your box" page), so decks run out and
reshuffle when the real ones do. Each test quotes the rulebook sentence it checks."""

import random
import shutil

import pytest

from companion import box_items
from companion.errors import DataFileError
from companion.games import Catalog
from companion.games.invincible import board
from companion.games.invincible.data import HERE
from invincible_helpers import engine  # noqa: F401 (fixtures)


def test_the_files_hold_every_printed_count(engine):
    """'Components used only in the full game (i.e., not needed for Episode 1, but used in every
    other episode) include: 36 Ultimate Power cards; 4 Signature Power cards and 3 Experimental
    Technology cards; 13 Level II Villain cards and 12 Level III Villain cards; 6 red cubes; Eve's
    Bubble token; and 12 Omni-Man Event cards.'"""
    d = engine.data
    kinds = [p.kind for p in d.powers.values() for _ in range(p.copies)]
    assert kinds.count("ultimate") == 36
    assert kinds.count("signature") == 4 and kinds.count("experimental") == 3
    assert sum(v.level == 2 and v.full_game_only for v in d.villains.values()) == 13
    assert sum(v.level == 3 for v in d.villains.values()) == 12
    assert sum(e.boss == "omni-man" for e in d.boss_events.values()) == 12
    # '6 helper cards, 6 challenge cards, and 4 reminder cards'; '4 starter power cards'; '7
    # episode cards'
    assert len(d.helpers) == 6 and len(d.challenges) == 6 and kinds.count("starter") == 4
    assert sorted(d.episodes) == [1, 2, 3, 4, 5, 6, 7] and d.counts["episodes"] == 7
    assert d.counts["ultimate"] == 36 and d.counts["boss_events"] == {"omni-man": 12}


def test_full_game_decks_have_the_printed_sizes(engine):
    """'Then shuffle and set out the Super Power, Ultimate Power, Level I Villain, Level II
    Villain, and Level III Villain decks' with 'In the full game, each hero draws four cards from
    the Super Power deck and one from the Ultimate Power deck': 36 Ultimates between the deck and
    the hands; the Level III deck of 12; the Level II deck of the 13 full-game cards and Episode
    1's three Flaxans ('all three Flaxan villains (the entire Level II Villain deck)')."""
    heroes = ["invincible", "atom-eve", "rex-splode", "robot"]
    s = engine.setup({"heroes": heroes, "episode": 3}, random.Random(4))
    in_hands = [c for h in s.heroes for c in h.hand if engine.data.powers[c.split("#")[0]].kind
                == "ultimate"]
    assert len(in_hands) == 4 and len(s.decks["ultimate"]) == 32
    assert len(s.decks["villain3"]) == 12 and len(s.decks["villain2"]) == 16
    assert len(set(s.decks["villain2"])) == 16


def test_level_three_deck_runs_out_after_twelve_and_reshuffles(engine):
    """'If you ever run out of a given villain level entirely, reshuffle that level's discard
    pile into a new deck.' With the printed twelve Level III cards, the thirteenth draw is the
    one that reshuffles."""
    s = engine.setup({"heroes": ["invincible", "robot"], "episode": 5}, random.Random(2))
    rng = random.Random(0)
    drawn = []
    for _ in range(12):
        drawn.append(board.draw_villain(s, 3, rng))
        s.discards["villain3"].append(drawn[-1])
        assert "The Level 3 villain deck ran out: its discard pile is reshuffled." not in s.log
    assert len(set(drawn)) == 12 and s.decks["villain3"] == []
    again = board.draw_villain(s, 3, rng)
    assert again in drawn and s.log[-1] == ("The Level 3 villain deck ran out: its discard pile "
                                            "is reshuffled.")
    assert len(s.decks["villain3"]) == 11


def test_ultimate_deck_of_36_runs_out_when_the_real_one_does(engine):
    """'When resetting and drawing new cards, you may draw at most one card from the Ultimate
    Power deck per refill': 36 cards between hands and deck, whatever the rulebook names."""
    s = engine.setup({"heroes": ["invincible", "atom-eve"], "episode": 2}, random.Random(9))
    total = len(s.decks["ultimate"]) + sum(
        engine.data.powers[c.split("#")[0]].kind == "ultimate" for h in s.heroes for c in h.hand)
    assert total == 36
    named = {"relentless-barrage", "two-places-at-once", "hurl-into-space", "immortality",
             "heroic-assembly", "new-and-improved", "wildcard-energy", "power-surge"}
    ultimates = {p.id for p in engine.data.powers.values() if p.kind == "ultimate"}
    placeholders = ultimates - named
    assert len(placeholders) == 28
    for pid in placeholders:
        p = engine.data.powers[pid]
        assert "(placeholder)" in p.name and [e.kind for e in p.effects] == ["text"]


def test_a_file_without_the_printed_count_is_refused_naming_file_and_count(tmp_path):
    """A deck short of '36 Ultimate Power cards' is refused, not played short."""
    for name in ("invincible.toml", "invincible_powers.toml", "invincible_episodes.toml"):
        shutil.copy(HERE / name, tmp_path / name)
    powers = (tmp_path / "invincible_powers.toml").read_text()
    line = next(x for x in powers.splitlines() if 'id = "ultimate-36"' in x)
    (tmp_path / "invincible_powers.toml").write_text(powers.replace(line + "\n", ""))
    with pytest.raises(DataFileError, match=r"invincible_powers.toml: deck.powers / placeholders"
                                            r".powers: holds 35 Ultimate Power cards; the "
                                            r"rulebook prints 36 .*counts.ultimate"):
        Catalog(tmp_path)("invincible")
    episodes = (tmp_path / "invincible_episodes.toml").read_text()
    (tmp_path / "invincible_powers.toml").write_text(powers)
    cut = episodes.index('[[boss_events]]\nid = "omni-man-12"')
    end = episodes.index("\n\n", cut)
    (tmp_path / "invincible_episodes.toml").write_text(episodes[:cut] + episodes[end + 2:])
    with pytest.raises(DataFileError, match=r"boss_events: holds 11 event cards for omni-man; the "
                                            r"rulebook prints 12"):
        Catalog(tmp_path)("invincible")


def test_your_box_lists_the_placeholders_as_assumed(engine):
    """What the rulebook does not print is the owner's to fill in: every placeholder card is an
    item of the "Your box" page, assumed; the printed counts are read-only."""
    items = {i["key"]: i for i in box_items.describe(engine)["items"]}
    for key in ("placeholders.powers/ultimate-09", "placeholders.powers/ultimate-36",
                "villains/villain-2m", "villains/villain-3l", "boss_events/omni-man-01",
                "boss_events/omni-man-12", "bosses/machine-head", "bosses/omni-man"):
        assert items[key]["status"] == "assumed", key
    assert items["counts"]["status"] == "printed"
    assert items["placeholders.powers/ultimate-09"]["title"] == "Ultimate Power 09 (placeholder)"


def test_an_owner_fills_in_a_placeholder_on_your_box(engine):
    """The owner's correction replaces the placeholder and is checked by the loader."""
    box = box_items.edit(engine, "villains/villain-3l", {"name": "Battle Beast", "health": [9, 11, 13]})
    data = engine.boxed.resolve(box.patch, "test")
    assert data.villains["villain-3l"].name == "Battle Beast"
    assert data.villains["villain-3l"].health == (9, 11, 13)
    with pytest.raises(DataFileError, match="health"):
        box_items.edit(engine, "villains/villain-3l", {"health": [9, 11]})
