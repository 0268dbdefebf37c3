"""The X-Men Alert game's component data, loaded from xmen-alert.toml (beside this module, or the
owner's copy) and checked before any game starts; Power Stat cards an owner types in at setup
(``typed_cards``) are checked by the same code and joined to it (``with_typed_cards``).

Every stat card must satisfy the printed identity Total Power = Fighting Skill + Durability +
Intelligence; a card that does not is named in the error, so an owner typing in a card from the
box sees at once which one is wrong.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.box import Boxed
from companion.components import Reader

FILE = "xmen-alert.toml"
HERE = Path(__file__).resolve().parent
SHIPPED = HERE / FILE
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
    # (kind, advanced) -> the abilities of that kind a Basic or Advanced game allows, computed
    # once: the rules ask for them on every roll
    by_kind: dict[tuple[str, bool], tuple[Ability, ...]] = field(init=False, compare=False,
                                                                 repr=False)

    def __post_init__(self):
        by_kind: dict[tuple[str, bool], tuple[Ability, ...]] = {}
        for advanced in (False, True):
            for a in self.abilities:
                if advanced or not a.advanced:
                    by_kind[a.kind, advanced] = by_kind.get((a.kind, advanced), ()) + (a,)
        object.__setattr__(self, "by_kind", by_kind)

    def abilities_of(self, kind: str, advanced: bool) -> tuple[Ability, ...]:
        """This card's abilities of one kind that the game in play allows."""
        return self.by_kind.get((kind, advanced), ())


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
    # a character's id by its id or its name as typed ("Professor X", "professor-x"): named()
    names: dict[str, str] = field(init=False, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "names", _names(self.characters))

    def named(self, key: str) -> str | None:
        """The id of the character ``key`` names (its id or its name, any case), or None."""
        return self.names.get(slug(key))

    def alert_cards(self, advanced: bool) -> list[str]:
        """The X-Men Alert deck of a game: "Remove all X-Men Alert cards with the Advanced symbol
        from the deck. Also remove all 'Recruit Another X-Men' cards." / "In the Advanced game,
        use the entire deck"."""
        return [c.id for c in self.alert.values()
                if advanced or (not c.advanced and c.kind != "recruit")]

    def luck_cards(self, advanced: bool) -> list[str]:
        """The Training & Luck deck: the Basic game leaves out the Advanced cards."""
        return [c.id for c in self.luck.values() if advanced or not c.advanced]

    def describe(self) -> dict[str, Any]:
        return {
            "die": {"faces": list(self.faces), "points": self.points, "max_dice": self.max_dice,
                    "going_first_dice": self.going_first_dice},
            "board": {"battle_zones": self.zones, "strength_track": self.strength_track,
                      "max_team": self.max_team},
            "experience_track": {"spaces": self.track_spaces, "victory": self.track_spaces,
                                 "training_luck": sorted(self.training_luck_spaces),
                                 "recruit": list(self.recruit_spaces)},
            "characters": [_character_json(c) for c in self.characters.values()],
            "alert_cards": [c.__dict__ for c in self.alert.values()],
            "training_luck_cards": [{**c.__dict__, "params": dict(c.params)}
                                    for c in self.luck.values()],
            # every card a table may draw from its own deck, as the card camera is taught them
            # (vision/card_camera.py): copies share a title and are one printed face
            "cards": [{"id": c.id, "title": c.name, "kind": c.kind, "deck": "alert"}
                      for c in self.alert.values()]
            + [{"id": c.id, "title": c.title, "kind": "training_luck", "deck": "training_luck"}
               for c in self.luck.values()],
            "assumptions": self.assumptions,
            "file": self.path,
        }


def slug(text: str) -> str:
    """A character's name as a key: "Professor X" and " professor-x" are the same."""
    return text.strip().lower().replace(" ", "-").replace(".", "")


def _names(characters: dict[str, Character]) -> dict[str, str]:
    out: dict[str, str] = {}
    for c in reversed(list(characters.values())):    # the first card that matches wins
        out[slug(c.name)] = out[c.id] = c.id
    return out


def _character_json(c: Character) -> dict[str, Any]:
    return {"id": c.id, "name": c.name, "fighting_skill": c.fighting_skill,
            "durability": c.durability, "intelligence": c.intelligence,
            "total_power": c.total_power, "assumption": c.assumption,
            "abilities": [{"name": a.name, "kind": a.kind, "text": a.text,
                           "advanced": a.advanced, "activity": a.activity, **a.params}
                          for a in c.abilities]}


def boxed(components_dir: str | Path | None = None) -> Boxed:
    """The shipped file beside this module (or the owner's copy of it) with the owner's box over
    it; checked before any game."""
    return Boxed("xmen-alert", FILE, HERE, parse, components_dir)


def load(components_dir: str | Path | None = None) -> XMenData:
    return boxed(components_dir).data


def with_typed_cards(data: XMenData, typed: list[dict[str, Any]], where: str = "setup form") -> XMenData:
    """``data`` with Power Stat cards typed in from the box, each checked as the file's cards are
    (a DataFileError names the card and key): a typed card replaces the file's card with its id,
    a new id joins the deck."""
    chars = dict(data.characters)
    for i, values in enumerate(typed):
        c = character(Reader(values, where, f"typed_cards[{i}]"), data.strength_track)
        chars[c.id] = c
    return dataclasses.replace(data, characters=chars)


def parse(raw: dict[str, Any], path: Path | str) -> XMenData:
    top = Reader(raw, path)
    assumptions: dict[str, str] = {}

    def note(section: Reader, name: str, default: bool = True) -> bool:
        assumed = section.get("assumption", bool, default)
        if assumed:
            assumptions[name] = section.get("note", str, "assumed, not printed")
        return assumed

    die = _die(top.table("die"), note)
    board = top.table("board")
    note(board, "board", False)
    zones = _count(board, "battle_zones", 1, 9)
    strength_track = _count(board, "strength_track", 2, 60)
    max_team = _count(board, "max_team", 2, 18)
    if "hit_chips" in board.data:     # the printed count, shown, not enforced (coins do)
        _count(board, "hit_chips", 1, 999)
    track = _track(top.table("experience_track"), note)
    characters = _characters(top, strength_track, assumptions)
    alert = _alert(top.table("alert"), strength_track, track["track_spaces"], note)
    luck = _luck(top.table("training_luck"), note)
    return XMenData(
        path=str(path), **die, zones=zones, strength_track=strength_track, max_team=max_team,
        **track, characters=characters, alert=alert, luck=luck, assumptions=assumptions,
    )


def _die(die: Reader, note) -> dict[str, Any]:
    note(die, "die", False)
    faces = tuple(die.strings("faces"))
    if not faces or any(f not in FACES for f in faces):
        raise die.fail("faces", f"each face is one of {', '.join(FACES)}")
    points_t = die.table("points")
    points = {f: _count(points_t, f, 0, 10) for f in ("xmen", "marvel")}
    max_dice = _count(die, "max_dice", 1, 30)
    return {"faces": faces, "points": points, "max_dice": max_dice,
            "going_first_dice": _count(die, "going_first_dice", 1, max_dice)}


def _track(track: Reader, note) -> dict[str, Any]:
    note(track, "experience_track")
    spaces = _count(track, "spaces", 2, 200)
    luck_spaces = _spaces(track, "training_luck", spaces)
    recruit_spaces = _spaces(track, "recruit", spaces)
    if not recruit_spaces:
        raise track.fail("recruit", "needs at least one X-Men Recruit space: the Basic game ends there")
    return {"track_spaces": spaces, "training_luck_spaces": frozenset(luck_spaces),
            "recruit_spaces": tuple(sorted(recruit_spaces))}


def _characters(top: Reader, strength_track: int, assumptions: dict[str, str]) -> dict[str, Character]:
    characters: dict[str, Character] = {}
    for c in top.tables("characters"):
        cid = c.get("id", str)
        if cid in characters:
            raise c.fail("id", f"character {cid!r} appears twice")
        card = character(c, strength_track)
        if any(other.name.casefold() == card.name.casefold() for other in characters.values()):
            raise c.fail("name", f"{card.name!r} names two characters: the table could not tell "
                                 "them apart")
        if card.assumption:
            assumptions[f"character {cid}"] = c.get("note", str, "assumed, not printed")
        characters[cid] = card
    if len(characters) < 2:
        raise top.fail("characters", "needs at least two X-Men")
    return characters


def _alert(alert_t: Reader, strength_track: int, spaces: int, note) -> dict[str, AlertCard]:
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
    return alert


def _luck(luck_t: Reader, note) -> dict[str, LuckCard]:
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
    return luck


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
    # an assumed card the owner confirmed against the box (``confirmed``) is trusted as printed
    return Character(cid, name, fs, du, it, total, tuple(abilities),
                     c.get("assumption", bool, True) and not c.get("confirmed", bool, False))


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
