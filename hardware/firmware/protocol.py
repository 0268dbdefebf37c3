# The peripheral's side of the line protocol (docs/serial-protocol.md), for MicroPython.
# Kept free of CPython-only features (no typing, dataclasses or f-string format specs) so the
# same file runs on a Pico and imports unchanged on the host, where tests check that it and
# hardware/protocol.py agree byte for byte.

VERSION = 1
MAX_LINE = 120
HEX = "0123456789ABCDEFabcdef"


def crc16(data):
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def escape(text):
    out = []
    for b in str(text).encode("utf-8"):
        if 0x21 <= b <= 0x7E and b != 0x25 and b != 0x2A:
            out.append(chr(b))
        else:
            out.append("%%%02X" % b)
    return "".join(out)


def unescape(field):
    raw = bytearray()
    i = 0
    n = len(field)
    while i < n:
        if field[i] == "%":
            pair = field[i + 1:i + 3]
            if len(pair) != 2 or pair[0] not in HEX or pair[1] not in HEX:
                raise ValueError("bad escape")
            raw.append(int(pair, 16))
            i += 3
        else:
            raw.append(ord(field[i]))
            i += 1
    return bytes(raw).decode("utf-8")


def encode(kind, fields=()):
    """bytes of one line, or None when it would be too long (the caller drops it)."""
    body = kind
    for f in fields:
        body += " " + escape(f)
    body = body.encode("ascii")
    line = body + b"*" + ("%04X" % crc16(body)).encode("ascii")
    if len(line) > MAX_LINE:
        return None
    return line + b"\n"


def decode(line):
    """(type, [fields]) or None for any line that is not valid: never a guess."""
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE or len(line) < 6:
        return None
    for b in line:
        if b < 0x20 or b > 0x7E:
            return None
    if line[-5] != 0x2A:  # '*'
        return None
    body = line[:-5]
    check = line[-4:].decode("ascii")
    for c in check:
        if c not in "0123456789ABCDEF":
            return None
    try:
        if int(check, 16) != crc16(body):
            return None
        parts = body.decode("ascii").split(" ")
        if not parts[0].isalpha() or not parts[0].isupper():
            return None
        fields = []
        for p in parts[1:]:
            if not p or "*" in p:
                return None
            fields.append(unescape(p))
    except (ValueError, UnicodeError):
        return None
    return parts[0], fields


class Lines:
    """Bounded line assembly: an overlong run is dropped up to its next newline."""

    def __init__(self):
        self.buf = bytearray()
        self.skipping = False

    def feed(self, data):
        out = []
        for b in data:
            if b == 0x0A:
                if not self.skipping and self.buf:
                    out.append(bytes(self.buf))
                self.buf = bytearray()
                self.skipping = False
            elif not self.skipping:
                self.buf.append(b)
                if len(self.buf) > MAX_LINE + 1:
                    self.buf = bytearray()
                    self.skipping = True
        return out
