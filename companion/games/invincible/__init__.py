"""Invincible: The Hero-Building Game, as one package (see engine.py for where each part lives)."""

from companion.games.invincible.engine import Invincible

__all__ = ["Invincible"]
