"""The draw phase's move (setup option ``physical_decks``, draws.py): the table drew the top card
of its own X-Men Alert or Training & Luck deck and names it; the card goes where the companion's
own draw would have put it, and the game goes on from there."""

from __future__ import annotations

from companion.errors import IllegalAction
from companion.games.move_table import Play
from companion.games.xmen import draws, track, turn
from companion.games.xmen.state import R_STEP1, XMenState


def draw(state: XMenState, play: Play) -> XMenState:
    """The card drawn (data.card: its id, or its printed name); it must still be in the deck the
    table draws from now."""
    waiting = state.drawing
    if waiting is None:
        raise IllegalAction("no card is to be drawn now: with the table's own decks the "
                            "companion asks for the card when an empty Battle Zone or a "
                            "Training & Luck space needs one", R_STEP1)
    card = draws.named(state, play.args["card"])
    s = state.fork()
    s.drawing, s.phase = None, "play"
    deck = waiting["deck"]
    draws.piles(s, deck, own=True)[0].remove(card)
    if deck == "alert":
        turn.alert_drawn(s, waiting["zone"], card)
        turn.zones_filled(s, play.rng)
    else:
        track.luck_drawn(s, waiting["team"], card, play.rng)
        turn.finish_turn(s, play.rng)
    return s
