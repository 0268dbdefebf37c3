"""The `reading` LED (docs/hardware.md) is lit while the camera reads the dice, as the service
wires it (companion/cli.py, the composition root): the camera over the simulated tray and the
table's LEDs on gpiozero's own MockFactory, a throw read and journaled. It was never lit: only
a test called it."""

import argparse
import threading
import time

from companion import cli
from companion import config as config_mod
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session


def test_the_reading_led_is_lit_while_the_camera_reads_a_throw_and_then_put_out(tmp_path):
    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    view = session.start("incredibles", {"players": ["dash"], "starting_problems": ["A", "B", "C"]},
                         seed=3)
    adapters = cli._Adapters(threading.Event())
    ext = {"starting": {"camera", "hardware"}}
    args = argparse.Namespace(simulate=True)
    adapters.attach(args, config_mod.load(None, tmp_path), session, tmp_path, ext)
    try:
        assert adapters.failed is None
        pin = ext["hardware"].indicators.leds["reading"].pin
        ext["camera"].throw(["3"])
        deadline = time.monotonic() + 120          # the stand-in dice are taught first
        while session.seq == view["seq"]:
            assert time.monotonic() < deadline, ext["camera"].status()
            time.sleep(0.05)
        lit = [s.state for s in pin.states]
        assert True in lit, lit                     # lit for the read ...
        deadline = time.monotonic() + 10
        while pin.state:                            # ... and put out once it is done
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        adapters.close()
    ext["camera"].watcher.on_reading(True)          # after the LEDs closed: nothing, no error
