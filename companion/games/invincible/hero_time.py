"""The hero-time variant (rulebook: Modes of Play › Hero-Time Variant): 'set a 10-minute timer at
the start of each Hero Phase, and when it runs out, the phase ends immediately.'

The timer lives in the state and starts by itself with each Hero Phase (villains.py). The
session's timer actions reach it here, not as moves of the table: the session's clock sends the
expiry. Pausing, resuming and adding time are open only while the Hero Phase's timer runs or is
paused (option ``hero_time_controls``; games begun before it accept a pause or more time in any
phase, setup.HERO_TIME_CONTROLS), and ``controls`` tells the screens which of them are open.
"""

from __future__ import annotations

import random
from typing import Any

from companion.actions import Action
from companion.errors import BadAction
from companion.games.base import forbid
from companion.games.invincible import board, moves_pull, resolve
from companion.games.invincible.state import HERO_TIMER, R_HERO_TIME, InvincibleState
from companion.timers import check_timer_action

SET_BY_TABLE = ("pause", "resume", "add")
# the phases after a Hero Phase whose time ran out, before the Villain Phase: later on, the next
# Hero Phase's time is still to come and "has run out" would be news of a round gone by
RAN_OUT = ("hero_end", "crash", "training")
DOCS = {
    "timer.pause": "Pause hero time (data.name = \"hero_time\").",
    "timer.resume": "Resume hero time.",
    "timer.add": "Add seconds of hero time (data.seconds).",
    "timer.expire": "Hero time has run out (sent by the session's clock).",
    "timer.start": "Hero time starts by itself with each Hero Phase (refused).",
    "timer.cancel": "Hero time is a setup option (refused).",
}


def apply(state: InvincibleState, action: Action) -> InvincibleState:
    """The state after a timer action aimed at hero time, or the refusal."""
    if not isinstance(action.data, dict):
        raise BadAction(f"{action.type}: data must be an object")
    if state.timer is None or action.data.get("name") != HERO_TIMER:
        raise BadAction(f"{action.type}: this game's timer is {HERO_TIMER!r}"
                        + ("" if state.timer else " (hero time is off)"))
    kind = action.type[6:]
    if kind in ("start", "cancel"):
        raise forbid("hero time starts by itself with each Hero Phase and is switched on or "
                     "off at setup", R_HERO_TIME)
    now = action.at if action.at is not None else 0.0
    t = state.timer
    if kind == "resume" and (t.expired or state.phase != "hero"):
        raise forbid("hero time runs only during the Hero Phase", R_HERO_TIME)
    if kind == "expire":
        if not t.running:
            raise forbid("hero time is not running", R_HERO_TIME)
        if t.remaining(now) > 0.5:
            raise forbid(f"hero time still has {t.remaining(now):.0f} s left", R_HERO_TIME)
    seconds = check_timer_action(action, HERO_TIMER).get("seconds")
    if state.hero_time_in_phase and kind in SET_BY_TABLE:
        why = closed(state)
        if why is None and kind != "add" and (kind == "pause") != t.running:
            why = f"hero time is {'running' if t.running else 'paused'} already"
        if why is not None:
            raise forbid(why, R_HERO_TIME)
    s = state.fork()
    if kind == "pause":
        s.timer = t.pause(now)
    elif kind == "resume":
        s.timer = t.resume(now)
    elif kind == "add":
        s.timer = t.add(seconds)
    else:
        expire(s, now)
        if s.result is not None:
            board.finish(s, random.Random(0), now)
    return s.settle()


def closed(s: InvincibleState) -> str | None:
    """Why the table may not pause, resume or add to hero time now (None: it may)."""
    if s.timer is None:
        return "hero time is off in this game"
    if s.result is not None:
        return "the game is over"
    if s.timer.expired and s.phase in RAN_OUT:
        return "hero time has run out: the Hero Phase is over"
    if s.phase != "hero":
        return "hero time runs only during the Hero Phase"
    return None


def controls(s: InvincibleState) -> dict[str, Any]:
    """What a screen may offer for hero time: ``open``, the timer actions the table may send
    now (never start or cancel: the game starts it and setup switches it on), ``why`` the
    others are closed, and between Hero Phases ``next``, the seconds the next one will have. A
    table's own timer (another name) keeps its usual controls."""
    if s.timer is None:         # the table's Timer button says so, not "not running now"
        why = "the game is over" if s.result is not None else \
            "hero time is off in this game (a setup choice)"
        return {HERO_TIMER: {"open": [], "why": why}}
    why = closed(s)
    kinds = [] if why else ["pause" if s.timer.running else "resume", "add"]
    entry: dict[str, Any] = {"open": kinds, "why": why}
    if why and s.result is None and s.phase not in ("hero", "hero_end"):
        # between Hero Phases the time left of the last one means nothing: the next starts afresh
        entry["next"] = s.hero_time
    return {HERO_TIMER: entry}


def expire(s: InvincibleState, now: float) -> None:
    """'when it runs out, the phase ends immediately. Heroes may finish resolving any power they
    were already in the middle of, but any cubes still sitting in their ready area count as
    dropped, and any hero who crashed and wasn't rescued rolls crash damage'."""
    s.timer = s.timer.expire(now)
    if s.phase != "hero":
        return
    s.say("Hero time is up: the Hero Phase ends now.")
    for h in s.own_heroes():
        h.dropped.extend(h.ready)
        h.ready, h.done = [], True
    if s.resolutions:
        s.phase = "hero_end"
        for r in s.resolutions.values():
            s.say(f"{r['name']} may finish resolving.")
        # a gained cube waiting to be played was in the ready area: dropped, nothing to place
        resolve.settle_all(s, now)
    else:
        moves_pull.end_phase(s, now)
