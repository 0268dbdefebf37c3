"""The component data: what the rulebook prints is loaded as printed, every other value is
marked as an assumption, and an owner's file replaces the shipped one."""

import tomllib

import pytest

from companion.errors import DataFileError
from companion.games import Catalog
from companion.games.xmen import data as xmen_data
from companion.games.xmen.data import SHIPPED


def raw():
    with SHIPPED.open("rb") as fh:
        return tomllib.load(fh)


def test_the_printed_die():
    """ "Each die has two X-Men sides, one Marvel side, one Evil Mutant side and two blank sides."
    "X-Men = 1 point. Marvel = 2 points." """
    d = xmen_data.load()
    assert sorted(d.faces) == sorted(["xmen", "xmen", "marvel", "evil_mutant", "blank", "blank"])
    assert d.points == {"xmen": 1, "marvel": 2}
    # "The maximum number of dice you can roll at one time is nine."
    assert d.max_dice == 9
    # "Each player rolls 5 dice."
    assert d.going_first_dice == 5


def test_the_board_as_printed():
    """ "There are three Battle Zones on the game board." "Around each Battle Zone is a Strength
    Track numbered from 1 to 21." """
    d = xmen_data.load()
    assert d.zones == 3 and d.strength_track == 21 and d.max_team == 4


def test_the_eighteen_printed_names():
    """ "18 X-Men Figures" (the Show Case labels list the 18 names). """
    d = xmen_data.load()
    names = {c.name for c in d.characters.values()}
    assert names == {"Archangel", "Banshee", "Beast", "Cable", "Colossus", "Cyclops", "Gambit",
                     "Havok", "Iceman", "Jubilee", "Longshot", "Nightcrawler", "Professor X",
                     "Psylocke", "Rogue", "Shadowcat", "Storm", "Wolverine"}


@pytest.mark.parametrize("hero,stats", [
    # "Example card (Wolverine): Fighting Skill 6; Durability 5; Intelligence 2; Total Power 13."
    ("wolverine", (6, 5, 2, 13)),
    # "Archangel — Fighting Skill 5, Durability 4, Intelligence 2, Total Power 11."
    ("archangel", (5, 4, 2, 11)),
    # "Storm — Fighting Skill 4, Durability 3, Intelligence 2, Total Power 9."
    ("storm", (4, 3, 2, 9)),
])
def test_the_three_printed_stat_cards_are_not_assumptions(hero, stats):
    c = xmen_data.load().characters[hero]
    assert (c.fighting_skill, c.durability, c.intelligence, c.total_power) == stats
    assert c.assumption is False


def test_the_printed_abilities():
    """Wolverine: "he can roll 3 additional dice when doing battle" and "each Marvel rolled
    removes 4 hit markers"; Archangel's Wing Missile "roll 2 dice. Each Marvel rolled counts as 4
    points and each X-Men rolled counts as 2 points"; Storm: "Add 2 dice to each teammate's
    fighting skill number"; Archangel and Storm can fly."""
    d = xmen_data.load()
    wolverine = d.characters["wolverine"]
    assert wolverine.abilities_of("extra_dice_leading", False)[0].params == {"dice": 3}
    assert wolverine.abilities_of("recovery", False)[0].params == {"xmen": 1, "marvel": 4}
    wing = d.characters["archangel"].abilities_of("alt_attack", False)[0]
    assert wing.name == "Wing Missile" and wing.params == {"dice": 2, "xmen": 2, "marvel": 4}
    assert d.characters["storm"].abilities_of("team_dice_leading", False)[0].params == {"dice": 2}
    assert d.characters["archangel"].abilities_of("flight", True)
    assert d.characters["storm"].abilities_of("flight", True)


def test_doctor_doom_as_printed():
    """ "(Example card: Doctor Doom, Strength 16, Experience 6; the card is marked with the
    Advanced symbol.)" """
    doom = xmen_data.load().alert["doctor-doom"]
    assert (doom.strength, doom.experience, doom.advanced, doom.assumption) == (16, 6, True, False)


def test_deck_sizes_as_printed():
    """ "36 X-Men Alert Cards" and "27 Training & Luck Cards". """
    d = xmen_data.load()
    assert len(d.alert) == 36 and len(d.luck) == 27


def test_every_unprinted_section_is_marked_as_an_assumption():
    d = xmen_data.load()
    assert {"experience_track", "alert", "training_luck"} <= set(d.assumptions)
    printed = {"wolverine", "archangel", "storm"}
    for cid, c in d.characters.items():
        assert c.assumption == (cid not in printed)
        if c.assumption:
            assert d.assumptions[f"character {cid}"]
    described = Catalog()("xmen-alert").components()
    assert described["assumptions"] == d.assumptions
    assert {c["id"] for c in described["characters"] if not c["assumption"]} == printed


def test_total_power_must_add_up_and_the_error_names_the_card(tmp_path):
    """Load-time check: Total Power = Fighting Skill + Durability + Intelligence, which the three
    printed cards satisfy (6+5+2=13, 5+4+2=11, 4+3+2=9)."""
    data = raw()
    gambit = next(c for c in data["characters"] if c["id"] == "gambit")
    gambit["total_power"] += 1
    with pytest.raises(DataFileError) as err:
        xmen_data.parse(data, "owner.toml")
    message = str(err.value)
    assert "owner.toml" in message and "characters[" in message and "Gambit" in message
    assert "total_power" in message


@pytest.mark.parametrize("change,key", [
    (lambda d: d["die"].update(faces=["xmen", "skull"]), "die.faces"),
    (lambda d: d["die"].update(max_dice="nine"), "die.max_dice"),
    (lambda d: d["experience_track"].update(recruit=[]), "experience_track.recruit"),
    (lambda d: d["experience_track"].update(training_luck=[0]), "experience_track.training_luck"),
    (lambda d: d["alert"]["cards"][0].update(strength=30), "alert.cards[0].strength"),
    (lambda d: d["training_luck"]["cards"][0].update(timing="at_once"), "training_luck.cards[0].timing"),
    (lambda d: d["characters"][0]["abilities"][0].update(kind="laser"), "characters[0].abilities[0].kind"),
])
def test_bad_data_names_file_and_key(change, key):
    data = raw()
    change(data)
    with pytest.raises(DataFileError) as err:
        xmen_data.parse(data, "mine.toml")
    assert str(err.value).startswith(f"mine.toml: {key}")


def test_an_owner_file_replaces_the_shipped_one(tmp_path):
    """The setup page lets an owner type in a card's printed values: they land in the owner's copy."""
    text = SHIPPED.read_text().replace('id = "havok"\nname = "Havok"\nfighting_skill = 5\ndurability = 3\n'
                                       'intelligence = 2\ntotal_power = 10',
                                       'id = "havok"\nname = "Havok"\nfighting_skill = 7\ndurability = 3\n'
                                       'intelligence = 2\ntotal_power = 12')
    assert text != SHIPPED.read_text()
    (tmp_path / "xmen-alert.toml").write_text(text)
    engine = Catalog(tmp_path)("xmen-alert")
    assert engine.data.characters["havok"].fighting_skill == 7
    assert engine.data.path == str(tmp_path / "xmen-alert.toml")


def test_a_card_typed_in_on_a_form_is_checked_the_same_way():
    """The setup page lets an owner type in a card's printed values; the same check applies."""
    from companion.components import Reader
    ok = xmen_data.character(Reader({"id": "havok", "name": "Havok", "fighting_skill": 5,
                                     "durability": 3, "intelligence": 2, "total_power": 10,
                                     "assumption": False}, "setup form"))
    assert ok.total_power == 10 and ok.assumption is False
    with pytest.raises(DataFileError, match="setup form: total_power: Havok's Total Power 11"):
        xmen_data.character(Reader({"id": "havok", "name": "Havok", "fighting_skill": 5,
                                    "durability": 3, "intelligence": 2, "total_power": 11},
                                   "setup form"))
