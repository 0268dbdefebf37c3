"""The line protocol (docs/serial-protocol.md) on both sides: the host's hardware/protocol.py and
the firmware's own copy, which must agree byte for byte and reject a garbled line, not misread it.
"""

import random

import pytest

from hardware import protocol as host
from hardware.errors import ProtocolError
from hardware.firmware import protocol as firmware


def test_crc_is_ccitt_false_on_its_check_string():
    assert host.crc16(b"123456789") == 0x29B1 == firmware.crc16(b"123456789")


def test_a_line_round_trips_with_spaces_stars_and_unicode():
    line = host.encode("TEXT", "Dash: roll * 100% — go")
    assert line.endswith(b"\n") and b" " not in line.split(b" ", 1)[1].rstrip(b"\n")
    assert host.decode(line) == host.Message("TEXT", ("Dash: roll * 100% — go",))
    assert firmware.decode(line) == ("TEXT", ["Dash: roll * 100% — go"])


def test_host_and_firmware_encode_the_same_bytes_for_random_messages():
    rng = random.Random(1)
    alphabet = "abcXYZ019 *%-_:é"
    for _ in range(500):
        kind = rng.choice(["EV", "HELLO", "HB", "LED", "TEXT", "ACK"])
        fields = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6)))
                  for _ in range(rng.randint(0, 4))]
        try:
            ours = host.encode(kind, *fields)
        except ProtocolError:
            assert firmware.encode(kind, fields) is None
            continue
        assert firmware.encode(kind, fields) == ours
        assert firmware.decode(ours) == (kind, fields)
        assert host.decode(firmware.encode(kind, fields)).fields == tuple(fields)


def test_every_single_bit_flip_is_rejected_by_both_sides():
    line = host.encode("EV", 12, "TAG", 2, "04A1B2C3", "ON").rstrip(b"\n")
    for i in range(len(line)):
        for bit in range(8):
            bad = line[:i] + bytes([line[i] ^ (1 << bit)]) + line[i + 1:]
            with pytest.raises(ProtocolError):
                host.decode(bad)
            assert firmware.decode(bad) is None, bad


@pytest.mark.parametrize("line, why", [
    (b"EV 1 BTN 1 DOWN", r"no \*CCCC checksum"),
    (b"EV 1 BTN 1 DOWN*ZZZZ", "not upper-case hex"),
    (b"EV 1 BTN 1 DOWN* 1A2", "not upper-case hex"),
    (b"ev 1*" + b"%04X" % host.crc16(b"ev 1"), "upper-case"),
    (b"EV  1*" + b"%04X" % host.crc16(b"EV  1"), "empty field"),
    (b"EV \x00*0000", "printable ASCII"),
    (b"TEXT %G1*" + b"%04X" % host.crc16(b"TEXT %G1"), "bad escape"),
    (b"A" * 200, "too long"),
])
def test_malformed_lines_are_rejected_with_a_reason(line, why):
    with pytest.raises(ProtocolError, match=why):
        host.decode(line)
    assert firmware.decode(line) is None


def test_too_long_a_message_is_refused_when_encoding():
    with pytest.raises(ProtocolError, match="limit is 120"):
        host.encode("TEXT", "x" * 200)
    assert firmware.encode("TEXT", ["x" * 200]) is None


def test_the_line_splitter_keeps_memory_bounded_and_resynchronises():
    splitter = host.LineSplitter()
    good = host.encode("HB", 5)
    out = splitter.feed(b"\xff" * 100_000)          # a flood with no newline at all
    assert out == [] and len(splitter._buf) <= splitter.limit
    out += splitter.feed(b"tail of garbage\n" + good[:4])
    out += splitter.feed(good[4:])
    # the overlong run's last bytes come out as one line that no message can be read from
    assert len(out) == 2 and len(out[0]) == splitter.limit and out[1] == good.rstrip(b"\n")
    assert host.realign(out[0]) is None
    assert splitter.overlong == 1 and len(splitter._buf) == 0
    lines = firmware.Lines()
    assert lines.feed(b"\xff" * 5000 + b"\n" + good) == [good.rstrip(b"\n")]


def test_a_line_that_noise_ran_into_is_still_read():
    """Noise without a newline glues itself to the next line, which then fails its checksum
    whole: the message at its end is found again, and the checksum still guards it."""
    splitter = host.LineSplitter()
    event = host.encode("EV", 7, "BTN", 1, "DOWN")
    out = splitter.feed(bytes(range(11, 256)) * 3 + event)      # 735 bytes of noise, no newline
    assert len(out) == 1 and out[0].endswith(event.rstrip(b"\n"))
    with pytest.raises(ProtocolError):
        host.decode(out[0])
    assert host.realign(out[0]) == host.Message("EV", ("7", "BTN", "1", "DOWN"))
    flipped = bytearray(out[0])
    flipped[-8] ^= 0x01                                          # damage inside the message
    assert host.realign(bytes(flipped)) is None
    assert host.realign(b"noise EV EV " + host.encode("HB", 3).rstrip(b"\n")).type == "HB"


def test_a_lower_case_checksum_is_not_the_same_line():
    body = next(b for b in (b"HB %d" % n for n in range(100)) if any(c in b"ABCDEF" for c in b"%04X" % host.crc16(b)))
    line = body + b"*" + (b"%04X" % host.crc16(body)).lower()
    with pytest.raises(ProtocolError, match="upper-case hex"):
        host.decode(line)
    assert firmware.decode(line) is None


def test_crlf_line_endings_are_accepted():
    assert host.decode(host.encode("HB", 1).replace(b"\n", b"\r\n")).type == "HB"


def test_the_documented_example_exchange_is_valid():
    """docs/serial-protocol.md's example lines must decode on both sides: docs that cannot drift."""
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "serial-protocol.md").read_text()
    block = doc.split("## Example exchange")[1].split("```")[1]
    lines = [line.split(maxsplit=1)[1].encode() for line in block.strip().splitlines()]
    assert len(lines) == 8
    for line in lines:
        assert host.decode(line).type in host.DEVICE_MESSAGES | host.HOST_MESSAGES
        assert firmware.decode(line) is not None
