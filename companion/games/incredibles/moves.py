"""The Incredibles' moves, one handler per action (rulebook: On Your Turn). ``Game.apply`` has
already checked the phase, the player and the arguments' types (see engine.py's table); each
handler checks what is particular to its rule and returns a new state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import BadAction, IllegalAction
from companion.games.incredibles import cards
from companion.games.incredibles.state import (R_ALARM, R_FROZONE, R_MOVE, R_ROAD, R_SETUP,
                                               IncrediblesState, Slot, outcome, setting_up)
from companion.games.move_table import Play
from companion.schema import Choice

REMIND = "the board is not confirmed: distance not checked"


@dataclass(frozen=True)
class Lenient(Choice):
    """Listed with the engine's current choices, but checked by the handler against the game's
    own data: a game keeps the box it began with, whatever the owner has edited since."""

    def check(self, value: Any, where: str) -> str:
        try:
            return super().check(value, where)
        except BadAction:
            if self.numbers and isinstance(value, int) and not isinstance(value, bool):
                value = str(value)
            if not isinstance(value, str):
                raise
            return value.strip().lower() if self.fold else value


Faces = Spaces = Lenient


def _one_of(values, value: str, what: str, where: str, fold: bool = False) -> str:
    # what the schema would return for a value already in its normal form, without building
    # the schema (a move's data is nearly always that): the schema only for the rest, or the error
    if isinstance(value, str) and value in values and (not fold or value == value.strip().lower()):
        return value
    return Choice(tuple(values), what=what, fold=fold).check(value, where)


def roll(state: IncrediblesState, play: Play) -> IncrediblesState:
    """ "Roll the Movement Die at the start of your turn" (data.face; none: a virtual die)."""
    s = state.fork()
    faces = s.data.movement_die
    face_id = play.args["face"]
    if face_id is not None:
        face_id = _one_of(sorted({f.id for f in faces}), face_id, "a face of the movement die",
                          "roll: data.face", fold=True)
    face = play.rng.choice(faces) if face_id is None else next(f for f in faces if f.id == face_id)
    s.roll = {"face": face.id, "move": face.move, "alarm": face.alarm}
    s.log.append(f"{s.mover.name} rolled {face.id}.")
    s.phase, s.unchecked = "move", None
    if face.alarm:
        cards.alarm(s)
    _stay_if_no_steps(s)
    return s


def move(state: IncrediblesState, play: Play) -> IncrediblesState:
    """ "You may move up to the number of spaces shown on the Movement Die" (data.to)."""
    to = _one_of(state.data.adjacency, play.args["to"], "a space on the board", "move: data.to")
    here, steps = state.mover.space, state.roll["move"]
    # the board's printed names in every word said ("Start"), the ids in the data
    name, named = state.data.label, _named(state.data)
    if to in state.rubble:
        raise IllegalAction(f"space {name(to)} has rubble on it: players may not move onto or through it",
                            R_ROAD)
    reach = state.reachable(here, steps)
    # in reach but for the rubble: the reason said is the rubble, not the distance
    crossed = (to not in reach and bool(state.rubble)
               and to in replace(state, rubble=[]).reachable(here, steps))
    if to not in reach and not _checks_distance(state):
        s = state.fork()
        far = (f"the way from {name(here)} to {name(to)} crosses rubble on {named(state.rubble)}" if crossed
               else f"{name(to)} is more than {_spaces(steps)} from {name(here)}")
        why = (f"{REMIND} ({far} on the companion's assumed board; confirm the board on the Your "
               "box page).")
        s.log.append(f"Reminder: {why}")
        s.unchecked = why[0].upper() + why[1:]     # in the reminders until the next roll
        _end_move(s, to)
        return s
    if to not in reach:
        if crossed:
            raise IllegalAction(f"the way from {name(here)} to {name(to)} crosses rubble on "
                                f"{named(state.rubble)}: players may not move onto or through "
                                f"it; you can reach {named(reach)}", R_ROAD)
        raise IllegalAction(f"{name(to)} is more than {_spaces(steps)} from {name(here)}; "
                            f"you can reach {named(reach)}", R_MOVE)
    s = state.fork()
    _end_move(s, to)
    return s


def _named(data):
    """Spaces listed in the board's printed names ("12, 14, Start")."""
    return lambda spaces: ", ".join(data.label(x) for x in spaces)


def _spaces(n: int) -> str:
    return "1 space" if n == 1 else f"{n} spaces"


def _checks_distance(state: IncrediblesState) -> bool:
    """A move's distance is refused by the rule only on a board that is printed or confirmed,
    or when the players asked for strict checks (option ``unconfirmed = "refuse"``)."""
    return state.data.trusted("board")


def fix(state: IncrediblesState, play: Play) -> IncrediblesState:
    """ "Try to fix a problem": the power die (data.power) and, once Jack-Jack is rescued, his die
    (data.jackjack); neither given: both rolled as virtual dice."""
    d, args = state.data, play.args
    mover = state.mover
    hero = d.heroes[mover.hero]
    virtual = args["power"] is None
    if virtual and args["jackjack"] is not None:
        # a face the table read is never replaced by a virtual roll
        raise BadAction("fix: data.jackjack without data.power: give the Power Die's face too "
                        "(or leave both out to let the companion roll them)")
    rng = play.rng if virtual else None
    power = _die_face(args["power"], hero.die, f"{hero.name}'s Power Die", rng)
    jj = None
    if args["jackjack"] is not None or (virtual and state.jackjack is None):
        if state.jackjack is not None:
            raise IllegalAction(f"Jack-Jack is on space {state.jackjack}: players may not roll his "
                                "die until someone rescues him", R_MOVE)
        jj = _die_face(args["jackjack"], d.jackjack_die, "the Jack-Jack Die", rng)
    s = state.fork()
    slot = s.slot_for(mover.space)
    done = slot.power in (power, jj) or "wild" in (power, jj)
    s.last_fix = {"hero": mover.hero, "tile": slot.tile, "needs": slot.power, "power": power,
                  "jackjack": jj, "fixed": done}
    rolled = power + (f" and Jack-Jack {jj}" if jj else "")
    if done:
        cards.fixed(s, slot.tile, mover.name, rolled)
    else:
        s.log.append(f"{mover.name} rolled {rolled}: problem {slot.tile} still needs "
                     f"{slot.power.title()}.")
    _next_turn(s)
    return s


def draw(state: IncrediblesState, play: Play) -> IncrediblesState:
    """ "If you roll an Alarm symbol, draw the top card": with the table's own deck (option
    physical_deck) the players draw the real card and name it (data.card); it must still be in
    the deck, and the deck's count follows. Before the first turn (starting_problems "drawn") the
    card is a starting problem the table selected."""
    card = play.args["card"]
    start = setting_up(state)
    if card not in state.deck:
        title = state.data.cards[card].title
        where = ("is on the Problem Track" if any(x is not None and x.card == card for x in state.track)
                 else "was drawn already, or fixed and slid off the track")
        raise IllegalAction(f"{title} is not in the deck: it {where}. Name the card you drew "
                            f"({len(state.deck)} left in the deck)", R_SETUP if start else R_ALARM)
    if start:
        return _starting_problem(state, card)
    s = state.fork()
    s.deck.remove(card)
    s.phase = "move"
    cards.drawn(s, card)
    _stay_if_no_steps(s)
    return s


def _starting_problem(state: IncrediblesState, card_id: str) -> IncrediblesState:
    """ "Randomly select three Problem Cards ... Turn over the corresponding lettered tiles ...
    Place the three starting Problem Cards face-up on the three spaces of the Problem Track next
    to the Alarm space": named in the order they lie, from the Alarm space on."""
    card = state.data.cards[card_id]
    if card.kind != "problem":
        raise IllegalAction(f"{card.title} is not a Problem Card: the starting problems are "
                            f"{state.data.track_spaces} Problem Cards (red circle icon, red lower "
                            "section); put it back in the deck", R_SETUP)
    s = state.fork()
    s.deck.remove(card_id)
    s.tiles[card.tile] = "problem"
    s.track.append(Slot(card.id, card.tile, card.power, True))
    s.log.append(f"Set up: Problem {card.tile} on the Problem Track.")
    if not setting_up(s):
        s.phase = "roll"
        s.log.append(f"{s.mover.name} goes first.")
    return s


def choose(state: IncrediblesState, play: Play) -> IncrediblesState:
    """A card's choice: where a displaced mover goes (data.space), which problem Frozone fixes
    (data.tile)."""
    pending = state.pending
    s = state.fork()
    if pending["kind"] == "displace":
        space = _needs(play, "space")
        if space not in pending["options"]:
            raise IllegalAction(f"{space!r} is not a space next to the rubble: choose one of "
                                f"{_named(s.data)(pending['options'])}", R_ROAD)
        mover = s.place(pending["hero"], space)
        cards.tell(s, f"{mover.name} moves off the rubble to {s.data.label(space)}.")
    else:
        tile = _needs(play, "tile")
        if tile not in pending["options"]:
            raise IllegalAction(f"Frozone fixes {cards.a_problem(pending['power'])}: choose one of "
                                f"{', '.join(pending['options'])}", R_FROZONE)
        cards.fixed(s, tile, "Frozone", by_card=True)
    s.pending, s.phase = None, pending["return_phase"]
    if pending.get("then"):
        cards.ask_displace(s, pending["from"], pending["then"])
    _stay_if_no_steps(s)
    return s


# -- the turn ------------------------------------------------------------------------------------

def _stay_if_no_steps(s: IncrediblesState) -> None:
    # A roll of no spaces leaves nothing to decide: the mover ends its movement where it is.
    if s.phase == "move" and s.roll["move"] == 0 and outcome(s)["status"] == "playing":
        _end_move(s, s.mover.space)


def _end_move(s: IncrediblesState, to: str) -> None:
    mover = s.mover
    s.log.append(f"{mover.name} moves to {s.data.label(to)}." if to != mover.space else f"{mover.name} stays.")
    s.place(mover.hero, to)
    if s.jackjack == to:
        # "If you end your movement on the space with the Jack-Jack Die, you rescue Jack-Jack!"
        s.jackjack = None
        s.log.append(f"{mover.name} rescues Jack-Jack!")
    if s.slot_for(to) is not None:
        s.phase = "fix"
    else:
        _next_turn(s)


def _next_turn(s: IncrediblesState) -> None:
    s.turn = (s.turn + 1) % len(s.movers)
    if s.turn == 0:
        s.round += 1
    s.phase, s.roll = "roll", None


def _die_face(face: str | None, faces: tuple[str, ...], what: str,
              rng: random.Random | None) -> str:
    if rng is not None:
        return rng.choice(faces)
    if face not in faces:
        raise BadAction(f"fix: {face!r} is not a face of {what} ({', '.join(sorted(set(faces)))})")
    return face


def _needs(play: Play, key: str) -> str:
    if play.args[key] is None:
        raise BadAction(f"{play.action.type} needs data.{key}")
    return play.args[key]
