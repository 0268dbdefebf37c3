"""Invincible's episode file (``invincible_episodes.toml``): villains, events and episodes (their
tracks, abilities and deck orders), read and checked; and the whole-number checks both files use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from companion.components import Reader
from companion.games.invincible.data_bosses import Boss, BossEvent, boss_data

WHICH = ("all", "leftmost", "rightmost", "leftmost_and_rightmost")
EFFECT_KEYS = {"damage", "splash", "no_hero_endanger", "endanger", "leftmost", "move",
               "blocked_endanger", "minions", "manual", "zone"}


@dataclass(frozen=True)
class Villain:
    id: str
    name: str
    level: int
    zone: str
    health: tuple[int, int, int]
    thwart: int
    arrive: tuple[dict, ...] = ()
    power: tuple[dict, ...] = ()
    strike: tuple[dict, ...] = ()
    immune_with_minions: bool = False
    full_game_only: bool = False
    text: str = ""

    def health_for(self, heroes: int) -> int:
        """'separate totals for 2-, 3-, and 4-hero games'; solo uses the 2-player values."""
        return self.health[min(max(heroes, 2), 4) - 2]


@dataclass(frozen=True)
class Event:
    id: str
    name: str
    level: int
    minions: dict | None
    villains: tuple[dict, ...]


@dataclass(frozen=True)
class Ability:
    id: str
    name: str
    tag: str
    thwart: int
    extra_4: int
    effects: tuple[dict, ...]

    def spaces(self, heroes: int) -> int:
        """'one ability costs one additional token in four-hero games'."""
        return self.thwart + (self.extra_4 if heroes >= 4 else 0)


@dataclass(frozen=True)
class Episode:
    number: int
    name: str
    fixed_order: bool
    signature: bool
    win: dict
    win_text: str
    helper: str
    challenge: str
    bonus: dict
    orders: dict[str, tuple[str, ...]]
    abilities: dict[str, Ability]
    sides: tuple[tuple[tuple[int, ...], tuple[tuple[str, ...], ...]], ...]
    boss: str = ""                 # the boss the track's "boss" icon places (episodes 4 and 7)

    def track(self, heroes: int) -> tuple[tuple[str, ...], ...]:
        for counts, track in self.sides:
            if max(heroes, 2) in counts:
                return track
        raise KeyError(heroes)


def episode_data(episodes_r: Reader, zones: tuple[str, ...], helpers: dict, challenges: dict,
                 note: Callable[[Reader, str], None]
                 ) -> tuple[dict, dict, dict, dict[str, Boss], dict[str, BossEvent]]:
    """The villains, events, episodes, bosses and boss event cards of the episode file."""
    villains = _villains(episodes_r, zones, note)
    events = _events(episodes_r, note)
    bosses, boss_events = boss_data(episodes_r, zones, effect_list, note)
    episodes: dict[int, Episode] = {}
    for ep in episodes_r.tables("episodes"):
        episode = _episode(ep, zones, villains, events, helpers, challenges, bosses)
        if episode.number in episodes:
            raise ep.fail("number", f"episode {episode.number} appears twice")
        episodes[episode.number] = episode
        note(ep, f"episode {episode.number}")
    if 1 not in episodes:
        raise episodes_r.fail("episodes", "needs Episode 1")
    return villains, events, episodes, bosses, boss_events


def _villains(episodes_r: Reader, zones: tuple[str, ...], note) -> dict[str, Villain]:
    villains: dict[str, Villain] = {}
    for v in episodes_r.tables("villains"):
        health = v.get("health", list)
        if len(health) != 3 or not all(isinstance(x, int) and x > 0 for x in health):
            raise v.fail("health", "needs three positive totals: 2, 3 and 4 heroes")
        villain = Villain(
            v.get("id", str), v.get("name", str), level(v, "level"),
            v.one_of("zone", set(zones)), tuple(health), count(v, "thwart"),
            effect_list(v, "arrive", zones), effect_list(v, "power", zones),
            effect_list(v, "strike", zones),
            v.get("immune_with_minions", bool, False), v.get("full_game_only", bool, False),
            v.get("text", str, ""))
        if villain.id in villains:
            raise v.fail("id", f"villain {villain.id!r} appears twice")
        villains[villain.id] = villain
        note(v, f"villain {villain.id}")
    return villains


def _events(episodes_r: Reader, note) -> dict[str, Event]:
    events: dict[str, Event] = {}
    for e in episodes_r.tables("events"):
        minions = e.get("minions", dict, None)
        if minions is not None and (set(minions) - {"damage", "endanger"} or len(minions) != 1
                                    or not isinstance(next(iter(minions.values())), int)):
            raise e.fail("minions", "is { damage = n } or { endanger = n }")
        acts = []
        for a in e.tables("villains"):
            a.one_of("which", set(WHICH))
            use = a.strings("use")
            if not use or not set(use) <= {"power", "strike"}:
                raise a.fail("use", "lists \"power\" and/or \"strike\"")
            acts.append({"which": a.data["which"], "use": use})
        event = Event(e.get("id", str), e.get("name", str), level(e, "level"), minions, tuple(acts))
        if event.id in events:
            raise e.fail("id", f"event {event.id!r} appears twice")
        events[event.id] = event
        note(e, f"event {event.id}")
    return events


def count(r: Reader, key: str) -> int:
    value = r.get(key, int)
    if value < 0:
        raise r.fail(key, "must not be negative")
    return value


def positive(r: Reader, key: str) -> int:
    value = r.get(key, int)
    if value <= 0:
        raise r.fail(key, "must be at least 1")
    return value


def level(r: Reader, key: str) -> int:
    value = r.get(key, int)
    if value not in (1, 2, 3):
        raise r.fail(key, "levels are 1, 2 or 3")
    return value


def effect_list(r: Reader, key: str, zones: tuple[str, ...]) -> tuple[dict, ...]:
    out = []
    for i, e in enumerate(r.get(key, list, [])):
        where = f"{key}[{i}]"
        if not isinstance(e, dict) or not e or set(e) - EFFECT_KEYS:
            raise r.fail(where, "an effect is a table with keys among " + ", ".join(sorted(EFFECT_KEYS)))
        for k in ("damage", "no_hero_endanger", "endanger", "leftmost", "blocked_endanger", "minions"):
            if k in e and (isinstance(e[k], bool) or not isinstance(e[k], int) or e[k] < 0):
                raise r.fail(f"{where}.{k}", "must be a whole number from 0")
        if "move" in e and e["move"] not in ("left", "right", "most_danger"):
            raise r.fail(f"{where}.move", "is left, right or most_danger")
        if "zone" in e and e["zone"] not in (*zones, "all", "random"):
            raise r.fail(f"{where}.zone", "is a zone, all or random")
        if not ({"damage", "endanger", "move", "minions", "manual"} & set(e)):
            raise r.fail(where, "does nothing: give damage, endanger, move, minions or manual")
        out.append(dict(e))
    return tuple(out)


def _episode(ep: Reader, zones, villains, events, helpers, challenges, bosses) -> Episode:
    number = ep.get("number", int)
    boss = ep.one_of("boss", {"", *bosses}, "")
    win = _win(ep, boss)
    orders = {}
    for deck in ("villain1", "villain2", "villain3", "event", "super"):
        key = f"order_{deck}"
        if key in ep.data:
            ids = tuple(ep.strings(key))
            pool = events if deck == "event" else villains if deck.startswith("villain") else None
            if pool is not None and not set(ids) <= set(pool):
                raise ep.fail(key, f"unknown card(s) {sorted(set(ids) - set(pool))}")
            if len(set(ids)) != len(ids):
                raise ep.fail(key, "lists a card twice")
            orders[deck] = ids
    abilities = {}
    for a in ep.tables("abilities"):
        ab = Ability(a.get("id", str), a.get("name", str), a.get("tag", str, "global"),
                     positive(a, "thwart"), a.get("extra_4", int, 0),
                     effect_list(a, "effects", zones))
        if ab.tag != "global" and ab.tag not in zones:
            raise a.fail("tag", "is global or a zone")
        abilities[ab.id] = ab
    sides = []
    for i, side in enumerate(ep.tables("sides")):
        counts = tuple(side.get("heroes", list))
        if not all(type(c) is int and 1 <= c <= 4 for c in counts):
            raise side.fail("heroes", "hero counts are whole numbers from 1 to 4, e.g. [3, 4]")
        track = side.get("track", list)
        if not track:
            raise side.fail("track", "needs at least one space")
        spaces = []
        for j, space in enumerate(track):
            if not isinstance(space, list) or not all(isinstance(x, str) for x in space):
                raise side.fail(f"track[{j}]", "a space is a list of icons")
            for icon in space:
                problem = _icon_problem(icon, zones, abilities, boss)
                if problem:
                    raise side.fail(f"track[{j}]", f"{icon!r}: {problem}")
            spaces.append(tuple(space))
        sides.append((counts, tuple(spaces)))
    covered = {c for counts, _ in sides for c in counts}
    if not {2, 3, 4} <= covered:
        raise ep.fail("sides", "every hero count 2, 3 and 4 needs a track side")
    helper, challenge = ep.get("helper", str), ep.get("challenge", str)
    if helper not in helpers:
        raise ep.fail("helper", f"{helper!r} is not a helper card")
    if challenge not in challenges:
        raise ep.fail("challenge", f"{challenge!r} is not a challenge card")
    bonus = ep.get("bonus", dict, {"text": "", "points": 0})
    if not isinstance(bonus.get("points"), int):
        raise ep.fail("bonus.points", "must be a whole number")
    return Episode(number, ep.get("name", str), ep.get("fixed_order", bool, False),
                   ep.get("signature", bool, True), dict(win), ep.get("win_text", str, ""),
                   helper, challenge, dict(bonus), orders, abilities, tuple(sides), boss)


def _win(ep: Reader, boss: str) -> dict:
    win = ep.get("win", dict)
    if win.get("kind") == "defeat_level":
        if win.get("level") not in (1, 2, 3):
            raise ep.fail("win.level", "is 1, 2 or 3")
    elif win.get("kind") == "defeat_boss":
        if not boss:
            raise ep.fail("win.kind", "defeat_boss needs the episode's boss (boss = ID)")
    elif win.get("kind") != "declare":
        raise ep.fail("win.kind", "is defeat_level, defeat_boss or declare")
    return win


def parse_icon(icon: str) -> tuple[bool, list[str]]:
    words = icon.split()
    hardcore = bool(words) and words[0] == "hardcore"
    return hardcore, words[1:] if hardcore else words


def _icon_problem(icon: str, zones, abilities, boss: str) -> str | None:
    _, words = parse_icon(icon)
    if words == ["boss"]:
        return None if boss else "this episode has no boss (boss = ID)"
    if len(words) == 2 and words[0] == "villain":
        return None if words[1] in ("1", "2", "3") else "villain levels are 1, 2 or 3"
    if len(words) == 3 and words[0] == "minions":
        if words[1] not in (*zones, "all"):
            return "minions go to a zone or all"
        return None if words[2].isdigit() else "the minion count is a whole number"
    if len(words) == 2 and words[0] == "ability":
        return None if words[1] in abilities else "no such episode ability"
    return "icons are 'villain N', 'minions ZONE N', 'ability ID', 'boss', optionally after 'hardcore'"
