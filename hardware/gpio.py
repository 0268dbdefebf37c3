"""GPIO buttons on gpiozero: the backend is chosen, never guessed, and callbacks only enqueue.

The pin factory is the configured one (``gpio.pin_factory`` or ``$GPIOZERO_PIN_FACTORY``), else
gpiozero's own preference order with its fallback warnings logged; the mock factory is used only
when asked for (``--simulate`` or ``pin_factory = "mock"``). A factory that was asked for and
cannot load is an error naming it, not a quiet switch to another.
"""

from __future__ import annotations

import logging
import os
import subprocess
import threading
import time
import warnings
from typing import Callable

from hardware.dispatch import Dispatcher, Request
from hardware.errors import HardwareError
from hardware.settings import ButtonSettings, ShutdownSettings

log = logging.getLogger(__name__)

FACTORIES = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
    "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
    "native": ("gpiozero.pins.native", "NativeFactory"),
    "mock": ("gpiozero.pins.mock", "MockFactory"),
}


def make_pin_factory(name: str | None, simulate: bool):
    """(factory, description). ``simulate`` always means mock pins."""
    if simulate:
        from gpiozero.pins.mock import MockFactory
        return MockFactory(), "mock pins (simulation)"
    name = name or os.environ.get("GPIOZERO_PIN_FACTORY")
    if name:
        module_name, cls_name = FACTORIES.get(name.lower(), (None, None))
        if module_name is None:
            raise HardwareError(f"GPIO backend {name!r} is unknown; use one of {', '.join(FACTORIES)}")
        try:
            module = __import__(module_name, fromlist=[cls_name])
            return getattr(module, cls_name)(), f"{name} (as configured)"
        except Exception as exc:
            raise HardwareError(
                f"GPIO backend {name!r} cannot be used here ({exc}); on Raspberry Pi OS install "
                "python3-lgpio, or run with --simulate to use mock pins") from exc
    from gpiozero import Device
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            factory = Device._default_pin_factory()
        except Exception as exc:
            raise HardwareError(
                f"no GPIO backend could be loaded ({exc}); on Raspberry Pi OS install "
                "python3-lgpio, or run with --simulate to use mock pins") from exc
    for w in caught:
        log.warning("GPIO backend: %s", w.message)
    return factory, f"{type(factory).__name__} (first available)"


class TableButton:
    """One physical button: a software lock-out debounce (the same on every backend: the mock
    pins ignore ``bounce_time``), a short press and a long press told apart."""

    def __init__(self, settings: ButtonSettings, dispatcher: Dispatcher, pin_factory,
                 clock: Callable[[], float] = time.monotonic):
        from gpiozero import Button

        self.settings = settings
        self.dispatcher = dispatcher
        self.clock = clock
        self._lock = threading.Lock()
        self._last_press = -1e9
        self._last_release = -1e9
        self._armed = False          # a press accepted, release not yet seen
        self._held = False
        self.presses = 0             # accepted presses (after debounce)
        self.bounces = 0             # edges ignored as bounce
        self.button = Button(settings.pin, pull_up=settings.pull_up, bounce_time=None,
                             hold_time=settings.hold_time, pin_factory=pin_factory)
        try:
            self.button.when_pressed = self._pressed
            self.button.when_released = self._released
            if settings.hold is not None:
                self.button.when_held = self._long
        except Exception:
            self.button.close()
            raise

    def _pressed(self) -> None:
        now = self.clock()
        s = self.settings
        with self._lock:
            if now - self._last_press < s.debounce or now - self._last_release < s.debounce:
                self.bounces += 1
                return
            self._last_press = now
            self._armed, self._held = True, False
            self.presses += 1
            fire_now = s.hold is None      # no long press to wait for: act at once
        if fire_now and s.press is not None:
            self.dispatcher.put(Request(f"button {s.name}", s.press))

    def _released(self) -> None:
        now = self.clock()
        s = self.settings
        with self._lock:
            self._last_release = now
            short = self._armed and not self._held and s.hold is not None
            self._armed = False
        if short and s.press is not None:
            self.dispatcher.put(Request(f"button {s.name}", s.press))
        elif short:
            self.dispatcher.put(Request(f"button {s.name}", s.hold, short_of_hold=True,
                                        hold_time=s.hold_time))

    def _long(self) -> None:
        s = self.settings
        with self._lock:
            if not self._armed or self._held:
                return
            self._held = True
        self.dispatcher.put(Request(f"button {s.name} (long press)", s.hold))

    @property
    def pin(self):
        return self.button.pin

    @property
    def closed(self) -> bool:
        return self.button.closed

    @property
    def held(self) -> bool:
        """The press now down has registered as a long press."""
        with self._lock:
            return self._held

    def ready_in(self) -> float:
        """Seconds until a new press would pass the debounce lock-out."""
        with self._lock:
            since = self.clock() - max(self._last_press, self._last_release)
        return max(0.0, self.settings.debounce - since)

    def close(self) -> None:
        self.button.close()

    def status(self) -> dict:
        return {"pin": self.settings.pin, "pressed": bool(self.button.is_active) if not self.button.closed else None,
                "press": self.settings.press.describe() if self.settings.press else None,
                "hold": self.settings.hold.describe() if self.settings.hold else None,
                "presses": self.presses, "bounces": self.bounces}


class ShutdownButton:
    """Hold to power off cleanly: only when enabled, only after a long, deliberate hold."""

    def __init__(self, settings: ShutdownSettings, pin_factory,
                 run: Callable[[tuple[str, ...]], None] | None = None):
        from gpiozero import Button

        self.settings = settings
        self.run = run or (lambda cmd: subprocess.run(cmd, check=False, timeout=30))
        self.fired = threading.Event()
        self.button = Button(settings.pin, pull_up=True, hold_time=settings.hold_time,
                             pin_factory=pin_factory)
        self.button.when_held = self._held

    def _held(self) -> None:
        if self.fired.is_set():
            return
        self.fired.set()
        log.warning("shutdown button held %.0f s: running %s", self.settings.hold_time,
                    " ".join(self.settings.command))
        threading.Thread(target=self.run, args=(self.settings.command,), daemon=True,
                         name="shutdown").start()

    def close(self) -> None:
        self.button.close()
