"""What X-Men Alert keeps for speed (issue 17): what the random player found open in a state,
kept from its sample_action to the apply of the action it chose (``XMenState.kept``), so the
move table's ``when`` and the handler do not ask again. It must be what asking afresh gives, and
no move or later edit may see a stale answer.
"""

import dataclasses
import json
import pickle
import random

import pytest

from companion.actions import Action
from companion.errors import CompanionError
from companion.games import Catalog
from companion.games.xmen import cards, choices
from companion.games.xmen.state import HQ, SHARED
from companion.rng import rng_for

KINDS = (None, "battle", "recruit")


@pytest.fixture(scope="module")
def engine():
    return Catalog()("xmen-alert")


def fresh(s):
    """The same state with nothing kept: every question asked afresh."""
    f = s.fork()
    assert f.kept is None
    return f


def answers(s):
    team = s.current
    return {"unfought": [s.unfought(team, k) for k in KINDS],
            "other teams": [s.unfought(t) for t in s.teams],
            "pending": s.pending_recovery(),
            "fights": [choices.fights(s, k) for k in KINDS],
            "can_fight": [choices.can_fight(s, k) for k in ("battle", "recruit")],
            "deployments": choices.deployments(s),
            "unchecked": choices.unchecked_deployments(s),
            "deploy_open": choices.deploy_open(s), "can_deploy": choices.can_deploy(s),
            "recoveries": choices.recoveries(s), "can_recover": choices.can_recover(s),
            "unchecked_serious": choices.unchecked_serious(s), "can_end": choices.can_end(s),
            "playable": cards.playable(s), "any_playable": cards.any_playable(s)}


def random_states(engine, games=6):
    """(state, the sampled action, its generator) along seeded random games, each state asked
    what the random player and the table ask before its move is applied."""
    n = 0
    for g in range(games):
        rng = random.Random(1000 + g)
        state = engine.setup(engine.sample_options(rng), rng_for(g, "setup"))
        while engine.outcome(state)["status"] == "playing":
            action = engine.sample_action(state, rng)
            engine.check(state, action)
            yield state, action, rng_for(g, n)
            state = engine.apply(state, action, rng_for(g, n))
            n += 1


def test_kept_answers_are_the_fresh_answers_of_every_state(engine):
    asked = 0
    for state, _, _ in random_states(engine):
        if state.phase != "play":
            continue
        assert state.kept, "the random player keeps what it found open"
        kept = answers(state)
        assert answers(state) == kept == answers(fresh(state))
        asked += 1
    assert asked > 500


def every_field(state):
    """The state's own fields, the decks' order with them (to_json leaves it out)."""
    return pickle.dumps([getattr(state, f.name) for f in dataclasses.fields(state)
                         if f.metadata.get("json", True)])


def test_a_move_never_changes_the_state_it_came_from_and_lets_go_of_what_was_kept(engine):
    """The decks and lists a move shares with the state it came from (SHARED) are copied before
    it changes them: every deck is drawn from, shuffled and added to in these games."""
    moved, changed = 0, set()
    for state, action, rng in random_states(engine, games=8):
        before = every_field(state)
        after = engine.apply(state, action, rng)
        assert every_field(state) == before
        assert state.kept is None and after.kept is None
        changed |= {name for name in SHARED if getattr(after, name) != getattr(state, name)}
        assert all(getattr(after, name) is not getattr(state, name) for name in after.mine
                   if isinstance(name, str))
        moved += 1
    assert moved > 300
    assert changed == set(SHARED), "every shared list is changed by some move"


def test_a_state_edited_after_its_move_or_being_changed_is_asked_afresh(engine):
    """Tests edit a state in place between moves (a hero's hits set by hand): after the apply
    nothing kept stands in the way. A fork keeps nothing either: what its move changes is seen at
    once, and the state it came from is unchanged."""
    for state, action, rng in random_states(engine, games=3):
        team = state.current
        if state.phase != "play" or not state.unfought(team):
            continue
        left = list(state.unfought(team))
        s = state.fork()
        assert s.kept is None
        mine = s.own_team(s.turn)
        for h in mine.heroes:
            h.acted = True
        assert s.unfought(mine) == [] and choices.fights(s) == []
        assert state.unfought(state.current) == left and state.current is team
        engine.apply(state, action, rng)
        for h in state.current.heroes:      # edited in place, as the rule tests do
            h.acted = True
        assert state.unfought(state.current) == [] and not choices.can_fight(state, "battle")
        return
    pytest.fail("no state with a character left to fight")


def outcome_of(engine, state, action, rng_seed):
    try:
        return json.dumps(engine.to_json(engine.apply(state, action, random.Random(rng_seed))),
                          sort_keys=True)
    except CompanionError as exc:
        return f"{type(exc).__name__}: {exc}"


def test_a_move_checked_against_the_kept_lists_is_accepted_or_refused_as_when_asked_afresh(engine):
    """The handler takes a roll the random player listed without asking its checks again, and
    turn.end its kept answer: the same data of a roll or a deployment, with each hero of the team
    (and a few characters of the box that may not be on it) put as the roller, the leader or the
    only deployer, gives the same state or the same refusal from a state whose lists are kept as
    from one asked afresh."""
    tried, refused = 0, 0
    for state, action, _ in random_states(engine, games=4):
        if action.type not in ("battle.roll", "recruit.roll", "deploy", "turn.end"):
            continue
        variants = [action.data]
        for h in [h.id for h in state.current.heroes] + list(state.data.characters)[:4]:
            variants += [{**action.data, "hero": h}, {**action.data, "leader": h},
                         {**action.data, "heroes": [h]}]
        for i, data in enumerate(variants):
            changed = Action(action.type, action.player, data)
            state.kept = {}
            answers(state)                  # every list kept, as the random player leaves it
            kept = outcome_of(engine, state, changed, i)
            assert state.kept is None
            assert kept == outcome_of(engine, fresh(state), changed, i), (action, data)
            tried += 1
            refused += kept.startswith(("IllegalAction", "BadAction"))
    assert tried > 3000 and refused > 1000
