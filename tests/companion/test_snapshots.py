"""Snapshots in the journal (companion/snapshots.py, companion/history.py): a restart replays
from the deepest snapshot and an undo from the nearest one below, and both land exactly where a
replay of every entry from the game's start lands, and where the live game was.

The games are random games of each engine played through a real session on a real SQLite file
(the engine's own random player, undo, camera reads, the table's timers), long enough to pass
several snapshots. After a restart the session that starts from the snapshots and one that is
given none (the snapshots deleted: a full replay) show the same view; then each game is undone
to its first move, one undo at a time, in both: every view on the way down must be the same in
the two, and a restart now and then lands where they are (an undo takes back a move and keeps
the timer steps above it, companion/undo.py: the views are not the live game's any more).
"""

import logging
import random
import shutil
import sqlite3

import pytest

from companion import snapshots, undo
from companion.actions import Action
from companion.dice import requests
from companion.errors import BadAction, IllegalAction
from companion.games import Catalog, available
from companion.journal import Journal
from companion.journal_rows import snapshot_crc
from companion.session import Session
from companion.snapshots import EVERY

GAMES = available()
ENTRIES = 360          # per game: past several snapshots at EVERY effective actions
SHOWN = ("state", "expect", "reminders", "outcome", "timers", "undo", "dice_read")


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def shown(view):
    """What a view shows of the table (timers without what only the clock changes)."""
    out = {k: view[k] for k in SHOWN}
    out["timers"] = {name: {k: v for k, v in timer.items() if k not in ("remaining", "warning")}
                     for name, timer in view["timers"].items()}
    return out


def top_seq(session):
    step = session._stack.top_step()
    return step[0] if step else None


def play(session, engine, game, seed, clock, entries=ENTRIES):
    """A random game of ENTRIES entries; returns the view the live game showed with each top
    action on the stack (by its seq; None: nothing on it)."""
    rng = random.Random(seed)
    seen = {None: shown(session.start(game, engine.sample_options(rng), seed=seed))}
    view = session.submit(Action("timer.start", data={"name": "table", "seconds": 3600}))
    seen[top_seq(session)] = shown(view)
    for _ in range(entries):
        table = session._top()
        over = engine.outcome(table.game)["status"] != "playing"
        roll = rng.random()
        wanted = [r for r in requests(engine.expect(table.game)) if r.action] if not over else []
        # over: mostly undo, back into the game (the table's timer runs on meanwhile)
        if roll < (0.6 if over else 0.08) and session._stack.depth > 0:
            action = Action("undo")
        elif over or roll < 0.45:
            action = Action("timer.add", data={"name": "table", "seconds": 1})
        elif table.dice_read and not table.dice_read["confirmed"]:
            action = Action(rng.choice(["dice.confirm", "dice.dismiss"]))
        elif wanted and roll < 0.55:    # a camera read, sure or not, of the dice expected
            action = Action("dice.read", data={"dice": [
                {"face": rng.choice(d.faces), "confidence": rng.choice([0.3, 0.95])}
                for d in wanted[0].dice for _ in range(d.count)]})
        else:
            action = engine.sample_action(table.game, rng)
        clock.now = action.at if action.at is not None else clock.now + 1.0
        try:
            view = session.submit(Action(action.type, action.player, action.data, "test"))
        except (IllegalAction, BadAction):      # a read the rules refuse: nothing journaled
            assert action.type.startswith("dice."), action
            continue
        seen[top_seq(session)] = shown(view)
    return seen


def undo_to_the_start(session, other, catalog, clock, tmp_path):
    """Undo one move at a time in ``session`` and ``other`` (the same journal, one without its
    snapshots) until none is left: each view must be the same in both, and every 40 undos a
    restart (a consistent copy of the journal opened afresh) shows it too."""
    undos = 0
    while undo.target(session._stack.steps) is not None:
        view = session.submit(Action("undo"))
        assert shown(view) == shown(other.submit(Action("undo"))), \
            f"after undoing to depth {session._stack.depth}"
        undos += 1
        if undos % 40 == 0:
            copy = tmp_path / f"restart-{undos}.sqlite3"
            session.journal.backup(copy)
            with Journal(copy) as journal:
                assert shown(Session(journal, catalog, clock).view()) == shown(view), undos
    with pytest.raises(IllegalAction, match="nothing to undo"):
        session.submit(Action("undo"))
    return undos


@pytest.mark.parametrize("game", GAMES)
def test_replay_from_a_snapshot_equals_the_full_replay(game, tmp_path):
    catalog = Catalog()
    engine = catalog(game)
    snapshots_in_all = 0
    for seed in range(2):
        path = tmp_path / f"{game}-{seed}.sqlite3"
        clock = Clock()
        with Journal(path) as journal:
            seen = play(Session(journal, catalog, clock), engine, game, seed, clock)
            game_id = journal.current_game().id
            saved = journal.snapshots(game_id)
        assert saved, "no snapshot: the game was too short"
        snapshots_in_all += len(saved)
        bare = tmp_path / f"{game}-{seed}-bare.sqlite3"
        shutil.copy(path, bare)
        with sqlite3.connect(bare) as db:
            db.execute("DELETE FROM snapshots")
        with Journal(path) as journal, Journal(bare) as plain:
            fast, full = Session(journal, catalog, clock), Session(plain, catalog, clock)
            assert shown(fast.view()) == shown(full.view()) == seen[top_seq(fast)]
            depth = fast._stack.depth
            assert fast._stack.replayed < EVERY <= depth == full._stack.replayed
            fetched = []
            fetch = fast._stack._fetch
            fast._stack._fetch = lambda seq, at: fetched.append(seq) or fetch(seq, at)
            assert undo_to_the_start(fast, full, catalog, clock, tmp_path) > depth // 4
            # each undo from the nearest snapshot below, each action replayed once at most
            assert fast._stack.replayed <= depth and len(fetched) >= depth // EVERY - 1
    assert snapshots_in_all >= 3


def test_a_damaged_or_stale_snapshot_is_never_used(tmp_path, caplog):
    catalog = Catalog()
    engine = catalog("xmen-alert")
    path = tmp_path / "j.sqlite3"
    clock = Clock()
    with Journal(path) as journal:
        session = Session(journal, catalog, clock)
        seen = play(session, engine, "xmen-alert", 7, clock, entries=260)
        on_stack = [seq for _depth, seq in sorted(session._stack._saved.items())]
    assert len(on_stack) >= 2
    deepest, older = on_stack[-1], on_stack[-2]
    with sqlite3.connect(path) as db:
        # a flipped character inside the deepest snapshot's body
        body = db.execute("SELECT body FROM snapshots WHERE seq = ?", (deepest,)).fetchone()[0]
        i = body.index('"hits":') + 7
        damaged = body[:i] + ("7" if body[i] != "7" else "8") + body[i + 1:]
        db.execute("UPDATE snapshots SET body = ? WHERE seq = ?", (damaged, deepest))
        # the one below written, checksum and all, by an older version of the engine
        game_id, depth, body, entry = db.execute(
            "SELECT s.game_id, s.depth, s.body, e.crc FROM snapshots s JOIN entries e "
            "ON e.seq = s.seq WHERE s.seq = ?", (older,)).fetchone()
        db.execute("UPDATE snapshots SET made_by = 'xmen-alert/v0', crc = ? WHERE seq = ?",
                   (snapshot_crc(older, game_id, depth, "xmen-alert/v0", body, entry), older))
    with Journal(path) as journal, caplog.at_level(logging.INFO):
        health = journal.check()             # reported, but no damage to the journal itself
        assert health.ok and health.snapshots_damaged == [deepest]
        session = Session(journal, catalog, clock)
        assert shown(session.view()) == seen[top_seq(session)]
        assert f"snapshot after entry {deepest} is damaged" in caplog.text
        assert f"snapshot after entry {older} was made by xmen-alert/v0" in caplog.text
        assert session._stack.replayed > EVERY          # from an older one, or the start
        # the start-up kept what its replay made: the damaged snapshot is a good one again
        assert journal.check().snapshots_damaged == [] and journal.snapshot(deepest) is not None


def test_new_code_replays_once_then_starts_from_its_own_snapshot(tmp_path):
    clock = Clock()
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        catalog = Catalog()
        seen = play(Session(journal, catalog, clock), catalog("invincible"), "invincible", 3, clock,
                    entries=200)
    for expected_replays in ("all", "few"):
        catalog = Catalog()
        catalog("invincible").state_version = 99     # as a new release of the engine would say
        with Journal(path) as journal:
            session = Session(journal, catalog, clock)
            assert shown(session.view()) == seen[top_seq(session)]
            depth = session._stack.depth
            if expected_replays == "all":
                assert session._stack.replayed == depth
            else:
                assert session._stack.replayed < EVERY
            assert any(seq for seq in journal.snapshots(journal.current_game().id))


class Bag:
    """A state the codec cannot bring back (a set): the engine is never snapshotted."""

    def __init__(self, items=()):
        self.items = set(items)

    def __eq__(self, other):
        return isinstance(other, Bag) and self.items == other.items


def test_an_engine_whose_states_cannot_be_restored_replays_from_the_start(tmp_path, caplog):
    from companion.games.base import Game

    class BagGame(Game):
        name = title = "bag"
        actions = {"put": "put a thing in the bag"}

        def setup(self, options, rng):
            return Bag()

        def apply(self, state, action, rng):
            self.check_type(action)
            return Bag(state.items | {action.data["thing"]})

        def expect(self, state):
            return {"actions": ["put"], "prompt": "put a thing in"}

        def outcome(self, state):
            return {"status": "playing"}

        def to_json(self, state):
            return {"items": sorted(state.items)}

    engine = BagGame()
    catalog = lambda name: engine   # noqa: E731
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        session = Session(journal, catalog, Clock())
        session.start("bag", {}, seed=1)
        for n in range(EVERY * 2 + 5):
            view = session.submit(Action("put", data={"thing": f"t{n}"}))
        assert journal.snapshots(journal.current_game().id) == {}
    assert "bag: no journal snapshots" in caplog.text
    with Journal(path) as journal:
        again = Session(journal, catalog, Clock())
        assert again.view()["state"] == view["state"] and again._stack.replayed == EVERY * 2 + 5
        for _ in range(3):
            again.submit(Action("undo"))
        assert len(again.view()["state"]["items"]) == EVERY * 2 + 2


def test_every_engine_state_comes_back_from_its_snapshot_equal():
    """As OpenSpiel's conformance test serialises and restores: every few states of random
    games (all of them in The Incredibles' short games)."""
    catalog = Catalog()
    from companion.fold import Table
    from companion.rng import rng_for
    for game in GAMES:
        engine = catalog(game)
        stride = 1 if game == "incredibles" else 5
        for seed in range(12):
            rng = random.Random(seed)
            first = Table(engine.setup(engine.sample_options(rng), rng_for(seed, "setup")))
            table, n = first, 0
            while engine.outcome(table.game)["status"] == "playing" and n < 400:
                table = Table(engine.apply(table.game, engine.sample_action(table.game, rng),
                                           rng_for(seed, n)), table.timers)
                n += 1
                if n % stride:
                    continue
                body = snapshots.save(engine, table)
                assert body is not None, f"{game} seed {seed} step {n}"
                back = snapshots.load(engine, body, first)
                assert back == table and engine.to_json(back.game) == engine.to_json(table.game)
