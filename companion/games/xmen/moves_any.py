"""The move open in every phase of a game in progress: the table stops the game."""

from __future__ import annotations

from companion.games.move_table import Play
from companion.games.xmen.state import XMenState

STOPPED = "the table stopped the game"


def game_abandon(state: XMenState, play: Play) -> XMenState:
    """The table stops the game without a winner (data.reason)."""
    s = state.fork()
    s.ended = play.args["reason"] or STOPPED
    s.phase = "over"
    s.log.append(f"The game stops without a winner: {s.ended}.")
    return s
