"""A tap that crossed other players' moves on its way to the companion.

A screen sends the ``seq`` its buttons were drawn from (``if_seq``), and a tap drawn from an
older table is refused as stale (409): the player chose on a table nobody sees any more. Where
the rules let players act at the same moment (Invincible's Hero Phase: "players can stop
independently, so one hero may keep pulling while another has already finished"), two heroes'
taps cross all the time, and the later one's player chose only on what is theirs. So such a tap
stands when the moves since it was drawn are all still on the table (none undone) and what the
engine says it was chosen on (``Game.chosen_on``: the hero's board, the power they resolve) is
as it was; the rules then check it on the table as it is now, as any move.
"""

from __future__ import annotations

from companion.actions import Action
from companion.games.base import Game
from companion.history import WINDOW, History

MOST = 8    # moves a tap may be behind: a few seconds of a busy table, all tables kept in memory
assert MOST < WINDOW


def stands(engine: Game, stack: History, action: Action, if_seq: int, seq: int) -> bool:
    """Whether ``action``, drawn at ``if_seq``, stands on the table at ``seq`` (every change up
    to ``seq`` on disk)."""
    behind = seq - if_seq
    if not 0 < behind <= MOST or stack.depth < behind:
        return False
    if [s for s, _text in stack.steps[-behind:]] != list(range(if_seq + 1, seq + 1)):
        return False                 # an undo, a new game or another entry in between
    then = engine.chosen_on(stack.table_at(stack.depth - behind).game, action)
    return then is not None and then == engine.chosen_on(stack.top().game, action)
