"""The X-Men Alert die: the faces an action may name (a schema), a roll read from the table (or
virtual dice rolled), its score, and the DiceRequest expect hands the camera and the pages.

"Each die has two X-Men sides, one Marvel side, one Evil Mutant side and two blank sides."
"The maximum number of dice you can roll at one time is nine."
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from companion.dice import Dice, DiceRequest
from companion.errors import BadAction, IllegalAction
from companion.games.xmen.data import FACES, XMenData
from companion.games.xmen.state import R_CONTENTS
from companion.schema import ListOf, Schema

ALIASES = {"x-men": "xmen", "x_men": "xmen", "x": "xmen", "evil mutant": "evil_mutant",
           "evil-mutant": "evil_mutant", "evil": "evil_mutant"}
FACE_SET = frozenset(FACES)
# a read of more dice than any roll is still a list of faces: the rule refuses it (no more than
# nine), not the schema
MOST_READ = 40


@dataclass(frozen=True)
class Face(Schema):
    """A face of the die as read or typed: any case, "x-men" and "evil mutant" read too."""

    def check(self, value: Any, where: str) -> str:
        if value in FACES:          # as the camera reads them
            return value
        if not isinstance(value, str):
            raise BadAction(f"{where} must be a face of the die ({', '.join(FACES)}), not "
                            f"{type(value).__name__}")
        key = value.strip().lower()
        face = ALIASES.get(key, key)
        if face not in FACES:
            raise BadAction(f"{where}: {value!r} is not a face of the die ({', '.join(FACES)})")
        return face

    def wanted(self) -> str:
        return "a face of the die"

    def describe(self) -> dict[str, Any]:
        return {"type": "string", "enum": list(FACES), "x-also": sorted(ALIASES),
                "description": "a face of the die"}


@dataclass(frozen=True)
class FacesRead(ListOf):
    """The faces of a roll as read: a list of faces (ListOf(Face())), checked in one pass, the
    field named only when one is wrong (a roll is read many times a turn)."""

    item: Schema = Face()
    max_len: int = MOST_READ

    def check(self, value: Any, where: str) -> list[str]:
        if isinstance(value, list) and len(value) <= self.max_len:
            try:
                if FACE_SET.issuperset(value):
                    return list(value)
            except TypeError:       # an unhashable item: the item's check names it
                pass
        return super().check(value, where)


FACES_READ = FacesRead()


def capped(data: XMenData, count: int) -> int:
    """ "Any number over nine while fighting or performing another action is disregarded." """
    return max(0, min(count, data.max_dice))


def roll(data: XMenData, faces: list[str] | None, count: int, rng: random.Random) -> list[str]:
    """The faces of a roll of ``count`` dice: as read (``faces``, already checked to be faces of
    the die), or ``None`` for virtual dice rolled from the rng."""
    if faces is None:
        return [rng.choice(data.faces) for _ in range(count)]
    if len(faces) > data.max_dice:
        raise IllegalAction(f"{len(faces)} dice read, but no more than {data.max_dice} dice are "
                            "ever rolled at one time: read the roll again", R_CONTENTS)
    if len(faces) != count:
        raise IllegalAction(f"this roll is {count} dice, but {len(faces)} were read: roll {count} "
                            "dice (or read the roll again)", R_CONTENTS)
    return faces


def points(faces: list[str], per_face: dict[str, int]) -> int:
    """Points of a roll: X-Men and Marvel score, Evil Mutants and blanks don't count."""
    total = 0
    for face, n in per_face.items():       # a loop, not sum() over a generator: a roll's points
        total += n * faces.count(face)     # are asked for every roll (0.9 -> 0.4 us here)
    return total


def hits(faces: list[str]) -> int:
    return faces.count("evil_mutant")


def die(data: XMenData, count: int = 1) -> Dice:
    """``count`` X-Men Alert dice, their faces and meanings from the data."""
    meanings = {"xmen": f"{data.points.get('xmen', 0)} point(s)",
                "marvel": f"{data.points.get('marvel', 0)} point(s)",
                "evil_mutant": "an Evil Mutant: a hit", "blank": "nothing"}
    return Dice("alert", "xmen-alert", tuple(f for f in FACES if f in data.faces), data.faces,
                count=count, meanings={f: meanings[f] for f in FACES if f in data.faces})


def entry(data: XMenData, count: int, purpose: str, player: str, action: str,
          **fields: Any) -> dict[str, Any]:
    """One roll the table can make now (a DiceRequest), for the camera and the dashboard."""
    return DiceRequest((die(data, count),), action=action, data=fields, player=player,
                       purpose=purpose).to_json()
