# Reference firmware for a Raspberry Pi Pico (MicroPython) speaking the companion's serial
# protocol over USB (docs/serial-protocol.md). Copy protocol.py and this file to the Pico.
#
# The Device class is the whole protocol behaviour and touches no hardware: main() feeds it
# bytes from USB and button edges, and gives it functions to write, light LEDs and beep. That
# keeps it testable on the host, and the simulated device (hardware/simulated_device.py) runs
# this very class on the far end of a pseudo-terminal.

try:
    from protocol import VERSION, Lines, decode, encode   # on the Pico: files side by side
except ImportError:
    from hardware.firmware.protocol import VERSION, Lines, decode, encode

FIRMWARE = "0.1.0"

# Pin map of the reference build: (button number, GPIO), LEDs by number, the buzzer.
BUTTONS = ((1, 10), (2, 11), (3, 12), (4, 13))
LEDS = ((0, 25), (1, 14), (2, 15))          # 25 is the Pico's own LED
BUZZER = 16
DEBOUNCE_MS = 20
HOLD_MS = 800


def _plain_diff(a, b):
    return a - b


class Device:
    """Events numbered from 1 per boot, kept until the host acknowledges them (cumulative ACK)
    and sent again after a silence or a new HI, so none is lost on a replug and none doubles:
    the host drops a number it has already seen."""

    def __init__(self, write, ticks_ms, device_id, boot_id, ticks_diff=_plain_diff,
                 window=64, heartbeat_ms=1000, resend_ms=500,
                 on_led=None, on_text=None, on_beep=None):
        self.write = write
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self.device_id = device_id
        self.boot_id = boot_id
        self.window = window
        self.heartbeat_ms = heartbeat_ms
        self.resend_ms = resend_ms
        self.on_led = on_led
        self.on_text = on_text
        self.on_beep = on_beep
        self.lines = Lines()
        self.pending = []          # [(seq, fields)] not yet acknowledged, oldest first
        self.next_seq = 1
        self.dropped = 0           # events that found the window full
        self.host = False          # a HI has been heard: safe to send events
        self.bad_lines = 0
        now = ticks_ms()
        self.started = now
        self.last_hb = now
        # When the oldest unacknowledged event was last sent or an ack last took one off: the
        # unacknowledged are sent again once acks stop coming for resend_ms, not only after a
        # silence. (Timed from the last send, a line lost in a burst of presses was never sent
        # again while the presses went on, and the window filled: the flood test's drops.)
        self.last_progress = now

    # -- from the table ----------------------------------------------------------------------

    def event(self, *fields):
        """Queue one event, e.g. event("BTN", 1, "DOWN") or event("TAG", 2, "04A1B2", "ON")."""
        self._report_dropped()
        if len(self.pending) >= self.window:
            self.dropped += 1
            return False
        self._queue(fields)
        return True

    def _report_dropped(self):
        # As soon as the window has room, not at the next press: after the last press of a
        # burst there may be no next one, and the host would never learn that presses were lost.
        if self.dropped and len(self.pending) < self.window:
            self._queue(("DROPPED", self.dropped))
            self.dropped = 0

    def _queue(self, fields):
        seq = self.next_seq
        self.next_seq += 1
        if not self.pending:
            self.last_progress = self.ticks_ms()
        self.pending.append((seq, fields))
        if self.host:
            self._send("EV", (seq,) + tuple(fields))

    # -- from the host -----------------------------------------------------------------------

    def feed(self, data):
        for line in self.lines.feed(data):
            msg = decode(line)
            if msg is None:
                self.bad_lines += 1
                continue
            self.command(msg[0], msg[1])

    def command(self, kind, fields):
        try:
            if kind == "HI":
                self.host = True
                self.hello()
                self.resend()
            elif kind == "ACK":
                upto = int(fields[0])
                if self.pending and self.pending[0][0] <= upto:
                    self.last_progress = self.ticks_ms()
                while self.pending and self.pending[0][0] <= upto:
                    self.pending.pop(0)
                self._report_dropped()
            elif kind == "LED":
                n, state = int(fields[0]), fields[1]
                if state not in ("ON", "OFF", "BLINK"):
                    raise ValueError(state)
                if self.on_led:
                    self.on_led(n, state)
            elif kind == "TEXT":
                if self.on_text:
                    self.on_text(fields[0] if fields else "")
            elif kind == "BEEP":
                ms, count = int(fields[0]), int(fields[1]) if len(fields) > 1 else 1
                if self.on_beep:
                    self.on_beep(ms, count)
            else:
                self._send("ERR", ("unknown", kind))
        except (IndexError, ValueError):
            self._send("ERR", ("bad", kind))

    # -- time passing ------------------------------------------------------------------------

    def poll(self):
        now = self.ticks_ms()
        if self.ticks_diff(now, self.last_hb) >= self.heartbeat_ms:
            self.last_hb = now
            self._send("HB", (self.ticks_diff(now, self.started) // 1000,))
        if self.host and self.pending and self.ticks_diff(now, self.last_progress) >= self.resend_ms:
            self.resend()

    def hello(self):
        base = self.pending[0][0] if self.pending else self.next_seq
        self._send("HELLO", (VERSION, self.device_id, self.boot_id, FIRMWARE, base))

    def resend(self):
        for seq, fields in self.pending:
            self._send("EV", (seq,) + tuple(fields))
        self.last_progress = self.ticks_ms()

    def _send(self, kind, fields):
        line = encode(kind, fields)
        if line is not None:
            self.write(line)


class _Button:
    def __init__(self, number, pin):
        self.number = number
        self.pin = pin
        self.down = False
        self.changed = 0
        self.held = False


def main():  # pragma: no cover - runs on the Pico only
    import select
    import sys
    import time

    import machine
    import micropython
    import os
    import ubinascii

    micropython.kbd_intr(-1)   # a stray 0x03 from a garbled line must not stop the firmware
    leds = {n: machine.Pin(g, machine.Pin.OUT) for n, g in LEDS}
    blinking = set()
    buzzer = machine.Pin(BUZZER, machine.Pin.OUT)
    beep_until = [0]
    buttons = [_Button(n, machine.Pin(g, machine.Pin.IN, machine.Pin.PULL_UP)) for n, g in BUTTONS]

    def on_led(n, state):
        if n in leds:
            blinking.discard(n)
            if state == "BLINK":
                blinking.add(n)
            leds[n].value(1 if state == "ON" else 0)

    def on_beep(ms, count):
        buzzer.value(1)
        beep_until[0] = time.ticks_add(time.ticks_ms(), min(ms * count, 3000))

    out = sys.stdout.buffer
    device = Device(out.write, time.ticks_ms,
                    ubinascii.hexlify(machine.unique_id()).decode(),
                    ubinascii.hexlify(os.urandom(4)).decode(),
                    ticks_diff=time.ticks_diff, on_led=on_led, on_beep=on_beep)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    stdin = sys.stdin.buffer
    while True:
        while poller.poll(0):
            device.feed(stdin.read(1))
        now = time.ticks_ms()
        for b in buttons:
            down = b.pin.value() == 0
            if down != b.down and time.ticks_diff(now, b.changed) >= DEBOUNCE_MS:
                b.down, b.changed, b.held = down, now, False
                device.event("BTN", b.number, "DOWN" if down else "UP")
            elif b.down and not b.held and time.ticks_diff(now, b.changed) >= HOLD_MS:
                b.held = True
                device.event("BTN", b.number, "HOLD")
        for n in blinking:
            leds[n].value((now // 250) % 2)
        if time.ticks_diff(now, beep_until[0]) >= 0:
            buzzer.value(0)
        device.poll()
        time.sleep_ms(5)


if __name__ == "__main__":
    main()
