"""Errors the hardware adapter raises on purpose; each also inherits the built-in it resembles."""

from companion.errors import CompanionError


class HardwareError(CompanionError, RuntimeError):
    """A device or backend that cannot be used; the message names the pin, port or backend."""


class ProtocolError(CompanionError, ValueError):
    """A serial line that is not a valid protocol message; the message says what is wrong."""
