"""Invincible's state: plain dataclasses that serialise to JSON, and the rulebook's section names."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.timers import Timer

LOG_LENGTH = 25
HERO_TIMER = "hero_time"
HQ = "hq"

# Rulebook sections, named the way its headings read.
R_SETUP = "Setup"
R_DECKS = "Setup › 3. Set Up the Decks"
R_HELPERS = "Setup › 5. (Optional) Take Helper and/or Challenge Cards"
R_HEROES = "Setup › 6. Set Up Each Player's Hero"
R_WINLOSE = "Winning and Losing"
R_ROUND = "Round Structure"
R_ADVANCE = "Advance the Episode"
R_PLACE = "Advance the Episode › Placing Villains"
R_MINIONS = "Advance the Episode › Placing Minions"
R_ABILITIES = "Advance the Episode › Episode Abilities"
R_HARDCORE = "Advance the Episode › Hardcore Additions"
R_HERO = "Hero Phase"
R_PULL = "Hero Phase › Pulling and Playing Cubes"
R_DEFIANCE = "Hero Phase › Defiance"
R_RANGE = "Hero Phase › Range"
R_BASIC = "Hero Phase › Basic Powers"
R_POWERS = "Hero Phase › Power Cards"
R_CRASH = "Crashing"
R_CRASH_RESCUE = "Crashing › Crash Rescues"
R_HERO_END = "Crashing › End of Hero Phase"
R_TRAINING = "Training Phase"
R_LEARN = "Training Phase › Learn Powers"
R_GAIN = "Training Phase › Gain a Cube"
R_RESET = "Training Phase › Reset"
R_VILLAIN = "Villain Phase"
R_ENDANGER = "Villain Phase › Endangering Civilians"
R_ENEMY_DAMAGE = "Villain Phase › Enemy Damage"
R_KO = "Villain Phase › Getting KOed"
R_KEYWORDS = "Keywords and Card Mechanics"
R_SCORING = "Modes of Play › Scoring"
R_CHALLENGE = "Modes of Play › Challenge and Helper Cards"
R_SOLO = "Modes of Play › Solo Mode"
R_CAMPAIGN = "Modes of Play › Campaign Mode"
R_HERO_TIME = "Modes of Play › Hero-Time Variant"
R_CLARIFY = "Card Clarifications"


@dataclass
class Played:
    """A power in one of a hero's slots, with the cubes on its symbols."""

    card: str                      # card instance id ("whirlwind-mode#2"), or the power id
    power: str                     # power id in the data
    cubes: list[str | None]        # one entry per symbol: the cube covering it
    filled: bool = False
    strength: int = 0              # strengthen tokens on it


@dataclass
class HeroState:
    id: str
    name: str
    player: str
    zone: str
    max_health: int
    bag: dict[str, int]
    powers: dict[str, Played]      # slot -> power; "under:<slot>" holds an Ultimate
    damage: int = 0
    ready: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    last_pull: list[str] = field(default_factory=list)   # the pull defiance may set aside
    defiance: bool = True          # face up
    crashed: bool = False
    rescued: bool = False
    can_pull: bool = True
    done: bool = False
    pulls: int = 0
    bonus_confidence: int = 0      # Epic Rescue, card effects
    confidence_spent: int = 0
    cube_gained: bool = False      # the Training Phase's one cube
    rescued_civilians: int = 0     # this round (Turn the Tide)
    hand: list[str] = field(default_factory=list)
    ultimates_wanted: int = 0
    drawn: list[str] = field(default_factory=list)     # refill cards drawn from physical decks


@dataclass
class VillainState:
    id: str
    name: str
    level: int
    health: int
    damage: int = 0
    thwart: int = 0
    thwart_spaces: int = 0


@dataclass
class ZoneState:
    name: str
    safety: int
    danger: int
    dead: int = 0
    minions: int = 0
    villains: list[VillainState | None] = field(default_factory=list)


@dataclass
class InvincibleState:
    episode: int
    difficulty: str
    solo: bool
    hero_count: int                # for villain health and the episode side (solo = 2)
    track: list[list[str]]
    heroes: list[HeroState]
    zones: list[ZoneState]
    decks: dict[str, list[str]]    # villain1..3, event, super, ultimate: top first
    discards: dict[str, list[str]]
    supply: dict[str, int]
    level_decks: dict[str, list[str]]   # every villain id of each level in this game
    helpers: list[str]             # held, not yet used
    helpers_taken: list[str]       # taken at setup (scoring counts these)
    challenges: list[str]
    campaign: dict[str, Any] | None = None
    round: int = 1
    space: int = 0
    phase: str = "advance"         # advance | hero | hero_end | crash | training | villain | over
    queue: list[dict[str, Any]] = field(default_factory=list)
    pending: dict[str, Any] | None = None
    resolving: dict[str, Any] | None = None
    event: str | None = None
    revealed: str | None = None    # the last villain card revealed
    bubble: str | None = None      # the hero holding Eve's bubble token (None: on Bubble Up)
    acted: list[str] = field(default_factory=list)      # villains that acted this Villain Phase
    ability_thwart: dict[str, int] = field(default_factory=dict)
    kos: int = 0
    defeated: list[str] = field(default_factory=list)   # villain ids, in order
    shared_hand: list[str] = field(default_factory=list)
    punch_left: int = 0
    strengthen_left: int = 16
    helpers_used: list[str] = field(default_factory=list)
    episode_bonus: bool = False
    declared: bool = False         # the players say the episode's condition is met
    hero_time: float | None = None    # seconds, when the variant is on
    timer: Timer | None = None
    result: dict[str, Any] | None = None
    helper_gained: str | None = None
    log: list[str] = field(default_factory=list)

    def hero(self, hero_id: str) -> HeroState:
        for h in self.heroes:
            if h.id == hero_id:
                return h
        raise KeyError(hero_id)

    def zone(self, name: str) -> ZoneState:
        for z in self.zones:
            if z.name == name:
                return z
        raise KeyError(name)

    def say(self, sentence: str) -> None:
        self.log.append(sentence)
        if len(self.log) > LOG_LENGTH:
            del self.log[:-LOG_LENGTH]


def _shallow(obj):
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def _clone_hero(h: HeroState) -> HeroState:
    n = _shallow(h)
    n.bag = dict(h.bag)
    n.powers = {k: Played(p.card, p.power, list(p.cubes), p.filled, p.strength)
                for k, p in h.powers.items()}
    n.ready, n.dropped, n.last_pull, n.hand = list(h.ready), list(h.dropped), list(h.last_pull), list(h.hand)
    n.drawn = list(h.drawn)
    return n


def clone(s: InvincibleState) -> InvincibleState:
    """A private copy for ``apply`` to change. Faster than deepcopy because it knows the shape:
    every mutable part is copied; what is never changed after setup (the track, the level decks,
    the campaign record, a result, the data-file effect tables inside tasks) is shared."""
    n = _shallow(s)
    n.heroes = [_clone_hero(h) for h in s.heroes]
    n.zones = [ZoneState(z.name, z.safety, z.danger, z.dead, z.minions,
                         [None if v is None else _shallow(v) for v in z.villains]) for z in s.zones]
    n.decks = {k: list(v) for k, v in s.decks.items()}
    n.discards = {k: list(v) for k, v in s.discards.items()}
    n.supply = dict(s.supply)
    n.queue = [dict(t) for t in s.queue]
    n.pending = None if s.pending is None else {k: (list(v) if isinstance(v, list) else v)
                                                 for k, v in s.pending.items()}
    n.resolving = None if s.resolving is None else dict(s.resolving, effects=list(s.resolving["effects"]))
    n.acted, n.defeated, n.shared_hand = list(s.acted), list(s.defeated), list(s.shared_hand)
    n.ability_thwart = dict(s.ability_thwart)
    n.helpers, n.helpers_taken, n.challenges = list(s.helpers), list(s.helpers_taken), list(s.challenges)
    n.helpers_used, n.log = list(s.helpers_used), list(s.log)
    return n
