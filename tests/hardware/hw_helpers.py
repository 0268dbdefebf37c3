"""Helpers shared by the hardware tests (waits on conditions and events, never bare sleeps)."""

import threading
import time


def wait_until(predicate, timeout=5.0, cond=None):
    """Poll-free where a Condition is given; otherwise an Event-paced check."""
    if cond is not None:
        with cond:
            return cond.wait_for(predicate, timeout)
    tick = threading.Event()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        tick.wait(0.005)
    return predicate()
