"""attach(): what the composition root and the dashboard see in simulation."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import DataFileError
from hardware.errors import HardwareError
from hardware.wiring import attach

from hw_helpers import wait_until


def test_simulation_builds_the_default_table_and_the_dashboard_can_press(session, views):
    reads = []
    handle = attach(session, {}, simulate=True, read_dice=lambda: reads.append("read"))
    try:
        assert set(handle.buttons) == {"confirm", "undo", "dice", "card", "timer", "next"}
        assert handle.link.wait_for("ready", 5)
        handle.press("dice")
        assert handle.dispatcher.wait_idle(5) and reads == ["read"]
        seq = session.seq
        handle.press("timer")
        v = views.wait(lambda v: v["seq"] > seq)
        assert v["timers"]["turn"]["running"]
        status = handle.status()
        assert status["simulated"] and status["backend"] == "mock pins (simulation)"
        assert status["serial"]["state"] == "ready"
        assert status["leds"]["ready"]["lit"] is True
        assert status["buttons"]["timer"]["presses"] == 1
        assert status["actions"]["submitted"] == 1 and status["actions"]["handled"] == 1
        with pytest.raises(HardwareError, match="no button called 'jump'"):
            handle.press("jump")
    finally:
        handle.close()
    assert repr(handle) == "<HardwareHandle closed: 6 buttons>"


def test_a_held_simulated_press_is_a_long_press(session, views):
    handle = attach(session, {"gpio": {"hold_time": 0.3, "buttons": {
        "roll": {"pin": 4, "action": {"type": "roll", "data": {"face": "1"}}},
        "undo": {"pin": 27, "hold": "undo"}}}}, simulate=True)
    try:
        handle.press("roll")
        views.wait(lambda v: v["expect"]["phase"] == "move")
        seq = session.seq
        handle.press("undo")                        # short: an undo button ignores it
        assert handle.dispatcher.wait_idle(2) and session.seq == seq
        handle.press("undo", hold=True)
        views.wait(lambda v: v["seq"] > seq and v["expect"]["phase"] == "roll")
    finally:
        handle.close()


def test_read_dice_without_a_camera_is_refused_with_a_reason(session):
    handle = attach(session, {"serial": {"enabled": False}}, simulate=True)
    try:
        handle.press("dice")
        assert handle.dispatcher.wait_idle(2)
        assert "no camera is wired" in handle.status()["actions"]["last_refusal"]["reason"]
        assert handle.status()["serial"] == {"state": "off", "reason": "turned off in the config "
                                             "([serial] enabled = false)"}
    finally:
        handle.close()


def test_presses_are_for_simulation_only(session):
    handle = attach(session, {"gpio": {"pin_factory": "mock",
                                       "buttons": {"a": {"pin": 4, "action": "confirm"}}}}, simulate=False)
    try:
        with pytest.raises(HardwareError, match="only .* in simulation"):
            handle.press("a")
    finally:
        handle.close()


def test_a_bad_section_stops_attach_with_the_key(session):
    with pytest.raises(DataFileError, match=r"^/etc/companion/config.toml: serial.usb\[0\]: "):
        attach(session, {"serial": {"usb": ["pico"]}}, simulate=True, source="/etc/companion/config.toml")


def test_without_sections_and_without_simulation_nothing_is_claimed(session):
    handle = attach(session, {}, simulate=False)
    try:
        assert handle.buttons == {} and handle.link is None and handle.pin_factory is None
        assert handle.status()["serial"]["state"] == "closed"
    finally:
        handle.close()


def test_empty_sections_in_simulation_mean_the_default_table(session):
    handle = attach(session, {"gpio": {}, "serial": {}, "tokens": {}}, simulate=True)
    try:
        assert "confirm" in handle.buttons and handle.link is not None
    finally:
        handle.close()


def test_a_long_prompt_is_cut_to_fit_the_display_and_the_line_limit():
    from hardware import protocol
    from hardware.serial_link import SerialLink
    from hardware.settings import serial_settings
    from hardware.wiring import SerialMirror

    settings = serial_settings({"display_width": 80})
    link = SerialLink(settings, lambda e: None)          # not started: sends are only queued
    SerialMirror(link, settings).text("é" * 100)        # 80 characters, 480 bytes escaped
    line = link._sticky[("TEXT",)]
    assert len(line) <= protocol.MAX_LINE + 1
    shown = protocol.decode(line).fields[0]
    assert set(shown[:-1]) == {"é"} and shown[-1] == ">"       # cut, and marked so


def test_every_prompt_of_the_three_games_shows_on_a_16_character_display_in_words():
    """docs/serial-protocol.md: one TEXT line; deploy/config.example.toml: display_width = 16.
    Prompts were cut at the 16th character ("Dash: roll the M", "Dice unsure: Con"), and cut to
    whole words alone they often said nothing ("Mrs.>", "Round 1>"). Now each shows the start of
    the prompt (asides left out first) in whole words with ">" where it goes on, or up to a name's
    colon, and a word is cut only where whole words would leave most of the line empty."""
    import random

    from companion.games import Catalog
    from hardware import protocol
    from hardware.display_line import ENOUGH, MORE, fit
    from hardware.serial_link import SerialLink
    from hardware.settings import serial_settings
    from hardware.wiring import SerialMirror

    settings = serial_settings({"display_width": 16})
    link = SerialLink(settings, lambda e: None)          # not started: sends are only queued
    for prompt, shown in (("Dash: roll the Movement Die.", "Dash: roll the>"),
                          ("Mrs. Incredible: roll the Movement Die.", "Mrs. Incredible:"),
                          ("Round 1: advance the episode track.", "Round 1: advanc>")):
        SerialMirror(link, settings).text(prompt)
        assert protocol.decode(link._sticky[("TEXT",)]).fields[0] == shown

    catalog, prompts = Catalog(), set()
    for name in ("incredibles", "xmen-alert", "invincible"):
        engine = catalog(name)
        for seed in range(6):
            rng = random.Random(seed)
            state = engine.setup(engine.sample_options(rng), random.Random(seed))
            for _ in range(150):
                if engine.is_over(state):
                    break
                prompts.add(engine.expect(state).get("prompt") or "")
                state = engine.apply(state, engine.sample_action(state, rng), random.Random(seed))
    prompts |= {"Dice OK? Confirm", "Dice: see screen"}
    assert len(prompts) > 50
    for prompt in prompts:
        line = fit(prompt, 16)
        words = " ".join(prompt.split())
        kept = " ".join(re.sub(r"\s*\([^()]*\)", "", words).split())   # asides left out first
        assert len(line) <= 16, (prompt, line)
        if line in (words, kept):
            continue
        shown = line[:-len(MORE)] if line.endswith(MORE) else line
        assert line.endswith((MORE, ":")) and kept.startswith(shown), (prompt, line)
        assert len(shown) >= ENOUGH * 16, (prompt, line)                  # it says something


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=300), width=st.integers(1, 80))
def test_a_display_line_never_outgrows_its_width_whatever_the_text(text, width):
    from hardware.display_line import fit

    line = fit(text, width)
    assert len(line) <= width and "\n" not in line


def test_close_stops_every_thread_it_started(session):
    import threading

    before = {t.ident for t in threading.enumerate()}
    handle = attach(session, {}, simulate=True)
    assert handle.link.wait_for("ready", 5)
    handle.press("timer")
    assert handle.dispatcher.wait_idle(5)
    handle.close()

    def left():
        return [t.name for t in threading.enumerate() if t.ident not in before and t.is_alive()]
    # the session's own event bus stays; a thread told to stop may take a moment to end
    assert wait_until(lambda: set(left()) <= {"events"}, 5), left()


def test_a_journal_that_fails_is_an_error_signal_not_a_dead_worker(session, tmp_path):
    """A full or broken disk: the press fails, the error LED says so, the next press still works."""
    handle = attach(session, {"gpio": {"pin_factory": "mock", "debounce": 0.0, "buttons": {
        "timer": {"pin": 24, "action": "timer_toggle"}}}}, simulate=False)
    try:
        session.journal.close()                       # every append now fails
        pin = handle.buttons["timer"].pin
        pin.drive_low()
        pin.drive_high()
        assert handle.dispatcher.wait_idle(5)
        assert handle.dispatcher.counts["failed"] == 1
        assert handle.indicators.modes["error"] == "fast"
        pin.drive_low()
        pin.drive_high()
        assert handle.dispatcher.wait_idle(5) and handle.dispatcher.counts["failed"] == 2
    finally:
        handle.close()


def test_a_camera_read_waiting_lights_confirm_and_the_display_says_what_to_do(session):
    """A read unsure of a die lights the Confirm LED and the peripheral's display says "Confirm
    or fix"; the Confirm button takes it as read and both go back to the game. A read sure of
    every die but with a die too many says "fix on screen": Confirm alone is refused there (the
    count is wrong) and the read still waits; marked not a die on a screen, the roll is taken."""
    from companion.actions import Action
    from companion.cli import _confirm_waiting_read
    from hardware.display_line import fit
    from hardware.wiring import DEFAULT_SERIAL

    width = DEFAULT_SERIAL["display_width"]              # the simulated display: the Pi config's 16
    handle = attach(session, {}, simulate=True, confirm=lambda: _confirm_waiting_read(session))
    ind, device = handle.indicators, handle.device
    try:
        assert handle.link.wait_for("ready", 5)
        prompt = session.view()["expect"]["prompt"]
        assert wait_until(lambda: device.text == fit(prompt, width), cond=device.received)
        assert ind.modes["confirm"] == "off"

        def read(*faces_conf):
            session.submit(Action("dice.read", source="camera", data={
                "set": "incredibles-movement",
                "dice": [{"face": f, "confidence": c} for f, c in faces_conf]}))

        read(("3", 0.3))
        assert wait_until(lambda: device.text == "Dice OK? Confirm", cond=device.received)
        assert ind.status()["leds"]["confirm"]["lit"] is True
        handle.press("confirm")
        assert handle.dispatcher.wait_idle(5)
        view = session.view()
        assert view["dice_read"]["confirmed"] and view["state"]["roll"]["face"] == "3"
        assert wait_until(lambda: ind.modes["confirm"] == "off", cond=ind.changed)
        assert wait_until(lambda: device.text == fit(view["expect"]["prompt"], width),
                          cond=device.received)

        session.submit(Action("undo"))
        session.submit(Action("dice.dismiss"))
        read(("2", 0.95), ("5", 0.97))
        assert wait_until(lambda: device.text == "Dice: see screen", cond=device.received)
        assert ind.status()["leds"]["confirm"]["lit"] is True
        # unsure as well as a die too many: Confirm alone would still be refused for the count
        session.submit(Action("dice.dismiss"))
        assert wait_until(lambda: device.text == fit(prompt, width), cond=device.received)
        read(("2", 0.3), ("5", 0.97))
        assert wait_until(lambda: device.text == "Dice: see screen", cond=device.received)
        seq = session.seq
        handle.press("confirm")
        assert handle.dispatcher.wait_idle(5)
        assert session.seq == seq and not session.view()["dice_read"]["confirmed"]
        assert "this roll is one die and the camera found 2" in session.refusals.since(0)[-1]["text"]
        view = session.confirm_read(session.view()["dice_read"]["id"], ["2", None])
        assert view["state"]["roll"]["face"] == "2"
        assert wait_until(lambda: ind.modes["confirm"] == "off", cond=ind.changed)
    finally:
        handle.close()
