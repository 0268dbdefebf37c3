"""The bonus phase's move (rulebook: Step 5 › Bonus Experience Points, Advanced): the team turning
in Evil Mutants rolls its Experience Bonus dice before its mover moves."""

from __future__ import annotations

from companion.games.move_table import Play
from companion.games.xmen import dice, track, turn
from companion.games.xmen.state import XMenState


def bonus_roll(state: XMenState, play: Play) -> XMenState:
    """ "For each X-Men rolled, gain 1 Experience bonus point. For each Marvel rolled, gain 2
    points." (data.faces: as many dice as expect asks for)."""
    d = state.data
    faces = dice.roll(d, play.args["faces"], state.bonus["dice"], play.rng)
    extra = dice.points(faces, d.points)
    total = state.bonus["experience"] + extra
    s = state.fork()
    player = s.current.player
    s.last_roll = {"player": player, "purpose": "bonus experience", "faces": faces,
                   "points": extra}
    s.log.append(f"{player} rolls {extra} bonus Experience: {total} spaces.")
    s.phase, s.bonus = "play", None
    track.move(s, s.turn, total, play.rng)
    if s.phase != "draw":        # the table draws its Training & Luck card first (moves_draw.py)
        turn.finish_turn(s, play.rng)
    return s
