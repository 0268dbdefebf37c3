"""Beacon's state, and the checks every state must pass."""

from dataclasses import dataclass, field

from companion.games.move_table import data_field

from .data import BeaconData

R_TURN = "On your turn"
R_STORM = "The storm"


@dataclass
class BeaconState:
    players: list[str]
    heights: dict[str, int]
    turn: int = 0
    phase: str = "roll"                  # roll | storm | over
    winner: str | None = None
    log: list[str] = field(default_factory=list)
    data: BeaconData = data_field()      # the component data, shared by every state

    @property
    def player(self) -> str:
        return self.players[self.turn]

    def fork(self) -> "BeaconState":
        """A copy whose containers are its own: a move changes the copy, never its input."""
        return BeaconState(list(self.players), dict(self.heights), self.turn, self.phase,
                           self.winner, list(self.log), data=self.data)


def invariants(s: BeaconState) -> list[str]:
    bad = [f"{p} is off the tower" for p, h in s.heights.items() if not 0 <= h <= s.data.top]
    if (s.phase == "over") != (s.winner is not None):
        bad.append("the phase and the winner disagree")
    return bad
