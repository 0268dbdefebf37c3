"""The vision package's errors; each also inherits the built-in it resembles."""

from companion.errors import CompanionError


class VisionError(CompanionError):
    """Base of the errors the camera side raises on purpose."""


class UnknownSet(VisionError, LookupError):
    """A dice set that is neither built in nor taught in this data folder."""


class BadImage(VisionError, ValueError):
    """An image file that is missing or cannot be decoded; the message names it."""


class TeachError(VisionError, ValueError):
    """Teaching photos that cannot make a set (no faces, no die found...)."""


class CameraError(VisionError, OSError):
    """A frame source that cannot be opened or has gone away."""


class StaleSet(VisionError, ValueError):
    """A taught set saved by an older recognizer; it is taught again from its kept photos."""


class DamagedSet(VisionError, ValueError):
    """A taught set whose files cannot be read (empty, not JSON, a broken archive); the message
    names the file and how to teach the set again."""
