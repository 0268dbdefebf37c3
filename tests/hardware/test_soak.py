"""Soak: the serial link through many unplug/replug cycles, power cuts and garbage bursts ends
with every valid event delivered exactly once, in order, and the link healthy. Bounded: at most
100 cycles or 45 seconds."""

import random
import threading
import time

from hardware.serial_link import SerialLink
from hardware.settings import serial_settings
from hardware.simulated_device import SimulatedDevice

from hw_helpers import wait_until

CYCLES = 100
BUDGET = 45.0


def test_soak_unplug_replug_and_garbage_deliver_every_event_once():
    rng = random.Random(2024)
    delivered = []
    lock = threading.Lock()

    def sink(event):
        with lock:
            delivered.append(event)

    sent = []
    with SimulatedDevice(heartbeat_ms=100, resend_ms=100) as dev:
        settings = serial_settings({"port": dev.port, "heartbeat_timeout": 0.6, "hello_timeout": 0.6,
                                    "backoff_initial": 0.05, "backoff_max": 0.2})
        link = SerialLink(settings, sink)
        with link:
            assert link.wait_for("ready", 5)
            started = time.monotonic()
            unplugs = power_cuts = bursts = 0
            for cycle in range(CYCLES):
                if time.monotonic() - started > BUDGET:
                    break
                for _ in range(rng.randint(1, 8)):
                    fields = (("BTN", rng.randint(1, 4), rng.choice(["DOWN", "UP", "HOLD"]))
                              if rng.random() < 0.6 else
                              ("TAG", rng.randint(0, 9), f"{rng.getrandbits(32):08X}", rng.choice(["ON", "OFF"])))
                    assert dev.event(*fields)
                    sent.append(tuple(str(f) for f in fields))
                    if rng.random() < 0.3:
                        threading.Event().wait(rng.uniform(0, 0.02))
                roll = rng.random()
                if roll < 0.35:
                    dev.garbage(rng.randint(50, 4000), rng)
                    dev.corrupt_next(rng.randint(0, 3))
                    bursts += 1
                elif roll < 0.75:
                    dev.unplug()
                    unplugs += 1
                    for _ in range(rng.randint(0, 3)):         # presses while the cable is out
                        fields = ("BTN", rng.randint(1, 4), "DOWN")
                        dev.event(*fields)
                        sent.append(tuple(str(f) for f in fields))
                    threading.Event().wait(rng.uniform(0, 0.15))
                    dev.plug()
                elif roll < 0.85:
                    # a power cut loses what the device has not handed over: wait for the acks
                    assert wait_until(lambda: dev.pending == 0, 10), f"cycle {cycle}: acks stuck"
                    dev.replug(power_off=True)
                    power_cuts += 1
                if rng.random() < 0.3:
                    assert link.wait_for("ready", 10), f"cycle {cycle}: {link.status()}"
            assert link.wait_for("ready", 10), link.status()
            assert wait_until(lambda: dev.pending == 0 and len(delivered) >= len(sent), 15), (
                len(delivered), len(sent), dev.pending, link.status())
            threading.Event().wait(0.3)     # late duplicates, if any, would land now
            status = link.status()
    got = [(e.kind, *e.args) for e in delivered]
    assert got == sent, "every valid event exactly once, in order"
    keys = [(e.boot, e.seq) for e in delivered]
    assert len(set(keys)) == len(keys)
    assert status["state"] == "ready"
    assert unplugs >= 5 and bursts >= 5 and power_cuts >= 1
    assert status["counters"]["reconnects"] >= unplugs // 2   # back-to-back unplugs share one
    print(f"soak: {cycle + 1} cycles, {len(sent)} events, {unplugs} unplugs, {power_cuts} power cuts, "
          f"{bursts} garbage bursts, counters {status['counters']}")
