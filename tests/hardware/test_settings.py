"""Config validated at start-up: a wrong pin, an unknown action name or a missing serial device
is a clear message naming the key, not a traceback."""

import pytest

from companion.errors import DataFileError
from hardware.settings import gpio_settings, serial_settings, token_settings


def error(fn, section):
    with pytest.raises(DataFileError) as info:
        fn(section)
    return str(info.value)


def test_a_pin_outside_bcm_names_the_key():
    msg = error(gpio_settings, {"buttons": {"undo": {"pin": 41, "hold": "undo"}}})
    assert msg == "config.toml: gpio.buttons.undo.pin: 41 is not a BCM GPIO number (0-27)"


def test_an_unknown_action_name_names_the_key_and_the_choices():
    msg = error(gpio_settings, {"buttons": {"go": {"pin": 4, "action": "jump"}}})
    assert msg.startswith("config.toml: gpio.buttons.go.action: 'jump' is not an action name")
    assert "confirm" in msg and "timer_toggle" in msg


def test_a_literal_action_is_checked_like_any_action():
    msg = error(gpio_settings, {"buttons": {"go": {"pin": 4, "action": {"type": "Roll!"}}}})
    assert msg.startswith("config.toml: gpio.buttons.go.action: an action needs a 'type'")


def test_a_pin_used_twice_names_both_keys():
    msg = error(gpio_settings, {"buttons": {"a": {"pin": 4, "action": "confirm"}},
                                "leds": {"ready": 4}})
    assert msg == "config.toml: gpio.leds.ready: GPIO 4 is already used by gpio.buttons.a.pin"


@pytest.mark.parametrize("section, key", [
    ({"buttons": {"a": {"pin": 4}}}, "gpio.buttons.a"),
    ({"buttons": {"a": {"pin": 4, "action": "done"}}}, "gpio.buttons.a.action"),
    ({"buttons": {"a": {"pin": "4", "action": "confirm"}}}, "gpio.buttons.a.pin"),
    ({"buttons": {"a": {"pin": 4, "action": "confirm", "colour": "red"}}}, "gpio.buttons.a.colour"),
    ({"leds": {"sparkle": 5}}, "gpio.leds.sparkle"),
    ({"debounce": 5}, "gpio.debounce"),
    ({"pin_factory": "wiringpi"}, "gpio.pin_factory"),
    ({"shutdown": {"enabled": True}}, "gpio.shutdown.pin"),
    ({"buzzer": {"pin": True}}, "gpio.buzzer.pin"),
])
def test_every_gpio_mistake_names_its_key(section, key):
    assert error(gpio_settings, section).startswith(f"config.toml: {key}: ")


@pytest.mark.parametrize("section, key", [
    ({"usb": ["2e8a-0005"]}, "serial.usb[0]"),
    ({"baud": 12345}, "serial.baud"),
    ({"buttons": {"x": {"action": "confirm"}}}, "serial.buttons.x"),
    ({"leds": {"ready": 300}}, "serial.leds.ready"),
    ({"backoff_initial": 5, "backoff_max": 1}, "serial.backoff_max"),
    ({"prot": "/dev/ttyACM0"}, "serial.prot"),
])
def test_every_serial_mistake_names_its_key(section, key):
    assert error(serial_settings, section).startswith(f"config.toml: {key}: ")


@pytest.mark.parametrize("section, key", [
    ({"tags": {"zz-top": {"piece": "x"}}}, "tokens.tags.zz-top"),
    ({"readers": {"1": True}}, "tokens.readers.1"),
    ({"tags": {"04A1B2C3": {"place": "fly"}}}, "tokens.tags.04A1B2C3.place"),
])
def test_every_token_mistake_names_its_key(section, key):
    assert error(token_settings, section).startswith(f"config.toml: {key}: ")


def test_the_file_name_given_is_the_one_named():
    with pytest.raises(DataFileError, match=r"^/etc/companion/config.toml: gpio.buttons.a.pin"):
        gpio_settings({"buttons": {"a": {"pin": 99, "action": "confirm"}}},
                      "/etc/companion/config.toml")


def test_a_good_section_gives_arcade_defaults():
    g = gpio_settings({"buttons": {"confirm": {"pin": 17, "action": "confirm", "hold": "undo"},
                                   "dash": {"pin": 5, "action": "done", "player": "dash"},
                                   "roll": {"pin": 6, "action": {"type": "roll"}}}})
    b = g.buttons["confirm"]
    assert (b.press.name, b.hold.name, b.debounce, b.hold_time) == ("confirm", "undo", 0.04, 1.0)
    assert g.buttons["dash"].press.player == "dash"
    assert g.buttons["roll"].press.action.type == "roll"
    assert g.shutdown.enabled is False


def test_serial_defaults_look_for_a_pico_by_usb_id():
    s = serial_settings({})
    assert s.port is None and s.usb == ((0x2E8A, 0x0005),) and s.baud == 115200
