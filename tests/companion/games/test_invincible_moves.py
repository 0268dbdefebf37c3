"""The move table: what expect lists is what apply accepts, heroes act at the same time, and
every action's arguments are checked field by field before any rule runs. Each test quotes the
rulebook sentence it checks."""

import random
import shutil

import pytest

from companion.actions import Action
from companion.errors import BadAction, IllegalAction
from companion.games import Catalog
from companion.games.invincible.data import HERE
from invincible_helpers import Table, engine, table  # noqa: F401 (fixtures)


def listed(t):
    return t.engine.expect(t.state)["actions"]


def test_an_effect_is_listed_only_while_it_can_apply(table):
    """'the moment a cube covers a power's last remaining symbol, you resolve that power
    immediately': effect is listed only while a power resolves with an effect something in range
    can take, decline only while the card lets one be skipped; the typed effects never are."""
    t = table()
    t.to_hero_phase()
    assert not {"effect", "decline", "damage", "move", "rescue"} & set(listed(t))
    t.put_villain("thug-b", "center")
    t.fill("invincible", "attack")
    assert "effect" in listed(t) and "decline" not in listed(t)
    s = t.act("effect", hero="invincible", target="thug-b")
    assert s.zone("center").villains[0].damage == 2 and "effect" not in listed(t)
    t.fill("invincible", "starter")                   # Flying Charge: damage 2 and/or move
    assert {"effect", "decline"} <= set(listed(t))


def test_explosive_damage_needs_an_enemy_in_the_zone(table):
    """'A power with Explosive deals its listed damage to every enemy — villains and minions
    alike — in the hero's zone': where there is no enemy the effect changes nothing, and the
    companion says so rather than pretend it applied."""
    t = table(heroes=("rex-splode", "atom-eve"))
    t.to_hero_phase()
    t.put_villain("thug-b", "right")
    t.state.hero("rex-splode").zone = zone = "left"
    s = t.fill("rex-splode", "starter")
    assert s.resolving is None and f"Big 'Splode: nothing in range for explosive 1." in s.log
    t.state.hero("rex-splode").powers["starter"] = t.state.hero("rex-splode").powers[
        "starter"].with_cubes([None] * 3)
    t.state.zone(zone).minions = 2
    s = t.fill("rex-splode", "starter", zone=zone)
    assert s.zone(zone).minions == 0


def test_use_helper_is_listed_while_a_helper_can_be_spent(table):
    """'Helper cards grant the team a one-time special power to use whenever they need it':
    listed while the team holds one it may spend now, not before, not after."""
    assert "use_helper" not in listed(table())
    t = table(helpers=["helper-2"])
    assert "use_helper" in listed(t)
    t.act("use_helper", helper="helper-2")
    assert "use_helper" not in listed(t)
    cecil = table(helpers=["cecils-contingency"])     # spent only right after a reveal
    assert "use_helper" not in listed(cecil)
    with pytest.raises(IllegalAction, match="right after an event card"):
        cecil.act("use_helper", helper="cecils-contingency")


def test_declare_win_only_where_the_episode_leaves_the_win_to_the_players(tmp_path):
    """'Your episode card shows the win condition for the current mission, and you win the
    instant it's satisfied': where the data says the companion cannot check it (kind =
    "declare"), the players declare it; elsewhere the companion checks it itself."""
    for name in ("invincible.toml", "invincible_powers.toml", "invincible_episodes.toml"):
        shutil.copy(HERE / name, tmp_path / name)
    path = tmp_path / "invincible_episodes.toml"
    path.write_text(path.read_text().replace('win = { kind = "defeat_level", level = 2 }\n'
                                             'win_text = "Defeat all three',
                                             'win = { kind = "declare" }\nwin_text = "Defeat all three', 1))
    declared = Table(Catalog(tmp_path)("invincible"), {"heroes": ["invincible", "atom-eve"]})
    assert "declare_win" in listed(declared)
    s = declared.act("declare_win")
    assert s.result["status"] == "won" and s.phase == "over"
    checked = Table(Catalog()("invincible"), {"heroes": ["invincible", "atom-eve"]})
    assert "declare_win" not in listed(checked)
    with pytest.raises(IllegalAction, match="checked by the companion"):
        checked.act("declare_win")


def test_heroes_pull_and_play_independently(table):
    """'Heroes pull and play independently — you don't need to sync your pulls with teammates'
    and 'players can stop independently, so one hero may keep pulling while another has already
    finished': each hero's own moves are listed hero by hero, in any order."""
    t = table(heroes=("invincible", "atom-eve", "robot"))
    t.to_hero_phase()
    heroes = {h["hero"]: h["actions"] for h in t.engine.expect(t.state)["heroes"]}
    assert heroes == {"invincible": ["pull", "done"], "atom-eve": ["pull", "done"],
                      "robot": ["pull", "done"]}
    t.act("pull", hero="robot", cubes=["yellow", "yellow", "blue"])
    t.act("done", hero="atom-eve")
    t.act("pull", hero="invincible", cubes=["orange", "orange", "orange"])
    heroes = {h["hero"]: h["actions"] for h in t.engine.expect(t.state)["heroes"]}
    assert heroes["atom-eve"] == []
    assert heroes["robot"] == ["play", "drop", "defiance", "done"]
    assert heroes["invincible"] == ["play", "drop", "defiance", "done"]
    with pytest.raises(BadAction, match="not a player of this game"):
        t.engine.apply(t.state, Action("done", "Nobody at this table"), random.Random(0))


@pytest.mark.parametrize("kind,data,field", [
    ("effect", {"target": "omni-man"}, "data.target"),
    ("effect", {"to": "mars"}, "data.to"),
    ("effect", {"colour": "green"}, "data.colour"),
    ("effect", {"step": -1}, "data.step"),
    ("effect", {"face": "six"}, "data.face"),
    ("decline", {"step": "first"}, "data.step"),
    ("play", {"cube": "green", "power": "attack"}, "data.cube"),
    ("play", {"cube": "yellow", "power": "attack", "symbol": -1}, "data.symbol"),
    ("pull", {"cubes": ["yellow"] * 4}, "data.cubes"),
    ("pull", {"hero": 12}, "data.hero"),
])
def test_arguments_are_refused_by_the_field(table, kind, data, field):
    """Bad input gets a clear error that names the field, and loses nothing."""
    t = table()
    t.to_hero_phase()
    t.put_villain("thug-a", "center")
    if kind in ("effect", "decline"):
        t.fill("invincible", "starter")     # Flying Charge resolving: both moves are open
    before = t.engine.to_json(t.state)
    with pytest.raises(BadAction, match=field):
        t.engine.apply(t.state, Action(kind, data={"hero": "invincible", **data}),
                       random.Random(0))
    assert t.engine.to_json(t.state) == before


def test_a_move_of_another_phase_is_refused_with_what_is_expected(table):
    """'Every round proceeds through four phases, in this order': a move of another phase is
    refused with the prompt of this one, citing this phase's rule."""
    t = table()
    with pytest.raises(IllegalAction, match="Round 1: advance the episode track") as err:
        t.act("pull", hero="invincible")
    assert err.value.rule == "Advance the Episode"
