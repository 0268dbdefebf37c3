"""Invincible's component data, loaded from three TOML files and checked before any game starts.

``invincible.toml`` (board, dice, heroes, helpers, challenges, scoring), ``invincible_powers.toml``
(power cards) and ``invincible_episodes.toml`` (villains, events, episodes). An owner's copy of
any of them in the components folder replaces the shipped one.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from companion.components import Reader, component_file, load_toml

FILES = ("invincible.toml", "invincible_powers.toml", "invincible_episodes.toml")
COLOURS = ("yellow", "blue", "orange", "purple")
CUBES = ("black", "red", *COLOURS)
POWER_KINDS = ("basic", "starter", "signature", "punch", "super", "ultimate", "experimental")
DIFFICULTIES = ("easy", "normal", "hardcore")
WHICH = ("all", "leftmost", "rightmost", "leftmost_and_rightmost")
EFFECT_KEYS = {"damage", "splash", "no_hero_endanger", "endanger", "leftmost", "move",
               "blocked_endanger", "minions", "manual", "zone"}


@dataclass(frozen=True)
class Power:
    id: str
    name: str
    kind: str
    symbols: tuple[str, ...]
    cost: int = 0
    confidence: int = 0
    type: str = "none"
    ranged: bool = False
    effects: tuple[str, ...] = ()
    copies: int = 1
    pull_rule: str = ""         # "return_black": Going to the Limit

    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c for c in self.symbols if c in COLOURS))


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

    def track(self, heroes: int) -> tuple[tuple[str, ...], ...]:
        for counts, track in self.sides:
            if max(heroes, 2) in counts:
                return track
        raise KeyError(heroes)


@dataclass(frozen=True)
class Hero:
    id: str
    name: str
    starter: str
    signature: str
    start_zone: str
    max_health: int


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    text: str
    arrive_endanger: int = 0    # challenge: extra civilians endangered on every arrival
    cancel_abilities: int = 0   # helper: villain powers/strikes it cancels after a reveal


@dataclass(frozen=True)
class Face:
    id: str
    result: str = ""
    zone: str = ""
    damage: int = 0
    again: bool = False


@dataclass(frozen=True)
class InvincibleData:
    paths: tuple[str, ...]
    zones: tuple[str, ...]
    safety: int
    danger: int
    villain_slots: int
    minion_cap: int
    limits: dict[str, int]
    bag: dict[str, int]
    cubes: dict[str, int]
    rescue_die: tuple[Face, ...]
    crash_die: tuple[Face, ...]
    scoring: dict[str, Any]
    difficulty: dict[str, dict[str, int]]
    hero_time_minutes: tuple[int, ...]
    hero_time_warn: int
    colored_slots: tuple[str, ...]
    flex_slots: int
    heroes: dict[str, Hero]
    helpers: dict[str, Card]
    challenges: dict[str, Card]
    powers: dict[str, Power]
    villains: dict[str, Villain]
    events: dict[str, Event]
    episodes: dict[int, Episode]
    assumptions: dict[str, str] = field(default_factory=dict)

    def slot_names(self) -> tuple[str, ...]:
        return ("starter", "signature", *self.colored_slots,
                *(f"flex{i + 1}" for i in range(self.flex_slots)))

    def describe(self) -> dict[str, Any]:
        return {
            "files": list(self.paths),
            "zones": list(self.zones),
            "civilians": {"safety": self.safety, "danger": self.danger},
            "villain_slots": self.villain_slots, "minion_cap": self.minion_cap,
            "limits": self.limits, "bag": self.bag, "supply": self.cubes,
            "rescue_die": [asdict(f) for f in self.rescue_die],
            "crash_die": [asdict(f) for f in self.crash_die],
            "scoring": self.scoring, "difficulty": self.difficulty,
            "hero_time_minutes": list(self.hero_time_minutes),
            "slots": list(self.slot_names()),
            "heroes": [asdict(h) for h in self.heroes.values()],
            "helpers": [asdict(c) for c in self.helpers.values()],
            "challenges": [asdict(c) for c in self.challenges.values()],
            "powers": [asdict(p) for p in self.powers.values()],
            "villains": [asdict(v) for v in self.villains.values()],
            "events": [asdict(e) for e in self.events.values()],
            "episodes": [_episode_json(e) for e in self.episodes.values()],
            "assumptions": self.assumptions,
        }


def _episode_json(e: Episode) -> dict[str, Any]:
    out = asdict(e)
    out["sides"] = [{"heroes": list(c), "track": [list(s) for s in t]} for c, t in e.sides]
    return out


def load(components_dir: str | Path | None = None) -> InvincibleData:
    paths = [component_file(name, components_dir) for name in FILES]
    main, powers_r, episodes_r = (Reader(load_toml(p), p) for p in paths)
    assumptions: dict[str, str] = {}

    def note(section: Reader, name: str) -> None:
        if section.get("assumption", bool, False):
            assumptions[name] = section.get("note", str, "assumed, not printed")

    board = main.table("board")
    note(board, "board")
    zones = tuple(board.strings("zones"))
    if len(zones) != 3 or len(set(zones)) != 3:
        raise board.fail("zones", "the rulebook's three zone boards need three distinct names")
    limits_r = main.table("limits")
    note(limits_r, "limits")
    limits = {k: _positive(limits_r, k) for k in
              ("kos", "dead", "crash_black", "pull", "hand", "solo_hand", "hq_heal")}
    bag_r = main.table("bag")
    note(bag_r, "bag")
    bag = {c: _count(bag_r, c) for c in ("black", *COLOURS)}
    cubes_r = main.table("cubes")
    note(cubes_r, "cubes")
    cubes = {c: _count(cubes_r, c) for c in (*COLOURS, "red")}

    rescue_r = main.table("rescue_die")
    note(rescue_r, "rescue_die")
    rescue = []
    for f in rescue_r.tables("faces"):
        rescue.append(Face(f.get("id", str), result=f.one_of("result", {"epic", "rescue", "failure"}),
                           zone=f.one_of("zone", set(zones))))
    if not rescue or {f.zone for f in rescue} != set(zones):
        raise rescue_r.fail("faces", "the rescue die needs faces, at least one per zone")
    crash_r = main.table("crash_die")
    note(crash_r, "crash_die")
    crash = [Face(f.get("id", str), damage=_count(f, "damage"), again=f.get("again", bool, False))
             for f in crash_r.tables("faces")]
    if not crash or all(f.again for f in crash):
        raise crash_r.fail("faces", "the crash die needs faces, at least one without a re-roll")

    scoring_r = main.table("scoring")
    note(scoring_r, "scoring")
    scoring = dict(scoring_r.data)
    scoring.pop("assumption", None)
    scoring.pop("note", None)
    win = scoring_r.table("win")
    for d in DIFFICULTIES:
        win.get(d, int)
    levels = scoring_r.get("villain_level", list)
    if len(levels) != 3 or not all(isinstance(v, int) for v in levels):
        raise scoring_r.fail("villain_level", "needs three whole numbers (Levels I, II, III)")
    for k in ("casualty", "ko", "challenge", "no_helpers", "one_helper", "first_try"):
        scoring_r.get(k, int)
    diff_r = main.table("difficulty")
    note(diff_r, "difficulty")
    difficulty = {}
    for d in DIFFICULTIES:
        t = diff_r.table(d)
        difficulty[d] = {"level1": _count(t, "level1"), "level2": _count(t, "level2")}
    ht = main.table("hero_time")
    minutes = tuple(ht.get("minutes", list))
    if not minutes or not all(isinstance(m, int) and 0 < m <= 120 for m in minutes):
        raise ht.fail("minutes", "needs whole minutes between 1 and 120")
    slots_r = main.table("slots")
    colored = tuple(slots_r.strings("colored"))
    if not set(colored) <= set(COLOURS):
        raise slots_r.fail("colored", f"slots are coloured {', '.join(COLOURS)}")

    powers: dict[str, Power] = {}
    for section, default_kind in (("basic", "basic"), ("starters", "starter"), ("deck", "super")):
        t = powers_r.table(section)
        note(t, f"powers.{section}")
        default_copies = t.get("copies", int, 1)
        for p in t.tables("powers"):
            power = _power(p, default_kind, default_copies)
            if power.id in powers:
                raise p.fail("id", f"power {power.id!r} appears twice")
            powers[power.id] = power
    for b in ("attack", "move", "rescue", "thwart"):
        if powers.get(b, Power("", "", "", ())).kind != "basic":
            raise powers_r.fail("basic.powers", f"needs the basic power {b!r}")
    if "learn-by-punching" not in powers:
        raise powers_r.fail("starters.powers", "needs the 'learn-by-punching' card")

    heroes = {}
    for h in main.tables("heroes"):
        hero = Hero(h.get("id", str), h.get("name", str), h.get("starter", str),
                    h.get("signature", str), h.one_of("start_zone", set(zones)),
                    _positive(h, "max_health"))
        for key in ("starter", "signature"):
            if getattr(hero, key) not in powers:
                raise h.fail(key, f"{getattr(hero, key)!r} is not a power in {paths[1].name}")
        if hero.id in heroes:
            raise h.fail("id", f"hero {hero.id!r} appears twice")
        heroes[hero.id] = hero
        note(h, f"hero {hero.id}")
    if len(heroes) < 2:
        raise main.fail("heroes", "needs at least two heroes (solo mode plays two)")

    helpers = _cards(main, "helpers", note)
    challenges = _cards(main, "challenges", note)

    villains: dict[str, Villain] = {}
    for v in episodes_r.tables("villains"):
        health = v.get("health", list)
        if len(health) != 3 or not all(isinstance(x, int) and x > 0 for x in health):
            raise v.fail("health", "needs three positive totals: 2, 3 and 4 heroes")
        villain = Villain(
            v.get("id", str), v.get("name", str), _level(v, "level"),
            v.one_of("zone", set(zones)), tuple(health), _count(v, "thwart"),
            _effects(v, "arrive", zones), _effects(v, "power", zones), _effects(v, "strike", zones),
            v.get("immune_with_minions", bool, False), v.get("full_game_only", bool, False),
            v.get("text", str, ""))
        if villain.id in villains:
            raise v.fail("id", f"villain {villain.id!r} appears twice")
        villains[villain.id] = villain
        note(v, f"villain {villain.id}")
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
        event = Event(e.get("id", str), e.get("name", str), _level(e, "level"), minions, tuple(acts))
        if event.id in events:
            raise e.fail("id", f"event {event.id!r} appears twice")
        events[event.id] = event
        note(e, f"event {event.id}")

    episodes: dict[int, Episode] = {}
    for ep in episodes_r.tables("episodes"):
        episode = _episode(ep, zones, villains, events, helpers, challenges)
        if episode.number in episodes:
            raise ep.fail("number", f"episode {episode.number} appears twice")
        episodes[episode.number] = episode
        note(ep, f"episode {episode.number}")
    if 1 not in episodes:
        raise episodes_r.fail("episodes", "needs Episode 1")

    return InvincibleData(
        paths=tuple(str(p) for p in paths), zones=zones, safety=_count(board, "safety"),
        danger=_count(board, "danger"), villain_slots=_positive(board, "villain_slots"),
        minion_cap=_count(board, "minion_cap"), limits=limits, bag=bag, cubes=cubes,
        rescue_die=tuple(rescue), crash_die=tuple(crash), scoring=scoring, difficulty=difficulty,
        hero_time_minutes=minutes, hero_time_warn=ht.get("warn", int, 60),
        colored_slots=colored, flex_slots=_count(slots_r, "flex"), heroes=heroes,
        helpers=helpers, challenges=challenges, powers=powers, villains=villains, events=events,
        episodes=episodes, assumptions=assumptions,
    )


def _count(r: Reader, key: str) -> int:
    value = r.get(key, int)
    if value < 0:
        raise r.fail(key, "must not be negative")
    return value


def _positive(r: Reader, key: str) -> int:
    value = r.get(key, int)
    if value <= 0:
        raise r.fail(key, "must be at least 1")
    return value


def _level(r: Reader, key: str) -> int:
    value = r.get(key, int)
    if value not in (1, 2, 3):
        raise r.fail(key, "levels are 1, 2 or 3")
    return value


def _power(p: Reader, default_kind: str, default_copies: int) -> Power:
    symbols = tuple(p.strings("symbols"))
    if not symbols or not set(symbols) <= set(COLOURS):
        raise p.fail("symbols", f"a power needs symbols among {', '.join(COLOURS)}")
    return Power(
        id=p.get("id", str), name=p.get("name", str),
        kind=p.one_of("kind", set(POWER_KINDS), default_kind), symbols=symbols,
        cost=p.get("cost", int, 0), confidence=p.get("confidence", int, 0),
        type=p.one_of("type", {"might", "energy", "tech", "none"}, "none"),
        ranged=p.get("ranged", bool, False), effects=tuple(p.strings("effects", [])),
        copies=p.get("copies", int, default_copies),
        pull_rule=p.one_of("pull_rule", {"", "return_black"}, ""),
    )


def _effects(r: Reader, key: str, zones: tuple[str, ...]) -> tuple[dict, ...]:
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


def _cards(r: Reader, key: str, note) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for c in r.tables(key):
        card = Card(c.get("id", str), c.get("name", str), c.get("text", str, ""),
                    _count(c, "arrive_endanger") if "arrive_endanger" in c.data else 0,
                    _count(c, "cancel_abilities") if "cancel_abilities" in c.data else 0)
        if card.id in cards:
            raise c.fail("id", f"{card.id!r} appears twice")
        cards[card.id] = card
        note(c, f"{key[:-1]} {card.id}")
    return cards


def _episode(ep: Reader, zones, villains, events, helpers, challenges) -> Episode:
    number = ep.get("number", int)
    win = ep.get("win", dict)
    if win.get("kind") == "defeat_level":
        if win.get("level") not in (1, 2, 3):
            raise ep.fail("win.level", "is 1, 2 or 3")
    elif win.get("kind") != "declare":
        raise ep.fail("win.kind", "is defeat_level or declare")
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
                     _positive(a, "thwart"), a.get("extra_4", int, 0),
                     _effects(a, "effects", zones))
        if ab.tag != "global" and ab.tag not in zones:
            raise a.fail("tag", "is global or a zone")
        abilities[ab.id] = ab
    sides = []
    for i, side in enumerate(ep.tables("sides")):
        counts = tuple(side.get("heroes", list))
        track = side.get("track", list)
        if not track:
            raise side.fail("track", "needs at least one space")
        spaces = []
        for j, space in enumerate(track):
            if not isinstance(space, list) or not all(isinstance(x, str) for x in space):
                raise side.fail(f"track[{j}]", "a space is a list of icons")
            for icon in space:
                problem = _icon_problem(icon, zones, abilities)
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
                   helper, challenge, dict(bonus), orders, abilities, tuple(sides))


def parse_icon(icon: str) -> tuple[bool, list[str]]:
    words = icon.split()
    hardcore = bool(words) and words[0] == "hardcore"
    return hardcore, words[1:] if hardcore else words


def _icon_problem(icon: str, zones, abilities) -> str | None:
    _, words = parse_icon(icon)
    if len(words) == 2 and words[0] == "villain":
        return None if words[1] in ("1", "2", "3") else "villain levels are 1, 2 or 3"
    if len(words) == 3 and words[0] == "minions":
        if words[1] not in (*zones, "all"):
            return "minions go to a zone or all"
        return None if words[2].isdigit() else "the minion count is a whole number"
    if len(words) == 2 and words[0] == "ability":
        return None if words[1] in abilities else "no such episode ability"
    return "icons are 'villain N', 'minions ZONE N', 'ability ID', optionally after 'hardcore'"
