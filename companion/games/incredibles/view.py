"""What the table sees of The Incredibles: expect (whose turn, what to roll, where a mover may go),
the reminders that apply now, and the state as the dashboard's JSON."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from companion.dice import Dice, DiceRequest
from companion.games.incredibles.data import IncrediblesData
from companion.games.incredibles.state import (R_EMPTY, R_FIX, R_MOVE, R_PROBLEM, R_ROAD, R_ROLL,
                                               IncrediblesState, outcome, setting_up)
from companion.games.move_table import state_json


def expect(s: IncrediblesState, actions: list[str]) -> dict[str, Any]:
    """``actions``: the moves the engine's table has open now."""
    if outcome(s)["status"] != "playing":
        return {"phase": "over", "actions": [], "prompt": "The game is over."}
    mover = s.mover
    out: dict[str, Any] = {"player": mover.hero, "player_name": mover.name,
                           "phase": s.phase, "round": s.round, "actions": actions}
    if s.phase == "roll":
        out.update(prompt=f"{mover.name}: roll the Movement Die.",
                   dice=[movement_request(s.data, mover.hero).to_json()])
    elif s.phase == "draw":
        start = setting_up(s)
        named = [c for c in s.deck if not start or s.data.cards[c].kind == "problem"]
        out.update(prompt=_starting_prompt(s) if start else
                   f"Alarm! {mover.name}: draw the top card of the deck and name it.",
                   deck=[{"id": c, "title": s.data.cards[c].title}
                         for c in sorted(named, key=lambda c: _in_order(s.data.cards[c].title))],
                   deck_count=len(s.deck))
    elif s.phase == "choose":
        out.update(pending=s.pending, prompt=s.pending["prompt"])
    elif s.phase == "move":
        steps = s.roll["move"]
        out.update(reachable=s.reachable(mover.space, steps), space=mover.space,
                   prompt=f"{mover.name}: move up to {steps} space{'s' if steps != 1 else ''} "
                          "(or stay).")
    elif s.phase == "fix":
        slot = s.slot_for(mover.space)
        dice = [power_request(s.data, mover.hero, rescued=s.jackjack is None).to_json()]
        out.update(dice=dice, problem={"tile": slot.tile, "power": slot.power},
                   prompt=f"{mover.name}: roll to fix problem {slot.tile} (needs "
                          f"{slot.power.title()}).")
    return out


def _starting_prompt(s: IncrediblesState) -> str:
    """Set Up, steps 2 and 3, one card at a time, in the order the cards lie on the track."""
    n, of = len(s.track) + 1, s.data.track_spaces
    where = ("the space next to the Alarm" if n == 1 else 'the space next to "Too Late!"'
             if n == of else f"space {n} of {of}")
    return (f"Set up: pick a Problem Card at random for the Problem Track ({where}), turn its "
            "tile over and name it.")


# -- the dice, from the game's data ---------------------------------------------------------------

def movement_die(d: IncrediblesData) -> Dice:
    meanings = {}
    for f in d.movement_die:
        steps = f"move up to {f.move}" if f.move else "no move"
        meanings[f.id] = f"Alarm: draw a card ({steps})" if f.alarm else steps
    sides = tuple(f.id for f in d.movement_die)
    return Dice("movement", "incredibles-movement", tuple(sorted(set(sides))), sides,
                meanings=meanings, field="face", single=True)


def power_die(d: IncrediblesData, hero: str) -> Dice:
    sides = d.heroes[hero].die
    return Dice("power", f"incredibles-power-{hero}", tuple(sorted(set(sides))), sides,
                meanings=_power_meanings(sides), field="power", single=True)


def jackjack_die(d: IncrediblesData) -> Dice:
    sides = d.jackjack_die
    return Dice("jackjack", "incredibles-jackjack", tuple(sorted(set(sides))), sides,
                meanings=_power_meanings(sides), field="jackjack", single=True)


def _power_meanings(sides: tuple[str, ...]) -> dict[str, str]:
    return {f: "Wild: counts as every power" if f == "wild" else f"{f.title()} power"
            for f in sides}


def movement_request(d: IncrediblesData, hero: str) -> DiceRequest:
    return DiceRequest((movement_die(d),), action="roll", player=hero, purpose="movement")


def power_request(d: IncrediblesData, hero: str, rescued: bool = False) -> DiceRequest:
    """The fix roll: the mover's power die, and once Jack-Jack is rescued his die thrown with it
    in one roll, so one camera read is one fix attempt. "If Jack-Jack has been rescued, you may
    roll the Jack-Jack Die in addition to your Power Die": may, so a read of one die is the power
    die alone (min 0). The two dice show the same faces, so a read assigns the faces in the
    order read; the fix ("the required Power symbol or a Wild on either") does not depend on
    which die showed which."""
    if rescued:
        return DiceRequest((power_die(d, hero), replace(jackjack_die(d), min=0)), action="fix",
                           player=hero, purpose="fix a problem")
    return DiceRequest((power_die(d, hero),), action="fix", player=hero, purpose="fix a problem",
                       too_many=JACKJACK_HELD)


# A read of two dice before the rescue is most often his die thrown with the power die: the two
# show the same kinds of faces, so the players are told which die is too many, and why: "When the
# Jack-Jack Die is on the game board, players may not roll his die."
JACKJACK_HELD = "Jack-Jack's die is rolled only once he is rescued: take it out, or mark it 'not a die'"


# -- reminders and the dashboard's JSON ------------------------------------------------------------

def reminders(s: IncrediblesState) -> list[dict[str, str]]:
    if outcome(s)["status"] != "playing":
        return []
    out = []
    if s.phase == "roll":
        out.append({"text": "Roll the Movement Die at the start of your turn, even if you do not "
                            "plan to move.", "rule": R_ROLL})
    if s.jackjack is not None:
        out.append({"text": f"Jack-Jack is on space {s.jackjack}: nobody may roll his die until "
                            "he is rescued (a move ending on his space, an Edna card).",
                    "rule": R_MOVE})
    else:
        out.append({"text": "Jack-Jack is rescued: roll his die with your Power Die when you "
                            "try to fix a problem.", "rule": R_FIX})
    if not s.deck:
        out.append({"text": "The deck is empty: each Alarm slides every card on the Problem "
                            "Track one space right. Do not reshuffle.", "rule": R_EMPTY})
    last = s.track[-1] if len(s.track) == s.data.track_spaces else None
    if last is not None and last.face_up:
        out.append({"text": f"Problem {last.tile} ({last.power.title()}) is one slide from "
                            "\"Too Late!\": fix it before the next problem arrives.",
                    "rule": R_PROBLEM, "urgent": True})
    if s.rubble:
        out.append({"text": "Rubble on space " + ", ".join(map(s.data.label, s.rubble)) +
                            ": no moving onto or through it.", "rule": R_ROAD})
    if s.unchecked:
        out.append({"text": s.unchecked, "rule": R_MOVE, "urgent": True})
    return out


def to_json(s: IncrediblesState) -> dict[str, Any]:
    out = state_json(s)
    out["deck_count"] = len(s.deck)
    del out["deck"]  # the order of the face-down deck is nobody's business
    del out["unchecked"]  # shown in the reminders
    out["last_card_info"] = s.data.cards[s.last_card].__dict__ if s.last_card else None
    return out


def _in_order(title: str) -> list:
    """A title's place in the list the players pick from: numbers by their value ("space 4"
    before "space 12"), the words as text."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part)
            for part in re.split(r"(\d+)", title)]
