"""Image files from outside (teaching photos, a folder of frames, `companion dice read`): the size
is read from the file's header before anything is decoded.

A 140 KB PNG can claim 12000 x 12000 pixels and take 900 MB to decode; one claiming 60000 x
60000 makes OpenCV raise. So the header's width and height are checked first: a JPEG larger than
MAX_PIXELS is decoded at 1/2, 1/4 or 1/8 of its size (libjpeg scales while decoding, so the full
size is never in memory; a die photo needs far less), any other format that large is refused.
A file whose header cannot be read is refused, never handed to the decoder to find out.
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

from vision.errors import BadImage

MAX_PIXELS = 24_000_000     # a 12 MP camera module's frame twice over; phones' 48 MP JPEGs halve
MAX_FILE_BYTES = 64 * 2**20
_REDUCED = ((2, cv2.IMREAD_REDUCED_COLOR_2), (4, cv2.IMREAD_REDUCED_COLOR_4),
            (8, cv2.IMREAD_REDUCED_COLOR_8))


def read_image(path: str | Path, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """A BGR image from a file, or BadImage naming the file and what is wrong with it."""
    p = Path(path)
    if not p.is_file():
        raise BadImage(f"{path}: no such image file" if not p.exists() else f"{path}: not a file")
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise BadImage(f"{path}: {size / 2**20:.0f} MB is larger than an image may be "
                           f"({MAX_FILE_BYTES // 2**20} MB)")
        data = p.read_bytes()
    except OSError as exc:
        raise BadImage(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    return decode_image(data, str(path), max_pixels)


def decode_image(data: bytes, name: str, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    header = image_size(data)
    if header is None:
        raise BadImage(f"{name}: not an image (a JPEG, PNG, BMP, WebP or TIFF whose size can be read)")
    kind, width, height = header
    if width <= 0 or height <= 0:
        raise BadImage(f"{name}: its header says {width} x {height} pixels")
    flag, scale = cv2.IMREAD_COLOR, 1
    if width * height > max_pixels:
        fits = [(f, fl) for f, fl in _REDUCED if (width // f) * (height // f) <= max_pixels]
        if kind != "jpeg" or not fits:
            raise BadImage(f"{name}: {width} x {height} is {width * height / 1e6:.0f} MP, more "
                           f"than the {max_pixels / 1e6:.0f} MP an image may have: make it smaller")
        scale, flag = fits[0]
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    except cv2.error as exc:
        raise BadImage(f"{name}: OpenCV cannot decode it ({exc.err or exc})") from None
    if image is None:
        raise BadImage(f"{name}: a damaged {kind.upper()} that OpenCV cannot decode")
    if image.shape[0] > -(-height // scale) or image.shape[1] > -(-width // scale):
        raise BadImage(f"{name}: decoded larger than its header says")
    return image


def image_size(data: bytes) -> tuple[str, int, int] | None:
    """(format, width, height) from the first bytes of an image file, or None."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return "png", width, height
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    if data[:2] == b"BM" and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return "bmp", width, abs(height)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp_size(data)
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return _tiff_size(data)
    return None


def _jpeg_size(data: bytes) -> tuple[str, int, int] | None:
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:                     # fill byte
            i += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):   # markers without a length
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2:i + 4])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if i + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return "jpeg", width, height
        if marker == 0xDA or length < 2:       # image data before any frame header
            return None
        i += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[str, int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = 1 + int.from_bytes(data[24:27], "little")
        height = 1 + int.from_bytes(data[27:30], "little")
        return "webp", width, height
    if chunk == b"VP8L" and len(data) >= 25 and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return "webp", 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if chunk == b"VP8 " and len(data) >= 30 and data[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", data[26:30])
        return "webp", width & 0x3FFF, height & 0x3FFF
    return None


def _tiff_size(data: bytes) -> tuple[str, int, int] | None:
    order = "<" if data[:2] == b"II" else ">"
    try:
        (ifd,) = struct.unpack(order + "I", data[4:8])
        (count,) = struct.unpack(order + "H", data[ifd:ifd + 2])
        found = {}
        for k in range(min(count, 512)):
            at = ifd + 2 + 12 * k
            tag, kind = struct.unpack(order + "HH", data[at:at + 4])
            if tag in (256, 257):
                fmt = order + ("H" if kind == 3 else "I")
                found[tag] = struct.unpack(fmt, data[at + 8:at + 8 + struct.calcsize(fmt)])[0]
    except struct.error:
        return None
    if 256 in found and 257 in found:
        return "tiff", found[256], found[257]
    return None


MIN_SIDE = 16        # smaller than any tray's picture: a camera's glitch, not a frame
MAX_ASPECT = 10      # a panorama is 3:1


def frame_problem(frame: object) -> str | None:
    """Why a camera's frame cannot be looked at (None: it can): an 8-bit grey, BGR or BGRA
    picture of at least MIN_SIDE pixels a side, and no more than MAX_PIXELS. A source can hand
    over anything (a driver's glitch, a replayed file), and one odd frame must not stop the
    camera's thread."""
    if not isinstance(frame, np.ndarray):
        return f"not a picture ({type(frame).__name__})"
    if frame.dtype != np.uint8:
        return f"{frame.dtype} pixels, not 8-bit"
    if frame.ndim not in (2, 3) or frame.ndim == 3 and frame.shape[2] not in (1, 3, 4):
        return f"shaped {frame.shape}, not grey, BGR or BGRA"
    h, w = frame.shape[:2]
    if min(h, w) < MIN_SIDE or h * w > MAX_PIXELS:
        return f"{w} x {h} pixels"
    if max(h, w) > MAX_ASPECT * min(h, w):      # shrunk for the detector, a side comes to 0
        return f"{w} x {h} pixels: a strip, not a picture of a tray"
    return None
