"""X-Men Alert: Power Stat cards an owner types in at setup (option ``typed_cards``), each one
checked by ``companion.games.xmen.data.character`` exactly as the component file's cards are."""

import random

import pytest

from companion.actions import Action
from companion.errors import SetupError
from companion.games import Catalog

CABLE = {"id": "cable", "name": "Cable", "fighting_skill": 6, "durability": 5,
         "intelligence": 3, "total_power": 14}
DAZZLER = {"id": "dazzler", "name": "Dazzler", "fighting_skill": 4, "durability": 3,
           "intelligence": 2, "total_power": 9,
           "abilities": [{"name": "Light Show", "kind": "extra_dice_leading", "dice": 2,
                          "text": "When Dazzler leads, she rolls 2 additional dice."}]}


@pytest.fixture(scope="module")
def game():
    return Catalog()("xmen-alert")


def test_a_typed_card_whose_total_power_is_not_the_sum_of_its_stats_is_refused(game):
    """The printed cards satisfy Total Power = Fighting Skill + Durability + Intelligence:
    "Example card (Wolverine): Fighting Skill 6; Durability 5; Intelligence 2; Total Power 13."
    A typed card that breaks it is named, with the sum it should have, and no game starts."""
    with pytest.raises(SetupError) as err:
        game.setup({"players": ["Ana", "Ben"], "typed_cards": [dict(CABLE, total_power=15)]},
                   random.Random(1))
    assert "typed_cards[0].total_power" in str(err.value)
    assert "Cable's Total Power 15 is not Fighting Skill + Durability + Intelligence (6 + 5 + 3 = 14)" in str(err.value)


def test_a_typed_card_is_checked_like_the_file_a_durability_of_zero_or_a_missing_stat(game):
    """ "The Durability number shows how many Hits a character can sustain" and is "the number
    of dice the character rolls while recovering": a card needs at least 1."""
    for bad, where in ((dict(CABLE, durability=0, total_power=9), "durability"),
                       ({k: v for k, v in CABLE.items() if k != "intelligence"}, "intelligence"),
                       (dict(DAZZLER, abilities=[{"name": "X", "kind": "laser"}]), "kind")):
        with pytest.raises(SetupError, match=where):
            game.setup({"players": ["Ana", "Ben"], "typed_cards": [bad]}, random.Random(1))
    for bad in ("cable", [CABLE, CABLE], [CABLE] * 41):
        with pytest.raises(SetupError, match="typed_cards"):
            game.setup({"players": ["Ana", "Ben"], "typed_cards": bad}, random.Random(1))


def test_a_typed_card_replaces_the_files_card_with_its_id_for_the_whole_game(game):
    """ "The character's Fighting Skill number shows how many dice that X-Men can roll when
    battling Evil Mutants." Cable typed in with Fighting Skill 6 rolls six dice."""
    s = game.setup({"players": ["Ana", "Ben"], "stat_cards": {"Ana": ["cable"]},
                    "typed_cards": [CABLE], "first_player": "Ana"}, random.Random(1))
    hero = game.to_json(s)["teams"][0]["headquarters"][0]
    assert (hero["fighting_skill"], hero["durability"], hero["total_power"]) == (6, 5, 14)
    s = game.apply(s, Action("deploy", "Ana", {"zone": 1, "heroes": ["cable"]}), random.Random(2))
    assert game.expect(s)["dice"][0]["count"] == 6
    s = game.apply(s, Action("battle.roll", "Ana", {"zone": 1, "faces": ["marvel"] * 6}), random.Random(3))
    assert s.last_roll["points"] == 12
    assert game.invariants(s) == []


def test_a_typed_card_the_file_lacks_joins_the_game_and_can_be_chosen(game):
    s = game.setup({"players": ["Ana", "Ben"], "stat_cards": {"Ben": ["Dazzler"]},
                    "typed_cards": [DAZZLER]}, random.Random(1))
    assert game.to_json(s)["teams"][1]["headquarters"][0]["name"] == "Dazzler"
    s = game.setup({"players": ["Ana", "Ben"], "typed_cards": [DAZZLER]}, random.Random(1))
    assert "dazzler" in s.stat_deck + [h.id for t in s.teams for h in t.heroes]
    # without the typed card, Dazzler is unknown
    with pytest.raises(SetupError):
        game.setup({"players": ["Ana", "Ben"], "stat_cards": {"Ben": ["dazzler"]}}, random.Random(1))


def test_typed_cards_are_resolved_once_into_the_games_data_and_again_on_restart(game, tmp_path):
    """The typed cards live in the game's own data (the state's data field, not its JSON): the
    engine's data stays the file's, a game without them never sees them, and a restart
    resolves them again from the journaled options."""
    from companion.journal import Journal
    from companion.session import Session

    catalog = Catalog()
    options = {"players": ["Ana", "Ben"], "stat_cards": {"Ana": ["dazzler"]},
               "typed_cards": [DAZZLER], "first_player": "Ana"}
    s = game.setup(options, random.Random(1))
    assert "dazzler" in s.data.characters and "dazzler" not in game.data.characters
    assert game.resolve_data(options).characters["dazzler"] == s.data.characters["dazzler"]
    assert "data" not in game.to_json(s)
    plain = game.setup({"players": ["Ana", "Ben"]}, random.Random(1))
    assert plain.data is game.data
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = Session(journal, catalog)
        session.start("xmen-alert", options, seed=3)
        view = session.submit(Action("deploy", "Ana", {"zone": 1, "heroes": ["dazzler"]}))
        # "When Dazzler leads, she rolls 2 additional dice.": Fighting Skill 4 + 2
        assert view["expect"]["dice"][0]["count"] == 6
    with Journal(tmp_path / "j.sqlite3") as journal:
        again = Session(journal, catalog).view()
    assert again["state"] == view["state"] and again["expect"] == view["expect"]
