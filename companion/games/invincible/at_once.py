"""Heroes act at the same moment: in the Hero Phase ("players can stop independently, so one
hero may keep pulling while another has already finished") and in the Training Phase, each on
their own board. A hero's own move there is chosen on that hero's board, the power they are
resolving and the question the table waits on (none), so a move of another hero in between
leaves the choice as it was made (companion/crossed_taps.py).
"""

from __future__ import annotations

from typing import Any

from companion.actions import Action
from companion.errors import BadAction
from companion.games.invincible.needs import hero_named
from companion.games.invincible.state import InvincibleState

OWN = {
    "hero": {"defiance", "done", "drop", "play", "pull", "effect", "decline"},
    "hero_end": {"effect", "decline"},
    "training": {"learn", "punch", "train_cube", "discard_power", "arrange", "done"},
}


def chosen_on(s: InvincibleState, action: Action) -> Any:
    """What a hero's own ``action`` was chosen on; None for any other move, or while the table
    waits on a question (a rescue die, a choice)."""
    if s.pending is not None or action.type not in OWN.get(s.phase, ()):
        return None
    key = action.data.get("hero") if isinstance(action.data, dict) else None
    if key is not None and not isinstance(key, str):
        return None
    try:
        h = hero_named(s, key, action.player, action.type)
    except BadAction:
        return None
    return s.phase, s.round, h, s.resolutions.get(h.id), s.queue
