"""The Uncanny X-Men Alert Adventure Game (see engine.py for where each part lives)."""

from companion.games.xmen.engine import XMenAlert

__all__ = ["XMenAlert"]
