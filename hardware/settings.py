"""The [gpio], [serial] and [tokens] config sections, checked: every error names its key.

The core hands each section over as a plain table (``Config.section(name)``); this module turns
it into frozen settings or raises DataFileError such as
``config.toml: gpio.buttons.undo.pin: 41 is not a BCM GPIO number (0-27)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from companion.actions import Action
from companion.errors import BadAction, DataFileError
from companion.timers import MAX_SECONDS

COMMANDS = ("next", "confirm", "undo", "read_dice", "draw_card", "timer_toggle", "done")
LED_ROLES = ("ready", "reading", "confirm", "error", "timer")
PIN_FACTORIES = ("lgpio", "rpigpio", "pigpio", "native", "mock")
BCM_PINS = range(0, 28)
_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
_TAG = re.compile(r"^[0-9A-Fa-f]{4,32}$")
_USB = re.compile(r"^([0-9A-Fa-f]{4}):([0-9A-Fa-f]{4})$")
PICO_USB = "2E8A:0005"   # MicroPython on a Raspberry Pi Pico

# Arcade micro-switches bounce for up to ~20 ms; 40 ms of lock-out still lets a child press
# ten times a second. A long press of 1 s is long enough not to happen by accident.
DEFAULT_DEBOUNCE = 0.04
DEFAULT_HOLD = 1.0


@dataclass(frozen=True)
class Command:
    """What a button or token does: a named table command, or a literal action."""

    name: str                    # one of COMMANDS, "token" (the game's map), "action" (literal)
    action: Action | None = None
    player: str | None = None
    seconds: float = 120.0       # timer_toggle: length of a new turn timer

    def describe(self) -> str:
        return self.action.type if self.action is not None else self.name


@dataclass(frozen=True)
class ButtonSettings:
    name: str
    pin: int
    press: Command | None
    hold: Command | None
    pull_up: bool = True
    debounce: float = DEFAULT_DEBOUNCE
    hold_time: float = DEFAULT_HOLD


@dataclass(frozen=True)
class BuzzerSettings:
    pin: int
    active_high: bool = True


@dataclass(frozen=True)
class ShutdownSettings:
    enabled: bool
    pin: int | None
    hold_time: float = 5.0
    command: tuple[str, ...] = ("systemctl", "poweroff")


@dataclass(frozen=True)
class GpioSettings:
    pin_factory: str | None = None
    buttons: dict[str, ButtonSettings] = field(default_factory=dict)
    leds: dict[str, int] = field(default_factory=dict)
    led_active_high: bool = True
    buzzer: BuzzerSettings | None = None
    quiet: bool = False
    shutdown: ShutdownSettings = ShutdownSettings(False, None)


@dataclass(frozen=True)
class SerialSettings:
    enabled: bool = False
    port: str | None = None
    usb: tuple[tuple[int, int], ...] = ((0x2E8A, 0x0005),)
    baud: int = 115200
    heartbeat_timeout: float = 3.0
    hello_timeout: float = 3.0
    backoff_initial: float = 0.5
    backoff_max: float = 10.0
    buttons: dict[int, tuple[Command | None, Command | None]] = field(default_factory=dict)
    leds: dict[str, int] = field(default_factory=dict)
    display_width: int = 0     # 0: no display
    beep: bool = False


@dataclass(frozen=True)
class TagSettings:
    tag: str
    piece: str
    place: Command | None
    remove: Command | None


@dataclass(frozen=True)
class TokenSettings:
    readers: dict[int, str] = field(default_factory=dict)   # reader number -> board space
    tags: dict[str, TagSettings] = field(default_factory=dict)


class _Table:
    """A config table with its dotted key and file name, for errors that say where."""

    def __init__(self, data: Any, source: str, where: str):
        self.source, self.where = source, where
        if not isinstance(data, dict):
            raise self.fail(None, f"expected a table, got {type(data).__name__}")
        self.data = data

    def key(self, key: str | None) -> str:
        return self.where if key is None else f"{self.where}.{key}"

    def fail(self, key: str | None, message: str) -> DataFileError:
        return DataFileError(f"{self.source}: {self.key(key)}: {message}")

    def only(self, *known: str) -> None:
        unknown = sorted(set(self.data) - set(known))
        if unknown:
            raise self.fail(unknown[0], f"unknown key; known keys here: {', '.join(known)}")

    def get(self, key: str, kind, default: Any = ...) -> Any:
        if key not in self.data:
            if default is ...:
                raise self.fail(key, "missing")
            return default
        value = self.data[key]
        numeric = kind in (int, float, (int, float))
        if (isinstance(value, bool) and numeric) or not isinstance(value, kind):
            name = kind.__name__ if isinstance(kind, type) else "number"
            raise self.fail(key, f"expected {name}, got {value!r}")
        return value

    def number(self, key: str, default: float, low: float, high: float) -> float:
        value = self.get(key, (int, float), default)
        if not low <= value <= high:
            raise self.fail(key, f"{value} is outside {low}-{high}")
        return float(value)

    def pin(self, key: str, default: Any = ...) -> int | None:
        value = self.data.get(key, default)
        if value is ... :
            raise self.fail(key, "missing (a BCM GPIO number, 0-27)")
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value not in BCM_PINS:
            raise self.fail(key, f"{value!r} is not a BCM GPIO number (0-27)")
        return value

    def table(self, key: str) -> "_Table":
        return _Table(self.data.get(key, {}), self.source, self.key(key))


def _command(table: _Table, key: str, player: str | None, seconds: float) -> Command | None:
    value = table.data.get(key)
    if value is None:
        return None
    if isinstance(value, str):
        if value not in COMMANDS:
            raise table.fail(key, f"{value!r} is not an action name; use one of "
                             f"{', '.join(COMMANDS)}, or a table such as {{type = \"roll\"}}")
        if value == "done" and not player:
            raise table.fail(key, "a \"done\" button needs player = \"<name>\" beside it")
        return Command(value, player=player, seconds=seconds)
    if isinstance(value, dict):
        literal = dict(value)
        if player and "player" not in literal:
            literal["player"] = player
        try:
            action = Action.from_json({**literal, "source": literal.get("source", "button")})
        except BadAction as exc:
            raise table.fail(key, str(exc)) from None
        return Command("action", action=action, player=action.player, seconds=seconds)
    raise table.fail(key, f"expected an action name or a table, got {value!r}")


def gpio_settings(section: dict[str, Any], source: str = "config.toml") -> GpioSettings:
    top = _Table(section, source, "gpio")
    top.only("pin_factory", "debounce", "hold_time", "buttons", "leds", "led_active_high",
             "buzzer", "quiet", "shutdown", "timer_seconds")
    factory = top.get("pin_factory", str, None)
    if factory is not None and factory not in PIN_FACTORIES:
        raise top.fail("pin_factory", f"{factory!r} is not one of {', '.join(PIN_FACTORIES)}")
    debounce = top.number("debounce", DEFAULT_DEBOUNCE, 0.0, 1.0)
    hold_time = top.number("hold_time", DEFAULT_HOLD, 0.2, 10.0)
    timer_seconds = top.number("timer_seconds", 120, 1, MAX_SECONDS)
    used: dict[int, str] = {}

    def claim(pin: int | None, key: str, table: _Table, name: str) -> None:
        if pin is None:
            return
        if pin in used:
            raise table.fail(key, f"GPIO {pin} is already used by {used[pin]}")
        used[pin] = table.key(name)

    buttons = {}
    btable = top.table("buttons")
    for name in btable.data:
        if not _NAME.match(str(name)):
            raise btable.fail(str(name), "button names are lower-case letters, digits, - and _")
        b = btable.table(name)
        b.only("pin", "action", "hold", "player", "pull_up", "debounce", "hold_time", "seconds")
        pin = b.pin("pin")
        claim(pin, "pin", b, "pin")
        player = b.get("player", str, None)
        seconds = b.number("seconds", timer_seconds, 1, MAX_SECONDS)
        press, hold = _command(b, "action", player, seconds), _command(b, "hold", player, seconds)
        if press is None and hold is None:
            raise b.fail(None, "give it an action (on a press), a hold (on a long press), or both")
        buttons[name] = ButtonSettings(
            name, pin, press, hold, pull_up=b.get("pull_up", bool, True),
            debounce=b.number("debounce", debounce, 0.0, 1.0),
            hold_time=b.number("hold_time", hold_time, 0.2, 10.0))
    leds = {}
    ltable = top.table("leds")
    for role in ltable.data:
        if role not in LED_ROLES:
            raise ltable.fail(role, f"unknown LED; the LEDs are {', '.join(LED_ROLES)}")
        leds[role] = ltable.pin(role)
        claim(leds[role], role, ltable, role)
    buzzer = None
    if "buzzer" in top.data:
        bz = top.table("buzzer")
        bz.only("pin", "active_high")
        buzzer = BuzzerSettings(bz.pin("pin"), bz.get("active_high", bool, True))
        claim(buzzer.pin, "pin", bz, "pin")
    shutdown = ShutdownSettings(False, None)
    if "shutdown" in top.data:
        sd = top.table("shutdown")
        sd.only("enabled", "pin", "hold_time", "command")
        enabled = sd.get("enabled", bool, False)
        pin = sd.pin("pin", None)
        if enabled and pin is None:
            raise sd.fail("pin", "missing: the shutdown button needs a pin when enabled")
        claim(pin, "pin", sd, "pin")
        command = sd.get("command", list, ["systemctl", "poweroff"])
        if not command or not all(isinstance(c, str) and c for c in command):
            raise sd.fail("command", "expected a list of words such as [\"systemctl\", \"poweroff\"]")
        shutdown = ShutdownSettings(enabled, pin, sd.number("hold_time", 5.0, 1.0, 30.0),
                                    tuple(command))
    return GpioSettings(factory, buttons, leds, top.get("led_active_high", bool, True), buzzer,
                        top.get("quiet", bool, False), shutdown)


def serial_settings(section: dict[str, Any], source: str = "config.toml") -> SerialSettings:
    top = _Table(section, source, "serial")
    top.only("enabled", "port", "usb", "baud", "heartbeat_timeout", "hello_timeout",
             "backoff_initial", "backoff_max", "buttons", "leds", "display_width", "beep")
    port = top.get("port", str, "") or None
    usb = []
    for i, item in enumerate(top.get("usb", list, [PICO_USB])):
        m = _USB.match(item) if isinstance(item, str) else None
        if m is None:
            raise top.fail(f"usb[{i}]", f"{item!r} is not a USB id like \"{PICO_USB}\" (VID:PID in hex)")
        usb.append((int(m.group(1), 16), int(m.group(2), 16)))
    baud = top.get("baud", int, 115200)
    if baud not in (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600):
        raise top.fail("baud", f"{baud} is not a standard rate (use 115200)")
    buttons = {}
    btable = top.table("buttons")
    for number in btable.data:
        if not str(number).isdigit() or not 0 <= int(number) <= 255:
            raise btable.fail(str(number), "device buttons are numbered 0-255")
        b = btable.table(number)
        b.only("action", "hold", "player", "seconds")
        player = b.get("player", str, None)
        seconds = b.number("seconds", 120, 1, MAX_SECONDS)
        buttons[int(number)] = (_command(b, "action", player, seconds),
                                _command(b, "hold", player, seconds))
    leds = {}
    ltable = top.table("leds")
    for role, value in ltable.data.items():
        if role not in LED_ROLES:
            raise ltable.fail(role, f"unknown LED; the LEDs are {', '.join(LED_ROLES)}")
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 255:
            raise ltable.fail(role, f"{value!r} is not a device LED number (0-255)")
        leds[role] = value
    initial = top.number("backoff_initial", 0.5, 0.05, 60)
    backoff_max = top.number("backoff_max", 10.0, 0.05, 600)
    if backoff_max < initial:
        raise top.fail("backoff_max", "must not be less than backoff_initial")
    return SerialSettings(
        enabled=top.get("enabled", bool, True), port=port, usb=tuple(usb), baud=baud,
        heartbeat_timeout=top.number("heartbeat_timeout", 3.0, 0.2, 60),
        hello_timeout=top.number("hello_timeout", 3.0, 0.2, 60),
        backoff_initial=initial, backoff_max=backoff_max, buttons=buttons, leds=leds,
        display_width=int(top.number("display_width", 0, 0, 80)), beep=top.get("beep", bool, False))


def token_settings(section: dict[str, Any], source: str = "config.toml") -> TokenSettings:
    top = _Table(section, source, "tokens")
    top.only("readers", "tags")
    readers = {}
    rtable = top.table("readers")
    for number, space in rtable.data.items():
        if not str(number).isdigit() or not 0 <= int(number) <= 255:
            raise rtable.fail(str(number), "readers are numbered 0-255")
        if not isinstance(space, (str, int)) or isinstance(space, bool) or str(space) == "":
            raise rtable.fail(str(number), f"expected the board space it sits under, got {space!r}")
        readers[int(number)] = str(space)
    tags = {}
    ttable = top.table("tags")
    for tag in ttable.data:
        if not _TAG.match(str(tag)):
            raise ttable.fail(str(tag), "a tag id is 4-32 hex digits, as the reader reports it")
        t = ttable.table(tag)
        t.only("piece", "place", "remove", "player")
        player = t.get("player", str, None)
        tags[str(tag).upper()] = TagSettings(
            str(tag).upper(), t.get("piece", str, str(tag)),
            _command(t, "place", player, 120), _command(t, "remove", player, 120))
    return TokenSettings(readers, tags)
