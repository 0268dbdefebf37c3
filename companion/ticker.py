"""The service's ticker: every moment, the timers whose time is up are journaled as run out,
and a backup is taken when one is due.

A timer that ran out while the service was off (a power cut, a long restart) is run out at the
first tick, and its end applies then (hero time's: "the phase ends immediately"); every screen
is told why until the table says it read it, since nobody saw it happen: the table came back to
find the Hero Phase over, and the log said only that hero time was up. The ticker journals
those expiries itself, so that each notice names its expiry's entry: an undo that takes the
entry back takes the notice with it (companion/notices.py).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from companion import notices
from companion.actions import Action
from companion.errors import BadAction, CompanionError, IllegalAction, NoGame

log = logging.getLogger(__name__)
TICK_SECONDS = 0.2


def run(session, backups, stopping: threading.Event, book=None) -> None:
    """Until ``stopping``: the session's timers, then the backups; ``book`` (a RecoveryLog)
    keeps what the table is told until it is read, across restarts."""
    late = ran_out_while_off(session)
    while not stopping.wait(TICK_SECONDS):
        if late:
            try:
                tell(session, late, book)
            except (CompanionError, OSError) as exc:      # the clock must go on ticking
                log.warning("a late timer could not be told: %s", exc)
            late = {}
        try:
            session.tick()
        except CompanionError as exc:
            log.warning("timer tick failed: %s", exc)
        backups.tick()


def ran_out_while_off(session) -> dict[str, dict[str, Any]]:
    """The timers the journal has running whose time was up before the service started: by
    name, the timer as the view shows it."""
    now = session.clock()
    timers = session.view().get("timers") or {}
    return {name: timers[name] for name, deadline in session.running_timers().items()
            if name in timers and deadline is not None and deadline <= now}


def tell(session, late: dict[str, dict[str, Any]], book=None) -> None:
    """Run the late timers out, each with a notice in every view until the table says it read
    it (as a recovered journal's): the pages that open after the restart must see it too, and
    so must the next start-up (``book``: the journal's own expiry no longer looks late then).
    The notice tells of the expiry's entry, and goes if an undo takes it back
    (companion/notices.py)."""
    lines = []
    for name, timer in late.items():
        # only what does run out: an undo at the first moment (before the first tick) may have
        # taken back the move that started the timer, and then no end is applied
        deadline = session.running_timers().get(name)
        if deadline is None or deadline > session.clock():
            continue
        try:
            view = session.submit(Action("timer.expire", data={"name": name}, source="clock"))
        except (IllegalAction, BadAction, NoGame):
            continue                       # the timer changed under us, as in Session.tick
        at = time.strftime("%H:%M", time.localtime(timer["deadline"]))
        lines.append(notices.tie({"kind": "timer", "text": f"{timer['label']} ran out at {at}, "
                                  "while the companion was off; its end is applied now (check "
                                  "the board)."}, view["game_id"], view["seq"], name))
    if not lines:
        return
    if book is not None:
        book.keep(lines)
    kept = [n for n in session.view().get("notices") or () if n.get("kind") != "held"]
    session.set_notices(kept + lines)
