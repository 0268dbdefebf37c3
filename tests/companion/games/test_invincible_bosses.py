"""The bosses of episodes 4 and 7 (Machine Head, Omni-Man) and the Omni-Man Event cards. The
rulebook prints only that they are enemies and how many Omni-Man Event cards there are; what a
boss does is the episode file's data (assumed). Each test quotes the rulebook sentence it checks."""

import random
import shutil
from dataclasses import replace

import pytest

from companion.errors import DataFileError, IllegalAction
from companion.games import Catalog
from companion.games.invincible.data import HERE
from invincible_helpers import engine, table  # noqa: F401 (fixtures)

ENEMY = ("Minions and villains are treated as distinct — an effect that targets one never "
         "applies to the other — but the term \"enemy\" covers both (as well as the Machine Head "
         "and Omni-Man bosses that appear in episodes 4 and 7).")


def _with_boss(table, episode, heroes=("invincible", "atom-eve")):
    """A game of ``episode`` whose first track space is the boss's icon: in the Hero Phase."""
    t = table(heroes=heroes, episode=episode)
    t.state.track[0] = ["boss"]
    t.act("advance")
    assert t.state.phase == "hero"
    return t


def _options(engine, s, step=0):
    return engine.expect(s)["resolving"]["steps"][step]["options"]


def _villain_phase(t, event="event-1b", **reveal):
    """The Villain Phase with ``event`` on top (event-1b: the leftmost villain's power; with no
    villain in play it does nothing, so what happens is the boss's)."""
    s = t.state
    s.phase = "villain"
    if event in s.decks["event"]:
        s.decks["event"].remove(event)
    s.decks["event"].insert(0, event)
    t.act("reveal", **reveal)
    while t.state.pending is not None and t.state.pending["kind"] != "contingency":
        # a random zone to roll, a tie to break
        p = t.state.pending
        t.act("roll") if p["kind"] == "random_zone" else t.act("choose", zone=p["options"][0])
    return t.state


def test_machine_head_enters_episode_4_at_its_track_icon(engine, table):
    """The bosses 'appear in episodes 4 and 7' (printed); Machine Head's zone, health and arrive
    effect (two minions) are the data's assumptions, its health by hero count like a villain's
    ('separate totals for 2-, 3-, and 4-hero games')."""
    t = _with_boss(table, 4)
    b = t.state.boss
    boss = engine.data.bosses["machine-head"]
    assert (b.id, b.zone, b.health) == ("machine-head", boss.zone, boss.health[0])
    assert t.state.zone(boss.zone).minions == 2
    assert all(v is None for v in t.state.zone(boss.zone).villains)   # it takes no villain slot
    assert engine.to_json(t.state)["boss"]["remaining"] == boss.health[0]
    t3 = table(heroes=("invincible", "atom-eve", "robot"), episode=7)
    t3.state.track[0] = ["boss"]
    assert t3.act("advance").boss.health == engine.data.bosses["omni-man"].health[1]


def test_a_power_damages_the_boss_as_an_enemy_and_defeating_it_wins(engine, table):
    """ENEMY; 'When a power deals damage, place that many damage tokens on a single enemy within
    range'. Episode 4's win (assumed data: defeat_boss) is met the instant Machine Head falls:
    'you win the instant it's satisfied'."""
    t = _with_boss(table, 4)
    assert t.state.hero("invincible").zone == t.state.boss.zone == "center"
    t.fill("invincible", "attack")
    assert {"target": "boss"} in _options(engine, t.state)
    s = t.act("effect", hero="invincible", target="boss")
    assert s.boss.damage == 2 and s.result is None
    t.state.boss = replace(t.state.boss, damage=t.state.boss.health - 1)
    t.fill("atom-eve", "move", to="center")
    s = t.fill("atom-eve", "attack", target="boss")
    assert s.boss.defeated and s.boss.zone is None
    assert s.result["status"] == "won" and "Machine Head" in s.result["reason"]


def test_the_boss_out_of_range_is_not_offered(engine, table):
    """'Unless a power says otherwise, it can only affect your own zone'."""
    t = _with_boss(table, 4)
    t.fill("atom-eve", "attack")          # Eve stands in the left zone, the boss in the center
    assert t.state.resolving is None or {"target": "boss"} not in _options(engine, t.state)
    with pytest.raises(IllegalAction):
        t.act("effect", hero="atom-eve", target="boss")


def test_explosive_damage_hits_the_boss_too(engine, table):
    """'A power with Explosive deals its listed damage to every enemy — villains and minions
    alike — in the hero's zone' (and ENEMY: the bosses are enemies)."""
    t = _with_boss(table, 4, heroes=("rex-splode", "atom-eve"))
    t.state.hero("rex-splode").zone = "center"
    s = t.fill("rex-splode", "starter", zone="center")            # Big 'Splode
    assert s.zone("center").minions == 0 and s.boss.damage == 1


def test_thwart_and_hurl_into_space_name_villains_not_the_boss(engine, table):
    """'When you thwart, place a thwart token on a villain in your zone or on an episode
    ability' and Hurl Into Space's 'targeted villain': a boss is an enemy, not a villain
    (ENEMY: 'an effect that targets one never applies to the other')."""
    t = _with_boss(table, 4)
    t.put_villain("magmaniac", "center")
    t.fill("invincible", "thwart")
    assert _options(engine, t.state) == [{"villain": "magmaniac"}]
    t.act("effect", hero="invincible", villain="magmaniac")
    t.give("atom-eve", "flex1", "hurl-into-space")
    t.state.hero("atom-eve").zone = "center"
    t.fill("atom-eve", "flex1")
    assert _options(engine, t.state) == [{"villain": "magmaniac"}]


def test_telekimeanness_moves_the_boss_as_an_enemy(engine, table):
    """Telekimeanness: 'If you choose the "move an enemy" option, move an enemy from your zone
    into an adjacent one.' The boss takes no villain slot (assumed), so any adjacent zone."""
    t = _with_boss(table, 4)
    t.give("invincible", "flex1", "telekimeanness")
    t.fill("invincible", "flex1")
    assert {"target": "boss", "to": "left"} in _options(engine, t.state)
    s = t.act("effect", hero="invincible", step=0, target="boss", to="left")
    assert s.boss.zone == "left"


def test_telekimeanness_knock_takes_the_boss_as_the_other_enemy(engine, table):
    """Telekimeanness: '"Knock" ... you simply choose a minion and another enemy in your zone and
    deal 1 damage to each.' and ENEMY: the boss is such an enemy."""
    t = _with_boss(table, 4)
    assert t.state.zone("center").minions == 2                       # Machine Head's arrival
    t.give("invincible", "flex1", "telekimeanness")
    t.fill("invincible", "flex1")
    assert {"target": "boss"} in _options(engine, t.state, 1)
    s = t.act("effect", hero="invincible", step=1, target="boss")
    assert s.zone("center").minions == 1 and s.boss.damage == 1 and s.resolving is None


def test_robots_drone_goes_on_the_boss_and_leaves_it_when_it_is_defeated(engine, table):
    """Coordinated Assault: 'It stays there whenever it isn't placed on an enemy. The drone only
    comes off when a hero uses it to boost their damage' and ENEMY (the boss is an enemy)."""
    t = _with_boss(table, 4, heroes=("robot", "invincible"))
    t.state.hero("robot").zone = "center"
    t.fill("robot", "starter")
    assert {"target": "boss"} in _options(engine, t.state, 1)
    t.act("effect", hero="robot", step=0, target="minion", zone="center")
    s = t.act("effect", hero="robot", step=0, target="boss")
    assert s.drone == "boss"
    t.fill("invincible", "attack")
    assert {"target": "boss", "drone": True} in _options(engine, t.state)
    s = t.act("effect", hero="invincible", target="boss", drone=True)
    assert s.boss.damage == 3 and s.drone is None                     # 2 + the drone's 1
    t.state.drone = "boss"
    t.state.boss = replace(t.state.boss, damage=t.state.boss.health - 1)
    s = t.fill("robot", "attack", target="boss")
    assert s.boss.defeated and s.drone is None


def test_machine_head_acts_after_the_event_card_and_its_damage_hits_every_hero_there(engine,
                                                                                     table):
    """'Whenever an enemy deals damage, it hits every hero standing in its zone. If no hero is
    present, it endangers that many civilians instead.' Machine Head acting in every Villain
    Phase after the event card (its power, then its strike) is the data's assumption; Eve's
    bubble does not stop it: 'The bubble only blocks damage from villains'."""
    t = _with_boss(table, 4)
    t.state.bubble = "invincible"
    before = t.state.zone("center")
    safety, minions = before.safety, before.minions
    s = _villain_phase(t)
    boss = engine.data.bosses["machine-head"]
    assert [e for e in boss.power] == [{"minions": 1}, {"endanger": 1}]
    assert s.zone("center").minions == min(3, minions + 1)
    assert s.zone("center").safety == safety - 1
    assert s.hero("invincible").damage == 2 and s.bubble == "invincible"
    assert s.hero("atom-eve").damage == 0               # in the left zone
    s.boss = replace(s.boss, zone="right")              # no hero there: endangers instead
    s.phase, s.round = "villain", s.round + 1
    right = s.zone("right").safety
    s = _villain_phase(t)
    assert s.zone("right").safety == right - 3          # endanger 1, then 2 damage -> 2 civilians


def test_omni_man_reveals_one_of_his_twelve_event_cards_each_villain_phase(engine, table):
    """The box holds '12 Omni-Man Event cards' (printed); that one is revealed after each event
    card while Omni-Man is in play is the data's assumption. A physical card drawn at the table
    (data.boss_card) must be one still in his deck; the deck reshuffles when it runs out
    (assumed, as the event deck)."""
    t = _with_boss(table, 7)
    assert len(t.state.decks["boss"]) == 12
    s = _villain_phase(t, boss_card="omni-man-05")      # { damage = 4 } in his zone
    assert s.discards["boss"] == ["omni-man-05"] and s.hero("invincible").damage == 4
    assert "Omni-Man's event: Omni-Man Event 05 (placeholder)." in s.log
    s.phase, s.round = "villain", s.round + 1
    with pytest.raises(IllegalAction, match="not in the boss's event deck"):
        _villain_phase(t, boss_card="omni-man-05")
    assert t.state.discards["boss"] == ["omni-man-05"]  # refused: nothing changed
    for _ in range(11):
        t.state.phase = "villain"
        for h in t.state.heroes:
            h.damage, h.zone = 0, "hq"                  # nobody gets KOed on the way
        for z in t.state.zones:
            z.safety, z.danger, z.dead = 3, 7, 0        # nor do civilians run out
        s = _villain_phase(t)
        if s.result is not None:
            pytest.fail(f"the game ended: {s.result}")
    assert s.decks["boss"] == [] and len(s.discards["boss"]) == 12
    s.phase = "villain"
    s = _villain_phase(t)
    assert any("boss's event deck ran out" in line for line in s.log)
    assert len(s.decks["boss"]) == 11 and len(s.discards["boss"]) == 1


def test_no_boss_event_without_a_boss_in_play(table):
    """A boss event card is for the boss in play: Episode 7 before Omni-Man enters has none."""
    t = table(episode=7)
    t.state.track[0] = []
    t.act("advance")
    with pytest.raises(IllegalAction, match="no boss is in play"):
        _villain_phase(t, boss_card="omni-man-01")
    s = _villain_phase(t)
    assert len(s.decks["boss"]) == 12


def test_cecils_contingency_cancels_villain_abilities_not_the_boss(engine, table):
    """Cecil's Contingency: 'cancel up to two villain powers and/or strikes for that Villain
    Phase' — a boss is not a villain (ENEMY)."""
    t = table(episode=4, helpers=["cecils-contingency"])
    t.state.track[0] = ["boss"]
    t.act("advance")
    t.put_villain("magmaniac", "left")
    s = _villain_phase(t)
    assert s.pending["kind"] == "contingency"
    assert s.pending["options"] == ["magmaniac:power"]


def test_a_boss_icon_or_boss_win_needs_the_episode_s_boss(tmp_path):
    """The data is checked before any game starts; errors name the file and the key."""
    for name in ("invincible.toml", "invincible_powers.toml", "invincible_episodes.toml"):
        shutil.copy(HERE / name, tmp_path / name)
    episodes = (tmp_path / "invincible_episodes.toml").read_text()
    (tmp_path / "invincible_episodes.toml").write_text(
        episodes.replace('boss = "machine-head"\nwin = { kind = "defeat_boss" }',
                         'win = { kind = "defeat_boss" }'))
    with pytest.raises(DataFileError, match=r"episodes\[3\].win.kind: defeat_boss needs"):
        Catalog(tmp_path)("invincible")
    (tmp_path / "invincible_episodes.toml").write_text(
        episodes.replace('boss = "machine-head"', 'boss = "battle-beast"'))
    with pytest.raises(DataFileError, match=r"episodes\[3\].boss: 'battle-beast' is not one of"):
        Catalog(tmp_path)("invincible")
    (tmp_path / "invincible_episodes.toml").write_text(
        episodes.replace('[["villain 1"], ["villain 2", "minions all 1"]',
                         '[["boss"], ["villain 2", "minions all 1"]', 1))
    with pytest.raises(DataFileError, match=r"episodes\[1\].sides\[0\].track\[0\]: 'boss': this "
                                            r"episode has no boss"):
        Catalog(tmp_path)("invincible")


def test_a_saved_state_with_a_boss_restores(engine, table):
    """A journal snapshot keeps the boss (companion/state_codec.py)."""
    t = _with_boss(table, 7)
    t.fill("invincible", "attack", target="boss")
    first = engine.setup({"heroes": ["invincible", "atom-eve"], "episode": 7}, random.Random(0))
    back = engine.load_state(engine.save_state(t.state), first)
    assert back.boss == t.state.boss and engine.to_json(back) == engine.to_json(t.state)
