"""The write-ahead log an unclean shutdown leaves beside the journal, read frame by frame.

SQLite replays the log's frames in order and stops, without a word, at the first frame whose
salts or checksum are wrong: every transaction committed after a damaged frame is dropped, and
those were acknowledged moves. ``scan`` finds them (the format: sqlite.org/fileformat2.html,
"The Write-Ahead Log"): frames of this log's generation (a salt matches the header's) that carry
a commit mark after the point where SQLite stops. ``repair`` writes a copy of the log whose
checksums are computed afresh, so that recovery can look at what those frames still hold; only
entries whose own CRC holds are kept from it.

After a clean shutdown there is no log (SQLite checkpoints and removes it), so this costs
nothing then; after a crash it reads the log once (a few MB at most).
"""

from __future__ import annotations

import struct
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

MAGIC_LE, MAGIC_BE = 0x377F0682, 0x377F0683
HEADER, FRAME_HEADER = 32, 24
_SIZES = tuple(1 << n for n in range(9, 17))


@dataclass(frozen=True)
class WalScan:
    path: str
    frames: int            # whole frames in the file
    valid: int             # frames SQLite accepts, in order from the first
    used: int              # of those, up to the last commit: what SQLite applies
    lost_commits: int      # commit frames of this log after the point where SQLite stops
    header_ok: bool
    unreadable: bool = False   # no header, no frames: what it held cannot be counted

    @property
    def damaged(self) -> bool:
        """SQLite would drop what this log holds: committed transactions, or it all."""
        return self.lost_commits > 0 or self.unreadable

    def describe(self) -> str:
        if self.unreadable:
            return ("the write-ahead log cannot be read at all (neither its header nor its frames): "
                    "SQLite would ignore it, and every move committed in it since the journal "
                    "was last written through")
        if not self.header_ok:
            return (f"the write-ahead log's header is damaged: SQLite would ignore all "
                    f"{self.frames} frames, {self.lost_commits} committed transaction(s)")
        return (f"the write-ahead log is damaged at frame {self.valid + 1} of {self.frames}: "
                f"SQLite would drop the {self.lost_commits} committed transaction(s) after it")


def checksum(data: bytes, big_endian: bool, s0: int = 0, s1: int = 0) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def scan(path: str | Path) -> WalScan | None:
    """What SQLite would make of the log at ``path``; None when there is none to speak of."""
    try:
        data = Path(path).read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        return None
    layout = _layout(data)
    if layout is None:
        # too short to hold a committed frame (a log just begun), or past reading: SQLite would
        # ignore it without a word, and the moves it held with it
        return (WalScan(str(path), 0, 0, 0, 0, False, unreadable=True)
                if len(data) >= HEADER + FRAME_HEADER + _SIZES[0] else None)
    big, size, salts, header_ok = layout
    step = FRAME_HEADER + size
    count = (len(data) - HEADER) // step
    s = checksum(data[:24], big) if header_ok else (0, 0)
    valid = used = 0
    broken = not header_ok
    lost = 0
    for i in range(count):
        frame = data[HEADER + i * step:HEADER + (i + 1) * step]
        _page, commit, salt1, salt2, c1, c2 = struct.unpack(">6I", frame[:FRAME_HEADER])
        if not broken:
            s = checksum(frame[:8] + frame[FRAME_HEADER:], big, *s)
            if (salt1, salt2) == salts and (c1, c2) == s:
                valid += 1
                if commit:
                    used = valid
                continue
            broken = True
        if commit and (salt1 == salts[0] or salt2 == salts[1]):
            lost += 1
    return WalScan(str(path), count, valid, used, lost, header_ok)


def repair(path: str | Path, target: str | Path) -> int:
    """Write a copy of the log with its salts and checksums made whole again, up to the first
    frame of another generation; returns how many frames needed mending."""
    data = bytearray(Path(path).read_bytes())
    layout = _layout(bytes(data))
    if layout is None:
        Path(target).write_bytes(bytes(data))
        return 0
    big, size, salts, _ok = layout
    struct.pack_into(">IIII", data, 0, MAGIC_BE if big else MAGIC_LE, 3007000, size,
                     struct.unpack_from(">I", data, 12)[0])
    struct.pack_into(">II", data, 16, *salts)
    s = checksum(bytes(data[:24]), big)
    struct.pack_into(">II", data, 24, *s)
    step = FRAME_HEADER + size
    mended = 0
    end = HEADER
    for i in range((len(data) - HEADER) // step):
        at = HEADER + i * step
        _page, _commit, salt1, salt2, c1, c2 = struct.unpack_from(">6I", data, at)
        if salt1 != salts[0] and salt2 != salts[1]:
            break                                   # an older generation's leftover frame
        s = checksum(bytes(data[at:at + 8]) + bytes(data[at + FRAME_HEADER:at + step]), big, *s)
        if (salt1, salt2, c1, c2) != (*salts, *s):
            mended += 1
            struct.pack_into(">IIII", data, at + 8, *salts, *s)
        end = at + step
    Path(target).write_bytes(bytes(data[:end]))
    return mended


def _layout(data: bytes) -> tuple[bool, int, tuple[int, int], bool] | None:
    """(big-endian checksums, page size, the generation's salts, header intact) of a log."""
    if len(data) < HEADER:
        return None
    magic, version, size = struct.unpack(">III", data[:12])
    salts = struct.unpack(">II", data[16:24])
    big = magic == MAGIC_BE
    header_ok = (magic in (MAGIC_LE, MAGIC_BE) and version == 3007000 and size in _SIZES
                 and checksum(data[:24], big) == struct.unpack(">II", data[24:32]))
    if header_ok:
        return big, size, salts, True
    # A damaged header: take the page size the file's length allows and the salts most frames
    # carry; SQLite itself would ignore the whole log.
    for size in ([size] if size in _SIZES else []) + [s for s in _SIZES if s != size]:
        step = FRAME_HEADER + size
        count = (len(data) - HEADER) // step
        if count == 0 or (len(data) - HEADER) % step:
            continue
        votes = Counter(struct.unpack_from(">II", data, HEADER + i * step + 8) for i in range(count))
        best, n = votes.most_common(1)[0]
        if n * 2 > count or best == salts:
            return magic != MAGIC_LE and magic & 1 == 1, size, best, False
    return None
