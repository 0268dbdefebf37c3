"""Random full games per second, this tree against another one, in interleaved rounds.

    git archive <old commit> companion | tar -x -C /tmp/old
    .venv/bin/python tests/bench/ab_random_games.py /tmp/old --game xmen-alert --games 200

Each round plays the same seeded random games (``sample_action`` + ``apply``, as bench_core's
figure does) once in the other tree and once in this one, each in a process of its own timed by
its own CPU time, so that other work on a shared machine moves both alike. Prints every round
and the median ratio (this tree / the other). ``make bench BENCH=core`` runs ``compare`` against
the code before issue 17 (bench_core.py), unpacked from git.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[2]

ROUND = """
import json, sys
sys.path[:0] = [sys.argv[1], sys.argv[4]]
import companion
assert companion.__file__.startswith(sys.argv[1]), companion.__file__
from companion.games import Catalog
from random_loop import play
games = int(sys.argv[3])
actions, cpu = play(Catalog()(sys.argv[2]), games)
print(json.dumps({"games": games / cpu, "actions": actions / cpu, "length": actions / games}))
"""


def one_round(tree: Path, game: str, games: int) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", ROUND, str(tree), game, str(games),
                          str(Path(__file__).resolve().parent)],
                         capture_output=True, text=True, check=True, timeout=600)
    return json.loads(out.stdout)


def compare(other: Path, game: str, games: int, rounds: int, say=print) -> dict[str, Any]:
    """``rounds`` rounds, the other tree first in each: each round's figures of both, and the
    median ratios (this tree / the other) of games and actions per second."""
    ratios: dict[str, list[float]] = {"games": [], "actions": []}
    olds, news = [], []
    for r in range(rounds):
        old = one_round(other.resolve(), game, games)
        new = one_round(HERE, game, games)
        olds.append(old)
        news.append(new)
        for key in ratios:
            ratios[key].append(new[key] / old[key])
        say(f"round {r + 1}: other {old['games']:8.1f} games/s {old['actions']:9,.0f} actions/s "
            f"({old['length']:.0f} a game) | this {new['games']:8.1f} games/s "
            f"{new['actions']:9,.0f} actions/s ({new['length']:.0f} a game)")
    return {"other": olds, "this": news, "games": statistics.median(ratios["games"]),
            "actions": statistics.median(ratios["actions"]),
            "range": (min(ratios["games"]), max(ratios["games"]))}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("other", type=Path, help="the other tree (a folder holding companion/)")
    ap.add_argument("--game", default="xmen-alert")
    ap.add_argument("--games", type=int, default=200, help="random games a round")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    got = compare(args.other, args.game, args.games, args.rounds,
                  say=lambda line: print(line, flush=True))
    print(f"median ratio, this / other: games/s {got['games']:.2f}, "
          f"actions/s {got['actions']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
