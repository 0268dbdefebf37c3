"""Invincible's component data, loaded from three TOML files beside this module and checked
before any game starts.

``invincible.toml`` (board, dice, heroes, helpers, challenges, scoring), ``invincible_powers.toml``
(power cards) and ``invincible_episodes.toml`` (villains, events, episodes: data_episodes.py
reads it). An owner's copy of any of them in the components folder replaces the shipped one.
"""

from __future__ import annotations

import dataclasses

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from companion.box import Boxed
from companion.components import Reader
from companion.games.invincible import data_counts
from companion.games.invincible.data_bosses import Boss, BossEvent
from companion.games.invincible.data_episodes import (
    Ability, Episode, Event, Villain, count, episode_data, positive,
)
from companion.games.invincible.data_powers import PowerEffect, effects

HERE = Path(__file__).resolve().parent
FILES = ("invincible.toml", "invincible_powers.toml", "invincible_episodes.toml")
#: the top-level tables of the second and third files (the rest are the first's)
SPLIT = {"invincible_powers.toml": ("basic", "starters", "deck", "placeholders"),
         "invincible_episodes.toml": ("villains", "events", "episodes", "bosses", "boss_events")}
COLOURS = ("yellow", "blue", "orange", "purple")
CUBES = ("black", "red", *COLOURS)
POWER_KINDS = ("basic", "starter", "signature", "punch", "super", "ultimate", "experimental")
DIFFICULTIES = ("easy", "normal", "hardcore")
BASIC_SLOTS = ("attack", "move", "rescue", "thwart")
__all__ = ["Ability", "Boss", "BossEvent", "Episode", "Event", "Villain"]


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
    effects: tuple[PowerEffect, ...] = ()
    copies: int = 1
    pull_rule: str = ""         # "return_black": Going to the Limit; "no_crash": Chain Lightning
    repeat: str = ""            # "type": once per other filled power of its Type; "once": may repeat
    ordered: bool = False       # its effects resolve in the printed order (Whirlwind Mode)
    one_of: bool = False        # the table uses one of its effects, not several (Telekimeanness)
    # its numbers are assumed (its section is) and the owner has not confirmed the card
    assumed: bool = False

    def __post_init__(self) -> None:
        # worked out once per card (the record never changes), when it is made, so that a state
        # holding it pickles the same before and after a move: the Hero and Training Phases ask
        # them of every power a hero holds, action after action
        put = object.__setattr__
        put(self, "damaging", any(e.kind in ("damage", "explosive", "knock") for e in self.effects))
        #: the kinds of its effects (the random player picks a slot by them)
        put(self, "kinds", frozenset(e.kind for e in self.effects))
        put(self, "colours", tuple(dict.fromkeys(c for c in self.symbols if c in COLOURS)))
        #: a few words per effect for the table (every view shows them for each card in play)
        put(self, "hints", tuple(e.hint for e in self.effects))


@dataclass(frozen=True)
class Hero:
    id: str
    name: str
    starter: str
    signature: str
    start_zone: str
    max_health: int


#: effect kinds that act on the power card carrying them (Immortality sets itself aside, Copy
#: uses another filled power again): a helper card is no power on a hero's board
HELPER_REFUSED = ("immortal", "copy_power")


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    text: str
    arrive_endanger: int = 0    # challenge: extra civilians endangered on every arrival
    cancel_abilities: int = 0   # helper: villain powers/strikes it cancels after a reveal
    #: helper: its effects, in a power's schema (data_powers.py), applied as steps when it is used
    effects: tuple[PowerEffect, ...] = ()
    ordered: bool = False       # helper: its effects resolve in the printed order
    one_of: bool = False        # helper: the table uses one of its effects, not several


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
    bosses: dict[str, Boss] = field(default_factory=dict)
    boss_events: dict[str, BossEvent] = field(default_factory=dict)
    counts: dict[str, object] = field(default_factory=dict)
    #: refuse on assumed numbers as on printed ones (setup option ``unconfirmed = "refuse"``);
    #: set at setup by Invincible.resolve_data, never read from the file
    strict: bool = False

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
            # the cards the card camera is taught (vision/card_camera.py): the event deck's
            "cards": [{"id": e.id, "title": e.name, "kind": f"level {e.level}", "deck": "event"}
                      for e in self.events.values()],
            "episodes": [_episode_json(e) for e in self.episodes.values()],
            "bosses": [asdict(b) for b in self.bosses.values()],
            "boss_events": [asdict(e) for e in self.boss_events.values()],
            "counts": self.counts,
            "assumptions": self.assumptions,
        }


def _episode_json(e: Episode) -> dict[str, Any]:
    out = asdict(e)
    out["sides"] = [{"heroes": list(c), "track": [list(s) for s in t]} for c, t in e.sides]
    return out


def load(components_dir: str | Path | None = None) -> InvincibleData:
    """The three shipped files beside this module (or the owner's copies), checked before any
    game starts; every error names the file and the key."""
    return boxed(components_dir).data


def boxed(components_dir: str | Path | None = None) -> Boxed:
    """The three files (or the owner's copies) as one base, the owner's box over it."""
    return Boxed("invincible", FILES, HERE, parse, components_dir)


def parse(raw: dict[str, Any], where: Any) -> InvincibleData:
    """``raw``: the three files' tables together; ``where``: their paths (or one label for all,
    a box's), for errors that name the file and the key."""
    paths = [Path(w) for w in where] if isinstance(where, tuple) else [Path(str(where))] * 3
    split = {k for keys in SPLIT.values() for k in keys}
    parts = [{k: v for k, v in raw.items() if k not in split},
             *({k: raw[k] for k in keys if k in raw} for keys in SPLIT.values())]
    main, powers_r, episodes_r = (Reader(part, p) for part, p in zip(parts, paths))
    assumptions: dict[str, str] = {}

    def note(section: Reader, name: str) -> None:
        if section.get("assumption", bool, False):
            assumptions[name] = section.get("note", str, "assumed, not printed")

    table = _table(main, note)
    zones = table["zones"]
    powers = _powers(powers_r, note)
    heroes = _heroes(main, powers, paths[1].name, note)
    helpers = _cards(main, "helpers", note)
    challenges = _cards(main, "challenges", note)
    villains, events, episodes, bosses, boss_events = episode_data(
        episodes_r, zones, helpers, challenges, note)
    counts = data_counts.check(main, (powers_r, episodes_r), powers, villains, episodes,
                               boss_events, helpers, challenges)
    return InvincibleData(
        paths=tuple(str(p) for p in paths), **table, heroes=heroes, helpers=helpers,
        challenges=challenges, powers=powers, villains=villains, events=events,
        episodes=episodes, assumptions=assumptions, bosses=bosses, boss_events=boss_events,
        counts=counts,
    )


def _table(main: Reader, note) -> dict[str, Any]:
    """The board, limits, cubes, dice, scoring, difficulty, hero time and slots."""
    board = main.table("board")
    note(board, "board")
    zones = tuple(board.strings("zones"))
    if len(zones) != 3 or len(set(zones)) != 3:
        raise board.fail("zones", "the rulebook's three zone boards need three distinct names")
    limits_r = main.table("limits")
    note(limits_r, "limits")
    bag_r = main.table("bag")
    note(bag_r, "bag")
    cubes_r = main.table("cubes")
    note(cubes_r, "cubes")
    ht = main.table("hero_time")
    minutes = tuple(ht.get("minutes", list))
    if not minutes or not all(isinstance(m, int) and 0 < m <= 120 for m in minutes):
        raise ht.fail("minutes", "needs whole minutes between 1 and 120")
    slots_r = main.table("slots")
    colored = tuple(slots_r.strings("colored"))
    if not set(colored) <= set(COLOURS):
        raise slots_r.fail("colored", f"slots are coloured {', '.join(COLOURS)}")
    rescue, crash = _dice(main, zones, note)
    bag = {c: count(bag_r, c) for c in ("black", *COLOURS)}
    for c in COLOURS:     # "2 to 4 heroes": every bag is filled from the supply at setup
        if count(cubes_r, c) < bag[c] * 4:
            raise cubes_r.fail(c, f"{count(cubes_r, c)} cannot fill four heroes' bags of "
                                  f"{bag[c]} (bag.{c})")
    return dict(
        zones=zones, safety=count(board, "safety"), danger=count(board, "danger"),
        villain_slots=positive(board, "villain_slots"), minion_cap=count(board, "minion_cap"),
        limits={k: positive(limits_r, k) for k in
                ("kos", "dead", "crash_black", "pull", "hand", "solo_hand", "hq_heal")},
        bag=bag, cubes={c: count(cubes_r, c) for c in (*COLOURS, "red")},
        rescue_die=rescue, crash_die=crash, scoring=_scoring(main, note),
        difficulty=_difficulty(main, note), hero_time_minutes=minutes,
        hero_time_warn=ht.get("warn", int, 60), colored_slots=colored,
        flex_slots=count(slots_r, "flex"),
    )


def _dice(main: Reader, zones: tuple[str, ...], note) -> tuple[tuple[Face, ...], tuple[Face, ...]]:
    rescue_r = main.table("rescue_die")
    note(rescue_r, "rescue_die")
    rescue = tuple(Face(f.get("id", str), result=f.one_of("result", {"epic", "rescue", "failure"}),
                        zone=f.one_of("zone", set(zones))) for f in rescue_r.tables("faces"))
    if not rescue or {f.zone for f in rescue} != set(zones):
        raise rescue_r.fail("faces", "the rescue die needs faces, at least one per zone")
    crash_r = main.table("crash_die")
    note(crash_r, "crash_die")
    crash = tuple(Face(f.get("id", str), damage=count(f, "damage"), again=f.get("again", bool, False))
                  for f in crash_r.tables("faces"))
    if not crash or all(f.again for f in crash):
        raise crash_r.fail("faces", "the crash die needs faces, at least one without a re-roll")
    return rescue, crash


def _scoring(main: Reader, note) -> dict[str, Any]:
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
    return scoring


def _difficulty(main: Reader, note) -> dict[str, dict[str, int]]:
    diff_r = main.table("difficulty")
    note(diff_r, "difficulty")
    out = {}
    for d in DIFFICULTIES:
        t = diff_r.table(d)
        out[d] = {"level1": count(t, "level1"), "level2": count(t, "level2")}
    return out


def _powers(powers_r: Reader, note) -> dict[str, Power]:
    powers: dict[str, Power] = {}
    for section, default_kind in (("basic", "basic"), ("starters", "starter"), ("deck", "super"),
                                  ("placeholders", "ultimate")):
        if section == "placeholders" and section not in powers_r.data:
            continue      # an owner's file with every card filled in needs none
        t = powers_r.table(section)
        note(t, f"powers.{section}")
        default_copies = t.get("copies", int, 1)
        assumed = t.get("assumption", bool, False) and not t.get("confirmed", bool, False)
        for p in t.tables("powers"):
            power = _power(p, default_kind, default_copies)
            if assumed and not p.get("confirmed", bool, False):
                power = dataclasses.replace(power, assumed=True)
            if power.id in powers:
                raise p.fail("id", f"power {power.id!r} appears twice")
            powers[power.id] = power
    for b in BASIC_SLOTS:
        if powers.get(b, Power("", "", "", ())).kind != "basic":
            raise powers_r.fail("basic.powers", f"needs the basic power {b!r}")
    if "learn-by-punching" not in powers:
        raise powers_r.fail("starters.powers", "needs the 'learn-by-punching' card")
    return powers


def _heroes(main: Reader, powers: dict[str, Power], powers_file: str, note) -> dict[str, Hero]:
    zones = set(main.table("board").strings("zones"))
    heroes = {}
    for h in main.tables("heroes"):
        hero = Hero(h.get("id", str), h.get("name", str), h.get("starter", str),
                    h.get("signature", str), h.one_of("start_zone", zones),
                    positive(h, "max_health"))
        for key in ("starter", "signature"):
            if getattr(hero, key) not in powers:
                raise h.fail(key, f"{getattr(hero, key)!r} is not a power in {powers_file}")
        if hero.id in heroes:
            raise h.fail("id", f"hero {hero.id!r} appears twice")
        if any(other.name.casefold() == hero.name.casefold() for other in heroes.values()):
            raise h.fail("name", f"{hero.name!r} names two heroes: the table could not tell "
                                 "them apart")
        heroes[hero.id] = hero
        note(h, f"hero {hero.id}")
    if len(heroes) < 2:
        raise main.fail("heroes", "needs at least two heroes (solo mode plays two)")
    return heroes


def _power(p: Reader, default_kind: str, default_copies: int) -> Power:
    symbols = tuple(p.strings("symbols"))
    if not symbols or not set(symbols) <= set(COLOURS):
        raise p.fail("symbols", f"a power needs symbols among {', '.join(COLOURS)}")
    return Power(
        id=p.get("id", str), name=p.get("name", str),
        kind=p.one_of("kind", set(POWER_KINDS), default_kind), symbols=symbols,
        cost=p.get("cost", int, 0), confidence=p.get("confidence", int, 0),
        type=p.one_of("type", {"might", "energy", "tech", "none"}, "none"),
        ranged=p.get("ranged", bool, False), effects=effects(p),
        copies=p.get("copies", int, default_copies),
        pull_rule=p.one_of("pull_rule", {"", "return_black", "no_crash"}, ""),
        repeat=p.one_of("repeat", {"", "type", "once"}, ""),
        ordered=p.get("ordered", bool, False), one_of=p.get("one_of", bool, False),
    )


def _helper_effects(c: Reader) -> tuple[tuple[PowerEffect, ...], bool, bool]:
    """A helper's ``effects`` (an owner's transcription of the card: the rulebook prints none),
    checked as a power's are, with ``ordered`` and ``one_of`` as on a power."""
    found = effects(c)
    for e, table in zip(found, c.tables("effects") if found else ()):
        if e.kind in HELPER_REFUSED:
            raise table.fail("kind", f"{e.kind!r} works on the power card that carries it; a "
                             "helper card has none")
    return found, c.get("ordered", bool, False), c.get("one_of", bool, False)


def _cards(r: Reader, key: str, note) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for c in r.tables(key):
        card = Card(c.get("id", str), c.get("name", str), c.get("text", str, ""),
                    count(c, "arrive_endanger") if "arrive_endanger" in c.data else 0,
                    count(c, "cancel_abilities") if "cancel_abilities" in c.data else 0,
                    *(_helper_effects(c) if key == "helpers" else ()))
        if card.id in cards:
            raise c.fail("id", f"{card.id!r} appears twice")
        cards[card.id] = card
        note(c, f"{key[:-1]} {card.id}")
    return cards


