"""The X-Men Alert game's component data, loaded from TOML and checked before any game starts.

Every stat card must satisfy the printed identity Total Power = Fighting Skill + Durability +
Intelligence; a card that does not is named in the error, so an owner typing in a card from the
box sees at once which one is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.components import Reader, component_file, load_toml

FILE = "xmen-alert.toml"
FACES = ("xmen", "marvel", "evil_mutant", "blank")

# ability kind -> the numeric parameters it takes
ABILITY_KINDS: dict[str, tuple[str, ...]] = {
    "extra_dice_leading": ("dice",),
    "team_dice_leading": ("dice",),
    "flight": (),
    "recovery": ("xmen", "marvel"),
    "alt_attack": ("dice", "xmen", "marvel"),
    "bonus_experience": ("dice",),
}
ACTIVITIES = ("battle", "recruit")
CARD_EFFECTS: dict[str, tuple[str, tuple[str, ...]]] = {
    # effect -> (timing it must have, numeric parameters)
    "cerebro": ("hold", ()),
    "extra_dice": ("hold", ("dice",)),
    "heal": ("hold", ("hits",)),
    "bonus_experience": ("hold", ("dice",)),
    "advance": ("at_once", ("spaces",)),
    "retreat": ("at_once", ("spaces",)),
    "team_to_hq": ("at_once", ()),
}


@dataclass(frozen=True)
class Ability:
    name: str
    kind: str
    text: str
    advanced: bool = False
    activity: str = "battle"
    params: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Character:
    id: str
    name: str
    fighting_skill: int
    durability: int
    intelligence: int
    total_power: int
    abilities: tuple[Ability, ...]
    assumption: bool

    def abilities_of(self, kind: str, advanced: bool) -> list[Ability]:
        """This card's abilities of one kind that the game in play allows."""
        return [a for a in self.abilities if a.kind == kind and (advanced or not a.advanced)]


@dataclass(frozen=True)
class AlertCard:
    id: str
    name: str
    kind: str            # evil_mutant | recruit
    strength: int = 0
    experience: int = 0
    advanced: bool = False
    assumption: bool = True


@dataclass(frozen=True)
class LuckCard:
    id: str
    title: str
    text: str
    timing: str          # at_once | hold
    effect: str
    params: dict[str, int]
    advanced: bool = False
    assumption: bool = True


@dataclass(frozen=True)
class XMenData:
    path: str
    faces: tuple[str, ...]
    points: dict[str, int]
    max_dice: int
    going_first_dice: int
    zones: int
    strength_track: int
    max_team: int
    track_spaces: int                    # the last one is Victory
    training_luck_spaces: frozenset[int]
    recruit_spaces: tuple[int, ...]
    characters: dict[str, Character]
    alert: dict[str, AlertCard]
    luck: dict[str, LuckCard]
    assumptions: dict[str, str]          # section -> note

    def describe(self) -> dict[str, Any]:
        return {
            "die": {"faces": list(self.faces), "points": self.points, "max_dice": self.max_dice,
                    "going_first_dice": self.going_first_dice},
            "board": {"battle_zones": self.zones, "strength_track": self.strength_track,
                      "max_team": self.max_team},
            "experience_track": {"spaces": self.track_spaces, "victory": self.track_spaces,
                                 "training_luck": sorted(self.training_luck_spaces),
                                 "recruit": list(self.recruit_spaces)},
            "characters": [
                {"id": c.id, "name": c.name, "fighting_skill": c.fighting_skill,
                 "durability": c.durability, "intelligence": c.intelligence,
                 "total_power": c.total_power, "assumption": c.assumption,
                 "abilities": [{"name": a.name, "kind": a.kind, "text": a.text,
                                "advanced": a.advanced, "activity": a.activity, **a.params}
                               for a in c.abilities]}
                for c in self.characters.values()],
            "alert_cards": [c.__dict__ for c in self.alert.values()],
            "training_luck_cards": [{**c.__dict__, "params": dict(c.params)}
                                    for c in self.luck.values()],
            "assumptions": self.assumptions,
            "file": self.path,
        }


def load(components_dir: str | Path | None = None) -> XMenData:
    path = component_file(FILE, components_dir)
    return parse(load_toml(path), path)


def parse(raw: dict[str, Any], path: Path | str) -> XMenData:
    top = Reader(raw, path)
    assumptions: dict[str, str] = {}

    def note(section: Reader, name: str, default: bool = True) -> bool:
        assumed = section.get("assumption", bool, default)
        if assumed:
            assumptions[name] = section.get("note", str, "assumed, not printed")
        return assumed

    die = top.table("die")
    note(die, "die", False)
    faces = tuple(die.strings("faces"))
    if not faces or any(f not in FACES for f in faces):
        raise die.fail("faces", f"each face is one of {', '.join(FACES)}")
    points_t = die.table("points")
    points = {f: _count(points_t, f, 0, 10) for f in ("xmen", "marvel")}
    max_dice = _count(die, "max_dice", 1, 30)
    first_dice = _count(die, "going_first_dice", 1, max_dice)

    board = top.table("board")
    note(board, "board", False)
    zones = _count(board, "battle_zones", 1, 9)
    strength_track = _count(board, "strength_track", 2, 60)
    max_team = _count(board, "max_team", 2, 18)

    track = top.table("experience_track")
    note(track, "experience_track")
    spaces = _count(track, "spaces", 2, 200)
    luck_spaces = _spaces(track, "training_luck", spaces)
    recruit_spaces = _spaces(track, "recruit", spaces)
    if not recruit_spaces:
        raise track.fail("recruit", "needs at least one X-Men Recruit space: the Basic game ends there")

    characters: dict[str, Character] = {}
    for c in top.tables("characters"):
        cid = c.get("id", str)
        if cid in characters:
            raise c.fail("id", f"character {cid!r} appears twice")
        card = character(c, strength_track)
        if card.assumption:
            assumptions[f"character {cid}"] = c.get("note", str, "assumed, not printed")
        characters[cid] = card
    if len(characters) < 2:
        raise top.fail("characters", "needs at least two X-Men")

    alert_t = top.table("alert")
    note(alert_t, "alert")
    alert: dict[str, AlertCard] = {}
    for c in alert_t.tables("cards"):
        kind = c.one_of("kind", {"evil_mutant", "recruit"})
        base = c.get("id", str)
        strength = experience = 0
        if kind == "evil_mutant":
            strength = _count(c, "strength", 1, strength_track)
            experience = _count(c, "experience", 0, spaces)
        card = dict(name=c.get("name", str), kind=kind, strength=strength, experience=experience,
                    advanced=c.get("advanced", bool, False),
                    assumption=c.get("assumption", bool, True))
        for cid in _copies(c, base):
            if cid in alert:
                raise c.fail("id", f"card {cid!r} appears twice")
            alert[cid] = AlertCard(cid, **card)
    if not any(c.kind == "evil_mutant" and not c.advanced for c in alert.values()):
        raise alert_t.fail("cards", "needs Evil Mutants without the Advanced symbol for the Basic game")

    luck_t = top.table("training_luck")
    note(luck_t, "training_luck")
    luck: dict[str, LuckCard] = {}
    for c in luck_t.tables("cards"):
        effect = c.one_of("effect", set(CARD_EFFECTS))
        timing, names = CARD_EFFECTS[effect]
        if c.one_of("timing", {"at_once", "hold"}) != timing:
            raise c.fail("timing", f"a {effect} card is played {timing.replace('_', ' ')}")
        params = {p: _count(c, p, 1, 20) for p in names}
        card = dict(title=c.get("title", str), text=c.get("text", str, ""), timing=timing,
                    effect=effect, params=params, advanced=c.get("advanced", bool, False),
                    assumption=c.get("assumption", bool, True))
        for cid in _copies(c, c.get("id", str)):
            if cid in luck:
                raise c.fail("id", f"card {cid!r} appears twice")
            luck[cid] = LuckCard(cid, **card)

    return XMenData(
        path=str(path), faces=faces, points=points, max_dice=max_dice,
        going_first_dice=first_dice, zones=zones, strength_track=strength_track,
        max_team=max_team, track_spaces=spaces, training_luck_spaces=frozenset(luck_spaces),
        recruit_spaces=tuple(sorted(recruit_spaces)), characters=characters, alert=alert,
        luck=luck, assumptions=assumptions,
    )


def character(c: Reader, strength_track: int = 21) -> Character:
    """One Power Stat card, checked: the loader uses it for the file, and a setup form can use it
    on the values an owner types in from a card (``Reader(values, "setup form")``)."""
    cid = c.get("id", str)
    name = c.get("name", str)
    fs, du, it = (_count(c, k, 0, 20) for k in ("fighting_skill", "durability", "intelligence"))
    total = _count(c, "total_power", 0, 60)
    if total != fs + du + it:
        # the identity the three printed cards satisfy
        raise c.fail("total_power", f"{name}'s Total Power {total} is not Fighting Skill + "
                     f"Durability + Intelligence ({fs} + {du} + {it} = {fs + du + it})")
    if du < 1:
        raise c.fail("durability", f"{name} needs a Durability of at least 1")
    if total > strength_track:
        raise c.fail("total_power", f"{name}'s Total Power {total} is off the Strength Track "
                     f"(1 to {strength_track})")
    abilities = []
    for a in c.tables("abilities") if "abilities" in c.data else []:
        kind = a.one_of("kind", set(ABILITY_KINDS))
        params = {p: _count(a, p, 0, 20) for p in ABILITY_KINDS[kind]}
        activity = a.one_of("activity", set(ACTIVITIES), "battle")
        abilities.append(Ability(a.get("name", str), kind, a.get("text", str, ""),
                                 a.get("advanced", bool, False), activity, params))
    return Character(cid, name, fs, du, it, total, tuple(abilities),
                     c.get("assumption", bool, True))


def _count(section: Reader, key: str, low: int, high: int) -> int:
    value = section.get(key, int)
    if not low <= value <= high:
        raise section.fail(key, f"must be between {low} and {high}, not {value}")
    return value


def _spaces(section: Reader, key: str, spaces: int) -> list[int]:
    values = section.get(key, list)
    if not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v < spaces for v in values):
        raise section.fail(key, f"spaces are numbers from 1 to {spaces - 1} (the last is Victory)")
    return list(values)


def _copies(section: Reader, base: str) -> list[str]:
    count = section.get("count", int, 1)
    if not 1 <= count <= 40:
        raise section.fail("count", "must be between 1 and 40")
    return [base] if count == 1 else [f"{base}-{i + 1}" for i in range(count)]
