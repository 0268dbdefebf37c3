"""Buttons, LEDs and buzzer on gpiozero's MockFactory, driven like wires, against a real Session
on a real SQLite journal (The Incredibles, dash and violet, seed 7)."""

import threading
import time

import pytest

from companion.actions import Action
from hardware.dispatch import Dispatcher
from hardware.errors import HardwareError
from hardware.gpio import TableButton, make_pin_factory
from hardware.settings import gpio_settings
from hardware.wiring import attach

from hw_helpers import wait_until

TABLE = {
    "pin_factory": "mock",
    "hold_time": 0.3,
    "buttons": {
        "roll": {"pin": 4, "action": {"type": "roll", "data": {"face": "2"}}},
        "confirm": {"pin": 17, "action": "confirm", "hold": "undo"},
        "timer": {"pin": 24, "action": "timer_toggle", "seconds": 90},
        "dash": {"pin": 25, "action": "done", "player": "dash"},
        "card": {"pin": 23, "action": "draw_card"},
        "undo": {"pin": 27, "hold": "undo"},
    },
    "leds": {"ready": 5, "reading": 6, "confirm": 13, "error": 19, "timer": 26},
    "buzzer": {"pin": 12},
}


@pytest.fixture
def table(session):
    handle = attach(session, {"gpio": TABLE}, simulate=False)
    try:
        yield handle
    finally:
        handle.close()


def click(handle, name):
    pin = handle.buttons[name].pin
    pin.drive_low()
    pin.drive_high()


def lockout():
    """Let the 40 ms debounce lock-out pass, as any real finger does between presses."""
    threading.Event().wait(0.05)


def settle(handle):
    assert handle.dispatcher.wait_idle(5.0)


def test_a_press_reaches_the_session_as_a_button_action(table, session, views):
    seq = session.seq
    click(table, "roll")
    view = views.wait(lambda v: v["seq"] > seq)
    assert view["expect"]["phase"] == "move"
    assert view["state"]["roll"]["face"] == "2"
    assert session.undo_preview()["action"]["source"] == "button"


def test_undo_is_a_long_press_and_a_short_press_is_not(table, session, views):
    click(table, "roll")
    settle(table)
    seq = session.seq
    click(table, "confirm")                 # short: confirm; Incredibles has nothing to confirm
    settle(table)
    assert session.seq == seq and table.dispatcher.counts["refused"] == 1
    pin = table.buttons["confirm"].pin
    lockout()
    pin.drive_low()
    view = views.wait(lambda v: v["seq"] > seq, timeout=3)   # the hold fires while still down
    pin.drive_high()
    settle(table)
    assert view["expect"]["phase"] == "roll"
    assert session.journal.entries(view["game_id"])[-1].kind == "undo"
    assert table.dispatcher.counts["submitted"] == 2          # the roll and the undo, nothing else


def test_a_short_press_of_the_undo_button_says_to_hold_it_and_undoes_nothing(table, session, views):
    """The Undo button acts only when held, so a brush of a sleeve undoes nothing; a short press
    is not a press that means nothing: every screen hears to hold it, with the error beep."""
    click(table, "roll")
    settle(table)
    seq = session.seq
    lockout()
    click(table, "undo")
    settle(table)
    assert session.seq == seq
    said = session.refusals.since(0)[-1]
    assert (said["source"], said["origin"]) == ("button", "button undo")
    assert said["text"].startswith("hold it for 0.3 s to undo")
    assert table.status()["buzzer"]["last"]["kind"] == "error"
    pin = table.buttons["undo"].pin
    lockout()
    pin.drive_low()
    views.wait(lambda v: v["seq"] > seq, timeout=3)          # held: it undoes
    pin.drive_high()
    settle(table)
    assert session.journal.entries(session.view()["game_id"])[-1].kind == "undo"


def test_a_refused_press_flashes_the_error_led_and_beeps(table, session):
    click(table, "card")                     # no card is drawn on demand in this game
    settle(table)
    refusal = table.dispatcher.last_refusal
    assert refusal["origin"] == "button card" and "Card button means nothing now" in refusal["reason"]
    assert "Dash: roll the Movement Die." in refusal["reason"]
    # ... and every screen hears why (companion/refusals.py; the table shows it)
    refusal = session.refusals.since(0)[-1]
    assert (refusal["source"], refusal["origin"]) == ("button", "button card")
    assert "the companion draws the top card itself" in refusal["text"]
    status = table.status()
    assert status["leds"]["error"]["mode"] == "fast"
    assert status["buzzer"]["last"]["kind"] == "error"
    buzzer_pin = table.indicators.buzzer.pin
    assert wait_until(lambda: any(s.state for s in buzzer_pin.states[1:]), 2)


def test_done_buttons_send_the_player_and_a_refusal_says_why(table, session):
    click(table, "dash")
    settle(table)
    assert "unknown action 'done'" in table.dispatcher.last_refusal["reason"]


def test_timer_toggle_starts_pauses_and_resumes_the_turn_timer(table, session, views):
    click(table, "timer")
    v = views.wait(lambda v: "turn" in v["timers"])
    assert v["timers"]["turn"]["running"] and v["timers"]["turn"]["duration"] == 90
    lockout()
    click(table, "timer")
    views.wait(lambda v: "turn" in v["timers"] and not v["timers"]["turn"]["running"])
    lockout()
    click(table, "timer")
    views.wait(lambda v: v["seq"] >= session.seq and v["timers"].get("turn", {}).get("running")
               and v["timers"]["turn"]["elapsed"] > 0)


def test_leds_follow_the_game(table, session):
    ind = table.indicators
    assert ind.status()["leds"]["ready"] == {"mode": "on", "pin": 5, "lit": True}
    assert ind.status()["leds"]["timer"]["lit"] is False
    session.close_game()
    assert wait_until(lambda: ind.status()["leds"]["ready"]["mode"] == "blink", cond=ind.changed)
    table.set_reading(True)
    assert ind.status()["leds"]["reading"]["lit"] is True
    table.set_reading(False)
    assert ind.status()["leds"]["reading"]["lit"] is False


def test_a_lost_game_sets_ready_blinking_for_the_next_one(table, session):
    """"If a face-up Problem Card slides onto 'Too Late!', the game is over" (Ending the Game):
    with three problems on the track and a problem on top of the deck, an Alarm loses at once."""
    session.start("incredibles", {"players": ["dash", "violet"], "deck": ["problem-D"],
                                  "starting_problems": ["problem-A", "problem-B", "problem-C"]}, seed=7)
    ind = table.indicators
    assert wait_until(lambda: ind.updates >= 2 and ind.modes["ready"] == "on", cond=ind.changed)
    session.submit(Action("roll", data={"face": "alarm"}))
    assert session.view()["outcome"]["status"] == "lost"
    assert wait_until(lambda: ind.modes["ready"] == "blink", cond=ind.changed)
    # the displays say the game was lost, and why (they said "The game is over.", and the
    # blinking ready LED alone reads as "no game yet")
    reason = session.view()["outcome"]["reason"]
    assert ind.status()["display"] == f"Lost: {reason}", ind.status()["display"]


def test_timer_last_minute_blinks_and_the_end_buzzes(table, session):
    ind = table.indicators
    session.submit(Action("timer.start", data={"name": "turn", "seconds": 0.6, "warn": 0.3}))
    assert wait_until(lambda: ind.modes["timer"] == "off", cond=ind.changed)
    # nothing changes in the session when the last stretch begins: the indicators wake up alone
    assert wait_until(lambda: ind.modes["timer"] == "fast", timeout=2, cond=ind.changed)
    assert ind.beeps == []
    threading.Event().wait(0.35)
    session.tick()                            # the server's ticker journals the expiry
    assert wait_until(lambda: ind.modes["timer"] == "on", cond=ind.changed)
    assert wait_until(lambda: [b["kind"] for b in ind.beeps] == ["timer"], cond=ind.beeped)
    assert table.status()["leds"]["timer"]["lit"] is True
    assert wait_until(lambda: any(s.state for s in ind.buzzer.pin.states[1:]), 2)
    # news for the phase it ran out in: Invincible's hero time stayed lit through the three
    # phases after it, until the next Hero Phase
    session.submit(Action("roll", data={"face": "2"}))
    assert session.view()["timers"]["turn"]["expired"] is True
    assert wait_until(lambda: ind.modes["timer"] == "off", cond=ind.changed), ind.modes
    # and it stays dark when a later turn comes to a phase of the same name (the next roll)
    view = session.submit(Action("move", data={"to": session.view()["expect"]["reachable"][0]}))
    while view["expect"]["phase"] != "roll":
        view = session.submit(Action(view["expect"]["actions"][0], data={}))
    assert view["timers"]["turn"]["expired"] is True
    threading.Event().wait(0.3)
    assert ind.modes["timer"] == "off", (ind.modes, view["expect"]["prompt"])


def test_a_restart_after_a_timer_ran_out_does_not_sound_it_again(tmp_path):
    """The buzzer's three long beeps are news of a timer running out: a service started again
    later (the turn moved on since) sounded them again and lit the timer LED, as if time had
    just run out (found by an audit of Invincible's hero time)."""
    from companion.games import Catalog
    from companion.journal import Journal
    from companion.session import Session

    with Journal(tmp_path / "journal.sqlite3") as journal:
        session = Session(journal, Catalog())
        session.start("incredibles", {"players": ["dash", "violet"]}, seed=7)
        session.submit(Action("timer.start", data={"name": "turn", "seconds": 0.2}))
        threading.Event().wait(0.25)
        session.tick()
        session.submit(Action("roll", data={"face": "2"}))
    with Journal(tmp_path / "journal.sqlite3") as journal:
        session = Session(journal, Catalog())               # the service started again
        assert session.view()["timers"]["turn"]["expired"] is True
        handle = attach(session, {"gpio": TABLE}, simulate=False)
        try:
            ind = handle.indicators
            assert wait_until(lambda: ind.updates >= 1, cond=ind.changed)
            threading.Event().wait(0.3)
            assert ind.beeps == [] and ind.modes["timer"] == "off", (ind.beeps, ind.modes)
            session.submit(Action("timer.start", data={"name": "turn", "seconds": 0.2}))
            threading.Event().wait(0.25)
            session.tick()                                   # news again: it sounds
            assert wait_until(lambda: [b["kind"] for b in ind.beeps] == ["timer"], cond=ind.beeped)
        finally:
            handle.close()


def test_quiet_mode_records_but_never_sounds(session):
    handle = attach(session, {"gpio": {**TABLE, "quiet": True}}, simulate=False)
    try:
        click(handle, "card")
        settle(handle)
        assert handle.status()["buzzer"]["last"] == {**handle.indicators.beeps[-1], "muted": True}
        threading.Event().wait(0.2)
        assert not any(s.state for s in handle.indicators.buzzer.pin.states)
    finally:
        handle.close()


def test_a_button_storm_never_blocks_and_loses_no_press(session, views):
    """A child hammering a button while the session is busy: every pin callback returns at once
    (it only enqueues) and every press still reaches the journal."""
    storm = {"pin_factory": "mock", "debounce": 0.0, "buttons": {
        "more": {"pin": 4, "action": {"type": "timer.add", "data": {"name": "turn", "seconds": 1}}}}}
    session.submit(Action("timer.start", data={"name": "turn", "seconds": 60}))
    handle = attach(session, {"gpio": storm}, simulate=False)
    try:
        pin, seq = handle.buttons["more"].pin, session.seq
        with session._lock:                   # the session is busy for the whole storm
            started = time.perf_counter()
            for _ in range(300):
                pin.drive_low()
                pin.drive_high()
            elapsed = time.perf_counter() - started
            # none was submitted from its callback: with the session busy, all wait in the queue
            assert handle.dispatcher.counts["submitted"] == 0 and session.seq == seq
        assert elapsed < 1.0, f"300 presses took {elapsed:.3f} s to hand over"
        assert handle.dispatcher.wait_idle(30)
        assert handle.dispatcher.counts["submitted"] == 300
        assert session.view()["timers"]["turn"]["duration"] == 360
    finally:
        handle.close()


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_contact_bounce_is_one_press_and_a_real_second_press_counts(session, mock_factory):
    settings = gpio_settings({"buttons": {"b": {"pin": 4, "action": "undo"}}}).buttons["b"]
    dispatcher = Dispatcher(session)
    clock = Clock()
    button = TableButton(settings, dispatcher, mock_factory, clock=clock)
    try:
        pin = button.pin
        for _ in range(5):                    # 5 ms of chatter as the contact closes and opens
            pin.drive_low()
            clock.now += 0.001
            pin.drive_high()
            clock.now += 0.001
        assert (button.presses, button.bounces) == (1, 4)
        clock.now += 0.045                    # released for longer than the 40 ms lock-out
        pin.drive_low()
        pin.drive_high()
        assert button.presses == 2
    finally:
        button.close()
        dispatcher.close()


def test_the_shutdown_button_only_acts_when_enabled_and_held(session):
    ran = []
    done = threading.Event()

    def poweroff(cmd):
        ran.append(cmd)
        done.set()

    off = attach(session, {"gpio": {"pin_factory": "mock", "shutdown": {"enabled": False, "pin": 3}}},
                 simulate=False, poweroff=poweroff)
    assert off.shutdown is None
    off.close()
    on = attach(session, {"gpio": {"pin_factory": "mock",
                                   "shutdown": {"enabled": True, "pin": 3, "hold_time": 1.0}}},
                simulate=False, poweroff=poweroff)
    try:
        pin = on.shutdown.button.pin
        pin.drive_low()
        threading.Event().wait(0.3)
        pin.drive_high()                      # a short press: nothing
        assert not done.wait(1.2)
        pin.drive_low()
        assert done.wait(3)
        assert ran == [("systemctl", "poweroff")]
    finally:
        on.close()


def test_backends_are_chosen_never_guessed(monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    with pytest.raises(HardwareError, match="'lgpio' cannot be used here .*python3-lgpio"):
        make_pin_factory("lgpio", simulate=False)
    factory, description = make_pin_factory("lgpio", simulate=True)
    assert type(factory).__name__ == "MockFactory" and "simulation" in description
    factory, description = make_pin_factory("mock", simulate=False)
    assert type(factory).__name__ == "MockFactory"


def test_a_failed_attach_releases_what_it_claimed(session):
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    bad = {"buttons": {"a": {"pin": 4, "action": "confirm"}}, "leds": {"ready": 5}}
    factory.pin(5).function = "output"
    from gpiozero import LED
    blocker = LED(5, pin_factory=factory)       # GPIO 5 is taken by something else
    with pytest.raises(Exception):
        attach(session, {"gpio": bad}, simulate=False, pin_factory=factory)
    blocker.close()
    handle = attach(session, {"gpio": bad}, simulate=False, pin_factory=factory)  # GPIO 4 is free
    handle.close()
    handle.close()                             # twice is fine


def test_the_confirm_led_blinks_for_a_choice_only_a_screen_makes(table, session):
    """'Frozone Helps' (a card's choice, made on a screen): the Confirm LED was lit steady, as
    for a camera read Confirm takes, and the press it invited was refused ('there is nothing to
    confirm now'). It blinks now: look at a screen."""
    session.start("incredibles", {"players": ["dash", "violet"], "deck": ["frozone-strength"],
                                  "starting_problems": ["A", "E", "B"]}, seed=7)  # two Strength
    ind = table.indicators
    session.submit(Action("roll", data={"face": "alarm"}))
    assert session.view()["expect"]["phase"] == "choose"
    assert wait_until(lambda: ind.modes["confirm"] == "blink", cond=ind.changed), ind.modes
    click(table, "confirm")
    settle(table)
    assert table.dispatcher.counts["refused"] == 1


def test_a_double_press_of_next_ends_one_turn_not_the_next_teams_too(tmp_path):
    """X-Men Alert: Next ends the turn of the team whose turn it is. Ann's Next pressed twice in
    150 ms ended Ann's turn and then Ben's, who never got to act; twenty presses in a second
    skipped ten rounds (found by a physical-table audit). A second press this soon after the
    first one passed the turn, nothing else having moved, is the same press."""
    from companion.games import Catalog
    from companion.journal import Journal
    from companion.session import Session

    session = Session(Journal(tmp_path / "j"), Catalog())
    view = session.start("xmen-alert", {"players": ["Ann", "Ben"], "first_player": "Ann"}, seed=3)
    assert view["expect"]["player"] == "Ann" and "turn.end" in view["expect"]["actions"], view["expect"]
    handle = attach(session, {"gpio": {"pin_factory": "mock", "debounce": 0.0,
                                       "buttons": {"next": {"pin": 16, "action": "next"}}}},
                    simulate=False)
    try:
        pin = handle.buttons["next"].pin
        for _ in range(2):
            pin.drive_low()
            pin.drive_high()
            time.sleep(0.15)
        assert handle.dispatcher.wait_idle(10)
        ends = [line for line in session.view()["state"]["log"] if "turn" in line.lower()]
        assert session.view()["expect"]["player"] == "Ben", ends
        assert "taken as the same press" in handle.dispatcher.last_refusal["reason"]
        time.sleep(0.9)                              # a press a moment later is Ben's own
        pin.drive_low()
        pin.drive_high()
        assert handle.dispatcher.wait_idle(10)
        assert session.view()["expect"]["player"] == "Ann"
    finally:
        handle.close()
        session.journal.close()
