"""The bosses of episodes 4 and 7 (Machine Head, Omni-Man) and Omni-Man's own event deck.

Printed: "Minions and villains are treated as distinct — an effect that targets one never applies
to the other — but the term 'enemy' covers both (as well as the Machine Head and Omni-Man bosses
that appear in episodes 4 and 7)", and the box's "12 Omni-Man Event cards". So a boss is an enemy
that is neither a villain nor a minion: a power's damage may target it (one enemy; Explosive hits
"every enemy ... in the hero's zone"), a power that moves "an enemy" may move it, and what names
villains (thwart, Hurl Into Space, an event's villain area, Cecil's Contingency, the bubble that
"only blocks damage from villains") does not reach it. When "an enemy deals damage, it hits every
hero standing in its zone. If no hero is present, it endangers that many civilians instead."

Everything else is the episode file's data (``[[bosses]]``, ``[[boss_events]]``, every value
assumed): the boss's zone, health, arrive/power/strike effects, when it enters (the track icon
"boss"), and what it does in each Villain Phase after the event card (its ``acts``, or the top
card of its own event deck). Defeating it is the win of an episode whose win is ``defeat_boss``.

The boss's tasks run in villains.py's queue: ``{"do": "boss", "effect": ..., "why": ...}``.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from companion.games.base import forbid
from companion.games.invincible import board
from companion.games.invincible.state import R_BASIC, R_VILLAIN, BossState, InvincibleState

TARGET = "boss"     # how an effect's data.target names the boss (one per episode)
DECK = "boss"       # the boss's own event deck in state.decks / state.discards


def active(s: InvincibleState) -> BossState | None:
    """The boss standing in a zone now, or None."""
    b = s.boss
    return b if b is not None and not b.defeated and b.zone is not None else None


def in_zone(s: InvincibleState, zone: str) -> bool:
    b = active(s)
    return b is not None and b.zone == zone


def enter(s: InvincibleState) -> list[dict[str, Any]]:
    """The track's "boss" icon: the episode's boss enters its zone (once: a later icon finds it
    there, or defeated); its arrive effects are the tasks returned."""
    boss = s.data.bosses[s.data.episodes[s.episode].boss]
    if s.boss is not None:
        s.say(f"{boss.name} has already entered.")
        return []
    s.boss = BossState(boss.id, boss.name, boss.zone, boss.health_for(s.hero_count))
    s.say(f"Boss: {boss.name} enters the {boss.zone} zone ({s.boss.health} health).")
    return [{"do": "boss", "effect": e, "why": f"{boss.name} arrives"} for e in boss.arrive]


def damage(s: InvincibleState, amount: int, why: str) -> None:
    """A power's damage on the boss: 'Once a villain has taken damage equal to its starting
    health, it is defeated' read for the boss too (assumed)."""
    b = active(s)
    if b is None:
        raise forbid("no boss is in play", R_BASIC)
    b = s.boss = replace(b, damage=b.damage + amount)
    s.say(f"{b.name} takes {amount} damage ({why}): {max(0, b.health - b.damage)} health left.")
    if b.damage >= b.health:
        s.boss = replace(b, defeated=True, zone=None)
        s.say(f"{b.name} is defeated.")
        board.check_end(s)


def move(s: InvincibleState, to: str, why: str) -> None:
    """The boss takes no villain slot (assumed): it may go to any zone."""
    s.boss = replace(active(s), zone=to)
    s.say(f"{s.boss.name} moves to the {to} zone ({why}).")


def villain_phase(s: InvincibleState, rng: random.Random, wanted: str | None) -> list[dict]:
    """What the boss does after the event card: its own event card's abilities and effects, or
    its ``acts`` (``wanted``: the boss event card drawn from a physical deck)."""
    b = active(s)
    if b is None:
        if wanted is not None:
            raise forbid("no boss is in play to reveal a boss event for", R_VILLAIN)
        return []
    boss = s.data.bosses[b.id]
    if not boss.events:
        if wanted is not None:
            raise forbid(f"{boss.name} has no event deck", R_VILLAIN)
        return _abilities(boss, boss.acts, f"{boss.name} acts")
    card = s.data.boss_events[_draw(s, rng, wanted)]
    s.say(f"{boss.name}'s event: {card.name}.")
    return (_abilities(boss, card.use, card.name)
            + [{"do": "boss", "effect": e, "why": card.name} for e in card.effects])


def revealable(s: InvincibleState) -> list[str]:
    """The boss event cards that can come up at this reveal, for a table drawing from the boss's
    own physical deck (data.boss_card): the deck, or its discards once it has run out."""
    b = active(s)
    if b is None or not s.data.bosses[b.id].events:
        return []
    return list(s.decks[DECK] or s.discards[DECK])


def _abilities(boss, uses, why: str) -> list[dict]:
    return [{"do": "boss", "effect": e, "why": f"{why}: {boss.name}'s {use}"}
            for use in uses for e in getattr(boss, use)]


def _draw(s: InvincibleState, rng: random.Random, wanted: str | None) -> str:
    deck = board.refilled(s, DECK, rng, "The boss's event deck ran out: its discard pile is "
                                        "reshuffled (assumed, as for the event deck).")
    if wanted is not None and wanted not in deck:
        raise forbid(f"{wanted!r} is not in the boss's event deck", R_VILLAIN)
    card = wanted if wanted is not None else deck[0]
    deck.remove(card)
    s.own_discards(DECK).append(card)
    return card


def step(s: InvincibleState, task: dict[str, Any]) -> list[dict[str, Any]]:
    """One boss task: a move is applied here; any other effect becomes the villains' effect task
    at the boss's zone (or the zone the effect names), with no villain behind it."""
    b = active(s)
    if b is None:
        return []     # defeated earlier this phase
    e = task["effect"]
    if "move" not in e:
        return [{"do": "effect", "villain": None, "zone": e.get("zone") or b.zone, "effect": e,
                 "why": task["why"]}]
    zones = s.data.zones
    if e["move"] in ("left", "right"):
        j = zones.index(b.zone) + (1 if e["move"] == "right" else -1)
        if 0 <= j < len(zones):
            move(s, zones[j], task["why"])
        elif e.get("blocked_endanger"):
            board.endanger(s, b.zone, e["blocked_endanger"], f"{b.name} can't move")
        return []
    most = max(z.danger for z in s.zones)
    tied = [z.name for z in s.zones if z.danger == most]
    if b.zone in tied:
        return []
    if len(tied) > 1:
        # 'If a tie ever comes up ... the players choose among the tied options.'
        s.pending = {"kind": "move", "villain": TARGET, "options": tied, "rule": R_VILLAIN,
                     "prompt": f"{b.name} moves to the zone with the most civilians in danger: "
                               f"tie between {' and '.join(tied)}, choose one."}
        return []
    move(s, tied[0], task["why"])
    return []


def json_of(s: InvincibleState) -> dict[str, Any] | None:
    """The dashboard's boss: who, where, health left, and its card's text."""
    if s.boss is None:
        return None
    b = s.boss
    return {"id": b.id, "name": b.name, "zone": b.zone, "health": b.health, "damage": b.damage,
            "remaining": max(0, b.health - b.damage), "defeated": b.defeated,
            "text": s.data.bosses[b.id].text}


def problems(s: InvincibleState) -> list[str]:
    """The invariants a boss keeps, and its event deck's cards (none lost or doubled)."""
    out = []
    if DECK in s.decks:
        held = s.decks[DECK] + s.discards[DECK]
        boss = s.data.episodes[s.episode].boss
        if sorted(held) != sorted(e.id for e in s.data.boss_events.values() if e.boss == boss):
            out.append("the boss's event cards were lost or duplicated")
    b = s.boss
    if b is None:
        return out
    if b.id != s.data.episodes[s.episode].boss:
        out.append(f"the boss {b.id} is not episode {s.episode}'s")
    if b.defeated != (b.damage >= b.health) or b.defeated != (b.zone is None):
        out.append(f"{b.name}: defeated {b.defeated} with {b.damage}/{b.health} in {b.zone}")
    if b.zone is not None and b.zone not in s.data.zones:
        out.append(f"{b.name} stands in {b.zone!r}")
    return out
