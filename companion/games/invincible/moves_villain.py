"""The Villain Phase and the companion's questions: revealing the event card (rulebook: Villain
Phase), and the players' answers when the automatic procedure (villains.py) stops to ask: a
choice of zone or villain, the rescue die for a random zone, Cecil's Contingency, and an effect
the companion cannot apply itself.
"""

from __future__ import annotations

from companion.errors import BadAction
from companion.games.base import forbid
from companion.games.invincible import board, villains
from companion.games.invincible.state import R_DECKS, R_VILLAIN, InvincibleState
from companion.games.move_table import Play


def _now(play: Play) -> float:
    return play.action.at if play.action.at is not None else 0.0


def reveal(state: InvincibleState, play: Play) -> InvincibleState:
    """'Reveal the top card of the event deck' (data.card: the card drawn from a physical deck;
    data.boss_card: the boss's event card, in Episode 7)."""
    card = play.args["card"]
    if card is not None and card not in (state.decks["event"] or state.discards["event"]):
        raise forbid(_not_in_deck(state, card), R_VILLAIN)
    if card is not None and state.decks["event"]:
        _in_build_order(state, card)
    s = state.fork()
    villains.reveal(s, play.rng, _now(play), card, play.args.get("boss_card"))
    return s


def revealable(s: InvincibleState) -> list[str]:
    """The event cards a physical reveal may name now (what _in_build_order accepts), in the
    data's order, never the deck's: the packaged top card in Episode 1, otherwise each card of
    the top card's level; with the deck run out, its reshuffled discards."""
    deck, events = s.decks["event"], s.data.events
    if not deck:
        left = set(s.discards["event"])
        return [c for c in events if c in left]
    if s.data.episodes[s.episode].fixed_order:
        return [deck[0]]
    left, level = set(deck), events[deck[0]].level
    return [c for c in events if c in left and events[c].level == level]


def _not_in_deck(s: InvincibleState, card: str) -> str:
    events = s.data.events
    left = f"; name the card you revealed ({len(s.decks['event'])} left in the event deck)"
    if card not in events:
        return f"{card!r} is not in the event deck" + left
    why = ("it was revealed already (the discard pile)" if card in s.discards["event"]
           else f"this episode's {s.difficulty} deck was built without it")
    return f"{events[card].name} is not in the event deck: {why}" + left


def _in_build_order(s: InvincibleState, card: str) -> None:
    """A physical card revealed must be the one the deck's build puts on top: Episode 1's deck
    'exactly as packaged', otherwise a card of the top card's level ('Start with a face-down
    stack of all the Level III events, then deal a number of Level II events on top based on
    difficulty, then a number of Level I events on top of that'). Within a level the shuffle is
    the table's."""
    top = s.decks["event"][0]
    events = s.data.events
    if s.data.episodes[s.episode].fixed_order:
        if card != top:
            raise forbid(f"the event deck is in its packaged order ('do not shuffle them'): the "
                         f"next card is {events[top].name}, not {events[card].name}", R_DECKS)
        return
    want, got = events[top].level, events[card].level
    if want != got:
        left = sum(events[c].level == want for c in s.decks["event"])
        raise forbid(f"{events[card].name} is a Level {got} event, but the {s.difficulty} event "
                     f"deck still has {left} Level {want} event(s) on top: 'Start with a "
                     "face-down stack of all the Level III events, then deal a number of Level "
                     "II events on top based on difficulty, then a number of Level I events on "
                     "top of that'", R_DECKS)


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
    s.say(f"The rescue die picks the {face.zone} zone.")
    villains.push(s, {**state.pending["task"], "zone": face.zone})
    return _resume(s, play)


def resolved(state: InvincibleState, play: Play) -> InvincibleState:
    """The players let the villains act (Cecil's Contingency kept), or have applied by hand the
    effect the companion asked for."""
    return _resume(state.fork(), play)
