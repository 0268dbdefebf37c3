"""The serial peripheral's line protocol (docs/serial-protocol.md): pure encode and decode.

A line is ``BODY*CCCC\\n``: printable ASCII fields separated by single spaces, then ``*`` and the
CRC-16/CCITT-FALSE of BODY in four upper-case hex digits. A line that is too long, not ASCII or
fails its checksum is rejected whole, never guessed at. The firmware has its own small copy of
this code (hardware/firmware/protocol.py); tests check that the two agree.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.errors import ProtocolError

VERSION = 1
MAX_LINE = 120  # bytes, without the newline: fits a MicroPython buffer and a 64-byte USB packet pair

DEVICE_MESSAGES = {"HELLO", "HB", "EV", "ERR"}
HOST_MESSAGES = {"HI", "ACK", "LED", "TEXT", "BEEP"}


def _crc_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _crc_table()


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): catches every burst error up to 16 bits.
    Table-driven here so a flood of lines stays cheap; the firmware computes it bit by bit."""
    crc = 0xFFFF
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[(crc >> 8) ^ byte]
    return crc


def escape(text: str) -> str:
    """A field may hold any text: bytes outside ``!``..``~`` and ``%``, ``*`` become ``%XX``."""
    out = []
    for byte in text.encode("utf-8"):
        if 0x21 <= byte <= 0x7E and byte not in (0x25, 0x2A):
            out.append(chr(byte))
        else:
            out.append(f"%{byte:02X}")
    return "".join(out)


def unescape(field: str) -> str:
    raw = bytearray()
    i = 0
    while i < len(field):
        ch = field[i]
        if ch == "%":
            pair = field[i + 1:i + 3]
            if len(pair) != 2 or any(c not in "0123456789ABCDEFabcdef" for c in pair):
                raise ProtocolError(f"bad escape {field[i:i + 3]!r}")
            raw.append(int(pair, 16))
            i += 3
        else:
            raw.append(ord(ch))
            i += 1
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError(f"escaped text is not UTF-8 ({exc.reason})") from None


@dataclass(frozen=True)
class Message:
    type: str
    fields: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.type, *self.fields))


def encode(kind: str, *fields: object) -> bytes:
    """One line, checksum and newline included. Fields are escaped; raises when too long."""
    if not kind.isalpha() or not kind.isupper():
        raise ProtocolError(f"message type {kind!r} must be upper-case letters")
    parts = [kind]
    for f in fields:
        if str(f) == "":
            raise ProtocolError(f"{kind}: empty fields cannot be sent (leave the field out)")
        parts.append(escape(str(f)))
    body = " ".join(parts).encode("ascii")
    line = body + b"*" + f"{crc16(body):04X}".encode("ascii")
    if len(line) > MAX_LINE:
        raise ProtocolError(f"{kind} line would be {len(line)} bytes; the limit is {MAX_LINE}")
    return line + b"\n"


def decode(line: bytes) -> Message:
    """Parse one line (with or without its newline); raise ProtocolError for anything invalid."""
    line = line.rstrip(b"\n")
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise ProtocolError(f"line too long ({len(line)} bytes, limit {MAX_LINE})")
    if any(b < 0x20 or b > 0x7E for b in line):
        raise ProtocolError("line has bytes that are not printable ASCII")
    body, star, check = line.rpartition(b"*")
    if not star or len(check) != 4:
        raise ProtocolError("line has no *CCCC checksum")
    if any(c not in b"0123456789ABCDEF" for c in check):
        raise ProtocolError(f"checksum {check.decode()!r} is not upper-case hex")
    expected = int(check, 16)
    if crc16(body) != expected:
        raise ProtocolError(f"checksum mismatch (line says {check.decode()}, "
                            f"body gives {crc16(body):04X})")
    parts = body.decode("ascii").split(" ")
    if not parts[0] or not parts[0].isalpha() or not parts[0].isupper():
        raise ProtocolError(f"message type {parts[0]!r} is not upper-case letters")
    if any(not p or "*" in p for p in parts[1:]):
        raise ProtocolError("empty field or stray '*' in line")
    return Message(parts[0], tuple(unescape(p) for p in parts[1:]))


def realign(line: bytes, types: set[str] = DEVICE_MESSAGES) -> Message | None:
    """The valid message at the end of a line that noise ran into, or None.

    Noise without a newline glues itself to the front of the next line, and that line fails
    its checksum whole. The message may still be there: try each place a known message type
    starts, longest first; the checksum decides, as it does for any line."""
    starts = sorted({i for kind in types for i in _finds(line, kind.encode() + b" ") if i > 0}
                    | {i for kind in types for i in _finds(line, kind.encode() + b"*") if i > 0})
    for i in starts:
        try:
            return decode(line[i:])
        except ProtocolError:
            continue
    return None


def _finds(data: bytes, needle: bytes) -> list[int]:
    out, i = [], data.find(needle)
    while i >= 0:
        out.append(i)
        i = data.find(needle, i + 1)
    return out


class LineSplitter:
    """Cuts a byte stream into lines with bounded memory. A run longer than a line (noise with
    no newline) keeps only its last ``limit`` bytes and is counted: the line the noise ran into
    survives for ``realign``, and a flood of garbage costs a fixed buffer, nothing more.
    """

    def __init__(self, limit: int = MAX_LINE + 2):
        self.limit = limit
        self._buf = bytearray()
        self._skipping = False
        self.overlong = 0

    def feed(self, data: bytes) -> list[bytes]:
        lines = []
        start = 0
        while True:
            nl = data.find(b"\n", start)
            self._buf += data[start:] if nl < 0 else data[start:nl]
            if len(self._buf) > self.limit:
                del self._buf[:-self.limit]
                if not self._skipping:
                    self.overlong += 1
                    self._skipping = True
            if nl < 0:
                return lines
            if self._buf:
                lines.append(bytes(self._buf))
            self._buf.clear()
            self._skipping = False
            start = nl + 1

    def reset(self) -> None:
        self._buf.clear()
        self._skipping = False
