"""Hardware latency: from a mock pin edge (or a serial device's event) to the session's new view
reaching a listener, through the real dispatcher, session and SQLite journal (fsync'd)."""

import statistics
import tempfile
import threading
import time
from pathlib import Path

from companion.actions import Action
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from hardware import protocol
from hardware.wiring import attach

PRESSES = 200
MORE = {"type": "timer.add", "data": {"name": "turn", "seconds": 1}}


class Arrivals:
    def __init__(self):
        self.seq = 0
        self.cond = threading.Condition()

    def __call__(self, view):
        with self.cond:
            self.seq = view["seq"]
            self.at = time.perf_counter()
            self.cond.notify_all()

    def wait_past(self, seq, timeout=5.0):
        with self.cond:
            assert self.cond.wait_for(lambda: self.seq > seq, timeout), "no view arrived"
            return self.at


def _session(folder):
    journal = Journal(Path(folder) / "journal.sqlite3")
    session = Session(journal, Catalog())
    session.start("incredibles", {"players": ["dash", "violet"]}, seed=7)
    session.submit(Action("timer.start", data={"name": "turn", "seconds": 3600}))
    return journal, session


def _figures(samples):
    ms = sorted(s * 1000 for s in samples)
    p95 = ms[int(len(ms) * 0.95) - 1]
    return f"{statistics.median(ms):.2f} / {p95:.2f} ms"


def press_to_state():
    with tempfile.TemporaryDirectory() as folder:
        journal, session = _session(folder)
        arrivals = Arrivals()
        session.add_listener(arrivals)
        handle = attach(session, {"gpio": {"pin_factory": "mock", "debounce": 0.0,
                                           "buttons": {"more": {"pin": 4, "action": MORE}}}},
                        simulate=False)
        pin = handle.buttons["more"].pin
        samples = []
        try:
            for _ in range(PRESSES):
                seq = session.seq
                started = time.perf_counter()
                pin.drive_low()
                arrived = arrivals.wait_past(seq)
                pin.drive_high()
                samples.append(arrived - started)
        finally:
            handle.close()
            journal.close()
    return samples


def serial_to_state():
    with tempfile.TemporaryDirectory() as folder:
        journal, session = _session(folder)
        arrivals = Arrivals()
        session.add_listener(arrivals)
        handle = attach(session, {"gpio": {"buttons": {}},
                                  "serial": {"buttons": {"1": {"action": MORE}}}}, simulate=True)
        samples = []
        try:
            assert handle.link.wait_for("ready", 5)
            for _ in range(PRESSES):
                seq = session.seq
                started = time.perf_counter()
                handle.device.event("BTN", 1, "DOWN")
                samples.append(arrivals.wait_past(seq) - started)
        finally:
            handle.close()
            journal.close()
    return samples


def decode_rate():
    lines = [protocol.encode("EV", n, "TAG", 3, "04A1B2C3", "ON").rstrip(b"\n") for n in range(20000)]
    started = time.perf_counter()
    for line in lines:
        protocol.decode(line)
    return len(lines) / (time.perf_counter() - started)


def run():
    press = press_to_state()
    serial = serial_to_state()
    rate = decode_rate()
    return [
        ("GPIO press -> new view at a listener (median / p95)", _figures(press),
         f"{PRESSES} presses, mock pin edge, SQLite journal fsync'd; target median < 20 ms"),
        ("serial event -> new view at a listener (median / p95)", _figures(serial),
         f"{PRESSES} events, simulated device over a pty, same path after the link"),
        ("protocol line decode", f"{rate:,.0f} lines/s", "CRC-16 checked, 40-byte lines"),
    ]


if __name__ == "__main__":
    for row in run():
        print(row)
