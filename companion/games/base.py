"""The small surface every game engine offers, in the spirit of OpenSpiel and boardgame.io.

An engine holds its component data; states are plain dataclasses that serialise to JSON.
``apply`` never mutates the state it is given: it returns a new one or raises IllegalAction.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from pathlib import Path
from typing import Any

from companion.actions import Action
from companion.errors import BadAction, IllegalAction
from companion.timers import Timer


class Game:
    name: str = ""
    title: str = ""
    #: action type -> one line on what it does (docs, the dashboard's controls)
    actions: dict[str, str] = {}
    #: the outcomes a game can end in; a competitive game always has a winner
    outcomes: tuple[str, ...] = ("won", "lost")

    def __init__(self, components_dir: str | Path | None = None):
        self.components_dir = components_dir

    # -- the surface ----------------------------------------------------------------------

    def setup(self, options: dict[str, Any], rng: random.Random) -> Any:
        raise NotImplementedError

    def prepare_options(self, options: dict[str, Any], history: list[dict[str, Any]]) -> dict[str, Any]:
        """Fill in what the journal already knows before a game starts (for example a campaign's
        earlier results); the filled options are what the journal records."""
        return options

    def expect(self, state: Any) -> dict[str, Any]:
        """What the table should do next: who, which phase, which dice, which choices."""
        raise NotImplementedError

    def apply(self, state: Any, action: Action, rng: random.Random) -> Any:
        raise NotImplementedError

    def reminders(self, state: Any) -> list[dict[str, str]]:
        """Rules that apply now: ``{"text": ..., "rule": "<rulebook section>"}``."""
        return []

    def outcome(self, state: Any) -> dict[str, Any]:
        """``{"status": "playing" | "won" | "lost", "reason": ..., "score": ...}``."""
        raise NotImplementedError

    def timers(self, state: Any) -> dict[str, Timer]:
        """Timers the engine owns inside its state (for example Invincible's hero time)."""
        return {}

    def sample_action(self, state: Any, rng: random.Random) -> Action:
        """A random action that is legal now: the conformance test plays whole games with it."""
        raise NotImplementedError

    def sample_options(self, rng: random.Random) -> dict[str, Any]:
        """Random valid setup options (players, difficulty, variants) for the conformance test."""
        raise NotImplementedError

    def invariants(self, state: Any) -> list[str]:
        """What is wrong with a state (empty when it is a legal one): the conformance test checks
        it after every action of thousands of random games."""
        return []

    def components(self) -> dict[str, Any]:
        """The component data in use, as JSON, with every assumption marked."""
        return {}

    def to_json(self, state: Any) -> dict[str, Any]:
        return dataclasses.asdict(state)

    # -- helpers for engines -----------------------------------------------------------------

    @staticmethod
    def evolve(state: Any) -> Any:
        """A private copy to change, keeping the caller's state untouched."""
        return copy.deepcopy(state)

    def check_type(self, action: Action) -> None:
        if action.type not in self.actions:
            raise BadAction(
                f"unknown action {action.type!r} for {self.title}: expected one of "
                + ", ".join(sorted(self.actions))
            )


def field(data: dict[str, Any], key: str, kind: type | tuple[type, ...], action: str,
          default: Any = ...) -> Any:
    """A field of an action's data, type-checked, with an error that names it."""
    if key not in data:
        if default is ...:
            raise BadAction(f"{action} needs data.{key}")
        return default
    value = data[key]
    if isinstance(value, bool) and kind is not bool:
        raise BadAction(f"{action}: data.{key} must not be true/false")
    if not isinstance(value, kind):
        raise BadAction(f"{action}: data.{key} has the wrong type ({type(value).__name__})")
    return value


def forbid(reason: str, rule: str | None = None) -> IllegalAction:
    return IllegalAction(reason, rule)
