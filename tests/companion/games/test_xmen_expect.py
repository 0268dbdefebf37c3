"""What the engine tells the table and the camera, checked over many random game states: every
roll it announces is at most nine dice and is accepted as one action; apply never changes the
state it is given."""

import random

import pytest

from companion.actions import Action
from companion.errors import IllegalAction
from companion.games.xmen.state import R_WIN
from companion.rng import rng_for
from xmen_helpers import BASIC_DECK, roll


def random_states(engine, games=40):
    for seed in range(games):
        rng = random.Random(seed)
        options = engine.sample_options(rng)
        state = engine.setup(options, rng_for(seed, "setup"))
        n = 0
        while engine.outcome(state)["status"] == "playing":
            yield seed, state
            state = engine.apply(state, engine.sample_action(state, rng), rng_for(seed, n))
            n += 1


def test_every_announced_roll_is_at_most_nine_dice_and_is_accepted_as_one_action(engine):
    """ "The maximum number of dice you can roll at one time is nine." The camera submits a read of
    up to nine dice as one roll action, built from an entry of expect["dice"]."""
    purposes = set()
    for seed, state in random_states(engine):
        expect = engine.expect(state)
        for entry in expect["dice"]:
            assert 0 < entry["count"] <= 9
            assert entry["player"] == expect["player"] and entry["action"] in expect["actions"]
            purposes.add(entry["purpose"])
            faces = [random.Random(seed).choice(entry["faces"]) for _ in range(entry["count"])]
            action = Action(entry["action"], entry["player"], {**entry["data"], "faces": faces})
            after = engine.apply(state, action, rng_for(seed, 0))
            assert engine.invariants(after) == []
    assert purposes == {"going first", "battle", "recruit", "recovery", "bonus experience"}


def test_the_next_step_names_only_what_the_team_may_do_now(engine):
    """ "Each character either battles (or recruits) or recovers in a turn, never both" and
    "once a team recruits, it cannot start battles; once it recovers, it cannot battle or recruit
    this turn" (docs/xmen-alert.md): a team whose characters have all acted, or whose turn has
    moved past deploying, is told only what is left, never "deploy" or "recover" it would be
    refused."""
    said = set()
    for seed, state in random_states(engine, games=25):
        expect = engine.expect(state)
        if expect["phase"] != "play" or expect["must"]:
            continue
        prompt, actions = expect["prompt"], expect["actions"]
        for kind, words in (("deploy", "deploy X-Men"), ("recover.roll", "recover at Headquarters"),
                            ("turn.end", "end the turn")):
            assert (words in prompt) == (kind in actions), (prompt, actions)
        said.add(prompt.split(": ", 1)[1])
    assert {"end the turn.", "deploy X-Men to a Battle Zone or end the turn.",
            "recover at Headquarters or end the turn.",
            "deploy X-Men to a Battle Zone, recover at Headquarters, or end the turn."} <= said


def test_apply_never_changes_the_state_it_is_given(engine):
    for seed, state in random_states(engine, games=10):
        before = engine.to_json(state)
        action = engine.sample_action(state, random.Random(seed))
        engine.apply(state, action, rng_for(seed, 1))
        assert engine.to_json(state) == before


def test_the_game_can_be_stopped_without_a_winner(game):
    t = game()
    t.do("game.abandon", reason="dinner")
    out = t.engine.outcome(t.s)
    assert out["status"] == "lost" and out["reason"] == "dinner"
    assert t.engine.expect(t.s)["actions"] == []


def test_no_team_and_no_card_left_ends_without_a_winner(engine, game):
    """ "that player recruits one X-Men by taking the top X-Men Power Stat Card from the deck" --
    when every team is lost and the deck is empty, nobody can play on."""
    t = game(stat_cards={"Ana": ["archangel"], "Ben": ["storm"]})
    s = t.s
    # a table where every other card is gone from play (set aside for this test)
    s.stat_deck.clear()
    s.team("Ben").heroes.clear()
    s.hero(s.team("Ana"), "archangel").hits = 6
    s.must_recover = ["archangel"]
    s = engine.apply(s, Action("recover.roll", "Ana", {"hero": "archangel", "faces": roll(4)}),
                     random.Random(0))
    assert s.team("Ana").heroes == [] and s.stat_deck == ["archangel"]
    s.stat_deck.clear()
    s = engine.apply(s, Action("turn.end", "Ana"), random.Random(0))
    out = engine.outcome(s)
    assert out["status"] == "lost" and "no team" in out["reason"] and s.phase == "over"


def test_a_character_in_a_zone_cannot_recover_or_leave(game):
    """ "Once your team has started a battle, you cannot remove characters from the Battle Zone." """
    t = game(alert_deck=BASIC_DECK, stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]})
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    t.do("battle.roll", "Ana", zone=1, faces=roll(9, evil=2))
    t.do("turn.end", "Ana")
    t.do("turn.end", "Ben")
    with pytest.raises(IllegalAction, match="must still battle"):
        t.do("recover.roll", "Ana", hero="wolverine", faces=roll(5))
    with pytest.raises(IllegalAction, match="already in Battle Zone 1"):
        t.do("deploy", "Ana", zone=2, heroes=["wolverine"])


def test_the_leader_stays_the_leader(game):
    """ "Once a team leader starts moving on the Battle Zone Strength Track, he will act as the team
    leader until the Evil Mutant is captured or the leader receives too many hits" """
    t = game(advanced=True, alert_deck=BASIC_DECK,
             stat_cards={"Ana": ["wolverine", "archangel"], "Ben": ["storm", "cable"]})
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    t.do("battle.roll", "Ana", zone=1, faces=roll(9, xmen=1))
    with pytest.raises(IllegalAction, match="already leads"):
        t.do("deploy", "Ana", zone=1, heroes=["archangel"], leader="archangel")


def test_an_extra_dice_card_and_a_bonus_card(game):
    t = game(advanced=True, alert_deck=BASIC_DECK,
             stat_cards={"Ana": ["wolverine", "havok"], "Ben": ["storm", "cable"]})
    for card in ("danger-room-1", "hero-recognition-1"):
        t.s.luck_deck.remove(card)
        t.team("Ana").held.append(card)
    t.do("card.play", "Ana", card="hero-recognition")
    t.do("deploy", "Ana", zone=3, heroes=["havok"])
    t.do("card.play", "Ana", card="danger-room-1", hero="havok")
    assert t.engine.expect(t.s)["dice"][0]["count"] == 7
    t.do("battle.roll", "Ana", zone=3, faces=roll(7, marvel=4))           # captures Blob
    t.do("turn.end", "Ana")
    assert t.s.phase == "bonus" and t.s.bonus == {"experience": 2, "dice": 2}
    with pytest.raises(IllegalAction, match="2 dice"):
        t.do("bonus.roll", "Ana", faces=roll(3))
    t.do("bonus.roll", "Ana", faces=["blank", "blank"])
    assert t.team("Ana").mover == 2 and sorted(t.s.luck_discard) == ["danger-room-1", "hero-recognition-1"]


def test_rule_sections_are_named_on_refusals(game):
    t = game(alert_deck=BASIC_DECK, stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]})
    t.hero("Ana", "wolverine").hits = 0
    with pytest.raises(IllegalAction) as err:
        t.do("recover.roll", "Ana", hero="wolverine", faces=roll(5))
    assert err.value.rule.startswith("Step 4")
    t.team("Ana").mover = 10
    t.s.winner, t.s.phase = "Ana", "over"
    with pytest.raises(IllegalAction) as err:
        t.do("turn.end", "Ben")
    assert err.value.rule == R_WIN


def test_reminders_follow_the_table(game):
    """Reminders name the rulebook section they come from."""
    t = game(alert_deck=BASIC_DECK, stat_cards={"Ana": ["archangel"], "Ben": ["storm"]})
    rules = {r["rule"] for r in t.engine.reminders(t.s)}
    assert "Playing" in rules and "Step 4 › Seriously Wounded Characters" not in rules
    assert "Step 2 › Characters Joining A Battle Already In Progress (Advanced)" not in rules
    t.do("deploy", "Ana", zone=1, heroes=["archangel"])
    assert "Step 2: Fighting Battles" in {r["rule"] for r in t.engine.reminders(t.s)}
    t.do("battle.roll", "Ana", zone=1, faces=roll(5, evil=5))            # seriously wounded
    t.do("turn.end", "Ana")
    t.do("turn.end", "Ben")
    texts = " ".join(r["text"] for r in t.engine.reminders(t.s))
    assert "seriously wounded character must clear every chip" in texts
    adv = game(advanced=True)
    assert any(r["rule"].startswith("Step 2 › Characters Joining") for r in adv.engine.reminders(adv.s))


def test_random_setups_cover_basic_and_advanced_with_two_to_four_players(engine):
    """The conformance test's random games must include both games and every table size."""
    seen = set()
    for seed in range(200):
        options = engine.sample_options(random.Random(seed))
        engine.setup(options, rng_for(seed, "setup"))
        seen.add((len(options["players"]), options["advanced"], "first_player" in options))
    assert {(n, adv) for n, adv, _ in seen} == {(n, adv) for n in (2, 3, 4) for adv in (False, True)}
    assert {rolled for _, _, rolled in seen} == {True, False}


def test_every_action_declares_its_arguments_and_who_plays_it(engine):
    """The move table says, for each phase, which actions are possible, who may play each and
    the JSON Schema of its data (the docs, the pages and the HTTP boundary read it)."""
    table = engine.moves.describe()
    assert set(table) == {"first", "play", "bonus", "draw"}
    assert set(table["draw"]) == {"draw", "game.abandon"} and table["draw"]["draw"]["who"] == "table"
    assert set(table["play"]) == {"battle.roll", "recruit.roll", "recover.roll", "deploy",
                                  "card.play", "turn.end", "game.abandon"}
    assert table["play"]["card.play"]["who"] == "any" and table["play"]["deploy"]["who"] == "turn"
    deploy = table["play"]["deploy"]["args"]
    assert deploy["required"] == ["zone"] and deploy["properties"]["zone"]["maximum"] == 3
    faces = table["play"]["battle.roll"]["args"]["properties"]["faces"]["items"]
    assert faces["enum"] == ["xmen", "marvel", "evil_mutant", "blank"]
    assert {t for phase in table.values() for t in phase} == set(engine.actions)


def test_a_move_not_open_now_is_refused_in_its_rules_words_and_to_the_right_player(game):
    """ "If your character(s) is already in a Battle Zone, you must continue to battle that Evil
    Mutant." Ending the turn then is refused with that rule; the same action from a player
    whose turn it is not is refused as out of turn, and a stranger's too."""
    t = game(alert_deck=BASIC_DECK, stat_cards={"Ana": ["wolverine"], "Ben": ["storm"]})
    t.do("deploy", "Ana", zone=1, heroes=["wolverine"])
    assert "turn.end" not in t.engine.expect(t.s)["actions"]
    with pytest.raises(IllegalAction, match="must continue to battle") as err:
        t.do("turn.end", "Ana")
    assert err.value.rule == "Step 2: Fighting Battles"
    with pytest.raises(IllegalAction, match="it is Ana's turn, not Ben's"):
        t.do("turn.end", "Ben")
    with pytest.raises(IllegalAction, match="not possible now"):
        t.do("card.play", "Zed", card="cerebro")


def test_a_wing_missile_roll_offers_the_teammate_its_hits_go_to(engine):
    """Archangel: "Evil Mutant rolls give 1 hit to a teammate." With two teammates in the zone
    expect lists both (``choose.hits_to``, the default first) and the phone sends the one picked:
    the hits land on that teammate."""
    seed = 17
    rng = random.Random(seed)
    state = engine.setup(engine.prepare_options({**engine.sample_options(rng), "advanced": True},
                                                []), rng_for(seed, "setup"))
    for step in range(400):
        entry = next((d for d in engine.expect(state)["dice"]
                      if "hits_to" in d.get("choose", {})), None)
        if entry is not None:
            break
        state = engine.apply(state, engine.sample_action(state, rng), rng_for(seed, step))
    assert entry is not None, "no Wing Missile with two teammates in this seeded game"
    z, archangel = entry["data"]["zone"] - 1, entry["data"]["hero"]
    side = state.zones[z].side(state.current.player)
    assert entry["choose"]["hits_to"] == [h for h in side.order if h != archangel]
    mate = entry["choose"]["hits_to"][-1]
    before = state.current.hero(mate).hits
    s = engine.apply(state, Action("battle.roll", state.current.player, {
        **entry["data"], "faces": ["evil_mutant"] + ["blank"] * (entry["count"] - 1),
        "hits_to": mate}), rng_for(seed, 999))
    assert s.current.hero(mate).hits == before + 1
