"""The Incredibles: Save the Day, as one package (see engine.py for where each part lives)."""

from companion.games.incredibles.engine import Incredibles

__all__ = ["Incredibles"]
