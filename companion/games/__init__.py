"""The game engines, by the name used in the API, the CLI and the journal.

Adding a game is its own package (companion/games/<game>/, see docs/adding-a-game.md) and one
line here.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

from companion.errors import SetupError
from companion.games.base import Game

ENGINES = {
    "incredibles": ("companion.games.incredibles", "Incredibles"),
    "xmen-alert": ("companion.games.xmen", "XMenAlert"),
    "invincible": ("companion.games.invincible", "Invincible"),
}


def available(engines: dict[str, tuple[str, str]] | None = None) -> list[str]:
    """Names of the engines this build has (with ``engines``: those too)."""
    names = []
    for name, (module, _) in {**ENGINES, **(engines or {})}.items():
        if importlib.util.find_spec(module) is not None:
            names.append(name)
    return names


class Catalog:
    """Builds each engine once, with the owner's component files when there are any.

    ``engines`` adds games the registry above does not name, in its form (name -> (module,
    class)): a game under development or a test's own game, without touching the registry.
    """

    def __init__(self, components_dir: str | Path | None = None,
                 engines: dict[str, tuple[str, str]] | None = None):
        self.components_dir = components_dir
        self.registry = {**ENGINES, **(engines or {})}
        self._engines: dict[str, Game] = {}

    def __call__(self, name: str) -> Game:
        if name not in self._engines:
            names = available(self.registry)
            if name not in self.registry or name not in names:
                raise SetupError(f"unknown game {name[:40]!r}: choose one of {', '.join(names)}")
            module, cls = self.registry[name]
            self._engines[name] = getattr(importlib.import_module(module), cls)(
                self.components_dir
            )
        return self._engines[name]

    def reload(self, name: str) -> None:
        """Build ``name`` afresh next time (the owner's box changed); a game in progress keeps
        the engine, and the data, it began with."""
        self._engines.pop(name, None)
