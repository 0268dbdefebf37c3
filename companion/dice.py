"""The dice a game asks the table to roll now: the typed contract between the engines and every
reader of ``expect["dice"]`` (companion/dice_reads.py, the camera, the simulated tray, the pages).

An engine's ``expect(state)["dice"]`` is a list of ``DiceRequest.to_json()``: each request is one
roll, of one kind of die or several (a power die and the Jack-Jack die thrown together), and
says which action and data field the faces go into. The faces, the sides and what each face
means come from the game's own data, never from a reader's table. The JSON keeps the first
kind's fields at the top (``die``, ``set``, ``count``, ``faces``...), so a reader of one kind
needs nothing else; further kinds are listed under ``also``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.actions import Action
from companion.errors import BadAction, IllegalAction


@dataclass(frozen=True)
class Dice:
    """One kind of die in a roll: ``count`` of them (at least ``min``, when some may stay in the
    hand), their ``faces`` (distinct ids, the order to offer them in), their ``sides`` (one id a
    side: what a throw of the real die shows), what each face means, the data field its faces
    go into, and whether that field takes one face (``single``) or a list."""

    die: str                         # the die's name in the game's data: "movement", "alert"
    set: str                         # the camera's set for it: "incredibles-movement"
    faces: tuple[str, ...]
    sides: tuple[str, ...] = ()
    count: int = 1
    min: int | None = None           # None: exactly ``count``
    meanings: dict[str, str] = field(default_factory=dict)
    field: str = "faces"
    single: bool = False

    def __post_init__(self):
        if not self.sides:    # a die whose sides are its faces, once each
            object.__setattr__(self, "sides", tuple(self.faces))

    @property
    def fewest(self) -> int:
        return self.count if self.min is None else self.min

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"die": self.die, "set": self.set, "count": self.count}
        if self.min is not None:
            out["min"] = self.min
        out.update(faces=list(self.faces), sides=list(self.sides),
                   meanings=dict(self.meanings), field=self.field, single=self.single)
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> "Dice":
        count = int(obj.get("count", 1))
        low = obj.get("min")
        if low is None and obj.get("max") is not None:      # the older "up to max" form
            count, low = int(obj["max"]), 1
        single = obj.get("single")
        if single is None:
            single = count == 1 and low is None and obj.get("max") is None
        faces = tuple(obj.get("faces") or ())
        return cls(die=str(obj.get("die", "die")), set=str(obj.get("set") or ""), faces=faces,
                   sides=tuple(obj.get("sides") or faces), count=count, min=low,
                   meanings=dict(obj.get("meanings") or {}), field=obj.get("field", "faces"),
                   single=bool(single))


@dataclass(frozen=True)
class DiceRequest:
    """One roll the table can make now: its dice (one kind or several), the action the faces
    become (None: the dice are listed for the players, who enter the result by hand), the data
    that action needs besides the faces, whose roll it is, and what it is for."""

    dice: tuple[Dice, ...]
    action: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    player: str | None = None
    purpose: str | None = None
    optional: bool = False           # the roll may be skipped (a die rolled only if wanted)
    # why a die more than the roll may not be thrown now, and what to do with it, in the rule's
    # words: a die of the box kept out of this roll (Jack-Jack's before he is rescued) shows the
    # same faces as the roll's, so a count alone does not tell the players which die to mark
    too_many: str | None = None

    def __post_init__(self):
        if not self.dice:
            raise ValueError("a dice request needs at least one kind of die")

    @property
    def first(self) -> Dice:
        return self.dice[0]

    @property
    def faces(self) -> tuple[str, ...]:
        """Every face any of its dice shows."""
        return tuple(dict.fromkeys(f for d in self.dice for f in d.faces))

    def to_json(self) -> dict[str, Any]:
        out = self.first.to_json()
        if self.purpose is not None:
            out["purpose"] = self.purpose
        if self.player is not None:
            out["player"] = self.player
        if self.action is not None:
            out.update(action=self.action, data=dict(self.data))
        if self.optional:
            out["optional"] = True
        if self.too_many:
            out["too_many"] = self.too_many
        if len(self.dice) > 1:
            out["also"] = [d.to_json() for d in self.dice[1:]]
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> "DiceRequest":
        dice = (Dice.from_json(obj), *(Dice.from_json(x) for x in obj.get("also") or ()))
        return cls(dice=dice, action=obj.get("action"), data=dict(obj.get("data") or {}),
                   player=obj.get("player"), purpose=obj.get("purpose"),
                   optional=bool(obj.get("optional", False)),
                   too_many=obj.get("too_many") or None)

    def action_for(self, faces: list[str], player: str | None, source: str,
                   default_player: str | None = None) -> Action:
        """The action these read faces stand for: each kind of die takes its faces in turn
        (at least its fewest, at most its count); a face no die of the roll has is refused. Its
        player: the one named with the faces, else the request's, else ``default_player``."""
        if self.action is None:
            raise IllegalAction(f"the {self.first.die} die is rolled by hand now: enter its result")
        allowed = self.faces or tuple(faces)
        bad = [f for f in faces if f not in allowed]
        if bad:
            raise BadAction(f"{', '.join(bad)} is not a face of the {self.first.die} "
                            f"({', '.join(sorted(allowed))})")
        data = dict(self.data)
        left = list(faces)
        for i, kind in enumerate(self.dice):
            later = sum(d.fewest for d in self.dice[i + 1:])
            take = left[:max(0, min(kind.count, len(left) - later))]
            if len(take) < kind.fewest or (i == len(self.dice) - 1 and len(take) < len(left)):
                raise IllegalAction(self._wrong_count(len(faces)))
            left = left[len(take):]
            if take:
                data[kind.field] = take[0] if kind.single else take
        return Action(self.action, player or self.player or default_player, data, source)

    @property
    def span(self) -> tuple[int, int]:
        """The fewest and the most dice this roll may show, all its kinds together."""
        return sum(d.fewest for d in self.dice), sum(d.count for d in self.dice)

    def _wrong_count(self, found: int) -> str:
        fewest, most = self.span
        if most == 1 and fewest == 1:
            return f"one {self.first.die} was expected, the read found {found}"
        wanted = str(most) if most == fewest else f"{fewest} to {most}"
        return f"this roll is {wanted} dice, the read found {found}: read the roll again"


def requests(expect: dict[str, Any] | None) -> list[DiceRequest]:
    """The dice requests of an ``expect``."""
    return [DiceRequest.from_json(x) for x in (expect or {}).get("dice") or []]


def readable(expect: dict[str, Any] | None) -> DiceRequest | None:
    """The roll a camera can read now: the first dice request, where its dice name a set."""
    wanted = requests(expect)
    return wanted[0] if wanted and wanted[0].first.set else None


def check_readable(expect: dict[str, Any] | None) -> DiceRequest:
    """The roll a "read the dice" press would read, or IllegalAction saying what the table
    waits for instead (every channel's press: the table button, a phone, the camera's own)."""
    roll = readable(expect)
    if roll is None:
        raise IllegalAction("no dice are to be read now: "
                            + ((expect or {}).get("prompt") or "no game is in progress"))
    return roll


def game_dice(components_dir: Any = None) -> dict[str, dict[str, tuple[str, ...]]]:
    """Every box's physical dice, from the games' own data: taught set -> die set -> sides.
    The renderer and the simulated tray draw their stand-ins from this and nothing else."""
    from companion.games import Catalog, available   # the engines import this module

    catalog = Catalog(components_dir)
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    for name in available():
        engine = catalog(name)
        if engine.dice():
            out.setdefault(engine.dice_set or name, {}).update(engine.dice())
    return out
