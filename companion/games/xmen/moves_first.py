"""The going-first phase's move (rulebook: Going First). ``Game.apply`` has checked the phase, that
the roller is a player of the game and the faces' types; the handler checks the rest."""

from __future__ import annotations

from companion.errors import IllegalAction
from companion.games.move_table import Play
from companion.games.xmen import dice, turn
from companion.games.xmen.state import R_FIRST, XMenState


def first_roll(state: XMenState, play: Play) -> XMenState:
    """ "Each player rolls 5 dice. The highest point total goes first. X-Men = 1 point. Marvel = 2
    points. Evil Mutants and blanks don't count." (data.faces; the roller is the action's player,
    or the next to roll.) Ties for the highest total roll again."""
    d = state.data
    who = play.player or state.first_to_roll[0]
    if who not in state.first_to_roll:
        raise IllegalAction(f"{who} is not waiting to roll for the first turn: "
                            + ", ".join(state.first_to_roll) + " still roll", R_FIRST)
    faces = dice.roll(d, play.args["faces"], d.going_first_dice, play.rng)
    total = dice.points(faces, d.points)
    s = state.fork()
    s.own("first_rolls")[who] = total
    s.own("first_to_roll").remove(who)
    s.last_roll = {"player": who, "purpose": "going first", "faces": faces, "points": total}
    s.log.append(f"{who} rolls {total} for the first turn.")
    if s.first_to_roll:
        return s
    best = max(s.first_rolls.values())
    tied = [p for p, v in s.first_rolls.items() if v == best]
    if len(tied) > 1:
        # "The highest point total goes first." ties roll again
        s.first_rolls, s.first_to_roll = {}, tied
        s.log.append(f"Tie at {best} between {', '.join(tied)}: they roll again.")
        return s
    turn.start_play(s, s.team_index(tied[0]), play.rng)
    return s
