"""Beacon, the tiny fourth game of docs/adding-a-game.md."""

from .engine import Beacon

__all__ = ["Beacon"]
