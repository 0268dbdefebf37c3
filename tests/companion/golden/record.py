"""Records the golden fixtures that tests/companion/test_golden.py replays after every change.

The fixtures were written by the code of main at bfa6a48, before the engines were restructured
(issue 11; the Incredibles sample by f55824e's random player, whose engines bfa6a48 kept): run
this again only when a change of a game's behaviour is intended, and say so in the commit. ``python tests/companion/golden/record.py`` (from the repository root) writes, per game:

- ``<game>.replay.json``: what ``companion replay`` prints for the game's sample file;
- ``<game>.journal.sqlite3``: the sample game as a journal written through a real session on a
  fixed clock, with undo entries, camera reads (confident, doubtful then corrected, dismissed),
  table timers (started, paused, resumed, added to, expired by the ticker) and, for
  Invincible, hero time; ``<game>.midgame.sqlite3`` the same stopped three lines before the end,
  with a doubtful camera read waiting for the players (and, for Invincible, whose sample rolls
  no dice, ``invincible.playout.sqlite3``: a random game with hero time and both dice);
- ``<game>.<journal>.view.json``: the view each journal restarts to (at its last clock time);

and, once, the Incredibles sample game (a seeded random playout with undo lines).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
SAMPLES = REPO / "tests" / "companion" / "games"
sys.path.insert(0, str(REPO))

from companion.actions import Action  # noqa: E402
from companion.errors import CompanionError  # noqa: E402
from companion.games import Catalog  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.session import Session  # noqa: E402

GAMES = {"incredibles": "incredibles", "xmen-alert": "xmen", "invincible": "invincible"}
START = 1_800_000_000.0   # the recording clock's first reading
STEP = 7.25               # seconds between two actions at the recorded table
# the whole sample game; the game stopped 3 lines before its end with a camera read waiting; and
# for Invincible, whose sample rolls no dice, a random game with hero time, crash and zone rolls
JOURNALS = {"journal": {}, "midgame": {"stop": -3}}
EXTRA = {"invincible": {"playout": {"playout": 86}}}


class Clock:
    def __init__(self, now: float = START):
        self.now = now

    def __call__(self) -> float:
        return self.now


def sample_file(game: str) -> Path:
    return SAMPLES / f"{GAMES[game]}_sample_game.jsonl"


def read_sample(game: str) -> tuple[dict, int, list[dict]]:
    lines = [json.loads(x) for x in sample_file(game).read_text().splitlines() if x.strip()]
    return lines[0]["setup"], lines[0].get("seed", 0), lines[1:]


# -- the Incredibles sample game: a seeded random playout -----------------------------------------

def incredibles_playout(seed: int) -> tuple[dict, list[dict], set[str]]:
    """A random game from ``seed`` with an undone wrong move now and then; returns the setup
    options, the lines and the phases it passed through."""
    engine = Catalog()("incredibles")
    from companion.rng import rng_for

    rng = random.Random(seed)
    options = {"players": [{"hero": "dash", "name": "Ana"}, "violet", "mr-incredible"]}
    state = engine.setup(options, rng_for(seed, "setup"))
    lines, phases, step = [], set(), 0
    while engine.outcome(state)["status"] == "playing":
        phases.add(state.phase)
        action = engine.sample_action(state, rng)
        if rng.random() < 0.12:
            # a move taken back: the sampled action, then an undo, then (below) another draw
            lines.append(_line(action))
            lines.append({"type": "undo"})
            action = engine.sample_action(state, rng)
        state = engine.apply(state, action, rng_for(seed, step))
        lines.append(_line(action))
        step += 1
    phases.add(engine.outcome(state)["status"])
    return options, lines, phases


def _line(action: Action) -> dict:
    out = {"type": action.type}
    if action.player is not None:
        out["player"] = action.player
    if action.data:
        out["data"] = action.data
    return out


def write_incredibles_sample() -> None:
    for seed in range(1, 2500):
        options, lines, phases = incredibles_playout(seed)
        undos = sum(line["type"] == "undo" for line in lines)
        jackjack = any("jackjack" in line.get("data", {}) for line in lines)
        fixes = sum(line["type"] == "fix" for line in lines)
        if {"roll", "move", "fix", "choose", "won"} <= phases and 40 <= len(lines) <= 90 and undos >= 3 \
                and jackjack and fixes >= 4:
            break
    else:
        raise SystemExit("no seed covers every phase")
    head = {"setup": options, "seed": seed}
    text = "\n".join(json.dumps(x) for x in [head, *lines]) + "\n"
    sample_file("incredibles").write_text(text)
    print(f"incredibles sample: seed {seed}, {len(lines)} lines, phases {sorted(phases)}")


# -- companion replay ---------------------------------------------------------------------------

def replay_output(game: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "companion", "replay", str(sample_file(game)),
                           "--game", game], capture_output=True, text=True, cwd=REPO, check=True)
    return proc.stdout


# -- a journal as the service writes it ------------------------------------------------------------

def _read_of(expect: dict, action: Action) -> list[str] | None:
    """The faces of ``action`` when a camera read of them would be exactly that action."""
    entries = expect.get("dice") or []
    if not entries or "action" not in entries[0]:
        return None
    entry = entries[0]
    key = entry.get("field", "faces")
    if action.type != entry["action"] or key not in action.data:
        return None
    value = action.data[key]
    faces = value if isinstance(value, list) else [value]
    if {**entry.get("data", {}), key: value} != action.data or len(faces) != entry["count"]:
        return None
    if isinstance(value, list) == (entry["count"] == 1 and entry.get("max") is None):
        return None   # a read of one die stands for one face, of several for a list
    player = entry.get("player") or expect.get("player")
    if action.player is not None and action.player != player:
        return None
    return [str(f) for f in faces]


def record_journal(game: str, path: Path, spec: dict) -> dict:
    """A game through a real session on a fixed clock: the sample file's lines (``stop``: only
    that many, then a doubtful read left waiting, as a restart would find it) or, with
    ``playout``, a random game sampled live from the session's state with that seed."""
    options, seed, lines = read_sample(game)
    stop, playout = spec.get("stop"), spec.get("playout")
    engine = Catalog()(game)
    rng = random.Random(playout)
    if playout is not None:
        seed, options = playout, engine.sample_options(rng)
    lines = lines if stop is None else lines[:stop]
    clock = Clock()
    if path.exists():
        path.unlink()
    journal = Journal(path)
    session = Session(journal, Catalog(), clock=clock)
    session.start(game, options, seed=seed)
    session.submit(Action("timer.start", data={"name": "turn", "seconds": 300, "label": "Turn"},
                          source="dashboard"))
    reads = 0
    for i in range(len(lines) if playout is None else 10_000):
        clock.now += STEP
        if playout is None:
            action = Action.from_json(lines[i])
        elif session.view()["outcome"]["status"] != "playing":
            break
        else:
            action = engine.sample_action(session._top().game, rng)
        if action.type == "undo":
            session.submit(action)
            continue
        if i % 11 == 5:
            _undone(session, action)
        expect = session.view()["expect"]
        faces = _read_of(expect, action)
        entry = (expect.get("dice") or [{}])[0]
        if playout is not None and faces is None and "action" in entry and rng.random() < 0.7:
            faces = [rng.choice(entry["faces"]) for _ in range(entry["count"])]   # any roll will do
        if faces is not None:
            reads += 1
            _camera(session, faces, reads)
        else:
            session.submit(Action(action.type, action.player, action.data, "dashboard"))
        if playout is None and i + 1 < len(lines) and lines[i + 1]["type"] == "undo":
            continue    # the next line takes this one back: no timer action in between
        _table_timers(session, clock, i)
        if game == "invincible":
            _hero_time(session, i)
    if stop is not None:
        clock.now += STEP
        expected = session.view()["expect"].get("dice") or []
        sets = {"set": expected[0]["set"]} if expected else {}
        session.submit(Action("dice.read", source="camera", data={
            "id": "read-last", **sets, "dice": [{"face": "blank", "confidence": 0.3}]}))
    journal.close()
    return {"reads": reads}


def _undone(session: Session, action: Action) -> None:
    """The action taken by mistake and undone (when it is legal now), before the real one."""
    try:
        session.submit(Action(action.type, action.player, action.data, "button"))
    except CompanionError:
        return
    session.submit(Action("undo", source="button"))


def _camera(session: Session, faces: list[str], n: int) -> None:
    dice = [{"face": f, "confidence": 0.95, "box": [10 + 50 * k, 20, 40, 40]}
            for k, f in enumerate(faces)]
    read_id = f"read-{n}"
    sets = {"set": session.view()["expect"]["dice"][0]["set"]}   # the set the camera reads
    if n % 3 == 0:
        # doubtful: the first die misread, corrected by the players with one tap
        wrong = [{**dice[0], "face": "blank" if faces[0] != "blank" else "xmen", "confidence": 0.3},
                 *dice[1:]]
        session.submit(Action("dice.read", source="camera",
                              data={"id": read_id, **sets, "dice": wrong}))
        session.confirm_read(read_id, faces)
    elif n % 5 == 0:
        # a doubtful read dismissed, and the roll typed in instead... as a read of its own
        session.submit(Action("dice.read", source="camera", data={
            "id": read_id + "x", **sets, "dice": [{**d, "confidence": 0.2} for d in dice]}))
        session.submit(Action("dice.dismiss", source="dashboard"))
        session.submit(Action("dice.read", source="camera",
                              data={"id": read_id, **sets, "dice": dice}))
    else:
        session.submit(Action("dice.read", source="camera",
                              data={"id": read_id, **sets, "dice": dice}))


def _table_timers(session: Session, clock: Clock, i: int) -> None:
    turn = session.view()["timers"].get("turn")
    if turn is None:
        return
    if i % 13 == 3 and turn["running"]:
        session.submit(Action("timer.pause", data={"name": "turn"}))
    elif i % 13 == 7 and not turn["running"] and not turn["expired"]:
        session.submit(Action("timer.resume", data={"name": "turn"}))
    elif i % 17 == 9 and not turn["expired"]:
        session.submit(Action("timer.add", data={"name": "turn", "seconds": 45}))
    elif i % 29 == 20 and turn["running"]:
        clock.now = turn["deadline"] + 1.0
        session.tick()                                   # the ticker journals the expiry
    elif i % 29 == 24 and turn["expired"]:
        session.submit(Action("timer.start", data={"name": "turn", "seconds": 240}))


def _hero_time(session: Session, i: int) -> None:
    hero = session.view()["timers"].get("hero_time")
    if hero is None:
        return
    try:
        if i % 7 == 2 and hero["running"]:
            session.submit(Action("timer.pause", data={"name": "hero_time"}))
            session.submit(Action("timer.add", data={"name": "hero_time", "seconds": 30}))
            session.submit(Action("timer.resume", data={"name": "hero_time"}))
    except CompanionError:
        pass


def restart_view(path: Path) -> dict:
    copy = path.with_suffix(".restart.sqlite3")
    shutil.copy(path, copy)
    try:
        with Journal(copy) as journal:
            session = Session(journal, Catalog(), clock=Clock(_last_time(journal)))
            return session.view()
    finally:
        for p in copy.parent.glob(copy.name + "*"):
            p.unlink()


def _last_time(journal: Journal) -> float:
    game = journal.current_game()
    entries = journal.entries(game.id)
    return entries[-1].at if entries else game.started_at


def main() -> None:
    if "--incredibles-sample" in sys.argv:
        write_incredibles_sample()
    for game in GAMES:
        (HERE / f"{game}.replay.json").write_text(replay_output(game))
        for name, spec in {**JOURNALS, **EXTRA.get(game, {})}.items():
            path = HERE / f"{game}.{name}.sqlite3"
            info = record_journal(game, path, spec)
            view = restart_view(path)
            (HERE / f"{game}.{name}.view.json").write_text(
                json.dumps(view, indent=1, sort_keys=True) + "\n")
            print(f"{game} {name}: {info['reads']} camera reads, view at seq {view['seq']}, "
                  f"{view['outcome']['status']}")


if __name__ == "__main__":
    main()
