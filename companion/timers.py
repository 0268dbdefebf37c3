"""Timers as values inside the journaled state: every change is an action stamped with server time,
so a restart or another device computes the same remaining time.

Every timer action, the table's own and a game's (Invincible's hero time), is checked by
``check_timer_action`` before it reaches a timer: its seconds are a finite number above zero and
at most ``MAX_SECONDS``, never true/false, NaN, infinite, negative or huge.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.actions import Action
from companion.errors import BadAction
from companion.schema import Number, shown

MAX_LABEL = 16_000

TIMER_ACTIONS = ("timer.start", "timer.pause", "timer.resume", "timer.add", "timer.cancel",
                 "timer.expire")
#: The one limit on a timer's seconds (a new timer, time added, its warning). An hour is longer
#: than any timed step the three rulebooks have (Invincible's hero time is 5 to 15 minutes, a turn
#: timer a few minutes); a value past it is a slip (milliseconds typed as seconds) that would
#: freeze a timer for days. Hero time's own setup option has the same bound.
MAX_SECONDS = 3600.0
SECONDS = Number(0.0, MAX_SECONDS, unit="of seconds")
WARN = Number(0.0, MAX_SECONDS, closed=True, unit="of seconds")


@dataclass(frozen=True)
class Timer:
    name: str
    label: str
    duration: float            # seconds in total, including time added
    elapsed: float = 0.0       # seconds run before the current start
    started_at: float | None = None  # server clock when last (re)started; None while paused
    warn: float = 60.0         # seconds left when the warning starts
    expired: bool = False      # set by the journaled expiry, not by reading the clock

    @property
    def running(self) -> bool:
        return self.started_at is not None and not self.expired

    def remaining(self, now: float) -> float:
        run = self.elapsed + (now - self.started_at if self.running else 0.0)
        return max(0.0, self.duration - run)

    def deadline(self) -> float | None:
        """Server time at which it runs out, while it runs."""
        if not self.running:
            return None
        return self.started_at + self.duration - self.elapsed

    def start(self, now: float) -> "Timer":
        return replace(self, elapsed=0.0, started_at=now, expired=False)

    def pause(self, now: float) -> "Timer":
        if not self.running:
            return self
        return replace(self, elapsed=self.elapsed + (now - self.started_at), started_at=None)

    def resume(self, now: float) -> "Timer":
        if self.running or self.expired:
            return self
        return replace(self, started_at=now)

    def add(self, seconds: float) -> "Timer":
        return replace(self, duration=max(0.0, self.duration + seconds))

    def expire(self, now: float) -> "Timer":
        return replace(self, elapsed=self.duration, started_at=None, expired=True)

    def to_json(self, now: float) -> dict:
        # By hand, not dataclasses.asdict: that deep-copies, and this runs for every view.
        remaining = self.remaining(now)
        running = self.running
        return {"name": self.name, "label": self.label, "duration": self.duration,
                "elapsed": self.elapsed, "started_at": self.started_at, "warn": self.warn,
                "expired": self.expired, "running": running, "remaining": round(remaining, 3),
                "deadline": self.deadline(), "warning": running and remaining <= self.warn}


def check_timer_action(action: Action, default_name: str = "turn") -> dict[str, Any]:
    """The checked data of a timer action: ``name`` always; ``seconds`` for start and add (above
    0, at most MAX_SECONDS); ``warn`` (0 to MAX_SECONDS, default 60) and ``label`` for start.
    Raises BadAction naming the field."""
    if action.type not in TIMER_ACTIONS:
        raise BadAction(f"{action.type} is not a timer action ({', '.join(TIMER_ACTIONS)})")
    data = action.data
    name = data.get("name", default_name)
    if not isinstance(name, str) or not name or len(name) > 200 or not shown(name):
        raise BadAction(f"{action.type}: data.name must be a timer's name")
    out: dict[str, Any] = {"name": name}
    if action.type in ("timer.start", "timer.add"):
        if "seconds" not in data:
            raise BadAction(f"{action.type} needs data.seconds ({SECONDS.wanted()})")
        out["seconds"] = SECONDS.check(data["seconds"], f"{action.type}: data.seconds")
    if action.type == "timer.start":
        out["warn"] = WARN.check(data.get("warn", 60), "timer.start: data.warn")
        label = data.get("label", name.replace("_", " ").title())
        # the screens cut a long label; the cap keeps a runaway one from filling the journal
        if not isinstance(label, str) or not 0 < len(label) <= MAX_LABEL or not shown(label):
            raise BadAction(f"timer.start: data.label must be the timer's name as the table "
                            f"reads it: 1 to {MAX_LABEL} characters, no control characters")
        out["label"] = label
    return out
