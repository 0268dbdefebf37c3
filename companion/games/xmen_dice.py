"""The X-Men Alert die: reading a roll from the table (or rolling virtual dice) and scoring it.

"Each die has two X-Men sides, one Marvel side, one Evil Mutant side and two blank sides."
"The maximum number of dice you can roll at one time is nine."
"""

from __future__ import annotations

import random
from typing import Any

from companion.dice import Dice, DiceRequest
from companion.errors import BadAction
from companion.games.base import forbid
from companion.games.xmen_data import FACES, XMenData
from companion.games.xmen_state import R_CONTENTS

ALIASES = {"x-men": "xmen", "x_men": "xmen", "x": "xmen", "evil mutant": "evil_mutant",
           "evil-mutant": "evil_mutant", "evil": "evil_mutant"}


def capped(data: XMenData, count: int) -> int:
    """ "Any number over nine while fighting or performing another action is disregarded." """
    return max(0, min(count, data.max_dice))


def read_roll(data: XMenData, action: str, payload: dict[str, Any], count: int,
              rng: random.Random) -> list[str]:
    """The faces of a roll of ``count`` dice: from data.faces, or rolled from the rng."""
    if "faces" not in payload or payload["faces"] is None:
        return [rng.choice(data.faces) for _ in range(count)]
    faces = payload["faces"]
    if not isinstance(faces, list) or not all(isinstance(f, str) for f in faces):
        raise BadAction(f"{action}: data.faces must be a list of faces such as "
                        "[\"xmen\", \"marvel\", \"blank\"]")
    if len(faces) > data.max_dice:
        raise forbid(f"{len(faces)} dice read, but no more than {data.max_dice} dice are ever "
                     "rolled at one time: read the roll again", R_CONTENTS)
    out = []
    for f in faces:
        face = ALIASES.get(f.strip().lower(), f.strip().lower())
        if face not in FACES:
            raise BadAction(f"{action}: {f!r} is not a face of the die ({', '.join(FACES)})")
        out.append(face)
    if len(out) != count:
        raise forbid(f"this roll is {count} dice, but {len(out)} were read: roll {count} dice "
                     "(or read the roll again)", R_CONTENTS)
    return out


def points(faces: list[str], per_face: dict[str, int]) -> int:
    """Points of a roll: X-Men and Marvel score, Evil Mutants and blanks don't count."""
    return sum(per_face.get(f, 0) for f in faces)


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
