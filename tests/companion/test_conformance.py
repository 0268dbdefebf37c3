"""Every game through the same conformance test (as OpenSpiel does): random legal playouts reach
the end, never pass through an illegal state, and the journal replays to the same final state.

The same 2000 random games per engine also check, on about four states of each game (every
STRIDE-th: thousands of states over the 2000 games):
- ``apply`` never changes the state it is given (byte for byte, its shared data aside);
- every action the random player samples is one ``expect`` lists (timer actions aside: they are
  the session's, open whenever a timer runs);
- every action ``expect`` lists is accepted with some valid data (the engine's own sampler for
  that move, or the dice expect asks for, or no data at all);
- an action that is refused (an unknown type, one not listed now, another player's, data of the
  wrong types) is refused with the project's errors and leaves the state byte for byte equal,
  and one not listed is refused.

An engine not yet on the move table fails some of these: its parametrisation is marked
xfail(strict=True) with the reason below, so the engine's conversion turns it green (and must
then remove the mark).
"""

import dataclasses
import functools
import pickle
import random

import pytest

from companion.actions import Action
from companion.dice import requests
from companion.errors import CompanionError
from companion.games import Catalog, available
from companion.journal import Journal
from companion.rng import rng_for
from companion.session import Session

GAMES = available()
RANDOM_GAMES = 2000
MAX_ACTIONS = 20_000
# states checked: every n-th of each game (about four a game: thousands over the 2000 games)
STRIDE = {"incredibles": 4, "xmen-alert": 90, "invincible": 45}
JUNK = {"face": 7, "faces": "x", "zone": True, "hero": 12, "heroes": 3, "to": [], "power": 3,
        "jackjack": {}, "cubes": 5, "card": 9, "space": 1.5, "tile": [1], "villain": 3,
        "amount": "lots", "slot": False, "discard": 4, "colour": 0, "leader": 1}
# (check, game) -> why that game still fails that check: marked xfail(strict=True), so a fix must
# remove its line (empty since the X-Men Alert and Invincible conversions, issue 11)
KNOWN: dict[tuple[str, str], str] = {}


def snapshot(state) -> bytes:
    """The state's bytes, without the component data it shares with every other state."""
    if dataclasses.is_dataclass(state):
        return pickle.dumps([getattr(state, f.name) for f in dataclasses.fields(state)
                             if f.metadata.get("json", True)])
    return pickle.dumps(state)


class Findings:
    def __init__(self):
        self.found: dict[str, list[str]] = {}
        self.counts: dict[str, int] = {}

    def add(self, check: str, where: str, what: str) -> None:
        self.counts[check] = self.counts.get(check, 0) + 1
        if len(self.found.setdefault(check, [])) < 5:
            self.found[check].append(f"{where}: {what}")

    def of(self, check: str) -> list[str]:
        return self.found.get(check, [])


def _listed_accepted(engine, state, expect, rng, where, found):
    player, listed = expect.get("player"), expect.get("actions", [])
    pool: dict[str, list[Action]] = {}
    if engine.moves is None:       # no sampler per move: what the random player picks now
        for _ in range(24):
            action = engine.sample_action(state, rng)
            pool.setdefault(action.type, []).append(action)
            if set(listed) <= set(pool):
                break
    for kind in listed:
        candidates = pool.get(kind, [])[:3]
        if engine.moves is not None:
            candidates.append(engine.sample_move(state, kind, rng))
        candidates += [r.action_for([rng.choice(d.sides) for d in r.dice for _ in range(d.count)],
                                    None, "test", player)
                       for r in requests(expect) if r.action == kind][:2]
        candidates.append(Action(kind, player, {}))
        errors = []
        for action in candidates:
            if action is None:
                continue
            try:
                engine.apply(state, action, rng_for(0, "check"))
                break
            except CompanionError as exc:
                errors.append(str(exc))
        else:
            found.add("listed_accepted", where, f"{kind} is listed but refused ({errors[-1:]})")


def _refusals(engine, state, expect, rng, where, found):
    listed = expect.get("actions", [])
    player = expect.get("player")
    unlisted = [t for t in engine.actions if t not in listed and not t.startswith("timer.")]
    tries = [("unknown", Action("no.such.move", player, {}))]
    tries += [("not listed", Action(t, player, {})) for t in rng.sample(unlisted, min(2, len(unlisted)))]
    for kind in rng.sample(listed, min(2, len(listed))):
        tries.append(("other player", Action(kind, "Nobody At This Table", {})))
        tries.append(("mistyped", Action(kind, player, dict(JUNK))))
    before = snapshot(state)
    for why, action in tries:
        try:
            engine.apply(state, action, rng_for(0, "check"))
        except CompanionError:
            if snapshot(state) != before:
                found.add("refusals", where, f"refusing {action} changed the state")
                return
            continue
        except Exception as exc:   # noqa: BLE001 - any other error is the finding
            found.add("refusals", where, f"{why} {action} crashed: {type(exc).__name__}: {exc}")
            continue
        if why in ("unknown", "not listed"):
            found.add("refusals", where, f"{why} {action} was accepted (listed: {listed})")


def _check_state(engine, state, action, seed, step, found):
    where = f"seed {seed} step {step}"
    rng = random.Random(seed * 100_003 + step)
    expect = engine.expect(state)
    if not action.type.startswith("timer.") and action.type not in expect.get("actions", []):
        found.add("sampled_listed", where, f"sampled {action} but expect lists "
                                           f"{expect.get('actions')}")
    _listed_accepted(engine, state, expect, rng, where, found)
    _refusals(engine, state, expect, rng, where, found)
    for read in engine.read_requests(state):
        found.counts["reads"] = found.counts.get("reads", 0) + 1
        if read.action not in engine.read_types:
            found.add("read_types", where, f"a read of {read.action} not in {engine.read_types}")
    for draw in engine.drawn_requests(state):
        if draw.action not in engine.read_types:
            found.add("read_types", where, f"a draw of {draw.action} not in {engine.read_types}")


def play_out(engine, seed, found=None, stride=0):
    """One random game in memory, the way the session folds it; returns (options, actions, state).
    With ``found``, every ``stride``-th state also goes through the checks above."""
    rng = random.Random(seed)
    options = engine.prepare_options(engine.sample_options(rng), [])   # as the session records
    state = engine.setup(options, rng_for(seed, "setup"))
    actions = []
    while engine.outcome(state)["status"] == "playing":
        assert len(actions) < MAX_ACTIONS, f"seed {seed}: no end after {MAX_ACTIONS} actions"
        action = engine.sample_action(state, rng)
        checked = found is not None and len(actions) % stride == seed % stride
        if checked:
            _check_state(engine, state, action, seed, len(actions), found)
            before = snapshot(state)
        after = engine.apply(state, action, rng_for(seed, len(actions)))
        if checked and snapshot(state) != before:
            found.add("mutation", f"seed {seed} step {len(actions)}", f"{action} changed its input")
        state = after
        actions.append(action)
        problems = engine.invariants(state)
        assert not problems, f"seed {seed}, action {len(actions)} {action}: {problems}"
    return options, actions, state


@functools.cache
def findings(game):
    engine = Catalog()(game)
    found, statuses = Findings(), set()
    for seed in range(RANDOM_GAMES):
        _, _, state = play_out(engine, seed, found, STRIDE.get(game, 5))
        outcome = engine.outcome(state)
        assert outcome["status"] in engine.outcomes, outcome
        statuses.add(outcome["status"])
    return found, statuses


def per_game(check):
    return [pytest.param(g, marks=pytest.mark.xfail(strict=True, reason=KNOWN[check, g]))
            if (check, g) in KNOWN else g for g in GAMES]


@pytest.mark.parametrize("game", GAMES)
def test_thousands_of_random_games_end_legally(game):
    engine = Catalog()(game)
    _, statuses = findings(game)
    missing = set(engine.outcomes) - statuses
    assert not missing, f"{RANDOM_GAMES} random games never reached {missing}"


@pytest.mark.parametrize("game", per_game("mutation"))
def test_apply_never_changes_the_state_it_is_given(game):
    assert findings(game)[0].of("mutation") == []


@pytest.mark.parametrize("game", per_game("sampled_listed"))
def test_every_sampled_action_is_listed_by_expect(game):
    assert findings(game)[0].of("sampled_listed") == []


@pytest.mark.parametrize("game", per_game("listed_accepted"))
def test_every_listed_action_is_accepted_with_valid_data(game):
    assert findings(game)[0].of("listed_accepted") == []


@pytest.mark.parametrize("game", per_game("refusals"))
def test_a_refused_action_leaves_the_state_as_it_was(game):
    assert findings(game)[0].of("refusals") == []


class FollowClock:
    """The session's clock reads the time each action carries (0 when it carries none), as the
    engine alone reads it in play_out: the same hero-time expiries happen in both."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.mark.parametrize("game", GAMES)
def test_every_read_the_camera_may_make_is_of_a_type_the_engine_declares(game):
    """A step is taken for a read or a draw entered by hand (the last roll) only when its type
    is one of the engine's ``read_types``: a read or draw of another type would never be shown."""
    found, _ = findings(game)
    assert not found.of("read_types"), found.of("read_types")
    if Catalog()(game).read_types:
        assert found.counts.get("reads", 0) > 100, found.counts


@pytest.mark.parametrize("game", GAMES)
def test_journal_replays_to_the_same_final_state(game, tmp_path):
    catalog = Catalog()
    engine = catalog(game)
    for seed in range(25):
        options, actions, final = play_out(engine, seed)
        path = tmp_path / f"{game}-{seed}.sqlite3"
        clock = FollowClock()
        with Journal(path) as journal:
            session = Session(journal, catalog, clock)
            session.start(game, options, seed=seed)
            for action in actions:
                clock.now = action.at if action.at is not None else 0.0
                session.submit(Action(action.type, action.player, action.data, "test"))
            live = session.view()
        with Journal(path) as journal:
            replayed = Session(journal, catalog, clock).view()
        assert live["state"] == replayed["state"] == engine.to_json(final)
        assert replayed["outcome"] == engine.outcome(final)
