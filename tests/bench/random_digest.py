"""A digest of seeded random games: the same for two trees when they play the same games.

    git archive main companion | tar -x -C /tmp/main
    .venv/bin/python tests/bench/random_digest.py /tmp/main --game xmen-alert --games 150
    .venv/bin/python tests/bench/random_digest.py . --game xmen-alert --games 150

SHA-256 over every sampled action, every state's JSON (``to_json``, the journal's and views'
shape), every outcome and every fifth game's ``expect`` after each action, of the same seeded
random games ab_random_games.py times. A speed-up that keeps the digest plays the same games
by the same rules with the same random player (every draw of its rng in the same order).
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


def digest(tree: Path, game: str, games: int) -> tuple[str, int]:
    """The digest of ``games`` seeded random games of ``game`` in ``tree`` and their actions."""
    out = subprocess.run([sys.executable, "-c", GAMES, str(tree.resolve()), game, str(games)],
                         capture_output=True, text=True, check=True, timeout=1200)
    hexdigest, actions = out.stdout.split()
    return hexdigest, int(actions)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tree", type=Path, help="a folder holding companion/ ('.' for this one)")
    ap.add_argument("--game", default="xmen-alert")
    ap.add_argument("--games", type=int, default=150)
    args = ap.parse_args(argv)
    hexdigest, actions = digest(args.tree, args.game, args.games)
    print(f"{args.game}, {args.games} games, {actions} actions: {hexdigest}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
