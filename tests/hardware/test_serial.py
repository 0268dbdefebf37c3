"""pyserial over a real pseudo-terminal pair against the simulated device (the firmware's own
Device class), and over loop://: hello, events, commands, garbage, silence, unplug and replug."""

import threading

import pytest
import serial

from hardware import protocol
from hardware.serial_link import SerialLink, find_port, LinkDown
from hardware.settings import serial_settings
from hardware.simulated_device import SimulatedDevice
from hardware.wiring import attach

from hw_helpers import wait_until

FAST = {"heartbeat_timeout": 0.6, "hello_timeout": 0.6, "backoff_initial": 0.05, "backoff_max": 0.2}


class Sink:
    def __init__(self):
        self.events = []
        self.cond = threading.Condition()

    def __call__(self, event):
        with self.cond:
            self.events.append(event)
            self.cond.notify_all()

    def wait(self, count, timeout=5.0):
        with self.cond:
            assert self.cond.wait_for(lambda: len(self.events) >= count, timeout), self.events
        return self.events


@pytest.fixture
def device():
    with SimulatedDevice(heartbeat_ms=100, resend_ms=100) as dev:
        yield dev


@pytest.fixture
def link(device):
    sink = Sink()
    states = []
    link = SerialLink(serial_settings({"port": device.port, **FAST}), sink,
                      on_state=lambda s: states.append((s["state"], s["reason"])))
    link.sink, link.states = sink, states
    with link:
        assert link.wait_for("ready", 5)
        yield link


def test_hello_makes_the_link_ready_and_names_the_device(link, device):
    status = link.status()
    assert status["state"] == "ready"
    assert status["device"]["id"] == "sim-0001" and status["device"]["protocol"] == 1
    assert status["reason"] == f"sim-0001 (firmware 0.1.0) on {device.port}"
    assert link.states[0][0] == "connecting" and link.states[-1][0] == "ready"
    assert ("connecting", f"waiting for the device's hello on {device.port}") in link.states


def test_device_events_arrive_once_in_order(link, device):
    device.press(1, hold=True)
    device.place("04a1b2c3", 2)
    events = link.sink.wait(4)
    assert [(e.seq, e.kind, e.args) for e in events] == [
        (1, "BTN", ("1", "DOWN")), (2, "BTN", ("1", "HOLD")), (3, "BTN", ("1", "UP")),
        (4, "TAG", ("2", "04a1b2c3", "ON"))]
    assert wait_until(lambda: device.pending == 0)


def test_commands_reach_the_device(link, device):
    link.send("LED", 2, "BLINK", sticky=("LED", 2))
    link.send("TEXT", "Dash: roll the Movement Die.", sticky=("TEXT",))
    link.send("BEEP", 80, 2)
    assert wait_until(lambda: device.commands >= 3, cond=device.received)
    assert device.leds == {2: "BLINK"} and device.text == "Dash: roll the Movement Die."
    assert device.beeps == [(80, 2)]


def test_garbage_and_noise_are_rejected_not_misread(link, device):
    import random
    rng = random.Random(5)
    for _ in range(5):
        device.garbage(3000, rng)
    device.corrupt_next(3)                      # the next three lines get a flipped bit
    device.press(4)
    events = link.sink.wait(2, timeout=5)
    assert [(e.kind, e.args) for e in events] == [("BTN", ("4", "DOWN")), ("BTN", ("4", "UP"))]
    counters = link.status()["counters"]
    assert counters["rejected"] + counters["overlong"] > 0
    assert link.state == "ready"


def test_unplug_and_replug_reconnects_and_loses_nothing(link, device):
    device.press(1)
    link.sink.wait(2)
    device.unplug()
    assert link.wait_for("lost", 3)
    assert "went away" in link.status()["reason"] or "does not exist" in link.status()["reason"]
    device.press(2)                             # pressed while the cable is out
    link.send("LED", 0, "ON", sticky=("LED", 0))  # the dashboard changes while it is out
    link.send("BEEP", 80, 2)                    # a refusal's beep while it is out: stale on return
    device.plug()
    assert link.wait_for("ready", 5)
    events = link.sink.wait(4)
    assert [e.seq for e in events] == [1, 2, 3, 4]
    assert wait_until(lambda: device.leds.get(0) == "ON", cond=device.received)
    assert device.beeps == []                   # (they were all sounded at once on replug)


def test_a_power_cycled_device_starts_a_new_numbering(link, device):
    device.press(1)
    link.sink.wait(2)
    assert wait_until(lambda: device.pending == 0)
    device.replug(power_off=True)
    device.press(3)
    events = link.sink.wait(4, timeout=6)
    assert [(e.seq, e.args[0]) for e in events[2:]] == [(1, "3"), (2, "3")]
    assert events[0].boot != events[2].boot


def test_a_silent_device_is_declared_lost_then_found_again(link, device):
    device.silent(True)
    assert link.wait_for("lost", 3)
    assert "no heartbeat" in link.status()["reason"] or "no hello" in link.status()["reason"]
    device.silent(False)
    assert link.wait_for("ready", 5)


def test_a_flood_of_valid_lines_does_not_stall_events(link, device):
    for _ in range(2000):
        device._raw(protocol.encode("HB", 1))
    device.press(5)
    assert [e.args for e in link.sink.wait(2)] == [("5", "DOWN"), ("5", "UP")]


def test_a_missing_device_is_a_reason_not_a_crash(tmp_path):
    link = SerialLink(serial_settings({"port": str(tmp_path / "ttyACM9"), **FAST}), Sink())
    with link:
        assert link.wait_for("lost", 3)
        assert link.status()["reason"] == f"serial.port {tmp_path / 'ttyACM9'} does not exist (is the device plugged in?)"


def test_the_device_is_found_by_usb_id(monkeypatch):
    class Port:
        def __init__(self, device, vid, pid):
            self.device, self.vid, self.pid = device, vid, pid

    ports = [Port("/dev/ttyUSB0", 0x10C4, 0xEA60), Port("/dev/ttyACM1", 0x2E8A, 0x0005)]
    monkeypatch.setattr("hardware.serial_link.list_ports.comports", lambda: ports)
    assert find_port(serial_settings({})) == "/dev/ttyACM1"
    with pytest.raises(LinkDown, match="no USB serial device with id 1234:5678 .*serial.usb"):
        find_port(serial_settings({"usb": ["1234:5678"]}))


def test_a_device_speaking_another_protocol_is_refused_with_advice():
    wire = serial.serial_for_url("loop://", timeout=0.05)
    link = SerialLink(serial_settings({"port": "loop://", **FAST}), Sink(),
                      transport=lambda name, s: wire)
    with link:
        assert wait_until(lambda: "waiting for" in link.status()["reason"], cond=link.changed)
        wire.write(protocol.encode("HELLO", 2, "pico-9", "b1", "9.0", 1))
        assert link.wait_for("lost", 3)
        assert "speaks protocol 2" in link.status()["reason"]


@pytest.mark.parametrize("base", ["0", "-3", "\u0661", "1_0"])
def test_a_hello_that_numbers_events_from_nothing_is_refused_with_advice(base):
    """A hello whose next event is 0 (or below) left the link 'ready' while every event was
    dropped as out of order; Unicode digits and '1_0' were taken as numbers. The link now says
    why it will not go on."""
    wire = serial.serial_for_url("loop://", timeout=0.05)
    link = SerialLink(serial_settings({"port": "loop://", **FAST}), Sink(),
                      transport=lambda name, s: wire)
    with link:
        assert wait_until(lambda: "waiting for" in link.status()["reason"], cond=link.changed)
        wire.write(protocol.encode("HELLO", 1, "pico-9", "b1", "1.0", base))
        if base.isascii() and base.isdigit():
            assert link.wait_for("lost", 3)
            assert "must count events from 1" in link.status()["reason"], link.status()
        else:
            assert wait_until(lambda: link.status()["counters"]["rejected"] > 0, cond=link.changed)
        assert link.status()["state"] != "ready"


def test_loop_url_hello_events_and_its_own_echo_ignored():
    """loop:// hands back whatever is written: the test plays the device by writing its lines,
    and the link must ignore its own commands coming back (HI, ACK) without harm."""
    wire = serial.serial_for_url("loop://", timeout=0.05)
    wire.close = lambda: None                  # the test keeps the wire across reconnects
    sink = Sink()
    link = SerialLink(serial_settings({"port": "loop://", **FAST}), sink,
                      transport=lambda name, s: wire)
    with link:
        assert wait_until(lambda: "waiting for" in link.status()["reason"], cond=link.changed)
        wire.write(protocol.encode("EV", 1, "BTN", 9, "DOWN"))   # before any hello: whose count?
        wire.write(protocol.encode("HELLO", 1, "loopdev", "b1", "0.1.0", 1))
        assert link.wait_for("ready", 3)
        wire.write(b"\x00\xffnoise*1234\n" + protocol.encode("EV", 1, "BTN", 7, "DOWN")
                   + protocol.encode("EV", 1, "BTN", 7, "DOWN")       # a resend: dropped
                   + protocol.encode("EV", 3, "BTN", 7, "UP")         # a gap: wait for 2
                   + protocol.encode("EV", 2, "TAG", 1, "BEEF", "ON"))
        events = sink.wait(2)
        assert [(e.seq, e.kind) for e in events] == [(1, "BTN"), (2, "TAG")]
        assert wait_until(lambda: link.status()["counters"]["unexpected"] >= 2)   # HI, ACKs
        c = link.status()["counters"]
        assert c["duplicates"] == 1 and c["out_of_order"] == 1 and c["rejected"] >= 1
        assert c["before_hello"] == 1
        # a count of events the device dropped that is no count: the line is rejected before
        # it moves the numbering on, and the tally never goes below nothing
        wire.write(protocol.encode("EV", 3, "DROPPED", -1000)
                   + protocol.encode("EV", 3, "DROPPED", "lots") + protocol.encode("EV", 3, "DROPPED", 4))
        assert wait_until(lambda: link.status()["counters"]["events"] >= 3)
        c = link.status()["counters"]
        assert c["dropped_by_device"] == 4 and c["out_of_order"] == 1, c


def test_device_buttons_and_tokens_become_session_actions(session, views, caplog):
    """A token with its tag id placed on the reader under space 5 moves the mover there."""
    sections = {"serial": {**FAST, "buttons": {"1": {"action": {"type": "roll", "data": {"face": "2"}}},
                                               "2": {"action": "confirm", "hold": "undo"},
                                               "3": {"hold": "undo"}},
                           "leds": {"ready": 0, "error": 1}, "display_width": 20},
                "tokens": {"readers": {"3": "5"},
                           "tags": {"04A1B2C3": {"piece": "Dash's mover", "player": "dash",
                                                 "place": {"type": "move", "data": {"to": "{space}"}}}}}}
    handle = attach(session, sections, simulate=True)
    try:
        dev = handle.device
        assert handle.link.wait_for("ready", 5)
        seq = session.seq
        dev.press(1)
        views.wait(lambda v: v["seq"] > seq and v["expect"]["phase"] == "move")
        dev.place("04a1b2c3", 3)
        v = views.wait(lambda v: v["state"]["movers"][0]["space"] == "5")
        assert session.journal.entries(v["game_id"])[-1].payload["source"] == "token"
        dev.press(5)                              # a button the config gives no meaning
        assert wait_until(lambda: session.refusals.last_id > 0)
        said = session.refusals.since(0)[-1]
        assert said["origin"] == "device button 5" and "has no meaning" in said["text"], said
        dev.event("BTN", "abc", "DOWN")           # a device numbering its buttons wrongly: no
        dev.event("TAG", "١", "04A1B2C3", "ON")   # traceback, and the events after still count
        before = session.refusals.last_id
        dev.press(3)                              # an undo-only button, pressed briefly
        assert wait_until(lambda: session.refusals.last_id > before)
        assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]
        said = session.refusals.since(0)[-1]
        assert said["origin"] == "device button 3" and said["text"].startswith("hold it down to undo")
        # docs/hardware.md's 'three fast flashes', then dark: the device blinks until told
        # otherwise, and was told only at the game's next change (kept through a replug)
        assert wait_until(lambda: dev.leds.get(1) == "BLINK", cond=dev.received)
        assert wait_until(lambda: dev.leds.get(1) == "OFF", cond=dev.received)
        assert handle.indicators.modes["error"] == "off"
        assert session.view()["state"]["movers"][0]["space"] == "5"
        dev.press(2, hold=True)                   # a long press on the device: undo
        views.wait(lambda v: v["seq"] > session.seq - 1 and v["state"]["movers"][0]["space"] == "start")
        assert wait_until(lambda: dev.leds.get(0) == "ON" and dev.text is not None, cond=dev.received)
        assert len(dev.text) <= 20
        dev.place("DEADBEEF", 3)                   # a tag nobody configured
        assert wait_until(lambda: handle.status()["serial"]["unknown_tags"])
        assert handle.status()["serial"]["unknown_tags"][0]["tag"] == "DEADBEEF"
        dev.unplug()
        assert wait_until(lambda: handle.indicators.modes["error"] == "on", cond=handle.indicators.changed)
        dev.plug()
        assert handle.link.wait_for("ready", 5)
        assert wait_until(lambda: handle.indicators.modes["error"] == "off", cond=handle.indicators.changed)
    finally:
        handle.close()
