"""Setting up The Incredibles: players and their heroes, the three starting problems, the deck.

Options: ``players`` (1 to 4, youngest first: hero names or ``{"name", "hero"}``), and for tests
and fixed first games ``starting_problems`` (card ids or tile letters) and ``deck`` (card ids
for the top of the deck, in order; the rest is shuffled beneath). ``starting_problems =
"drawn"``: the table selects the starting problems from its own cards and names each
(moves.draw); every new game with the table's own deck records it (engine.prepare_options).
"""

from __future__ import annotations

import random
from typing import Any

from companion.errors import SetupError
from companion.games.incredibles.data import Hero, IncrediblesData
from companion.games.incredibles.state import IncrediblesState, Mover, Slot
from companion.schema import shown

# starting_problems: the table selects them at random from its own cards and names each one
DRAWN = "drawn"


def setup(d: IncrediblesData, options: dict[str, Any], rng: random.Random) -> IncrediblesState:
    movers = players(d, options.get("players"))
    problems = [c.id for c in d.cards.values() if c.kind == "problem"]
    start = options.get("starting_problems")
    if start == DRAWN:
        start = []
    elif start is None:
        start = rng.sample(problems, d.track_spaces)
    else:
        start = [card_id(d, x, "starting_problems", kind="problem")
                 for x in _list(start, "starting_problems")]
        if len(start) != d.track_spaces or len(set(start)) != len(start):
            raise SetupError(f"starting_problems must name {d.track_spaces} different problem cards "
                             f"(or be \"{DRAWN}\": the table selects them and names each)")
    rest = [c for c in d.cards if c not in start]
    stacked = options.get("deck")
    if stacked is None:
        rng.shuffle(rest)
        deck = rest
    else:
        top = [card_id(d, x, "deck") for x in _list(stacked, "deck")]
        if len(set(top)) != len(top) or set(top) & set(start):
            raise SetupError("deck: each card may appear once, and not among the starting problems")
        below = [c for c in rest if c not in top]
        rng.shuffle(below)
        deck = top + below
    tiles = {letter: "safe" for letter in d.tiles}
    track: list[Slot | None] = []
    # "Place the three starting Problem Cards face-up on the three spaces of the Problem Track"
    for cid in start:
        card = d.cards[cid]
        tiles[card.tile] = "problem"
        track.append(Slot(card.id, card.tile, card.power, True))
    state = IncrediblesState(movers=movers, track=track, deck=deck, tiles=tiles,
                             jackjack=d.jackjack_start, data=d)
    if not track:
        # the table's own random selection: the game waits for each card's name (moves.draw)
        state.phase = "draw"
        state.log.append(f"Set up: Jack-Jack on space {d.jackjack_start}; the table selects "
                         f"{d.track_spaces} starting Problem Cards and names each.")
        return state
    state.log.append("Set up: starting problems " + ", ".join(s.tile for s in track)
                     + f"; Jack-Jack on space {d.jackjack_start}.")
    return state


def players(d: IncrediblesData, given: Any) -> list[Mover]:
    if not isinstance(given, list) or not 1 <= len(given) <= len(d.heroes):
        raise SetupError(f"players: give 1 to {len(d.heroes)} players, youngest first, "
                         "each a hero (" + ", ".join(h.name for h in d.heroes.values()) + ")")
    movers, seen = [], set()
    for i, p in enumerate(given):
        if isinstance(p, str):
            hero_key, name = p, None
        elif isinstance(p, dict) and isinstance(p.get("hero"), str):
            hero_key, name = p["hero"], p.get("name")
            if name is not None and (not isinstance(name, str) or not shown(name) or len(name) > 40):
                raise SetupError(f"players[{i}].name must be a short non-empty string")
        else:
            raise SetupError(f"players[{i}] must be a hero name or {{\"name\": ..., \"hero\": ...}}")
        hero = find_hero(d, hero_key)
        if hero is None:
            raise SetupError(f"players[{i}]: unknown hero {hero_key!r}; choose from "
                             + ", ".join(h.name for h in d.heroes.values()))
        if hero.id in seen:
            raise SetupError(f"players[{i}]: {hero.name} is already taken; each player chooses "
                             "a different character")
        seen.add(hero.id)
        movers.append(Mover(hero.id, name or hero.name, d.start))
    return movers


def find_hero(d: IncrediblesData, key: str) -> Hero | None:
    norm = key.strip().lower().replace(".", "").replace(" ", "-")
    for hero in d.heroes.values():
        if norm in (hero.id, hero.name.lower().replace(".", "").replace(" ", "-")):
            return hero
    return None


def card_id(d: IncrediblesData, key: Any, option: str, kind: str | None = None) -> str:
    if not isinstance(key, str):
        raise SetupError(f"{option}: card names are strings")
    cards = d.cards
    cid = key if key in cards else f"problem-{key}" if f"problem-{key}" in cards else None
    if cid is None or (kind and cards[cid].kind != kind):
        raise SetupError(f"{option}: {key!r} is not a {kind or 'known'} card")
    return cid


def _list(value: Any, option: str) -> list:
    if not isinstance(value, list):
        raise SetupError(f"{option} must be a list")
    return value
