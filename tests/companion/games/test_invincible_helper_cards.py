"""Helper cards with effects: the rulebook prints no helper's text, so a helper's ``effects`` are
the owner's transcription (a power's schema); using one opens them as steps the table answers and
the engine applies with the amounts the card carries. Each test quotes the rulebook."""

import shutil

import pytest

from companion import box_items
from companion.errors import DataFileError, IllegalAction
from companion.games import Catalog
from companion.games.invincible.data import HERE
from invincible_helpers import Table

FILES = ("invincible.toml", "invincible_powers.toml", "invincible_episodes.toml")
PLACEHOLDER = '[[helpers]]\nid = "helper-2"\n'


def owner_copy(tmp_path, helper_lines):
    """The shipped files in an owner's folder, with ``helper_lines`` added to Helper 2."""
    for name in FILES:
        shutil.copy(HERE / name, tmp_path / name)
    path = tmp_path / "invincible.toml"
    text = path.read_text()
    assert PLACEHOLDER in text
    path.write_text(text.replace(PLACEHOLDER, PLACEHOLDER + helper_lines, 1))
    return path


def owners_table(tmp_path, helper_lines):
    owner_copy(tmp_path, helper_lines)
    t = Table(Catalog(tmp_path)("invincible"),
              {"heroes": ["invincible", "atom-eve"], "helpers": ["helper-2"]})
    return t


DAMAGE_AND_RESCUE = 'effects = [{ kind = "damage", amount = 3 }, { kind = "rescue", amount = 1 }]\n'


def test_a_helper_with_effects_is_used_when_a_power_could_be_activated(tmp_path):
    """'Helper cards grant the team a one-time special power to use whenever they need it ...
    unless a helper specifies otherwise, it can be used any time a power could be activated':
    not while the episode advances, in the Hero Phase by a hero who could fill a power, once."""
    t = owners_table(tmp_path, DAMAGE_AND_RESCUE)
    assert "use_helper" not in t.engine.expect(t.state)["actions"]
    with pytest.raises(IllegalAction, match="any time a power could be activated"):
        t.act("use_helper", helper="helper-2", hero="invincible")
    t.to_hero_phase()
    assert "use_helper" in t.engine.expect(t.state)["actions"]
    # what the phones offer: the helper, through each hero who could activate a power now
    assert [(h["helper"], h["heroes"]) for h in t.engine.expect(t.state)["helpers"]] == [
        ("helper-2", ["invincible", "atom-eve"])]
    t.act("done", hero="invincible")
    assert t.engine.expect(t.state)["helpers"][0]["heroes"] == ["atom-eve"]
    with pytest.raises(IllegalAction, match="no power could be activated now by Invincible"):
        t.act("use_helper", helper="helper-2", hero="invincible")
    s = t.act("use_helper", helper="helper-2", hero="atom-eve")
    assert s.helpers == [] and s.helpers_used == ["helper-2"]
    assert s.resolutions["atom-eve"]["name"] == "Helper 2"
    assert "use_helper" not in t.engine.expect(s)["actions"]


def test_an_owner_filled_helper_deals_its_damage_and_rescues_in_any_zone(tmp_path):
    """'Unlike normal powers, helper cards aren't restricted to a hero's current zone — they can
    affect any zone': the helper's damage 3 lands on a villain two zones away, exactly 3, and its
    rescue is attempted there; the engine applies both, the table only names the target."""
    t = owners_table(tmp_path, DAMAGE_AND_RESCUE)
    t.to_hero_phase()
    t.state.hero("atom-eve").zone = "left"
    t.put_villain("magmaniac", "right")
    danger = t.state.zone("right").danger
    assert danger > 0
    s = t.act("use_helper", helper="helper-2", hero="atom-eve")
    steps = s.resolutions["atom-eve"]["steps"]
    assert [st["kind"] for st in steps] == ["damage", "rescue"]
    with pytest.raises(IllegalAction, match="not a villain in play"):
        t.act("effect", hero="atom-eve", step=0, target="thug-a")   # not in play
    s = t.act("effect", hero="atom-eve", step=0, target="magmaniac")
    assert [v.damage for v in s.zone("right").villains if v is not None] == [3]
    s = t.act("effect", hero="atom-eve", zone="right", face="rescue-right")
    assert s.zone("right").danger == danger - 1
    assert "atom-eve" not in s.resolutions and "Helper 2 is resolved." in s.log


def test_a_placeholder_helper_has_no_effect_and_is_marked_assumed():
    """'You keep any helper cards until you actually use them': a placeholder (its text is not
    printed) is only spent, changes nothing on the board, and the Your box page lists it as
    assumed, like other data the rulebook does not print."""
    engine = Catalog()("invincible")
    assert not engine.data.helpers["helper-2"].effects
    assert "helper helper-2" in engine.data.assumptions
    t = Table(engine, {"heroes": ["invincible", "atom-eve"], "helpers": ["helper-2"]})
    t.to_hero_phase()
    before = [(z.danger, z.safety) for z in (t.state.zone(n) for n in engine.data.zones)]
    s = t.act("use_helper", helper="helper-2")
    assert s.helpers_used == ["helper-2"] and not s.resolutions
    assert [(z.danger, z.safety) for z in (s.zone(n) for n in engine.data.zones)] == before
    items = {i["key"]: i for i in box_items.describe(engine)["items"]}
    assert all(items[f"helpers/helper-{n}"]["status"] == "assumed" for n in range(2, 7))
    assert "helpers/helper-2" in box_items.describe(engine)["checklist"]["assumed"]


@pytest.mark.parametrize("lines, key, words", [
    ('effects = [{ kind = "teleport" }]\n', "kind", "teleport"),
    ('effects = [{ kind = "damage", amount = 99 }]\n', "amount", "0 to 20"),
    ('effects = [{ kind = "immortal" }]\n', "kind", "helper card has none"),
])
def test_a_bad_helper_effect_is_refused_naming_the_file_and_key(tmp_path, lines, key, words):
    """'No effect without a source ... with the amounts printed': an effect the engine cannot
    apply is refused when the file loads, before any game starts."""
    path = owner_copy(tmp_path, lines)
    with pytest.raises(DataFileError) as err:
        Catalog(tmp_path)("invincible")
    message = str(err.value)
    assert path.name in message and "helpers" in message and key in message and words in message


FILLED = {
    "helper-2": DAMAGE_AND_RESCUE,
    "helper-3": 'effects = [{ kind = "thwart", amount = 1 }, { kind = "heal", target = "hero", amount = 2 }]\n',
    "helper-4": 'effects = [{ kind = "move", target = "hero" }, { kind = "hurl" }]\n',
    "helper-5": 'effects = [{ kind = "explosive", amount = 2 }]\n',
    "helper-6": 'one_of = true\neffects = [{ kind = "gain_cube", colour = "any" }, { kind = "strengthen" }]\n',
}


def test_random_games_with_owner_filled_helpers_keep_to_what_expect_lists(tmp_path):
    """'the team decides together when and how to use one': random games whose helpers all carry
    effects use them at every moment expect offers them, and every step the sampler takes from
    expect is accepted, to the end of each game."""
    import random

    from companion.rng import rng_for
    for name in FILES:
        shutil.copy(HERE / name, tmp_path / name)
    path = tmp_path / "invincible.toml"
    text = path.read_text()
    for helper, lines in FILLED.items():
        head = f'[[helpers]]\nid = "{helper}"\n'
        assert head in text
        text = text.replace(head, head + lines, 1)
    path.write_text(text)
    engine = Catalog(tmp_path)("invincible")
    used = 0
    for seed in range(30):
        rng = random.Random(seed)
        options = {**engine.sample_options(rng), "helpers": [
            ["helper-2", "helper-4"], ["helper-3", "helper-5"], ["helper-6"]][seed % 3]}
        state = engine.setup(options, rng_for(seed, "setup"))
        step = 0
        while engine.outcome(state)["status"] == "playing" and step < 3000:
            action = engine.sample_action(state, rng)
            used += action.type == "use_helper"
            state = engine.apply(state, action, rng_for(seed, step))
            step += 1
        assert engine.outcome(state)["status"] in ("won", "lost"), seed
    assert used > 0
