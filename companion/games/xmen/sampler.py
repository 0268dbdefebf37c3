"""Random valid data for each X-Men Alert move (the conformance test plays thousands of games), and
the random player's preference among the moves open now.

A random player that ended turns as often as it fought would rarely finish a game: it fights
whenever a character stands in a Battle Zone, and otherwise deploys or recovers more often than
it ends the turn, and plays a held card now and then.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterator

from companion.actions import Action
from companion.games.xmen import cards, choices
from companion.games.xmen.state import XMenState

PLAY_CARD = 0.2      # how often the random player plays a card it could play
DEPLOY = 0.85        # ... considers deploying
RECOVER = 0.7        # ... considers a recovery roll


def preference(s: XMenState, is_open: Callable[[str], bool], rng: random.Random) -> Iterator[str]:
    """The moves the random player tries, in order (it takes the first whose sampler finds valid
    data); ``is_open(type)`` says whether the table has that move open now, and is asked only
    about the moves it comes to."""
    for roll in ("first.roll", "bonus.roll"):
        if is_open(roll):
            yield roll
            return
    fights = [k for k in ("battle.roll", "recruit.roll") if is_open(k)]
    if fights:
        yield rng.choice(fights)
        return
    if rng.random() < PLAY_CARD and is_open("card.play"):
        yield "card.play"
    if s.pending_recovery() and is_open("recover.roll"):
        yield "recover.roll"
    # deploy or recover (whichever it considers and is open; both: either), else end the turn
    maybe = [k for k, p in (("deploy", DEPLOY), ("recover.roll", RECOVER)) if rng.random() < p]
    if len(maybe) == 2 and rng.random() < 0.5:
        maybe.reverse()
    yield from (k for k in maybe + ["turn.end", "recover.roll"] if is_open(k))


def _faces(s: XMenState, n: int, rng: random.Random) -> list[str]:
    return rng.choices(s.data.faces, k=n)


def first_roll(s: XMenState, rng: random.Random) -> Action:
    return Action("first.roll", s.first_to_roll[0],
                  {"faces": _faces(s, s.data.going_first_dice, rng)})


def bonus_roll(s: XMenState, rng: random.Random) -> dict[str, Any]:
    return {"faces": _faces(s, s.bonus["dice"], rng)}


def _fight(s: XMenState, rng: random.Random, kind: str) -> dict[str, Any]:
    f = rng.choice(choices.fights(s, kind))
    data = {"zone": f["zone"] + 1, "hero": f["hero"], "faces": _faces(s, f["count"], rng)}
    if "attack" in f:
        data["attack"] = f["attack"]
    return data


def battle_roll(s: XMenState, rng: random.Random) -> dict[str, Any]:
    return _fight(s, rng, "battle")


def recruit_roll(s: XMenState, rng: random.Random) -> dict[str, Any]:
    return _fight(s, rng, "recruit")


def deploy(s: XMenState, rng: random.Random) -> dict[str, Any]:
    options = choices.deployments(s)
    z = rng.choice(list(options))
    pick = rng.sample(options[z], rng.randint(1, len(options[z])))
    data: dict[str, Any] = {"zone": z + 1, "heroes": pick}
    if s.zones[z].side(s.current.player) is None:
        data["leader"] = rng.choice(pick)
    return data


def recover_roll(s: XMenState, rng: random.Random) -> dict[str, Any]:
    """A seriously wounded character first: its roll is due this turn."""
    options = choices.recoveries(s)
    serious = [r for r in options if r["serious"]]
    r = serious[0] if serious else rng.choice(options)
    return {"hero": r["hero"], "faces": _faces(s, r["count"], rng)}


def card_play(s: XMenState, rng: random.Random) -> Action:
    c = rng.choice(cards.playable(s))
    data = {"card": c["card"]}
    if "targets" in c:
        data["target"] = rng.choice(c["targets"])
    if "heroes" in c:
        data["hero"] = rng.choice(c["heroes"])
    return Action("card.play", c["player"], data)


def turn_end(s: XMenState, rng: random.Random) -> dict[str, Any]:
    return {}


def game_abandon(s: XMenState, rng: random.Random) -> None:
    """Never at random: a random game is played to its end."""
    return None


def options(rng: random.Random) -> dict[str, Any]:
    """Random valid setup options: 2 to 4 players, Basic or Advanced, sometimes a known first
    player, and now and then an owner's typed cards (one the file lacks, one typed over it)."""
    names = ["Ana", "Ben", "Chloe", "Dev"][: rng.randint(2, 4)]
    out: dict[str, Any] = {"players": names, "advanced": rng.random() < 0.5}
    if rng.random() < 0.3:
        out["first_player"] = rng.choice(names)
    if rng.random() < 0.1:
        out["typed_cards"] = [
            {"id": "dazzler", "name": "Dazzler", "fighting_skill": 4, "durability": 3,
             "intelligence": 2, "total_power": 9},
            {"id": "storm", "name": "Storm", "fighting_skill": 4, "durability": 3,
             "intelligence": 2, "total_power": 9,
             "abilities": [{"name": "Flight", "kind": "flight", "text": "Flies."}]}]
    return out
