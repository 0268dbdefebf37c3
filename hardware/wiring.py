"""The one entry point the composition root calls: build buttons, LEDs, buzzer and the serial
link from the config sections, hook them to the session, and hand back a handle.

    handle = attach(session, {"gpio": ..., "serial": ..., "tokens": ...}, simulate, read_dice)
    handle.status()          # for the dashboard: link state and reason, LEDs, buzzer, counts
    handle.press("confirm")  # simulation only: the dashboard's simulated buttons
    handle.close()

In simulation, a missing [gpio] or [serial] section gets a default table (DEFAULT_GPIO,
DEFAULT_SERIAL) on mock pins and a simulated device, so the whole product runs on a laptop.
"""

from __future__ import annotations

import logging
import threading
import time
import zlib
from typing import Any, Callable

from hardware.commands import Hooks
from hardware.dispatch import Dispatcher, Request
from hardware.errors import HardwareError, ProtocolError
from hardware.gpio import ShutdownButton, TableButton, make_pin_factory
from hardware.display_line import fit
from hardware.indicators import Indicators, Mirror
from hardware.settings import (Command, GpioSettings, SerialSettings, TagSettings,
                               TokenSettings, gpio_settings, serial_settings, token_settings)

log = logging.getLogger(__name__)

# A starting table for --simulate (and a sensible first wiring for a real one).
DEFAULT_GPIO: dict[str, Any] = {
    "buttons": {
        "confirm": {"pin": 17, "action": "confirm", "hold": "undo"},
        "undo": {"pin": 27, "hold": "undo"},
        "dice": {"pin": 22, "action": "read_dice"},
        "card": {"pin": 23, "action": "draw_card"},
        "timer": {"pin": 24, "action": "timer_toggle"},
        "next": {"pin": 25, "action": "next"},
    },
    "leds": {"ready": 5, "reading": 6, "confirm": 13, "error": 19, "timer": 26},
    "buzzer": {"pin": 12},
}
DEFAULT_SERIAL: dict[str, Any] = {
    "buttons": {"1": {"action": "confirm", "hold": "undo"}, "2": {"action": "read_dice"},
                "3": {"action": "timer_toggle"}, "4": {"action": "next"}},
    "leds": {"ready": 0, "error": 1, "timer": 2},
    "display_width": 16,        # deploy/config.example.toml's 16x2 LCD: what a table sees
    "beep": True,
    "heartbeat_timeout": 3.0,
    "backoff_initial": 0.2,
    "backoff_max": 2.0,
}


class SerialMirror(Mirror):
    """Repeats LED changes, beeps and the prompt on the serial device."""

    def __init__(self, link, settings: SerialSettings):
        self.link, self.settings = link, settings
        self.shown: str | None = None     # the line the display was last sent (the Devices page)

    def led(self, role: str, mode: str) -> None:
        n = self.settings.leds.get(role)
        if n is not None:
            self.link.send("LED", n, "ON" if mode == "on" else "OFF" if mode == "off" else "BLINK",
                           sticky=("LED", n))

    def beep(self, kind: str, on: float, off: float, count: int) -> None:
        if self.settings.beep:
            self.link.send("BEEP", int(on * 1000), count)

    def text(self, prompt: str) -> None:
        width = self.settings.display_width
        if not width:
            return
        while width > 0:
            line = fit(prompt, width)
            try:
                self.link.send("TEXT", line, sticky=("TEXT",))
                self.shown = line
                return
            except ProtocolError:    # escapes made it longer than a protocol line: shorten
                width = min(width, len(line)) - 4
        self.link.send("TEXT", sticky=("TEXT",))
        self.shown = ""


def _number(text: str) -> int | None:
    """A device's reader or button number: ASCII digits only (not '١', not '1_0')."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 6 else None


class DeviceEvents:
    """Device buttons and tokens to requests on the dispatcher (runs on the link's thread)."""

    def __init__(self, serial: SerialSettings, tokens: TokenSettings, dispatcher: Dispatcher):
        self.serial, self.tokens, self.dispatcher = serial, tokens, dispatcher
        self._held: set[int] = set()
        self.unknown_tags: list[dict[str, Any]] = []
        self.seen = 0

    def __call__(self, event) -> None:
        self.seen += 1
        number = _number(event.args[0]) if event.args else None
        if event.kind in ("BTN", "TAG") and number is None:
            # the device's own numbering is wrong: say so once in the log, never a traceback
            log.info("serial device event %s %s: %r is not a number", event.kind, event.args,
                     event.args[0] if event.args else None)
        elif event.kind == "BTN" and len(event.args) >= 2:
            self._button(number, event.args[1])
        elif event.kind == "TAG" and len(event.args) >= 3:
            self._tag(number, event.args[1].upper(), event.args[2])
        elif event.kind not in ("DROPPED",):
            log.info("serial device event %s %s is not one this companion uses", event.kind, event.args)

    def _button(self, n: int, edge: str) -> None:
        press, hold = self.serial.buttons.get(n, (None, None))
        origin = f"device button {n}"
        if press is None and hold is None:
            if edge == "DOWN":       # pressed, it said nothing at all: a wire, or the config
                self.dispatcher.put(Request(origin, Command("unset"), unset=(
                    f"device button {n} has no meaning: give it one in the config's "
                    f"[serial.buttons] (\"{n}\" = {{action = ...}})")))
            return
        if edge == "DOWN":
            self._held.discard(n)
            if hold is None and press is not None:
                self.dispatcher.put(Request(origin, press))
        elif edge == "HOLD" and hold is not None and n not in self._held:
            self._held.add(n)
            self.dispatcher.put(Request(origin + " (long press)", hold))
        elif edge == "UP" and hold is not None and n not in self._held:
            self.dispatcher.put(Request(origin, press) if press is not None else
                                Request(origin, hold, short_of_hold=True))

    def _tag(self, reader: int, tag: str, edge: str) -> None:
        spec = self.tokens.tags.get(tag)
        space = self.tokens.readers.get(reader, str(reader))
        if spec is None:
            self.unknown_tags.append({"tag": tag, "reader": reader, "space": space, "at": time.time()})
            del self.unknown_tags[:-10]
            log.warning("token %s on reader %d is not in [tokens.tags]: add it to use it", tag, reader)
            return
        # A tag with no place action of its own means what the game's table map says a token
        # placed means in this phase (a mover's token on a space: that move).
        command = ((spec.place or Command("token")) if edge == "ON"
                   else spec.remove if edge == "OFF" else None)
        if command is not None:
            fill = {"space": space, "reader": str(reader), "tag": tag, "piece": spec.piece}
            self.dispatcher.put(Request(f"token {spec.piece} on {space}", command,
                                        source="token", fill=fill))


class HardwareHandle:
    def __init__(self, simulate: bool):
        self.simulate = simulate
        self.gpio: GpioSettings | None = None
        self.backend: str | None = None
        self.pin_factory = None
        self.buttons: dict[str, TableButton] = {}
        self.shutdown: ShutdownButton | None = None
        self.indicators: Indicators | None = None
        self.dispatcher: Dispatcher | None = None
        self.link = None
        self.device = None          # the SimulatedDevice, in simulation
        self.device_events: DeviceEvents | None = None
        self.display: SerialMirror | None = None
        self.serial_off = False     # a [serial] section with enabled = false
        self._session = None
        self._closed = False

    def __repr__(self) -> str:
        state = "closed" if self._closed else "simulated" if self.simulate else "live"
        return f"<HardwareHandle {state}: {len(self.buttons)} buttons>"

    def __enter__(self) -> "HardwareHandle":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- for the dashboard ---------------------------------------------------------------------

    def press(self, name: str, hold: bool = False) -> None:
        """Press a simulated button (drives its mock pin like a wire); returns at once."""
        if not self.simulate:
            raise HardwareError("buttons can only be pressed from the dashboard in simulation")
        button = self.buttons.get(name)
        if button is None:
            raise HardwareError(f"there is no button called {name!r}; the buttons are "
                                + ", ".join(sorted(self.buttons)))
        pin = button.pin
        threading.Event().wait(button.ready_in())   # two clicks closer than the lock-out: wait it out
        pin.drive_low()
        if hold:
            threading.Thread(target=_release_when_held, args=(button, pin), daemon=True).start()
        else:
            pin.drive_high()

    def place_token(self, piece: str, space: str) -> None:
        """Simulation: put ``piece``'s token on the reader under ``space``, as a TAG event from
        the simulated device over its pseudo-terminal. A space or piece the config has no reader
        or tag for gets one, so a newcomer can try token moves with no [tokens] section."""
        if not self.simulate or self.device is None or self.device_events is None:
            raise HardwareError("tokens can be placed from the dashboard only on the simulated "
                                "serial device (companion serve --simulate)")
        tokens = self.device_events.tokens
        reader = next((n for n, s in tokens.readers.items() if s == space), None)
        if reader is None:
            reader = max(tokens.readers, default=0) + 1
            if reader > 255:
                raise HardwareError("the simulated device has no reader left (0-255)")
            tokens.readers[reader] = space
        tag = next((t for t, spec in tokens.tags.items() if spec.piece == piece), None)
        if tag is None:
            tag = f"{zlib.crc32(piece.encode()):08X}"
            tokens.tags[tag] = TagSettings(tag, piece, None, None)
        self.device.place(tag, reader)

    def set_reading(self, reading: bool) -> None:
        if self.indicators:
            self.indicators.set_reading(reading)

    def set_quiet(self, quiet: bool) -> None:
        if self.indicators:
            self.indicators.set_quiet(quiet)

    def status(self) -> dict[str, Any]:
        out: dict[str, Any] = {"simulated": self.simulate, "backend": self.backend,
                               "buttons": {n: b.status() for n, b in self.buttons.items()},
                               "shutdown_button": None if self.shutdown is None
                               else {"pin": self.shutdown.settings.pin,
                                     "hold_time": self.shutdown.settings.hold_time}}
        if self.indicators is not None:
            out.update(self.indicators.status())
        else:
            out.update(leds={}, buzzer=None)
        out["serial"] = (self.link.status() if self.link is not None else
                         {"state": "off", "reason": "turned off in the config ([serial] enabled = "
                          "false)"} if self.serial_off else
                         {"state": "closed", "reason": "no serial device configured"})
        if self.device_events is not None:
            out["serial"]["unknown_tags"] = list(self.device_events.unknown_tags)
            # the device's own buttons, by number, as the config gives them (the Devices page)
            out["serial"]["buttons"] = {
                str(n): {"press": press.describe() if press else None,
                         "hold": hold.describe() if hold else None}
                for n, (press, hold) in sorted(self.device_events.serial.buttons.items())}
        if self.display is not None and self.display.settings.display_width:
            # in simulation, what the device itself received over its pseudo-terminal
            shown = self.device.status()["text"] if self.device is not None else self.display.shown
            out["serial"]["display"] = {"width": self.display.settings.display_width, "text": shown}
        if self.dispatcher is not None:
            out["actions"] = dict(self.dispatcher.counts, last_refusal=self.dispatcher.last_refusal)
        return out

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._session is not None and self.indicators is not None:
            self._session.remove_listener(self.indicators.update)
        for part in (self.link, self.device):
            if part is not None:
                part.close()
        if self.dispatcher is not None:
            self.dispatcher.close()
        for button in self.buttons.values():
            button.close()
        if self.shutdown is not None:
            self.shutdown.close()
        if self.indicators is not None:
            self.indicators.close()


def attach(session, config_sections: dict[str, dict[str, Any]], simulate: bool,
           read_dice: Callable[[], Any] | None = None, *, confirm: Callable[[], bool] | None = None,
           read_card: Callable[[], Any] | None = None,
           source: str = "config.toml", pin_factory=None, transport=None,
           poweroff: Callable[[tuple[str, ...]], None] | None = None) -> HardwareHandle:
    """Build the table's hardware from the config sections and hook it to ``session``.

    Raises DataFileError (naming the key) for a bad section and HardwareError for a backend
    that cannot be used; anything claimed before the failure is released first.
    """
    gpio_raw = config_sections.get("gpio")
    serial_raw = config_sections.get("serial")
    # An absent section and an empty one (Config.section's default) mean the same: nothing
    # configured, which in simulation means the default table.
    if simulate and not gpio_raw:
        gpio_raw = DEFAULT_GPIO
    if simulate and not serial_raw:
        serial_raw = DEFAULT_SERIAL
    gpio = gpio_settings(gpio_raw, source) if gpio_raw else None
    serial = serial_settings(serial_raw, source) if serial_raw else None
    tokens = token_settings(config_sections.get("tokens") or {}, source)

    handle = HardwareHandle(simulate)
    handle._session = session
    try:
        handle.gpio = gpio or GpioSettings()
        if gpio is not None and (gpio.buttons or gpio.leds or gpio.buzzer or gpio.shutdown.enabled):
            if pin_factory is None:
                pin_factory, handle.backend = make_pin_factory(gpio.pin_factory, simulate)
            else:
                handle.backend = type(pin_factory).__name__
            handle.pin_factory = pin_factory
        indicators = Indicators(handle.gpio, pin_factory, view=session.view)
        handle.indicators = indicators
        dispatcher = Dispatcher(session, Hooks(read_dice=read_dice, confirm=confirm, read_card=read_card),
                                on_refused=indicators.refused)
        handle.dispatcher = dispatcher
        for name, settings in handle.gpio.buttons.items():
            handle.buttons[name] = TableButton(settings, dispatcher, pin_factory)
        if handle.gpio.shutdown.enabled:
            if poweroff is None and simulate:
                poweroff = lambda cmd: log.warning("simulation: would run %s", " ".join(cmd))  # noqa: E731
            handle.shutdown = ShutdownButton(handle.gpio.shutdown, pin_factory, run=poweroff)
        handle.serial_off = serial is not None and not serial.enabled
        if serial is not None and serial.enabled:
            _attach_serial(handle, serial, tokens, dispatcher, indicators, transport)
        session.add_listener(indicators.update)
        indicators.update(session.view())
    except Exception:
        handle.close()
        raise
    return handle


def _attach_serial(handle, serial: SerialSettings, tokens: TokenSettings, dispatcher, indicators,
                   transport) -> None:
    from dataclasses import replace

    from hardware.serial_link import SerialLink, open_port

    if handle.simulate:
        from hardware.simulated_device import SimulatedDevice

        handle.device = SimulatedDevice(heartbeat_ms=500).start()
        serial = replace(serial, port=handle.device.port)
    handle.device_events = DeviceEvents(serial, tokens, dispatcher)
    link = SerialLink(serial, handle.device_events,
                      on_state=lambda status: indicators.set_link_lost(status["state"] in ("lost", "connecting")),
                      transport=transport or open_port)
    handle.link = link
    handle.display = SerialMirror(link, serial)
    indicators.mirrors.append(handle.display)
    link.start()


def _release_when_held(button: TableButton, pin) -> None:
    """A simulated long press lets go once the long press has registered, as a person holds a
    button until the table answers: past hold_time, and then until gpiozero's hold thread has
    seen it (on a loaded machine that thread may run later than hold_time), 5 s at most, or
    until the table is closed."""
    wait = threading.Event().wait
    wait(button.settings.hold_time + 0.15)
    deadline = time.monotonic() + 5.0
    while (button.settings.hold is not None and not button.held and not button.closed
           and time.monotonic() < deadline):
        wait(0.02)
    pin.drive_high()
