"""Random valid data for each Incredibles move, for the conformance test and random playouts
(``Game.sample_action`` picks an open move and asks its sampler here)."""

from __future__ import annotations

import random
from typing import Any

from companion.games.incredibles.state import IncrediblesState, setting_up

JACKJACK_ROLLED = 0.8   # how often a random player rolls Jack-Jack's die once he is rescued


def roll(s: IncrediblesState, rng: random.Random) -> dict[str, Any]:
    return {"face": rng.choice(s.data.movement_die).id}


def move(s: IncrediblesState, rng: random.Random) -> dict[str, Any]:
    return {"to": rng.choice(s.reachable(s.mover.space, s.roll["move"]))}


def fix(s: IncrediblesState, rng: random.Random) -> dict[str, Any]:
    data = {"power": rng.choice(s.data.heroes[s.mover.hero].die)}
    if s.jackjack is None and rng.random() < JACKJACK_ROLLED:
        data["jackjack"] = rng.choice(s.data.jackjack_die)
    return data


def draw(s: IncrediblesState, rng: random.Random) -> dict[str, Any]:
    start = setting_up(s)       # the starting problems: Problem Cards only
    return {"card": rng.choice([c for c in s.deck if not start or s.data.cards[c].kind == "problem"])}


def choose(s: IncrediblesState, rng: random.Random) -> dict[str, Any]:
    key = "space" if s.pending["kind"] == "displace" else "tile"
    return {key: rng.choice(s.pending["options"])}
