"""The small surface every game engine offers, in the spirit of OpenSpiel and boardgame.io.

An engine holds its component data; states are plain dataclasses that serialise to JSON.
``apply`` never mutates the state it is given: it returns a new one or raises IllegalAction.

An engine that declares a move table (``moves``, see companion/games/move_table.py) gets
``apply``, the list of open moves for ``expect`` and random play from it: legality is checked
here once, before any handler runs, and what ``expect`` lists is exactly what ``apply`` accepts.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from pathlib import Path
from typing import Any

from companion import state_codec, table_map
from companion.actions import Action
from companion.dice import DiceRequest
from companion.errors import BadAction, IllegalAction, SetupError
from companion.games.move_table import ANY, TURN, Move, MoveTable, Play, state_json
from companion.table_map import TableMap
from companion.timers import Timer


class Game:
    name: str = ""
    title: str = ""
    #: action type -> one line on what it does (docs, the dashboard's controls)
    actions: dict[str, str] = {}
    #: the outcomes a game can end in; a competitive game always has a winner
    outcomes: tuple[str, ...] = ("won", "lost")
    #: the game's moves by (phase, action type), for an engine that declares them
    moves: MoveTable | None = None
    #: phase -> the rulebook section a refusal cites while the game is in that phase
    phase_rules: dict[str, str] = {}
    #: the rulebook section an out-of-turn refusal cites
    turn_rule: str | None = None
    #: the camera's taught set for this box's dice ("incredibles"); see dice()
    dice_set: str = ""
    #: the action types ``read_requests`` and ``drawn_requests`` may name (asked for them only: a
    #: step of any other type is no read nor draw, entered by hand or not)
    read_types: frozenset[str] = frozenset()
    #: bump when a state saved by ``save_state`` before would now mean something else; a journal
    #: snapshot of another version is replayed instead (companion/snapshots.py, which also
    #: notices any change to the engine's code or component data by itself)
    state_version: int = 1
    #: the folder of the game's shipped table map, ``<name>.table.toml`` (companion/table_map.py);
    #: None: the table's buttons keep their defaults (undo, timer, read and confirm the dice)
    table_dir: Path | None = None

    def __init__(self, components_dir: str | Path | None = None):
        self.components_dir = components_dir

    def table_map(self) -> TableMap:
        """What each button and token reader at the table means in each phase of this game
        (the owner's copy in the components folder wins); loaded and checked once."""
        cached = self.__dict__.get("_table_map")
        if cached is None:
            cached = self.__dict__["_table_map"] = table_map.load(self, self.table_dir,
                                                                  self.components_dir)
        return cached

    def declare(self, moves: MoveTable) -> None:
        """Use ``moves`` as this engine's move table (its ``actions`` docs come from it)."""
        self.moves = moves
        self.actions = moves.docs()

    # -- the surface ----------------------------------------------------------------------

    def setup(self, options: dict[str, Any], rng: random.Random) -> Any:
        raise NotImplementedError

    def prepare_options(self, options: dict[str, Any], history: list[dict[str, Any]]) -> dict[str, Any]:
        """Fill in what the journal already knows before a game starts (for example a campaign's
        earlier results); the filled options are what the journal records."""
        return options

    def record_box(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options with the owner's box in them (companion/box.py), so the game and its
        replay keep the component data it began with; unchanged for an engine without one."""
        boxed = getattr(self, "boxed", None)
        return boxed.record(options) if boxed is not None else options

    def expect(self, state: Any) -> dict[str, Any]:
        """What the table should do next: who, which phase, which dice, which choices."""
        raise NotImplementedError

    def apply(self, state: Any, action: Action, rng: random.Random) -> Any:
        """The state after ``action``; with a move table: checked once here, then its handler."""
        move, args = self.check(state, action)
        play = Play(args, action, rng)
        return self.after_move(move.handler(state, play), play)

    def reminders(self, state: Any) -> list[dict[str, Any]]:
        """Rules that apply now: ``{"text": ..., "rule": "<rulebook section>"}``, with
        ``"urgent": True`` for one the table must not miss (the game is about to be lost, a move
        went unchecked): the table keeps it in view before any other."""
        return []

    def outcome(self, state: Any) -> dict[str, Any]:
        """``{"status": "playing" | "won" | "lost", "reason": ..., "score": ...}``."""
        raise NotImplementedError

    def timers(self, state: Any) -> dict[str, Timer]:
        """Timers the engine owns inside its state (for example Invincible's hero time)."""
        return {}

    def timer_controls(self, state: Any) -> dict[str, Any] | None:
        """What the screens may offer for the timers the engine owns: ``{name: {"open": ["pause" |
        "resume" | "add", ...], "why": the reason the rest are closed}}``; a timer not named
        (None: every timer) is the table's own, paused, resumed, added to and stopped as it
        stands."""
        return None

    def sample_action(self, state: Any, rng: random.Random) -> Action:
        """A random action that is legal now: the conformance test plays whole games with it.
        With a move table: a random open move, with random valid data from its sampler."""
        if self.moves is None:
            raise NotImplementedError
        kinds = self.open_moves(state)
        rng.shuffle(kinds)
        for kind in kinds:
            action = self.sample_move(state, kind, rng)
            if action is not None:
                return action
        raise IllegalAction("no move is open: " + self.expect(state).get("prompt", ""))

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

    def read_requests(self, state: Any) -> list[DiceRequest]:
        """Reads the camera may submit now besides expect's dice, each chosen by its set and
        player (Invincible's cubes laid in a hero's pull area are that hero's pull). Never listed
        in expect: nobody is asked to make them, a read only may stand for one."""
        return []

    def drawn_requests(self, state: Any) -> list[DiceRequest]:
        """Draws a move makes now that neither expect asks for nor a camera read stands for,
        shown as the table's newest roll when entered (Invincible's defiance: 'pull three fresh
        cubes'). The camera's reads are ``read_requests``'s alone."""
        return []

    def dice(self) -> dict[str, tuple[str, ...]]:
        """The box's physical dice: the die's set name ("incredibles-movement") -> its faces, one
        entry per side, from the game's data (the camera's simulator throws these)."""
        return {}

    def to_json(self, state: Any) -> dict[str, Any]:
        if dataclasses.is_dataclass(state):
            return state_json(state)
        return dataclasses.asdict(state)

    def view_json(self, state: Any, before: tuple[Any, dict[str, Any]] | None) -> dict[str, Any]:
        """``to_json(state)`` for a view, where ``before`` is another state of this engine and
        the JSON its view was made of: an engine whose states share unchanged records may reuse
        their JSON from there (read, never changed). By default, ``to_json``."""
        return self.to_json(state)

    def save_state(self, state: Any) -> Any:
        """The state as plain JSON, for a journal snapshot: by default its dataclasses' fields
        (companion/state_codec.py). Raise ``state_codec.NotRestorable`` where it cannot be
        saved; the game then replays its journal from the start instead."""
        if not dataclasses.is_dataclass(state):
            raise state_codec.NotRestorable(f"{type(state).__name__} is not a dataclass")
        return state_codec.encode(state)

    def load_state(self, saved: Any, first: Any) -> Any:
        """The state ``save_state`` saved; ``first`` is the game's first state (the data it
        shares with every later one comes from there)."""
        return state_codec.decode(type(first), saved, like=first)

    # -- the move table: one check before any handler --------------------------------------------

    def resolve_data(self, options: dict[str, Any]) -> Any:
        """The component data a game with these options plays with: the engine's data (the
        owner's files already in it) with the options' variants resolved, once, at setup. The
        state keeps it (see move_table.data_field) and every rule reads it from there."""
        return getattr(self, "data", None)

    def phase_of(self, state: Any) -> str:
        return state.phase

    def turn_of(self, state: Any) -> tuple[str, ...]:
        """The names that identify the player whose turn it is: the id actions use first, the
        name to show players last (often the same one)."""
        return ()

    def players_of(self, state: Any) -> tuple[str, ...]:
        """Every name that identifies a player (empty: players are not checked)."""
        return ()

    def shown_name(self, state: Any, player: str) -> str:
        """The name players read for ``player`` (an id an action names it by)."""
        return player

    def chosen_on(self, state: Any, action: Action) -> Any:
        """What of ``state`` a player's own ``action`` was chosen on, for a move the rules let
        players make at the same moment (Invincible's Hero Phase); None for every other move.
        A tap that crossed others' moves stands while this is as the player saw it
        (companion/crossed_taps.py)."""
        return None

    def is_over(self, state: Any) -> bool:
        return self.outcome(state)["status"] != "playing"

    def open_moves(self, state: Any) -> list[str]:
        """The action types open now, in the table's order: what ``expect`` lists."""
        if self.is_over(state):
            return []
        return [m.type for m in self.moves.open(self.phase_of(state), state)]

    def check(self, state: Any, action: Action) -> tuple[Move, dict[str, Any]]:
        """The move ``action`` plays and its checked arguments, or the refusal, in this order:
        the game is over; the type is unknown; it is not open in this phase; it is another
        player's turn; the arguments are not well typed."""
        if self.moves is None:
            raise NotImplementedError(f"{type(self).__name__} has no move table")
        if self.is_over(state):
            raise self.refuse_over(state, action)
        move = self.moves.get(self.phase_of(state), action.type)
        if move is None:
            self.check_type(action)               # an unknown type: raises, naming the types
            raise self.refuse_closed(state, action)
        if move.when is not None and not move.when(state):
            raise self.refuse_closed(state, action)
        player = action.player
        if player is not None:
            if move.who == TURN and player not in self.turn_of(state):
                raise self.refuse_player(state, action)
            if move.who == ANY:
                everyone = self.players_of(state)
                if everyone and player not in everyone:
                    raise BadAction(f"{action.type}: {player!r} is not a player of this game "
                                    f"({', '.join(everyone)})")
        return move, move.args.check(action.data, action.type)

    def after_move(self, state: Any, play: Play) -> Any:
        """Bookkeeping after every handler (a game that ends, a log kept short)."""
        return state

    def refuse_over(self, state: Any, action: Action) -> IllegalAction:
        return IllegalAction("the game is over: undo the last action or start a new game",
                             self.phase_rules.get("over"))

    def refuse_closed(self, state: Any, action: Action) -> IllegalAction:
        return IllegalAction(f"{action.type} is not possible now: {self.expect(state)['prompt']}",
                             self.phase_rules.get(self.phase_of(state)))

    def refuse_player(self, state: Any, action: Action) -> IllegalAction | BadAction:
        everyone = self.players_of(state)
        if everyone and action.player not in everyone:
            return BadAction(f"{action.type}: {action.player!r} is not a player of this game "
                             f"({', '.join(everyone)})")
        return IllegalAction(f"it is {self.turn_of(state)[-1]}'s turn, not "
                             f"{self.shown_name(state, action.player)}'s", self.turn_rule)

    # -- random play from the move table ------------------------------------------------------

    def sample_move(self, state: Any, kind: str, rng: random.Random) -> Action | None:
        """A random valid action of type ``kind`` now (None when it has no valid data now)."""
        move = self.moves.get(self.phase_of(state), kind) if self.moves else None
        if move is None or move.sample is None:
            return None
        data = move.sample(state, rng)
        if data is None or isinstance(data, Action):
            return data
        turn = self.turn_of(state)
        return Action(kind, turn[0] if move.who == TURN and turn else None, data)

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


def check_option_names(options: Any, known: set[str] | frozenset[str]) -> None:
    """Setup options are an object naming only options the game has; SetupError otherwise."""
    if not isinstance(options, dict):
        raise SetupError("options must be a JSON object")
    unknown = set(options) - set(known)
    if unknown:
        raise SetupError(f"unknown option(s) {', '.join(sorted(unknown))}; the options are "
                         + ", ".join(sorted(known)))


UNCONFIRMED = ("remind", "refuse")


def unconfirmed_mode(options: dict[str, Any]) -> str:
    """The setup option ``unconfirmed``: what a rule does where it rests on assumed component
    data the owner has not confirmed (numbers or abilities the rulebook does not print):
    "remind" (default: the move is accepted, and the players reminded it was not checked) or
    "refuse" (refused like printed data)."""
    mode = options.get("unconfirmed", "remind")
    if mode not in UNCONFIRMED:
        raise SetupError('unconfirmed: "remind" (accept what assumed data forbids, with a '
                         'reminder) or "refuse"')
    return mode


def forbid(reason: str, rule: str | None = None) -> IllegalAction:
    return IllegalAction(reason, rule)
