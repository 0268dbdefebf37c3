"""Status LEDs and the buzzer, driven by the session's views (a listener) and by refusals.

LEDs: ``ready`` (steady in a game, slow blink while no game is set up or it is over), ``reading`` (the camera
is reading the dice), ``confirm`` (steady: Confirm takes the camera read waiting; blinking: a
choice waits on a screen), ``error`` (three quick
flashes on a refused press; steady while the serial device is lost) and ``timer`` (fast blink in
a timer's last minute, steady once it ran out). The buzzer sounds at a timer's end and on errors,
unless quiet mode is on. The same changes are offered to ``mirrors`` (the serial device's own
LEDs, beeper and display) as plain calls.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable

from hardware.settings import LED_ROLES, GpioSettings

log = logging.getLogger(__name__)

BLINK = {"blink": (0.5, 0.5), "fast": (0.15, 0.15)}
BEEPS = {"timer": (0.5, 0.2, 3), "error": (0.08, 0.08, 2)}


class Mirror:
    """Something that repeats the indicators elsewhere (the serial device); all optional."""

    def led(self, role: str, mode: str) -> None: ...
    def beep(self, kind: str, on: float, off: float, count: int) -> None: ...
    def text(self, line: str) -> None: ...


class Indicators:
    def __init__(self, settings: GpioSettings, pin_factory, view: Callable[[], dict] | None = None,
                 mirrors: list[Mirror] | None = None):
        from gpiozero import LED, Buzzer

        self.settings = settings
        self.view_fn = view
        self.mirrors = list(mirrors or [])
        self.quiet = settings.quiet
        self._lock = threading.RLock()
        self.leds: dict[str, Any] = {}
        self.modes: dict[str, str] = {role: "off" for role in LED_ROLES}
        self.buzzer = None
        self.beeps: list[dict[str, Any]] = []       # the last few, for the dashboard and tests
        self.beeped = threading.Condition(self._lock)
        self.changed = threading.Condition(self._lock)
        self.updates = 0
        self._expired: set[str] = set()
        self._reading = False
        self._link_lost = False
        self._error_until = 0.0
        self._wake: threading.Timer | None = None
        self._flash_over: threading.Timer | None = None
        self._ran_out: dict[str, Any] = {}       # timer -> [the moment it ran out in, still then]
        self._text = None
        self._closed = False
        try:
            for role, pin in settings.leds.items():
                self.leds[role] = LED(pin, active_high=settings.led_active_high,
                                      pin_factory=pin_factory)
            if settings.buzzer is not None:
                self.buzzer = Buzzer(settings.buzzer.pin, active_high=settings.buzzer.active_high,
                                     pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    # -- inputs --------------------------------------------------------------------------------

    def update(self, view: dict[str, Any]) -> None:
        """The session listener: called on the event worker with every new view."""
        with self._lock:
            if self._closed:
                return
            timers = view.get("timers") or {}
            expired = {n for n, t in timers.items() if t.get("expired")}
            # the first view (a service started again) brings timers that ran out before: old
            # news, neither sounded nor lit again
            first = self.updates == 0
            newly = set() if first else expired - self._expired
            self._expired = expired
            expect = view.get("expect") or {}
            # a timer that ran out is news for the moment it ran out in (the phase, and whose
            # turn): hero time's stayed lit through the phases after it, and an X-Men turn
            # timer's came back with every later turn (each team's turn is the "play" phase)
            moment = (expect.get("phase"), expect.get("player"))
            self._ran_out = {n: self._ran_out.get(n, [moment, not first]) for n in expired}
            for seen in self._ran_out.values():
                seen[1] = seen[1] and seen[0] == moment       # once it has moved on, for good
            ran_out = any(still for _moment, still in self._ran_out.values())
            read = view.get("dice_read")
            read_waits = bool(read) and not read.get("confirmed")
            # steady: Confirm takes the waiting read; blinking: a choice waits on a screen (the
            # Confirm button cannot make it: lit steady, its press was refused)
            choosing = bool(expect.get("pending")) or expect.get("phase") == "choose"
            playing = bool(view.get("game")) and (view.get("outcome") or {}).get("status") == "playing"
            self._set("ready", "on" if playing else "blink")   # blink: waiting for a (new) game
            self._set("confirm", "on" if read_waits else "blink" if choosing else "off")
            self._set("reading", "on" if self._reading else "off")
            warning = any(t.get("warning") for t in timers.values())
            self._set("timer", "fast" if warning else "on" if ran_out else "off")
            self._set_error()
            self._schedule(view)
            over = (view.get("outcome") or {}) if view.get("game") and not playing else {}
            prompt = (_read_line(read) if read_waits else _over_line(over) if over.get("status")
                      else expect.get("prompt")
                      or ("Start a game on the dashboard." if not view.get("game") else ""))
            if prompt != self._text:
                self._text = prompt
                for m in self.mirrors:
                    m.text(prompt)
            self.updates += 1
            self.changed.notify_all()
        if newly:
            self.beep("timer")

    def refused(self, origin: str = "", reason: str = "") -> None:
        with self._lock:
            self._error_until = time.monotonic() + 1.0
            self._set_error(flash=True)
            self.changed.notify_all()
            # the flashes end on their own: a device told "blink" blinks until told otherwise,
            # and the next view may be long in coming
            if self._flash_over is not None:
                self._flash_over.cancel()
            self._flash_over = threading.Timer(1.05, self._end_flash)
            self._flash_over.daemon = True
            self._flash_over.start()
        self.beep("error")

    def _end_flash(self) -> None:
        with self._lock:
            if not self._closed:
                self._set_error()
                self.changed.notify_all()

    def set_reading(self, reading: bool) -> None:
        """The composition root calls this while the camera reads the dice (from the camera's
        thread: a read that ends after the service closed the LEDs changes nothing)."""
        with self._lock:
            if self._closed:
                return
            self._reading = reading
            self._set("reading", "on" if reading else "off")
            self.changed.notify_all()

    def set_link_lost(self, lost: bool) -> None:
        with self._lock:
            self._link_lost = lost
            self._set_error()
            self.changed.notify_all()

    def set_quiet(self, quiet: bool) -> None:
        with self._lock:
            self.quiet = quiet

    def beep(self, kind: str) -> None:
        on, off, count = BEEPS[kind]
        with self._lock:
            if self._closed:
                return
            muted = self.quiet
            self.beeps.append({"kind": kind, "at": time.time(), "muted": muted})
            del self.beeps[:-10]
            if not muted:
                if self.buzzer is not None:
                    self.buzzer.beep(on_time=on, off_time=off, n=count, background=True)
                for m in self.mirrors:
                    m.beep(kind, on, off, count)
            self.beeped.notify_all()

    # -- outputs -------------------------------------------------------------------------------

    def _set_error(self, flash: bool = False) -> None:
        if self._link_lost:
            self._set("error", "on")
        elif flash:
            self._set("error", "fast", force=True, n=3)
        elif time.monotonic() >= self._error_until:
            self._set("error", "off")

    def _set(self, role: str, mode: str, force: bool = False, n: int | None = None) -> None:
        if self.modes.get(role) == mode and not force:
            return
        self.modes[role] = mode
        led = self.leds.get(role)
        if led is not None:
            if mode == "on":
                led.on()
            elif mode == "off":
                led.off()
            else:
                on, off = BLINK[mode]
                led.blink(on_time=on, off_time=off, n=n, background=True)
        for m in self.mirrors:
            m.led(role, mode)

    def _schedule(self, view: dict[str, Any]) -> None:
        """A timer's last minute starts between views: wake up then and look again."""
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None
        if self.view_fn is None:
            return
        delays = []
        for t in (view.get("timers") or {}).values():
            if t.get("running") and not t.get("warning"):
                delays.append(t["remaining"] - t.get("warn", 60.0))
        if time.monotonic() < self._error_until:
            delays.append(self._error_until - time.monotonic())
        if delays:
            self._wake = threading.Timer(max(0.01, min(delays) + 0.02), self._look_again)
            self._wake.daemon = True
            self._wake.start()

    def _look_again(self) -> None:
        try:
            self.update(self.view_fn())
        except Exception:
            log.exception("indicators could not refresh")

    def status(self) -> dict[str, Any]:
        with self._lock:
            leds = {}
            for role in LED_ROLES:
                led = self.leds.get(role)
                leds[role] = {"mode": self.modes[role],
                              "pin": self.settings.leds.get(role),
                              "lit": None if led is None or led.closed else bool(led.value)}
            return {"leds": leds, "display": self._text,     # the line the displays show
                    "buzzer": {"pin": self.settings.buzzer.pin if self.settings.buzzer else None,
                               "quiet": self.quiet,
                               "sounding": bool(self.buzzer.value) if self.buzzer and not self.buzzer.closed else False,
                               "last": self.beeps[-1] if self.beeps else None}}

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for timer in (self._wake, self._flash_over):
                if timer is not None:
                    timer.cancel()
        for led in self.leds.values():
            led.close()
        if self.buzzer is not None:
            self.buzzer.close()


def _over_line(outcome: dict[str, Any]) -> str:
    """The display's line once the game is over: won or lost, and why (an engine's own prompt
    said only "The game is over.")."""
    reason = str(outcome.get("reason") or "")
    word = {"won": "Won", "lost": "Lost"}.get(outcome.get("status"), "Over")
    return f"{word}: {reason}" if reason else f"{word}."


def _read_line(read: dict[str, Any]) -> str:
    """The display's line while a camera read waits (companion/dice_reads.py): Confirm takes a
    read whose only doubt is a die's face; one with a die too few or too many is put right on
    a screen (the Confirm button alone is refused there). Both fit a 16-character display."""
    if read.get("miscounted"):
        return "Dice: see screen"
    return "Dice OK? Confirm"
