"""The reference firmware's Device class, run on the host as-is (no `machine` needed: main()
imports it only on the Pico)."""

from hardware import protocol
from hardware.firmware.main import Device


class Wire:
    def __init__(self):
        self.lines = []

    def __call__(self, data):
        self.lines.append(protocol.decode(data))

    def kinds(self):
        return [m.type for m in self.lines]


def make(window=4):
    now = [0]
    wire = Wire()
    device = Device(wire, lambda: now[0], "pico-1", "boot1", window=window,
                    heartbeat_ms=1000, resend_ms=500)
    return device, wire, now


def host(device, kind, *fields):
    device.feed(protocol.encode(kind, *fields))


def test_events_wait_for_the_host_then_come_after_hello_in_order():
    device, wire, now = make()
    device.event("BTN", 1, "DOWN")
    assert wire.lines == []                      # no host yet: nothing is sent
    host(device, "HI", 1)
    assert [str(m) for m in wire.lines] == ["HELLO 1 pico-1 boot1 0.1.0 1", "EV 1 BTN 1 DOWN"]


def test_ack_is_cumulative_and_unacked_events_are_sent_again():
    device, wire, now = make()
    host(device, "HI", 1)
    for n in range(3):
        device.event("BTN", n, "DOWN")
    host(device, "ACK", 2)
    assert [seq for seq, _ in device.pending] == [3]
    wire.lines.clear()
    now[0] = 600
    device.poll()
    assert [str(m) for m in wire.lines if m.type == "EV"] == ["EV 3 BTN 2 DOWN"]


def test_a_full_window_drops_and_later_reports_how_many():
    device, wire, now = make(window=2)
    host(device, "HI", 1)
    assert device.event("A") and device.event("B")
    assert not device.event("C") and not device.event("D")
    host(device, "ACK", 2)
    device.event("E")
    assert [str(m) for m in wire.lines if m.type == "EV"][-2:] == ["EV 3 DROPPED 2", "EV 4 E"]


def test_drops_are_reported_once_the_window_has_room_even_with_no_later_event():
    device, wire, now = make(window=2)
    host(device, "HI", 1)
    device.event("A"), device.event("B"), device.event("C")      # C finds the window full
    host(device, "ACK", 1)                                       # room again, and no next press
    assert [str(m) for m in wire.lines if m.type == "EV"][-1] == "EV 3 DROPPED 1"
    assert device.dropped == 0


def test_an_event_lost_in_a_burst_is_sent_again_while_the_burst_goes_on():
    """docs/serial-protocol.md: "sends the unacknowledged ones again after 500 ms without an
    ack". The resend was timed from the last send, so while presses kept coming (a child
    hammering a button, every 10 ms) a line lost on the way was never sent again, the host
    acked nothing after it, and the window filled (the flood test's drops under load)."""
    device, wire, now = make(window=64)
    host(device, "HI", 1)
    device.event("BTN", 1, "DOWN")                 # lost on the way: the host never sees it
    resent_at = []
    for t in range(20, 1020, 20):                  # a second of presses, nothing acked
        now[0] = t
        device.event("BTN", 2, "DOWN" if t % 40 else "UP")
        before = len(wire.lines)
        device.poll()
        if any(m.type == "EV" and m.fields[0] == "1" for m in wire.lines[before:]):
            resent_at.append(t)
    assert resent_at[:1] == [500]                  # sent again 500 ms on, within the burst
    host(device, "ACK", device.next_seq - 1)       # the host catches up: nothing more to resend
    wire.lines.clear()
    now[0] += 400
    device.poll()
    assert device.pending == [] and device.dropped == 0 and wire.lines == []


def test_acks_that_keep_coming_mean_no_resend():
    device, wire, now = make(window=64)
    host(device, "HI", 1)
    for t in range(0, 2000, 10):                   # two seconds of presses, each acked at once
        now[0] = t
        device.event("BTN", 1, "DOWN")
        host(device, "ACK", device.next_seq - 1)
        device.poll()
    sent = [int(m.fields[0]) for m in wire.lines if m.type == "EV"]
    assert sent == list(range(1, 201))             # each once


def test_heartbeat_every_second_and_commands_reach_the_outputs():
    leds, texts, beeps = {}, [], []
    now = [0]
    wire = Wire()
    device = Device(wire, lambda: now[0], "p", "b", on_led=leds.__setitem__,
                    on_text=texts.append, on_beep=lambda ms, n: beeps.append((ms, n)))
    now[0] = 1000
    device.poll()
    assert wire.kinds() == ["HB"]
    host(device, "LED", 2, "BLINK")
    host(device, "TEXT", "Dash: roll")
    host(device, "TEXT")
    host(device, "BEEP", 80, 2)
    assert leds == {2: "BLINK"} and texts == ["Dash: roll", ""] and beeps == [(80, 2)]


def test_garbage_and_unknown_commands_do_not_confuse_it():
    device, wire, now = make()
    device.feed(b"\x03\x00garbage\nLED 1 ON*0000\n")
    host(device, "FLY", 1)
    host(device, "LED", "x")
    assert device.bad_lines == 2
    assert [str(m) for m in wire.lines] == ["ERR unknown FLY", "ERR bad LED"]


def test_the_firmware_stays_within_micropython():
    """No MicroPython here to run it, so guard what it lacks: annotations, dataclasses, typing,
    f-strings with format specs; and `machine` is imported only inside main()."""
    import ast
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "hardware" / "firmware"
    for name in ("main.py", "protocol.py"):
        tree = ast.parse((folder / name).read_text())
        for node in ast.walk(tree):
            assert not isinstance(node, (ast.AnnAssign, ast.JoinedStr)), (name, node.lineno)
            if isinstance(node, (ast.FunctionDef, ast.Lambda)):
                args = node.args.args + node.args.kwonlyargs
                assert all(a.annotation is None for a in args), (name, node.lineno)
                assert getattr(node, "returns", None) is None, (name, node.lineno)
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                assert not {"typing", "dataclasses", "__future__"} & set(names), (name, node.lineno)
        top_imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
        assert all("machine" not in ast.dump(n) for n in top_imports)
