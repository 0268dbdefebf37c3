"""The owner's box (companion/box.py): corrections over the shipped component files, checked by the
game's loader, recorded in every game set up with them; and the assumed board that reminds
instead of refusing until the owner confirms it."""

import random

import pytest

from companion import box_items
from companion.actions import Action
from companion.box import Box, BoxStore, MAX_BYTES, merge, parse_box
from companion.errors import DataFileError, IllegalAction, SetupError
from companion.games import Catalog
from companion.games.incredibles.state import R_MOVE
from companion.journal import Journal
from companion.session import Session



def test_merge_lays_tables_key_by_key_and_lists_of_tables_by_id():
    base = {"a": {"x": 1, "y": 2}, "heroes": [{"id": "dash", "power": "speed"},
                                              {"id": "violet", "power": "defense"}],
            "faces": [{"id": "alarm"}, {"id": "alarm"}], "names": ["p", "q"]}
    patch = {"a": {"y": 3}, "heroes": [{"id": "violet", "power": "agility"}, {"id": "jack"}],
             "faces": [{"id": "1"}], "names": ["r"]}
    out = merge(base, patch)
    assert out["a"] == {"x": 1, "y": 3}
    assert out["heroes"] == [{"id": "dash", "power": "speed"}, {"id": "violet", "power": "agility"},
                             {"id": "jack"}]
    assert out["faces"] == [{"id": "1"}]          # ids not unique: the list is replaced whole
    assert out["names"] == ["r"]
    assert base["a"] == {"x": 1, "y": 2}          # neither input changed


def test_a_box_file_round_trips_through_toml(tmp_path):
    box = Box("incredibles", {"board": {"links": [["start", "1"]], "ring": False, "confirmed": True},
                              "deck": {"edna": 2, "confirmed": ["edna-1"]},
                              "heroes": [{"id": "dash", "name": "Dash \"the fast\""}]})
    store = BoxStore(tmp_path)
    store.save(box)
    assert store.load("incredibles") == box
    assert parse_box(box.to_toml(), "incredibles") == box


@pytest.mark.parametrize("name", ["Da\x7fsh", "Da\x00sh", "Dash\t\u200b\u05d3"])
def test_a_name_with_a_control_character_is_saved_so_that_it_reads_back(tmp_path, name):
    """A name typed on the Your-box page with DEL in it (U+007F, which JSON leaves raw and TOML
    forbids raw) was written into the box file as it was: the save answered 400, the file stayed
    unreadable, and the service would not start again. Written escaped now, and a box that would
    not read back is never written."""
    cat = catalog(tmp_path)
    engine = save_edit(cat, "incredibles", "heroes/dash", {"name": name})
    path = engine.boxed.store.path("incredibles")
    assert parse_box(path.read_text(), "incredibles").patch["heroes"][0]["name"] == name
    again = Catalog(tmp_path / "components")("incredibles")         # the service started again
    assert again.data.heroes["dash"].name == name


def catalog(tmp_path):
    return Catalog(tmp_path / "components")


def save_edit(cat, game, key, values):
    engine = cat(game)
    box = box_items.edit(engine, key, values)
    engine.boxed.store.save(box)
    cat.reload(game)
    return cat(game)


def alarm(session, top_card):
    session.start("incredibles", {"players": ["dash"], "starting_problems": ["A", "B", "C"],
                                  "deck": [top_card]}, seed=11)
    return session.submit(Action("roll", "dash", {"face": "alarm"}))["state"]


def test_an_edited_card_type_is_used_by_the_next_game_and_not_by_the_game_before(tmp_path):
    """A game started before the owner edits the box replays with the data it began with (its
    stacked deck names a card the edited box no longer has)."""
    cat = catalog(tmp_path)
    session = Session(Journal(tmp_path / "journal.sqlite3"), cat)
    before = alarm(session, "jackjack-4")
    assert before["last_card_info"]["kind"] == "jackjack"
    assert set(session.history()[0]["options"]["box"]) == {"base"}   # no box yet: the shipped data

    engine = save_edit(cat, "incredibles", "card/jackjack-4",
                       {"kind": "road_destroyed", "names": "4"})
    assert "road-4" in engine.data.cards and "jackjack-4" not in engine.data.cards
    assert "road-4" in engine.data.confirmed            # the owner looked at it

    # the game in progress, replayed by a new session with a new catalog, keeps its data
    again = Session(Journal(tmp_path / "journal.sqlite3"), catalog(tmp_path))
    assert again.view()["state"] == before
    second = alarm(again, "road-4")
    assert second["last_card_info"]["kind"] == "road_destroyed" and "4" in second["rubble"]
    record = again.history()[0]["options"]["box"]
    assert record["patch"]["deck"]["road_destroyed"][-1] == "4" and len(record["hash"]) == 64

    # edited once more: the second game still replays with the box it recorded
    save_edit(cat, "incredibles", "card/road-4", {"kind": "edna", "names": ""})
    third = Session(Journal(tmp_path / "journal.sqlite3"), catalog(tmp_path))
    assert third.view()["state"] == second
    assert third.history()[0]["options"]["box"] == record


def far_move(engine, options):
    s = engine.setup({"players": ["dash"], "starting_problems": ["A", "B", "C"], **options},
                     random.Random(0))
    s = engine.apply(s, Action("roll", "dash", {"face": "1"}), random.Random(0))
    return engine.apply(s, Action("move", "dash", {"to": "L"}), random.Random(0))


def test_an_unconfirmed_board_accepts_a_move_it_forbids_with_a_reminder_then_refuses_once_confirmed(tmp_path):
    """"You may move up to the number of spaces shown on the Movement Die": L is 3 roads from
    Start on the assumed board, the roll is 1. The assumed board is not the owner's board, so the
    move is accepted with a reminder; once the owner confirms the board, the rule refuses it."""
    cat = catalog(tmp_path)
    engine = cat("incredibles")
    s = far_move(engine, {})
    assert s.movers[0].space == "L"
    assert any("the board is not confirmed: distance not checked" in line for line in s.log)
    # the game's reminders say so too, until the next roll of the Movement Die
    reminded = [r for r in engine.reminders(s) if "not confirmed" in r["text"]]
    assert [r["rule"] for r in reminded] == [R_MOVE], engine.reminders(s)
    assert reminded[0]["text"].startswith("The board is not confirmed: distance not checked (L ")
    assert "unchecked" not in engine.to_json(s)
    later = s if s.phase == "roll" else engine.apply(s, Action("fix", "dash"), random.Random(0))
    later = engine.apply(later, Action("roll", "dash", {"face": "1"}), random.Random(0))
    assert not any("not confirmed" in r["text"] for r in engine.reminders(later))

    with pytest.raises(IllegalAction) as err:          # the players may ask for strict checks
        far_move(cat("incredibles"), {"unconfirmed": "refuse"})
    assert "L is more than 1 space from Start" in str(err.value)

    engine = save_edit(cat, "incredibles", "board", None)    # confirmed as it is
    with pytest.raises(IllegalAction) as err:
        far_move(engine, {"box": engine.boxed.record({})["box"]})
    assert "L is more than 1 space from Start" in str(err.value)
    assert err.value.rule == R_MOVE
    with pytest.raises(SetupError):
        far_move(engine, {"unconfirmed": "maybe"})


def test_a_board_link_edit_opens_a_road_the_shipped_board_lacks(tmp_path):
    cat = catalog(tmp_path)
    links = box_items.items_of(cat("incredibles"), cat("incredibles").boxed.raw())[0]["board"]["links"]
    engine = save_edit(cat, "incredibles", "board", {"links": links + [["start", "L"]]})
    assert engine.data.trusted("board") and "L" in engine.data.adjacency["start"]
    s = far_move(engine, engine.boxed.record({}))
    assert s.movers[0].space == "L" and not any("not confirmed" in line for line in s.log)
    assert not any("not confirmed" in r["text"] for r in engine.reminders(s))


@pytest.mark.parametrize("text, where", [
    ('format = 1\ngame = "incredibles"\n[patch.board]\nnumbered = "sixteen"\n', "board.numbered: expected int"),
    ('format = 1\ngame = "incredibles"\n[patch.deck]\nvillain = ["A"]\n', "deck.villain: unknown card kind"),
    ('format = 1\ngame = "incredibles"\n[[patch.heroes]]\nid = "jack-jack"\npower = "speed"\n', "heroes[4].name: missing"),
    ('format = 1\ngame = "xmen-alert"\n', "game: this is a box for 'xmen-alert'"),
    ('format = 2\ngame = "incredibles"\n', "format: expected 1"),
    ('format = 1\ngame = "incredibles"\npatch = 3\n', "patch: expected a table"),
    ("format = 1\ngame = [\n", "not valid TOML"),
    ("#" * (MAX_BYTES + 1), "larger than a box file may be"),
])
def test_a_bad_box_file_names_the_place_and_changes_nothing(tmp_path, text, where):
    cat = catalog(tmp_path)
    engine = save_edit(cat, "incredibles", "card/edna-1", None)
    saved = engine.boxed.store.path("incredibles").read_bytes()
    with pytest.raises(DataFileError) as err:
        box_items.import_box(cat, "incredibles", text)
    assert where in str(err.value)
    assert engine.boxed.store.path("incredibles").read_bytes() == saved
    assert cat("incredibles").data.cards == engine.data.cards


def test_the_checklist_counts_what_is_still_assumed(tmp_path):
    cat = catalog(tmp_path)
    summary = box_items.describe(cat("incredibles"))["checklist"]["summary"]
    assert summary.startswith("The Incredibles: Save the Day: board assumed")
    assert "0 of 30 cards confirmed" in summary and "problem track printed" in summary
    save_edit(cat, "incredibles", "board", None)
    for cid in ("problem-A", "edna-2"):
        save_edit(cat, "incredibles", f"card/{cid}", None)
    described = box_items.describe(cat("incredibles"))
    assert "board confirmed" in described["checklist"]["summary"]
    assert "2 of 30 cards confirmed" in described["checklist"]["summary"]
    assert "card/problem-A" not in described["checklist"]["assumed"]


def test_xmen_stat_values_are_corrected_through_the_generic_form_and_checked_by_its_loader(tmp_path):
    cat = catalog(tmp_path)
    items = {i["key"]: i for i in box_items.describe(cat("xmen-alert"))["items"]}
    assert items["characters/wolverine"]["status"] == "printed"
    assumed = next(k for k, i in items.items() if k.startswith("characters/") and i["status"] == "assumed")
    with pytest.raises(DataFileError) as err:          # Total Power must be the sum
        box_items.edit(cat("xmen-alert"), assumed, {"fighting_skill": 9})
    assert "total_power" in str(err.value)
    with pytest.raises(DataFileError) as err:
        box_items.edit(cat("xmen-alert"), "characters/wolverine", {"fighting_skill": 9})
    assert "printed in the rulebook" in str(err.value)
    with pytest.raises(DataFileError) as err:
        box_items.edit(cat("xmen-alert"), assumed, {"durability": "three"})
    assert f"{assumed}.durability: expected a whole number" in str(err.value)
    old = items[assumed]["fields"]
    value = {f["name"]: f["value"] for f in old}
    engine = save_edit(cat, "xmen-alert", assumed, {"durability": value["durability"] + 1,
                                                     "total_power": value["total_power"] + 1})
    cid = assumed.split("/")[1]
    assert engine.data.characters[cid].durability == value["durability"] + 1
    after = {i["key"]: i for i in box_items.describe(engine)["items"]}
    assert after[assumed]["status"] == "confirmed"


def test_invincible_villain_health_and_zone_are_corrected_across_its_three_files(tmp_path):
    cat = catalog(tmp_path)
    items = {i["key"]: i for i in box_items.describe(cat("invincible"))["items"]}
    assert items["villains/bi-plane"]["status"] == "assumed"
    assert "id" not in {f["name"] for f in items["villains/bi-plane"]["fields"]}
    with pytest.raises(DataFileError) as err:
        box_items.edit(cat("invincible"), "villains/bi-plane", {"zone": "moon"})
    assert "villains[0].zone" in str(err.value)
    engine = save_edit(cat, "invincible", "villains/bi-plane", {"health": [6, 7, 8], "zone": "right"})
    assert engine.data.villains["bi-plane"].health == (6, 7, 8)
    assert engine.data.villains["bi-plane"].zone == "right"
    options = engine.record_box({})
    assert engine.resolve_data(options).villains["bi-plane"].health == (6, 7, 8)
    assert engine.resolve_data({}).villains["bi-plane"].health != (6, 7, 8)   # a game from before


def test_a_box_made_against_other_base_data_is_flagged_until_saved_again(tmp_path):
    """The owner's box remembers the base data it was made against; when the base file changes
    under it (an update, the owner's full copy edited by hand) the Your box page and the setup
    page say so, and saving the box again records it against the new base."""
    import shutil

    from companion.games.incredibles import data as incredibles_data

    cat = catalog(tmp_path)
    engine = save_edit(cat, "incredibles", "jackjack_die", None)
    assert engine.boxed.box.base == engine.boxed.base_hash()
    assert engine.boxed.base_warning() is None
    assert box_items.describe(engine)["warning"] is None
    # the base changes under the box: the owner's full copy of the file, one note different
    shipped = incredibles_data.boxed(None).paths[0]
    copy = tmp_path / "components" / shipped.name
    shutil.copy(shipped, copy)
    text = copy.read_text(encoding="utf-8")
    copy.write_text(text + "\n# the owner's copy: a comment changes no data\n", encoding="utf-8")
    cat.reload("incredibles")
    assert box_items.describe(cat("incredibles"))["warning"] is None
    copy.write_text(text.replace('note = "Faces not printed.', 'note = "(Owner) Faces not printed.', 1),
                    encoding="utf-8")
    cat.reload("incredibles")
    engine = cat("incredibles")
    warning = box_items.describe(engine)["warning"]
    assert warning and "changed since your box was made" in warning and str(copy) in warning
    # a box file without a base (older than the check) says nothing; a bad base is refused
    assert parse_box('format = 1\ngame = "incredibles"\n', "incredibles").base is None
    with pytest.raises(DataFileError, match="base: expected the SHA-256"):
        parse_box('format = 1\ngame = "incredibles"\nbase = "abc"\n', "incredibles")
    # saving the box again (any item confirmed) records it against this base
    engine = save_edit(cat, "incredibles", "jackjack_die", None)
    assert engine.boxed.base_warning() is None
