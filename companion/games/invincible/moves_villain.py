"""The Villain Phase and the companion's questions: revealing the event card (rulebook: Villain
Phase), and the players' answers when the automatic procedure (villains.py) stops to ask: a
choice of zone or villain, the rescue die for a random zone, Cecil's Contingency, and an effect
the companion cannot apply itself.
"""

from __future__ import annotations

from companion.errors import BadAction
from companion.games.base import forbid
from companion.games.invincible import board, villains
from companion.games.invincible.state import R_VILLAIN, InvincibleState
from companion.games.move_table import Play


def _now(play: Play) -> float:
    return play.action.at if play.action.at is not None else 0.0


def reveal(state: InvincibleState, play: Play) -> InvincibleState:
    """'Reveal the top card of the event deck' (data.card: the card drawn from a physical deck)."""
    card = play.args["card"]
    if card is not None and card not in (state.decks["event"] or state.discards["event"]):
        raise forbid(f"{card!r} is not in the event deck", R_VILLAIN)
    s = state.fork()
    villains.reveal(s, play.rng, _now(play), card)
    return s


def _resume(s: InvincibleState, play: Play) -> InvincibleState:
    """The question is answered: the procedure goes on."""
    s.pending = None
    villains.run(s, play.rng, _now(play))
    return s


def choose(state: InvincibleState, play: Play) -> InvincibleState:
    """A zone for a villain when its zone is full (or a mover's tie), or the villain to discard
    when there is no room: 'the players choose among the tied options'."""
    p = state.pending
    key = "villain" if p["kind"] == "discard" else "zone"
    choice = play.args[key]
    if choice is None:
        raise BadAction(f"choose needs data.{key} (one of {', '.join(p['options'])})")
    if choice not in p["options"]:
        raise forbid(f"choose one of {', '.join(p['options'])}", p["rule"])
    s = state.fork()
    if p["kind"] == "zone":
        villains.arrive(s, p["villain"], choice)
    elif p["kind"] == "discard":
        board.discard_from_play(s, choice)
        villains.push(s, {"do": "place", "villain": p["villain"]})
    else:
        villains.finish_move(s, p["villain"], choice)
    return _resume(s, play)


def roll(state: InvincibleState, play: Play) -> InvincibleState:
    """'Whenever you need a random zone, roll the rescue die' (data.face; none: a virtual roll)."""
    faces = state.data.rescue_die
    face_id = play.args["face"]
    face = next(f for f in faces if f.id == face_id) if face_id else play.rng.choice(faces)
    s = state.fork()
    s.say(f"The rescue die picks the {face.zone} zone ({face.id}).")
    villains.push(s, {**state.pending["task"], "zone": face.zone})
    return _resume(s, play)


def resolved(state: InvincibleState, play: Play) -> InvincibleState:
    """The players let the villains act (Cecil's Contingency kept), or have applied by hand the
    effect the companion asked for."""
    return _resume(state.fork(), play)
