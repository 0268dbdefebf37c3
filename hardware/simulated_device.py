"""A serial peripheral with no hardware: the reference firmware's Device class on the far end of
a pseudo-terminal pair, plus the faults a real table produces (unplug, garbage, silence).

The host opens :attr:`SimulatedDevice.port`, a symlink that always points at the current pty,
just as udev's /dev/serial/by-id/ names do for a real device: an unplug removes it, a replug
makes a new pty and points it there.
"""

from __future__ import annotations

import os
import random
import select
import shutil
import tempfile
import threading
import time
import tty
from typing import Any

from hardware.firmware.main import Device


def _ticks_ms() -> int:
    return int(time.monotonic() * 1000)


class SimulatedDevice:
    def __init__(self, device_id: str = "sim-0001", heartbeat_ms: int = 1000, resend_ms: int = 300,
                 window: int = 256, folder: str | None = None):
        self.device_id = device_id
        self.heartbeat_ms, self.resend_ms, self.window = heartbeat_ms, resend_ms, window
        self._own_folder = folder is None
        self._folder = folder or tempfile.mkdtemp(prefix="companion-sim-")
        self.port = os.path.join(self._folder, f"serial-{device_id}")
        self._lock = threading.RLock()
        self.received = threading.Condition(self._lock)
        self.leds: dict[int, str] = {}
        self.text: str | None = None
        self.beeps: list[tuple[int, int]] = []
        self.commands = 0
        self._master: int | None = None
        self._slave: int | None = None
        self._silent = False
        self._corrupt = 0
        self._boots = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.device = self._boot()

    def __repr__(self) -> str:
        return f"<SimulatedDevice {self.device_id} {'plugged' if self.plugged else 'unplugged'}>"

    # -- life ----------------------------------------------------------------------------------

    def _boot(self) -> Device:
        self._boots += 1
        return Device(self._write, _ticks_ms, self.device_id, f"b{os.getpid():x}{self._boots:03d}",
                      window=self.window, heartbeat_ms=self.heartbeat_ms, resend_ms=self.resend_ms,
                      on_led=self._on_led, on_text=self._on_text, on_beep=self._on_beep)

    def start(self) -> "SimulatedDevice":
        self.plug()
        self._thread = threading.Thread(target=self._run, name=f"sim-{self.device_id}", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)
        self.unplug()
        if self._own_folder:
            shutil.rmtree(self._folder, ignore_errors=True)

    def __enter__(self) -> "SimulatedDevice":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def plug(self) -> None:
        with self._lock:
            if self._master is not None:
                return
            master, slave = os.openpty()
            tty.setraw(slave)            # no echo, no line editing: bytes pass as they are
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            tmp = self.port + ".new"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(os.ttyname(slave), tmp)
            os.replace(tmp, self.port)

    def unplug(self, power_off: bool = False) -> None:
        """Pull the cable. With ``power_off`` the device also loses power: it boots afresh on the
        next plug and forgets events it had not yet delivered (as a bus-powered Pico does)."""
        with self._lock:
            if os.path.lexists(self.port):
                os.unlink(self.port)
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = None
            if power_off:
                self.device = self._boot()
            else:
                self.device.host = False

    def replug(self, power_off: bool = False) -> None:
        self.unplug(power_off)
        self.plug()

    # -- the table -----------------------------------------------------------------------------

    def press(self, button: int, hold: bool = False) -> None:
        with self._lock:
            self.device.event("BTN", button, "DOWN")
            if hold:
                self.device.event("BTN", button, "HOLD")
            self.device.event("BTN", button, "UP")

    def place(self, tag: str, reader: int) -> None:
        with self._lock:
            self.device.event("TAG", reader, tag, "ON")

    def remove(self, tag: str, reader: int) -> None:
        with self._lock:
            self.device.event("TAG", reader, tag, "OFF")

    def event(self, *fields: Any) -> bool:
        with self._lock:
            return self.device.event(*fields)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self.device.pending)

    # -- faults ----------------------------------------------------------------------------------

    def garbage(self, size: int = 200, rng: random.Random | None = None) -> None:
        rng = rng or random.Random()
        self._raw(bytes(rng.randrange(256) for _ in range(size)))

    def corrupt_next(self, lines: int = 1) -> None:
        """Flip one byte in each of the next lines the device writes (a noisy cable)."""
        with self._lock:
            self._corrupt += lines

    def silent(self, on: bool = True) -> None:
        """A hung device: the port stays open, nothing is said or heard."""
        with self._lock:
            self._silent = on

    # -- plumbing ------------------------------------------------------------------------------

    def _raw(self, data: bytes) -> None:
        with self._lock:
            if self._master is None:
                return
            try:
                os.write(self._master, data)
            except (BlockingIOError, OSError):
                pass  # nobody reading: a real device's USB buffer drops it too

    def _write(self, line: bytes) -> None:
        with self._lock:
            if self._silent:
                return
            if self._corrupt:
                self._corrupt -= 1
                i = random.randrange(len(line) - 1)
                line = line[:i] + bytes([line[i] ^ 0x10]) + line[i + 1:]
            self._raw(line)

    def _run(self) -> None:
        while not self._stop.is_set():
            master = self._master
            if master is None:
                time.sleep(0.01)
                continue
            try:
                readable, _, _ = select.select([master], [], [], 0.005)
                data = os.read(master, 4096) if readable else b""
            except (OSError, ValueError):
                data = b""   # unplugged under our feet
            with self._lock:
                if master != self._master:
                    continue
                if data and not self._silent:
                    self.device.feed(data)
                if not self._silent:
                    self.device.poll()

    def _on_led(self, n: int, state: str) -> None:
        self.leds[n] = state
        self.commands += 1
        self.received.notify_all()

    def _on_text(self, text: str) -> None:
        self.text = text
        self.commands += 1
        self.received.notify_all()

    def _on_beep(self, ms: int, count: int) -> None:
        self.beeps.append((ms, count))
        self.commands += 1
        self.received.notify_all()

    def status(self) -> dict[str, Any]:
        with self._lock:
            return {"id": self.device_id, "port": self.port, "plugged": self.plugged,
                    "pending": len(self.device.pending), "leds": dict(self.leds),
                    "text": self.text}
