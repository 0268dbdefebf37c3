"""Beacon: the engine's surface and its move table."""

import dataclasses

from companion.errors import SetupError
from companion.games.base import Game
from companion.games.move_table import TABLE, TURN, Move, MoveTable
from companion.schema import Arg, Args, Choice, Text

from . import data as beacon_data
from . import moves, sampler, view
from .setup import setup
from .state import R_STORM, R_TURN, invariants


def move_table(d) -> MoveTable:
    faces = tuple(dict.fromkeys(f.id for f in d.die))
    return MoveTable([
        Move("roll", ("roll",), moves.roll,
             Args({"face": Arg(Choice(faces, what="a face of the die", fold=True),
                               required=False)}),
             who=TURN, rule=R_TURN, sample=sampler.roll,
             doc="Roll the die: data.face is the face shown (omit it for a virtual die)."),
        Move("blow", ("storm",), moves.blow, Args({"player": Arg(Text(max_len=40))}),
             who=TABLE, rule=R_STORM, sample=sampler.blow,
             doc="The storm blows a climber one step down: data.player names them."),
    ])


class Beacon(Game):
    name = "beacon"
    title = "Beacon"
    outcomes = ("won",)          # a race: every finished game has a winner
    dice_set = "beacon"
    phase_rules = {"roll": R_TURN, "storm": R_STORM}
    turn_rule = R_TURN

    def __init__(self, components_dir=None):
        super().__init__(components_dir)
        self.data = beacon_data.load(components_dir)
        self.declare(move_table(self.data))

    def resolve_data(self, options):
        """A variant: a taller or shorter tower (option ``top``), resolved once, at setup."""
        top = options.get("top", self.data.top)
        if isinstance(top, bool) or not isinstance(top, int) or not 2 <= top <= 20:
            raise SetupError("top: the tower's steps, a whole number from 2 to 20")
        return dataclasses.replace(self.data, top=top)

    def setup(self, options, rng):
        return setup(self.resolve_data(options), options, rng)

    def outcome(self, s):
        if s.winner is not None:
            return {"status": "won", "winner": s.winner, "reason": f"{s.winner} lit the beacon"}
        return {"status": "playing"}

    def turn_of(self, s):
        return (s.player,)

    def players_of(self, s):
        return tuple(s.players)

    def expect(self, s):
        return view.expect(s, self.open_moves(s))

    def components(self):
        return {"top": self.data.top, "assumptions": self.data.assumptions}

    def dice(self):
        return {"beacon-die": view.die(self.data).sides}

    def invariants(self, s):
        return invariants(s)

    def sample_options(self, rng):
        return {"players": ["Ana", "Ben", "Chloe", "Dev"][: rng.randint(2, 4)]}
