"""Random valid data for each X-Men Alert move (the conformance test plays thousands of games), and
the random player's preference among the moves open now.

A random player that ended turns as often as it fought would rarely finish a game: it fights
whenever a character stands in a Battle Zone, and otherwise deploys or recovers more often than
it ends the turn, and plays a held card now and then.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

from companion.actions import Action
from companion.games.xmen import cards, choices, draws
from companion.games.xmen.state import XMenState

PLAY_CARD = 0.2      # how often the random player plays a card it could play
DEPLOY = 0.85        # ... considers deploying
RECOVER = 0.7        # ... considers a recovery roll
PHASE_ROLL = {"first": "first.roll", "bonus": "bonus.roll"}   # what those phases wait for


def preference(s: XMenState, rng: random.Random) -> Iterator[str]:
    """The moves the random player tries, in order: it takes the first whose sampler finds valid
    data now (a sampler reads the same choices as the move table's ``when``, so what it finds is
    open). A move of another phase finds none."""
    if s.phase == "draw":
        yield "draw"
        return
    if s.phase in PHASE_ROLL:
        yield PHASE_ROLL[s.phase]
        return
    kinds = sorted({s.zones[z].kind for z, _ in s.unfought(s.current)})
    if kinds:       # characters in a Battle Zone roll: an Evil Mutant's zone, or a recruit's
        rng.shuffle(kinds)
        yield from (f"{kind}.roll" for kind in kinds)
    if rng.random() < PLAY_CARD:
        yield "card.play"
    if s.pending_recovery():
        yield "recover.roll"
    # deploy or recover (whichever it considers and can; both: either), else end the turn
    maybe = [k for k, p in (("deploy", DEPLOY), ("recover.roll", RECOVER)) if rng.random() < p]
    if len(maybe) == 2 and rng.random() < 0.5:
        maybe.reverse()
    yield from maybe + ["turn.end", "recover.roll"]


def _faces(s: XMenState, n: int, rng: random.Random) -> list[str]:
    return rng.choices(s.data.faces, k=n)


def first_roll(s: XMenState, rng: random.Random) -> Action:
    return Action("first.roll", s.first_to_roll[0],
                  {"faces": _faces(s, s.data.going_first_dice, rng)})


def bonus_roll(s: XMenState, rng: random.Random) -> dict[str, Any]:
    return {"faces": _faces(s, s.bonus["dice"], rng)}


def _fight(s: XMenState, rng: random.Random, kind: str) -> dict[str, Any] | None:
    picks = choices.fight_picks(s, kind)     # fights' rolls, the dice only of the one picked
    if not picks:
        return None
    z, hero, zone_kind, attack = rng.choice(picks)
    data = {"zone": z + 1, "hero": hero,
            "faces": _faces(s, choices.fight_dice(s, z, hero, zone_kind, attack), rng)}
    if attack is not None:
        data["attack"] = attack
    return data


def battle_roll(s: XMenState, rng: random.Random) -> dict[str, Any] | None:
    return _fight(s, rng, "battle")


def recruit_roll(s: XMenState, rng: random.Random) -> dict[str, Any] | None:
    return _fight(s, rng, "recruit")


def deploy(s: XMenState, rng: random.Random) -> dict[str, Any] | None:
    options = choices.deployments(s)
    if not options:     # open only for what an assumed Durability forbids (with a reminder)
        unchecked = choices.unchecked_deployments(s)
        if not unchecked:
            return None
        z, hero = rng.choice(unchecked)
        new = s.zones[z].side(s.current.player) is None
        return {"zone": z + 1, "heroes": [hero], **({"leader": hero} if new else {})}
    z = rng.choice(list(options))
    pick = rng.sample(options[z], rng.randint(1, len(options[z])))
    data: dict[str, Any] = {"zone": z + 1, "heroes": pick}
    if s.zones[z].side(s.current.player) is None:
        data["leader"] = rng.choice(pick)
    return data


def recover_roll(s: XMenState, rng: random.Random) -> dict[str, Any] | None:
    """A seriously wounded character first: its roll is due this turn."""
    options = choices.recoveries(s)
    if not options:
        return None
    serious = [r for r in options if r["serious"]]
    r = serious[0] if serious else rng.choice(options)
    return {"hero": r["hero"], "faces": _faces(s, r["count"], rng)}


def card_play(s: XMenState, rng: random.Random) -> Action | None:
    playable = cards.playable(s)
    if not playable:
        return None
    c = rng.choice(playable)
    data = {"card": c["card"]}
    if "targets" in c:
        data["target"] = rng.choice(c["targets"])
    if "heroes" in c:
        data["hero"] = rng.choice(c["heroes"])
    return Action("card.play", c["player"], data)


def turn_end(s: XMenState, rng: random.Random) -> dict[str, Any] | None:
    return {} if choices.can_end(s) else None


def draw(s: XMenState, rng: random.Random) -> dict[str, Any] | None:
    """The table's own deck: whichever card of it comes up (its order is the table's shuffle)."""
    if s.drawing is None:
        return None
    return {"card": rng.choice(sorted(draws.piles(s, s.drawing["deck"])[0]))}


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
    if rng.random() < 0.25:
        out["physical_decks"] = rng.choice([["alert"], ["training_luck"], True])
    return out
