"""Timers as values inside the journaled state: every change is an action stamped with server time,
so a restart or another device computes the same remaining time.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace


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
        out = asdict(self)
        out.update(
            running=self.running,
            remaining=round(self.remaining(now), 3),
            deadline=self.deadline(),
            warning=self.running and self.remaining(now) <= self.warn,
        )
        return out
