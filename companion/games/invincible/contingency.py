"""Cecil's Contingency: 'After an event card is revealed, you may spend this to cancel up to two
villain powers and/or strikes for that Villain Phase'. The question the reveal leaves while the
team holds it, the abilities it may cancel, and the cancelling (a fork's queue)."""

from __future__ import annotations

from typing import Any

from companion.games.base import forbid
from companion.games.invincible import board
from companion.games.invincible.state import InvincibleState


def ask(s: InvincibleState, event: str, tasks: list[dict[str, Any]]) -> bool:
    """While the team holds it and a villain ability would occur, ask (``state.pending``)."""
    helpers = s.data.helpers
    acts = list(dict.fromkeys(f"{t['villain']}:{t['ability']}" for t in would_act(s, tasks)))
    helper = next((h for h in s.helpers if helpers[h].cancel_abilities), None)
    if helper is None or not acts:
        return False
    n = helpers[helper].cancel_abilities
    s.pending = {"kind": "contingency", "helper": helper, "max": n, "options": acts,
                 "rule": "Card Clarifications › Cecil's Contingency",
                 "prompt": f"{event}: spend {helpers[helper].name} to cancel up to {n} of these "
                           "villain abilities (use_helper with data.cancel), or send resolved to "
                           "let them act."}
    return True


def would_act(s: InvincibleState, tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The villain abilities of ``tasks`` that would resolve as things stand ('You can only cancel
    abilities that would occur in that specific Villain Phase'): not a hurled villain's, nor the
    first of a fully thwarted one (its tokens come off instead)."""
    out, seen = [], set()
    for t in tasks:
        if t["do"] != "act":
            continue
        first = t["villain"] not in seen
        seen.add(t["villain"])
        where = board.find_villain(s, t["villain"])
        v = where[0].villains[where[1]] if where else None
        if v is None or v.id in s.hurled or (first and v.thwart >= v.thwart_spaces > 0):
            continue
        out.append(t)
    return out


def cancel(s: InvincibleState, chosen: list | None) -> None:
    p = s.pending
    if not isinstance(chosen, list) or not 1 <= len(chosen) <= p["max"] or not all(
            c in p["options"] for c in chosen) or len(set(chosen)) != len(chosen):
        raise forbid(f"cancel up to {p['max']} of {', '.join(p['options'])}", p["rule"])
    for label in chosen:
        vid, ability = label.split(":")
        for i, task in enumerate(s.queue):
            if task["do"] == "act" and task["villain"] == vid and task["ability"] == ability:
                del s.queue[i]
                break
        s.say(f"{s.data.villains[vid].name}'s {ability} is cancelled.")
