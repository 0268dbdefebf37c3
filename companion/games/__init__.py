"""The game engines, by the name used in the API, the CLI and the journal."""

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


def available() -> list[str]:
    """Names of the engines this build has."""
    names = []
    for name, (module, _) in ENGINES.items():
        if importlib.util.find_spec(module) is not None:
            names.append(name)
    return names


class Catalog:
    """Builds each engine once, with the owner's component files when there are any."""

    def __init__(self, components_dir: str | Path | None = None):
        self.components_dir = components_dir
        self._engines: dict[str, Game] = {}

    def __call__(self, name: str) -> Game:
        if name not in self._engines:
            if name not in ENGINES or name not in available():
                raise SetupError(
                    f"unknown game {name!r}: choose one of {', '.join(available())}"
                )
            module, cls = ENGINES[name]
            self._engines[name] = getattr(importlib.import_module(module), cls)(
                self.components_dir
            )
        return self._engines[name]
