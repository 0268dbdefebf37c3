"""The link to the serial peripheral: one reader thread, explicit states, reconnects by itself.

States (each change carries a reason, shown on the dashboard): ``connecting`` (looking for the
device, opening it, waiting for its hello), ``ready``, ``lost`` (unplugged, a read error, a
silent device, a wrong protocol; a reconnect with backoff follows) and ``closed``.
The port is the configured one (a path or a pyserial URL such as ``loop://``) or the first USB
serial device whose VID:PID is listed. Reads always time out; ``SerialException`` and
``OSError`` mean "link lost". Garbage, floods and silence cost a counter, never the service.
Events are numbered by the device and acknowledged cumulatively; a number already seen is
dropped, so each event reaches ``on_event`` exactly once and in order across replugs.
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

import serial
from serial.tools import list_ports

from hardware import protocol
from hardware.errors import ProtocolError
from hardware.settings import SerialSettings

log = logging.getLogger(__name__)

READ_TIMEOUT = 0.05
STATES = ("connecting", "ready", "lost", "closed")


@dataclass(frozen=True)
class DeviceEvent:
    device: str
    boot: str
    seq: int
    kind: str                 # BTN, TAG, DROPPED, or one this companion does not know yet
    args: tuple[str, ...]


class LinkDown(Exception):
    """Internal: the link must be dropped and reopened; the message is the reason shown."""


def open_port(port: str, settings: SerialSettings):
    """The default transport: a real serial port or any pyserial URL, with timeouts set."""
    return serial.serial_for_url(port, baudrate=settings.baud, timeout=READ_TIMEOUT,
                                 write_timeout=0.5)


def find_port(settings: SerialSettings) -> str:
    if settings.port:
        if "://" in settings.port or os.path.exists(settings.port):
            return settings.port
        raise LinkDown(f"serial.port {settings.port} does not exist (is the device plugged in?)")
    wanted = set(settings.usb)
    for info in sorted(list_ports.comports(), key=lambda p: p.device):
        if (info.vid, info.pid) in wanted:
            return info.device
    ids = ", ".join(f"{v:04X}:{p:04X}" for v, p in settings.usb)
    raise LinkDown(f"no USB serial device with id {ids} is plugged in (serial.usb)")


class SerialLink:
    def __init__(self, settings: SerialSettings, on_event: Callable[[DeviceEvent], None],
                 on_state: Callable[[dict[str, Any]], None] | None = None,
                 transport: Callable[[str, SerialSettings], Any] = open_port,
                 finder: Callable[[SerialSettings], str] = find_port,
                 clock: Callable[[], float] = time.monotonic):
        self.settings = settings
        self.on_event = on_event
        self.on_state = on_state
        self.transport = transport
        self.finder = finder
        self.clock = clock
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._port = None
        self._outbox: deque[bytes] = deque(maxlen=256)
        self._sticky: dict[tuple, bytes] = {}        # LED and TEXT: re-sent after a reconnect
        self._state, self._reason, self._since = "closed", "not started", time.time()
        self._device: dict[str, Any] = {}
        self._peer: tuple[str, str] | None = None    # (device id, boot id) of the numbering
        self._expected = 1
        self._greeted = False
        self.counters = {"lines": 0, "rejected": 0, "realigned": 0, "overlong": 0, "events": 0, "duplicates": 0,
                         "out_of_order": 0, "before_hello": 0, "unexpected": 0, "reconnects": 0, "dropped_by_device": 0,
                         "sent": 0}
        self.changed = threading.Condition(self._lock)

    # -- the surface ------------------------------------------------------------------------------

    def start(self) -> "SerialLink":
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="serial-link", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(2.0)
        self._set_state("closed", "stopped")

    def __enter__(self) -> "SerialLink":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<SerialLink {self._state}: {self._reason}>"

    @property
    def state(self) -> str:
        return self._state

    def send(self, kind: str, *fields: object, sticky: tuple | None = None) -> None:
        """Queue a command for the device; never blocks. Sticky commands (an LED's state, the
        display's text) are remembered and sent again after every reconnect; any other (a beep)
        is news of its moment, dropped while the device is away (replayed on its return, a
        pile of refusals' beeps sounded for presses long past)."""
        line = protocol.encode(kind, *fields)
        with self._lock:
            if sticky is not None:
                self._sticky[sticky] = line
            if self._state == "ready":
                self._outbox.append(line)

    def status(self) -> dict[str, Any]:
        with self._lock:
            return {"state": self._state, "reason": self._reason, "since": self._since,
                    "device": dict(self._device), "counters": dict(self.counters)}

    def wait_for(self, state: str, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self._state == state, timeout)

    # -- the reader thread ------------------------------------------------------------------------

    def _set_state(self, state: str, reason: str) -> None:
        with self._lock:
            if state == self._state and reason == self._reason:
                return
            self._state, self._reason, self._since = state, reason, time.time()
            self.changed.notify_all()
        (log.info if state in ("ready", "connecting") else log.warning)("serial link %s: %s", state, reason)
        if self.on_state is not None:
            try:
                self.on_state(self.status())
            except Exception:
                log.exception("serial state listener failed")

    def _run(self) -> None:
        delay = self.settings.backoff_initial
        while not self._stop.is_set():
            was_ready = False
            try:
                was_ready = self._session()
            except LinkDown as exc:
                self._set_state("lost", str(exc))
            except (serial.SerialException, OSError) as exc:
                self._set_state("lost", f"the device went away (unplugged?): {exc}")
            except Exception as exc:  # a bug must not end the link for good
                log.exception("serial link failed")
                self._set_state("lost", f"internal error: {exc!r}")
            finally:
                self._drop_port()
            if self._stop.is_set():
                break
            self.counters["reconnects"] += 1
            delay = self.settings.backoff_initial if was_ready else min(delay * 2, self.settings.backoff_max)
            self._stop.wait(delay * random.uniform(0.8, 1.0))

    def _drop_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except Exception:
                pass

    def _session(self) -> bool:
        settings = self.settings
        self._set_state("connecting", "looking for the device" if not settings.port
                        else f"opening {settings.port}")
        name = self.finder(settings)
        self._set_state("connecting", f"opening {name}")
        self._port = port = self.transport(name, settings)
        try:
            port.reset_input_buffer()
        except Exception:
            pass  # some URL transports cannot; stale lines are rejected or deduplicated anyway
        splitter = protocol.LineSplitter()
        self._greeted = False      # events count only after this connection's own hello
        self._write(port, protocol.encode("HI", protocol.VERSION))
        self._set_state("connecting", f"waiting for the device's hello on {name}")
        deadline = self.clock() + settings.hello_timeout
        ready = False
        last_rx = self.clock()
        while not self._stop.is_set():
            data = port.read(max(1, min(port.in_waiting, 4096)))
            now = self.clock()
            if data:
                for line in splitter.feed(data):
                    kind = self._line(port, line)
                    if kind is None:
                        continue
                    last_rx = now
                    if kind == "HELLO" and not ready:
                        ready = True
                        self._set_state("ready", f"{self._device['id']} (firmware "
                                        f"{self._device['firmware']}) on {name}")
                        with self._lock:
                            self._outbox.extend(self._sticky.values())
                self.counters["overlong"] = splitter.overlong
            if not ready and now > deadline:
                raise LinkDown(f"no hello from the device on {name} within "
                               f"{settings.hello_timeout:.1f} s (is it running the companion firmware?)")
            if ready and now - last_rx > settings.heartbeat_timeout:
                raise LinkDown(f"no heartbeat from the device for {settings.heartbeat_timeout:.1f} s")
            self._flush(port)
        return ready

    def _flush(self, port) -> None:
        while True:
            with self._lock:
                if not self._outbox:
                    return
                line = self._outbox.popleft()
            self._write(port, line)

    def _write(self, port, line: bytes) -> None:
        try:
            port.write(line)
        except serial.SerialTimeoutException as exc:
            raise LinkDown("the device stopped taking commands (write timed out)") from exc
        self.counters["sent"] += 1

    def _line(self, port, line: bytes) -> str | None:
        """Handle one line; returns its type when it was a valid device message."""
        self.counters["lines"] += 1
        try:
            msg = protocol.decode(line)
        except ProtocolError as exc:
            msg = protocol.realign(line)
            if msg is None:
                self.counters["rejected"] += 1
                log.debug("rejected serial line %r: %s", line[:40], exc)
                return None
            self.counters["realigned"] += 1
        if msg.type not in protocol.DEVICE_MESSAGES:
            self.counters["unexpected"] += 1
            return None
        try:
            if msg.type == "HELLO":
                self._hello(msg.fields)
            elif msg.type == "EV":
                self._event(port, msg.fields)
            elif msg.type == "ERR":
                log.warning("the serial device complains: %s", " ".join(msg.fields))
        except (ValueError, IndexError):
            self.counters["rejected"] += 1
            return None
        return msg.type

    def _hello(self, fields: tuple[str, ...]) -> None:
        version, device, boot, firmware = (_shown(f) for f in fields[:4])
        if version != str(protocol.VERSION):
            raise LinkDown(f"the device speaks protocol {version}; this companion speaks "
                           f"{protocol.VERSION}: update the firmware (hardware/firmware/)")
        base = _count(fields[4])
        if base < 1:        # every event would be "out of order", dropped while the link says ready
            raise LinkDown(f"the device numbers its next event {fields[4]!r}: its firmware must "
                           "count events from 1 (hardware/firmware/)")
        with self._lock:
            self._device = {"id": device, "boot": boot, "firmware": firmware, "protocol": int(version)}
        if self._peer != (device, boot):
            self._peer, self._expected = (device, boot), base
        else:
            self._expected = max(self._expected, base)
        self._greeted = True

    def _event(self, port, fields: tuple[str, ...]) -> None:
        seq = _count(fields[0])
        if not self._greeted:
            # Without this connection's hello we cannot know whose numbering this is: a device
            # that rebooted counts from 1 again, and acking it against the old count loses events.
            self.counters["before_hello"] += 1
            return
        if len(fields) < 2:
            raise ValueError("event without a kind")
        if seq < self._expected:
            self.counters["duplicates"] += 1
            self._write(port, protocol.encode("ACK", self._expected - 1))
            return
        if seq > self._expected:
            self.counters["out_of_order"] += 1    # one before it was garbled: it comes again
            return
        event = DeviceEvent(self._peer[0], self._peer[1], seq, fields[1], tuple(fields[2:]))
        dropped = _count(event.args[0]) if event.kind == "DROPPED" and event.args else 0
        self._expected = seq + 1
        self.counters["events"] += 1
        if event.kind == "DROPPED":
            self.counters["dropped_by_device"] += dropped
            log.warning("the serial device dropped %d event(s) while its buffer was full", dropped)
        try:
            self.on_event(event)
        except Exception:
            log.exception("serial event handler failed on %s", event)
        self._write(port, protocol.encode("ACK", seq))


def _count(text: str) -> int:
    """A number the device sends (an event's, a hello's next, a count dropped): ASCII digits
    only; ValueError (the line rejected and counted) for '-1000', '١', '1_0' or 'lots'."""
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise ValueError(f"not a count: {text!r}")
    return int(text)


def _shown(text: str) -> str:
    """What a device says of itself (its id, firmware), as it may be shown and logged: no
    control characters (an escape in an id could rewrite the terminal a log is read on)."""
    return "".join(c if c.isprintable() else "?" for c in text)[:40]
