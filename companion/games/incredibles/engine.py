"""The Incredibles: Save the Day (rulebook: shared/seeds/000_ecc340ccf4c7d0ae.txt).

A turn: roll the movement die (an Alarm draws a card), move up to the roll, rescue Jack-Jack by
ending on his space, then try to fix the problem you stand on. Cards that need the players'
choice (where a displaced mover goes, which problem Frozone fixes) leave a pending choice.

Where things live: the move table below (phase, action -> handler, arguments, who), the
handlers in moves.py, the Alarm's cards in cards.py, expect/reminders/JSON in view.py.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

from companion.errors import IllegalAction, SetupError
from companion.games.base import Game, check_option_names, unconfirmed_mode
from companion.games.incredibles import box as incredibles_box
from companion.games.incredibles import data as incredibles_data
from companion.games.incredibles import moves, sampler, setup, view

# the options a game of it takes (setup.py and resolve_data read them; "box" is recorded by the
# session: companion/box.py)
OPTIONS = frozenset({"players", "starting_problems", "deck", "physical_deck", "unconfirmed", "box"})
from companion.games.incredibles.data import IncrediblesData
from companion.games.incredibles.state import (LOG_LENGTH, R_ALARM, R_END, R_FIX, R_MOVE, R_ROLL,
                                               R_SETUP, IncrediblesState, invariants, outcome,
                                               playing, setting_up)
from companion.games.move_table import TABLE, TURN, Move, MoveTable, Play
from companion.schema import Arg, Args, Choice, Text


def move_table(d: IncrediblesData) -> MoveTable:
    """The Incredibles' moves: one phase each, and a card's choice in between."""
    faces = tuple(sorted({f.id for f in d.movement_die}))
    spaces = tuple(d.adjacency)
    face = Text(max_len=40, fold=True)
    return MoveTable([
        Move("roll", ("roll",), moves.roll, Args({"face": Arg(
            moves.Faces(faces, what="a face of the movement die", fold=True), required=False)}),
            who=TURN, rule=R_ROLL, sample=sampler.roll,
            doc="Roll the movement die: data.face is the face rolled (omit it to roll a virtual "
                "die)."),
        Move("move", ("move",), moves.move, Args({"to": Arg(
            moves.Spaces(spaces, what="a space on the board", numbers=True))}),
            who=TURN, rule=R_MOVE, sample=sampler.move,
            doc="Move your mover: data.to is the space you end on (your own space to stay)."),
        Move("fix", ("fix",), moves.fix, Args({"power": Arg(face, required=False),
                                               "jackjack": Arg(face, required=False)}),
             who=TURN, rule=R_FIX, sample=sampler.fix,
             doc="Try to fix the problem you stand on: data.power is your power die's face, "
                 "data.jackjack the Jack-Jack die's face when he is rescued (omit both to roll "
                 "virtual dice)."),
        Move("draw", ("draw",), moves.draw, Args({"card": Arg(
            Choice(tuple(d.cards), what="a card of the deck"))}),
            who=TABLE, rule=R_ALARM, sample=sampler.draw,
            doc="With the table's own deck (option physical_deck): the card drawn, data.card; "
                "before the first turn, each starting Problem Card the table selected."),
        Move("choose", ("choose",), moves.choose, Args({"space": Arg(Text(max_len=40), required=False),
                                                        "tile": Arg(Text(max_len=40), required=False)}),
             who=TABLE, rule=R_ALARM, sample=sampler.choose,
             doc="Answer a card's choice: data.space for a displaced mover, data.tile for "
                 "Frozone."),
    ])


class Incredibles(Game):
    name = "incredibles"
    title = "The Incredibles: Save the Day"
    dice_set = "incredibles"
    table_dir = Path(__file__).resolve().parent
    phase_rules = {"roll": R_ROLL, "move": R_MOVE, "fix": R_FIX, "choose": R_ALARM, "draw": R_ALARM,
                   "over": R_END}
    turn_rule = R_MOVE
    box_view = incredibles_box       # the board as a graph, the cards one by one

    def __init__(self, components_dir=None):
        super().__init__(components_dir)
        self.boxed = incredibles_data.boxed(components_dir)
        self.data = self.boxed.data
        self.declare(move_table(self.data))

    # -- setup ------------------------------------------------------------------------------------

    def resolve_data(self, options: dict[str, Any]) -> IncrediblesData:
        """The data the game began with: the owner's box it recorded, else the base file; with
        ``unconfirmed = "refuse"`` assumed data is refused on like printed data (default
        "remind": a move the assumed board forbids is accepted with a reminder); with
        ``physical_deck`` the table draws its own cards and names each (moves.draw)."""
        mode = unconfirmed_mode(options)
        physical = options.get("physical_deck", False)
        if not isinstance(physical, bool):
            raise SetupError("physical_deck must be true (the table draws the real cards and "
                             "names each) or false (the companion draws)")
        data = self.boxed.for_options(options)
        changes = {k: True for k, on in (("strict", mode == "refuse"), ("physical_deck", physical)) if on}
        return dataclasses.replace(data, **changes) if changes else data

    def prepare_options(self, options: dict[str, Any], history: list[dict[str, Any]]) -> dict[str, Any]:
        """A new game's options name only options this game has: a misspelt one ("physcial_deck")
        was ignored, and the companion drew cards the table meant to draw itself. With the
        table's own deck the table also selects the starting problems (the companion picked
        three of its own, and the screens showed a track the table did not have)."""
        check_option_names(options, OPTIONS)
        if options.get("physical_deck") is True and "starting_problems" not in options:
            # "Randomly select three Problem Cards": from the table's own cards, named one by one
            # (a game journaled before this, without the option, keeps the companion's pick)
            return {**options, "starting_problems": setup.DRAWN}
        return options

    def setup(self, options: dict[str, Any], rng: random.Random) -> IncrediblesState:
        return setup.setup(self.resolve_data(options), options, rng)

    def sample_options(self, rng: random.Random) -> dict[str, Any]:
        heroes = list(self.data.heroes)
        rng.shuffle(heroes)
        out: dict[str, Any] = {"players": heroes[: rng.randint(1, len(heroes))]}
        if rng.random() < 0.3:
            out["physical_deck"] = True
            if rng.random() < 0.5:      # the table names its own starting problems too
                out["starting_problems"] = setup.DRAWN
        return out

    # -- reading the state ------------------------------------------------------------------------

    def outcome(self, s: IncrediblesState) -> dict[str, Any]:
        return outcome(s)

    def is_over(self, s: IncrediblesState) -> bool:
        return not playing(s)

    def turn_of(self, s: IncrediblesState) -> tuple[str, ...]:
        return (s.mover.hero, s.mover.name)

    def players_of(self, s: IncrediblesState) -> tuple[str, ...]:
        return tuple(x for m in s.movers for x in (m.hero, m.name))

    def shown_name(self, s: IncrediblesState, player: str) -> str:
        return next((m.name for m in s.movers if m.hero == player), player)

    def expect(self, s: IncrediblesState) -> dict[str, Any]:
        return view.expect(s, self.open_moves(s))

    def reminders(self, s: IncrediblesState) -> list[dict[str, str]]:
        return view.reminders(s)

    def to_json(self, s: IncrediblesState) -> dict[str, Any]:
        return view.to_json(s)

    def components(self) -> dict[str, Any]:
        return self.data.describe()

    def dice(self) -> dict[str, tuple[str, ...]]:
        d = self.data
        dice = [view.movement_die(d), *(view.power_die(d, h) for h in d.heroes),
                view.jackjack_die(d)]
        return {x.set: x.sides for x in dice}

    def refuse_closed(self, s: IncrediblesState, action: Any) -> IllegalAction:
        # before the first turn the table is naming its starting problems: the rule is Set Up's
        if setting_up(s):
            return IllegalAction(f"{action.type} is not possible now: {self.expect(s)['prompt']}",
                                 R_SETUP)
        return super().refuse_closed(s, action)

    def invariants(self, s: IncrediblesState) -> list[str]:
        return invariants(s)

    def reachable(self, s: IncrediblesState, start: str, steps: int) -> list[str]:
        return s.reachable(start, steps)

    # -- after every move -------------------------------------------------------------------------

    def after_move(self, s: IncrediblesState, play: Play) -> IncrediblesState:
        if not playing(s):
            status = outcome(s)["status"]
            s.phase = "over"
            s.log.append("The city is saved! Everyone wins." if status == "won"
                         else "Too late! The problem could not be fixed in time.")
        del s.log[:-LOG_LENGTH]
        return s
