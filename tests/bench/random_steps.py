"""Two views of seeded random games in one tree: a digest that is the same for two trees when they
play the same games, and where an action's time goes, part by part.

    git archive main companion | tar -x -C /tmp/main
    .venv/bin/python tests/bench/random_steps.py digest /tmp/main --game xmen-alert --games 150
    .venv/bin/python tests/bench/random_steps.py digest . --game xmen-alert --games 150
    .venv/bin/python tests/bench/random_steps.py parts . --game xmen-alert --games 30

``digest``: SHA-256 over every sampled action, every state's JSON (``to_json``, the journal's and
views' shape), every outcome and every fifth game's ``expect`` after each action, of the same
seeded random games ab_random_games.py times. A speed-up that keeps the digest plays the same
games by the same rules with the same random player (every draw of its rng in the same order).

``parts``: records the states of the games, then replays each step the way the random loop does
(``sample_action``, ``Game.check``, the move's handler and ``after_move``, ``outcome``,
``rng_for``), each part timed on its own call (CPU), summed over every action, best of three
passes; ``when`` and ``fork()`` (where the state has one) are timed apart, not in the sum.
An action the move table does not apply (Invincible's hero time) counts whole as its handler.
``--by-type`` also splits the sampling, the check and the handler by action type.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

GAMES = """
import hashlib, json, random, sys
sys.path.insert(0, sys.argv[1])
import companion
assert companion.__file__.startswith(sys.argv[1]), companion.__file__
from companion.games import Catalog
from companion.rng import rng_for
engine = Catalog()(sys.argv[2])
digest, actions = hashlib.sha256(), 0
def put(value):
    digest.update(json.dumps(value, sort_keys=True, default=str).encode())
for g in range(int(sys.argv[3])):
    rng = random.Random(g)
    state = engine.setup(engine.sample_options(rng), rng_for(g, "setup"))
    put(engine.to_json(state))
    while engine.outcome(state)["status"] == "playing":
        action = engine.sample_action(state, rng)
        put([action.type, action.player, action.data])
        state = engine.apply(state, action, rng_for(g, actions))
        put(engine.to_json(state))
        put(engine.outcome(state))
        if g % 5 == 0:
            put(engine.expect(state))
        actions += 1
print(digest.hexdigest(), actions)
"""

PARTS = """
import collections, random, sys, time
sys.path.insert(0, sys.argv[1])
import companion
assert companion.__file__.startswith(sys.argv[1]), companion.__file__
from companion.games import Catalog
from companion.games.move_table import Play
from companion.rng import rng_for
engine = Catalog()(sys.argv[2])
by_type = sys.argv[4] == "1"
steps, n = [], 0
for g in range(int(sys.argv[3])):
    rng = random.Random(g)
    state = engine.setup(engine.sample_options(rng), rng_for(g, "setup"))
    while engine.outcome(state)["status"] == "playing":
        before = rng.getstate()
        action = engine.sample_action(state, rng)
        steps.append((state, before, g, n))
        state = engine.apply(state, action, rng_for(g, n))
        n += 1
clock = time.process_time_ns
names = ["sample_action", "Game.check", "  of which when", "handler + after_move",
         "  fork()", "outcome", "rng_for"]
best = dict.fromkeys(names, float("inf"))
kinds = collections.defaultdict(lambda: [0, 0, 0, 0])   # type: count, sample, check, handler
outside = 0
r = random.Random()
for round in range(3):
    total = dict.fromkeys(names, 0)
    for s, before, g, k in steps:
        r.setstate(before)
        t0 = clock(); action = engine.sample_action(s, r); t1 = clock()
        if engine.moves.get(engine.phase_of(s), action.type) is None:
            # applied outside the move table (Invincible's hero time): apply as a whole
            t2 = clock(); engine.apply(s, action, rng_for(g, k)); t3 = clock()
            total["handler + after_move"] += t3 - t2
            total["sample_action"] += t1 - t0
            outside += round == 0
            continue
        move, args = engine.check(s, action); t2 = clock()
        move.when(s) if move.when else None; t3 = clock()
        rng = rng_for(g, k); t4 = clock()
        play = Play(args, action, rng); t5 = clock()
        engine.after_move(move.handler(s, play), play); t6 = clock()
        s.fork() if hasattr(s, "fork") else None; t7 = clock()
        engine.outcome(s); t8 = clock()
        for name, ns in zip(names, (t1 - t0, t2 - t1, t3 - t2, t6 - t5, t7 - t6, t8 - t7,
                                    t4 - t3)):
            total[name] += ns
        if by_type:
            x = kinds[action.type]
            x[0] += 1; x[1] += t1 - t0; x[2] += t2 - t1; x[3] += t6 - t5
    for name in names:
        best[name] = min(best[name], total[name] / len(steps) / 1000)
print(f"{len(steps)} actions of {sys.argv[3]} games, us an action (CPU, best of 3):")
for name in names:
    print(f"  {name:22s} {best[name]:6.2f}")
if outside:
    print(f"  ({outside} actions applied outside the move table: in sample_action and handler)")
if by_type:
    count = sum(x[0] for x in kinds.values())
    print("by action type, us an action of the type (mean of 3 passes): share, sample_action, "
          "Game.check, handler + after_move; and its part of an average action")
    for kind, (c, a, b, h) in sorted(kinds.items(), key=lambda kv: -sum(kv[1][1:])):
        print(f"  {kind:16s} {c / count:6.3f} {a / c / 1000:7.2f} {b / c / 1000:7.2f} "
              f"{h / c / 1000:7.2f}   {(a + b + h) / count / 1000:6.2f}")
"""


def run(script: str, tree: Path, game: str, games: int, *more: str) -> str:
    """``script`` (GAMES or PARTS) run over ``tree`` in a process of its own: its output."""
    return subprocess.run([sys.executable, "-c", script, str(tree.resolve()), game, str(games),
                           *more], capture_output=True, text=True, check=True,
                          timeout=1200).stdout


def digest(tree: Path, game: str, games: int) -> tuple[str, int]:
    """The digest of ``games`` seeded random games of ``game`` in ``tree`` and their actions."""
    hexdigest, actions = run(GAMES, tree, game, games).split()
    return hexdigest, int(actions)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("digest", "parts"))
    ap.add_argument("tree", type=Path, help="a folder holding companion/ ('.' for this one)")
    ap.add_argument("--game", default="xmen-alert")
    ap.add_argument("--games", type=int, default=None, help="150 for digest, 30 for parts")
    ap.add_argument("--by-type", action="store_true", help="parts: also split by action type")
    args = ap.parse_args(argv)
    if args.what == "digest":
        games = args.games or 150
        hexdigest, actions = digest(args.tree, args.game, games)
        print(f"{args.game}, {games} games, {actions} actions: {hexdigest}")
    else:
        print(run(PARTS, args.tree, args.game, args.games or 30, "1" if args.by_type else "0"),
              end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
