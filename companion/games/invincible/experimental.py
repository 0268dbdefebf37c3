"""Technical Genius and the Experimental Technology cards (Card Clarifications › Technical
Genius): set aside at game start, given to a hero's slot, returned once filled.

'At game start, Robot sets the Experimental Blaster, Experimental Jetbike, and Experimental
Optics cards aside near his hero board. When he uses Technical Genius, he chooses one of the
three and gives it to any hero (including himself); that hero needs an open slot for it,
discarding an existing power if necessary (any cubes already on that power are dropped). When a
hero fills an Experimental power, they return it to the side of Robot's hero board during the
Training Phase; if they never use it, they may hold onto it for a future Hero Phase instead, or
return it unused to free up a slot.'

The cards are the data's powers of kind ``experimental``; the power that gives one has the effect
``give_experimental``. A slot takes an Experimental card as it would a learned power (a coloured
slot of its colour, or a flex slot). Returning one unused is the Training Phase's
``discard_power`` (its card goes back beside the board, not to a discard pile); a filled one goes
back as the Training Phase starts (cards.return_experimental).
"""

from __future__ import annotations

import random
from typing import Any

from companion.games.invincible import cards
from companion.games.invincible.data import InvincibleData
from companion.games.invincible.moves_training import _slot_refusal
from companion.games.invincible.state import HeroState, InvincibleState, Played


def deck(d: InvincibleData) -> list[str]:
    return [p.id for p in d.powers.values() if p.kind == "experimental"]


_LAST: list = [None, frozenset(), []]     # the powers last asked about, their ids, sorted


def _deck_of(d: InvincibleData) -> tuple[frozenset[str], list[str]]:
    """``deck(d)`` once per data (the invariants ask after every action of the random games)."""
    if _LAST[0] is not d.powers:
        ids = sorted(deck(d))
        _LAST[:] = [d.powers, frozenset(ids), ids]
    return _LAST[1], _LAST[2]


def set_aside(d: InvincibleData, heroes: list[HeroState]) -> list[str]:
    """The cards set aside at game start: all of them when a hero's board has a power that gives
    one (Robot's signature power, from Episode 2), else none."""
    gives = any(e.kind == "give_experimental" for h in heroes for p in h.powers.values()
                for e in d.powers[p.power].effects)
    return deck(d) if gives else []


def _slots(s: InvincibleState, x: HeroState, card: str) -> list[str]:
    """The slots of ``x`` that may take ``card``: an open one, else any (its power discarded)."""
    d = s.data
    fitting = [n for n in d.slot_names() if n not in ("starter", "signature")
               and _slot_refusal(d, n, card) is None]
    empty = [n for n in fitting if n not in x.powers]
    return empty or fitting


def options(s: InvincibleState, h: HeroState, step: dict, ranged: bool) -> list[dict[str, Any]]:
    return [{"card": c, "target": x.id, "into": slot}
            for c in s.experimental for x in s.heroes for slot in _slots(s, x, c)]


def give(s: InvincibleState, h: HeroState, step: dict, a: dict, rng: random.Random) -> None:
    card, into = a["card"], a["into"]
    x = s.own_hero(a["target"])
    s.experimental = [c for c in s.experimental if c != card]
    cards.clear_slot(s, x, into)      # 'any cubes already on that power are dropped'
    x.powers[into] = Played(card, card, [None] * len(s.data.powers[card].symbols))
    s.say(f"{h.name} gives {s.data.powers[card].name} to {x.name} (the {into} slot).")


def wrong(s: InvincibleState) -> list[str]:
    """Every Experimental card is beside Robot's board or in one slot, once (when in the game)."""
    ids, cards_ = _deck_of(s.data)
    held = list(s.experimental) + [p.power for h in s.heroes for p in h.powers.values()
                                   if p.power in ids]
    if held and sorted(held) != cards_:
        return ["the Experimental Technology cards were lost or duplicated"]
    return []


OPTIONS = {"give_experimental": options}
APPLY = {"give_experimental": give}
