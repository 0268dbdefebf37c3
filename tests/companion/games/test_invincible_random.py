"""Random play beyond the generic conformance test: apply never changes its input, and the
sampled options cover solo and 2 to 4 heroes, every difficulty, with and without hero time."""

import pickle
import random

from companion.rng import rng_for
from invincible_helpers import engine  # noqa: F401 (fixtures)


def test_apply_never_mutates_its_input(engine):
    for seed in range(60):     # the conformance test checks 2000 more games byte for byte
        rng = random.Random(seed)
        state = engine.setup(engine.sample_options(rng), rng_for(seed, "setup"))
        step = 0
        while engine.outcome(state)["status"] == "playing":
            action = engine.sample_action(state, rng)
            before = pickle.dumps(state)
            nxt = engine.apply(state, action, rng_for(seed, step))
            assert pickle.dumps(state) == before, (seed, step, action)
            state, step = nxt, step + 1


def test_sampled_options_cover_every_mode(engine):
    seen = set()
    for seed in range(2000):
        o = engine.sample_options(random.Random(seed))
        mode = "solo" if o["solo"] else len(o["heroes"])
        seen.add((mode, o["difficulty"], "hero_time" in o))
    assert seen == {(m, d, t) for m in ("solo", 2, 3, 4)
                    for d in ("easy", "normal", "hardcore") for t in (True, False)}


def test_views_are_plain_json_all_game_long(engine):
    """The dashboard and the API serialise the state, expect, reminders, outcome and components."""
    import json
    json.dumps(engine.components())
    for seed in range(40):
        rng = random.Random(seed)
        state = engine.setup(engine.sample_options(rng), rng_for(seed, "setup"))
        step = 0
        while engine.outcome(state)["status"] == "playing":
            state = engine.apply(state, engine.sample_action(state, rng), rng_for(seed, step))
            step += 1
            json.dumps([engine.to_json(state), engine.expect(state), engine.reminders(state),
                        engine.outcome(state)])
        view = engine.to_json(state)
        assert len(view["log"]) <= 25 and view["result"]["status"] in ("won", "lost")


def test_dashboard_json_has_what_the_table_needs(engine):
    state = engine.setup({"heroes": ["invincible", "robot", "atom-eve"], "hero_time": 5},
                         random.Random(0))
    view = engine.to_json(state)
    assert [z["civilians"] for z in view["zones"]] == [{"safety": 3, "danger": 7, "dead": 0}] * 3
    assert {"villains", "minions", "heroes"} <= set(view["zones"][0])
    hero = view["heroes"][0]
    assert {"health", "crashed", "defiance", "black_cubes", "crash_at", "bag", "ready", "dropped",
            "powers", "zone", "confidence"} <= set(hero)
    assert view["track"][0]["current"] and view["decks"]["villain1"] == 6
    assert view["score"]["total"] == 10 and view["hero_time"]["seconds"] == 300
    assert view["casualty_limit"] == 15 and view["ko_limit"] == 3


def test_random_play_reaches_hero_time_expiry_crashes_and_rescues(engine):
    """The random games exercise the rare paths too, not only the common ones."""
    wanted = {"timer.expire", "hero_end", "crash", "crash_roll", "pull", "effect", "decline",
              "learn", "punch", "train_cube", "choose"}
    seen = set()
    for seed in range(400):
        if wanted <= seen:
            break
        rng = random.Random(seed)
        state = engine.setup(engine.sample_options(rng), rng_for(seed, "setup"))
        step = 0
        while engine.outcome(state)["status"] == "playing":
            action = engine.sample_action(state, rng)
            state = engine.apply(state, action, rng_for(seed, step))
            step += 1
            seen.add(action.type)
            seen.add(state.phase)
    assert wanted <= seen


def test_conformance_samples_cover_the_boss_episodes(engine):
    """The conformance test's 2000 random games (seeds 0-1999, tests/companion/test_conformance.py)
    include Episodes 4 and 7, whose bosses 'appear in episodes 4 and 7'."""
    episodes = [engine.sample_options(random.Random(seed))["episode"] for seed in range(2000)]
    assert episodes.count(4) >= 50 and episodes.count(7) >= 50


def test_random_games_of_episodes_4_and_7_meet_their_boss_and_end_legally(engine):
    """Random play of the boss episodes: the boss enters, is damaged by powers, moves, Omni-Man
    reveals his event cards, every state is legal and every game ends won or lost."""
    seen = {4: set(), 7: set()}
    for episode in (4, 7):
        for seed in range(30):
            rng = random.Random(seed)
            options = {**engine.sample_options(rng), "episode": episode}
            state = engine.setup(options, rng_for(seed, "setup"))
            step = 0
            while engine.outcome(state)["status"] == "playing":
                action = engine.sample_action(state, rng)
                state = engine.apply(state, action, rng_for(seed, step))
                step += 1
                assert not engine.invariants(state), (episode, seed, step)
                if state.boss is not None:
                    seen[episode].add("entered")
                    if state.boss.damage:
                        seen[episode].add("damaged")
                    if state.boss.zone not in (None, engine.data.bosses[state.boss.id].zone):
                        seen[episode].add("moved")
                if action.type == "effect" and action.data.get("target") == "boss":
                    seen[episode].add("targeted")
                if state.discards.get("boss"):
                    seen[episode].add("boss events")
            assert engine.outcome(state)["status"] in ("won", "lost")
    assert seen[4] >= {"entered", "damaged", "targeted"}
    assert seen[7] >= {"entered", "damaged", "targeted", "moved", "boss events"}


# the cards that add things to the table, on every hero's board (ultimates beneath a Super Power
# sharing a colour, as learned): random games then fill them round after round
TABLE_CARDS = {"yellow": "flurry-of-blows", "under:yellow": "relentless-barrage",
               "purple": "clean-slate", "under:purple": "wildcard-energy",
               "blue": "launch-the-robots", "under:blue": "new-and-improved",
               "orange": "autosave", "flex1": "telekimeanness", "flex2": "from-the-lab"}
TABLE_KINDS = {"drone", "give_experimental", "knock", "autosave", "autosave_rescue",
               "from_the_lab", "discard_gain", "relearn", "copy_power"}


def test_random_play_applies_the_cards_that_add_things_to_the_table(engine):
    """Random games with Robot (drone, Technical Genius) and these cards learned answer every one
    of their effects, the drone is used to boost damage, and every game ends legally, the
    invariants holding after every action."""
    from companion.games.invincible.state import Played
    seen, drone_used, statuses = set(), 0, set()
    for seed in range(160):
        if TABLE_KINDS <= seen and drone_used:
            break
        rng = random.Random(seed)
        options = engine.sample_options(rng)
        if not options.get("solo"):
            options["heroes"] = ["robot", *(h for h in options["heroes"] if h != "robot")][
                :len(options["heroes"])]
        options["episode"] = 2 + seed % 6
        # From the Lab, Wildcard Energy and New and Improved find Ultimates in the hands
        options["stack"] = {"ultimate": ["relentless-barrage", "new-and-improved",
                                         "wildcard-energy"]}
        state = engine.setup(options, rng_for(seed, "setup"))
        for h in state.heroes:
            for slot, pid in TABLE_CARDS.items():
                h.powers[slot] = Played(f"{pid}#{h.id}", pid,
                                        [None] * len(engine.data.powers[pid].symbols))
        step = 0
        while engine.outcome(state)["status"] == "playing":
            action = engine.sample_action(state, rng)
            if action.type == "effect":
                r = state.resolutions[action.data["hero"]]
                seen.add(r["steps"][action.data["step"]]["kind"])
                drone_used += bool(action.data.get("drone"))
            state = engine.apply(state, action, rng_for(seed, step))
            step += 1
            assert engine.invariants(state) == [], (seed, step, action)
        statuses.add(engine.outcome(state)["status"])
    assert TABLE_KINDS <= seen, TABLE_KINDS - seen
    assert drone_used and statuses <= {"won", "lost"}


def test_random_play_reaches_the_power_play_rules_and_ends_legally(engine):
    """The random player meets each power-play rule (a gained cube placed and dropped, Two Places
    at Once's repeat, an enemy moved by a move effect, a pull with Chain Lightning in play, a
    count of heroes healed), every state satisfies the invariants and every game ends won or
    lost. Seeds are tried in order until all are met (Two Places at Once, one Ultimate card among
    the printed 36, is met by the next test)."""
    wanted = {("effect", "place_cube"), ("decline", "place_cube"),
              ("effect", "move_villain"), "chain_lightning_pull", ("effect", "confidence")}
    seen = set()
    for seed in range(400):
        rng = random.Random(seed)
        state = engine.setup(engine.sample_options(rng), rng_for(seed, "setup"))
        step = 0
        while engine.outcome(state)["status"] == "playing":
            action = engine.sample_action(state, rng)
            r = state.resolutions.get(action.data.get("hero")) if state.resolutions else None
            i = action.data.get("step")
            if r is not None and i is not None and i < len(r["steps"]):
                kind = r["steps"][i]["kind"]
                if kind == "move" and action.data.get("target") in engine.data.villains:
                    kind = "move_villain"
                seen.add((action.type, kind))
            if action.type == "pull" and any(
                    p.filled and engine.data.powers[p.power].pull_rule == "no_crash"
                    for p in state.hero(action.data["hero"]).powers.values()):
                seen.add("chain_lightning_pull")
            state = engine.apply(state, action, rng_for(seed, step))
            assert engine.invariants(state) == [], (seed, step, action)
            step += 1
        assert engine.outcome(state)["status"] in ("won", "lost")
        if wanted <= seen:
            break
    assert wanted <= seen, wanted - seen


def test_random_hero_phases_with_two_places_at_once_repeat_it_legally(engine):
    """Two Places at Once ('you may repeat all of it once more') in random Hero Phases: the card
    in a hero's slot, the random player plays on until the phase ends; the repeat is answered in
    some, every state is legal."""
    from companion.games.invincible.state import Played
    from invincible_helpers import Table

    seen = set()
    for seed in range(40):
        t = Table(engine, {"heroes": ["invincible", "atom-eve"], "episode": 2}, seed=seed)
        t.to_hero_phase()
        symbols = engine.data.powers["two-places-at-once"].symbols
        t.state.hero("invincible").powers["flex1"] = Played("two-places-at-once#t",
                                                            "two-places-at-once", [None] * len(symbols))
        rng = random.Random(seed)
        while t.state.phase == "hero" and engine.outcome(t.state)["status"] == "playing":
            action = engine.sample_action(t.state, rng)
            r = t.state.resolutions.get(action.data.get("hero")) if t.state.resolutions else None
            i = action.data.get("step")
            if r is not None and i is not None and i < len(r["steps"]):
                seen.add((action.type, r["steps"][i]["kind"]))
            t.act(action.type, action.player, **action.data)
            assert engine.invariants(t.state) == [], (seed, action)
        if ("effect", "repeat") in seen:
            break
    assert ("effect", "repeat") in seen
