"""Invincible's state: plain dataclasses that serialise to JSON, the rulebook's section names, and
how a move makes the next state without changing the one it was given.

States are never changed once made. A move works on ``fork()``: a copy whose own lists and dicts
are copies, while the records in them (heroes, zones, villains, powers) and the decks' card lists
are shared with the state it came from. The first time a move changes one of those, it asks the
fork for its own copy (``own_hero``, ``own_zone``, ``own_villain``, ``own_deck``,
``own_discards``, ``own_shared_hand``); asked again, the fork gives the same copy. A hero's power
(``Played``) is replaced, never changed. ``settle()`` ends the move: from then on the state's
records count as shared again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.invincible.data import InvincibleData
from companion.games.move_table import data_field
from companion.timers import Timer

LOG_LENGTH = 25
REPORT_LENGTH = 60     # a Villain Phase's lines kept (150 random games: at most 28)
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
    """A power in one of a hero's slots, with the cubes on its symbols. Shared between states:
    a move puts a new one in the slot (``with_cubes``, ``stronger``) instead of changing it."""

    card: str                      # card instance id ("whirlwind-mode#2"), or the power id
    power: str                     # power id in the data
    cubes: list[str | None]        # one entry per symbol: the cube covering it
    filled: bool = False
    strength: int = 0              # strengthen tokens on it

    def with_cubes(self, cubes: list[str | None]) -> "Played":
        """This power with ``cubes`` on its symbols (filled once every symbol is covered)."""
        return Played(self.card, self.power, cubes, None not in cubes, self.strength)

    def stronger(self) -> "Played":
        return Played(self.card, self.power, self.cubes, self.filled, self.strength + 1)


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
    # this Training Phase: "learn" (a power from the hand) or "punch" (Learn By Punching)
    trained: str | None = None
    cube_gained: bool = False      # the Training Phase's one cube
    rescued_civilians: int = 0     # this round (Turn the Tide)
    immortal: bool = False         # Immortality used: never KOed from then on
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
class BossState:
    """The episode's boss (bosses.py): an enemy, neither a villain nor a minion. Replaced, never
    changed, like a power (``dataclasses.replace``)."""

    id: str
    name: str
    zone: str | None               # None before it enters and once defeated
    health: int
    damage: int = 0
    defeated: bool = False


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
    #: the powers resolving, by hero: at most one table-wide, one per hero in the hero-time variant
    resolutions: dict[str, dict[str, Any]] = field(default_factory=dict)
    event: str | None = None
    revealed: str | None = None    # the last villain card revealed
    bubble: str | None = None      # the hero holding Eve's bubble token (None: on Bubble Up)
    acted: list[str] = field(default_factory=list)      # villains that acted this Villain Phase
    hurled: list[str] = field(default_factory=list)     # Hurl Into Space: until the Villain Phase ends
    ability_thwart: dict[str, int] = field(default_factory=dict)
    boss: BossState | None = None  # episodes 4 and 7: their boss, once it has entered
    kos: int = 0
    defeated: list[str] = field(default_factory=list)   # villain ids, in order
    shared_hand: list[str] = field(default_factory=list)
    punch_left: int = 0
    # option learn_by_punching = "instead": a hero takes Learn By Punching or learns powers from
    # the hand in a Training Phase, not both (see setup.py for why a game without it may do both)
    punch_instead: bool = False
    # option self_damage = "any_order": Power Conduit's cost is a step, not taken at the fill
    self_damage_any_order: bool = False
    # option hero_time_controls = "hero_phase": pause, resume and add only in the Hero Phase
    hero_time_in_phase: bool = False
    strengthen_left: int = 16
    helpers_used: list[str] = field(default_factory=list)
    episode_bonus: bool = False
    declared: bool = False         # the players say the episode's condition is met
    hero_time: float | None = None    # seconds, when the variant is on
    timer: Timer | None = None
    result: dict[str, Any] | None = None
    helper_gained: str | None = None
    # card_powers.py, experimental.py (each replaced, never changed in place)
    drone: str | None = None       # Robot's drone: on a villain id or "minion:<zone>"; None: on its power
    autosave: list[str] = field(default_factory=list)       # heroes whose Autosave waits for a crash
    experimental: list[str] = field(default_factory=list)   # set aside beside Robot's board
    assembled: list[str] = field(default_factory=list)      # helpers gained by Heroic Assembly
    log: list[str] = field(default_factory=list)
    # what the latest Villain Phase said, from its reset on: the players mirror all of it on the
    # board, and a phase says more than the screens' few last lines (replaced, never changed)
    villain_report: list[str] = field(default_factory=list)
    data: InvincibleData = data_field()
    #: what this fork has made its own so far (see the module's docstring); not part of the game
    owned: set[tuple[str, str]] = field(default_factory=set, repr=False, compare=False,
                                        metadata={"json": False})

    # -- reading ------------------------------------------------------------------------------

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

    def hand_of(self, h: HeroState) -> list[str]:
        """Solo: 'Your two heroes share one hand of cards during the Training Phase'."""
        return self.shared_hand if self.solo else h.hand

    # -- the next state -----------------------------------------------------------------------

    @property
    def resolving(self) -> dict[str, Any] | None:
        """The first power resolving (the only one outside the hero-time variant), or None."""
        return next(iter(self.resolutions.values()), None)

    def fork(self) -> "InvincibleState":
        """A copy to make the next state from: its lists and dicts are its own, the records and
        card lists in them are shared until ``own_*`` gives it its own copy."""
        new = object.__new__(InvincibleState)
        new.__dict__.update(self.__dict__)
        new.heroes, new.zones = list(self.heroes), list(self.zones)
        new.decks, new.discards, new.supply = dict(self.decks), dict(self.discards), dict(self.supply)
        new.queue, new.acted, new.defeated = list(self.queue), list(self.acted), list(self.defeated)
        new.ability_thwart = dict(self.ability_thwart)
        new.resolutions, new.hurled = dict(self.resolutions), list(self.hurled)
        new.helpers, new.helpers_used, new.log = list(self.helpers), list(self.helpers_used), list(self.log)
        new.owned = set()
        return new

    def settle(self) -> "InvincibleState":
        """The move is made: every record counts as shared again (a later move forks first)."""
        self.owned = set()
        return self

    def _mine(self, key: tuple[str, str]) -> bool:
        if key in self.owned:
            return True
        self.owned.add(key)
        return False

    def own_hero(self, hero_id: str) -> HeroState:
        """``hero_id``'s record, this state's own to change."""
        for i, h in enumerate(self.heroes):
            if h.id == hero_id:
                if self._mine(("hero", hero_id)):
                    return h
                new = _copy(h)
                new.bag, new.powers, new.ready = dict(h.bag), dict(h.powers), list(h.ready)
                new.dropped, new.last_pull = list(h.dropped), list(h.last_pull)
                new.hand, new.drawn = list(h.hand), list(h.drawn)
                self.heroes[i] = new
                return new
        raise KeyError(hero_id)

    def own_heroes(self) -> list[HeroState]:
        """Every hero, each this state's own to change."""
        return [self.own_hero(h.id) for h in list(self.heroes)]

    def own_zone(self, name: str) -> ZoneState:
        for i, z in enumerate(self.zones):
            if z.name == name:
                if self._mine(("zone", name)):
                    return z
                new = _copy(z)
                new.villains = list(z.villains)
                self.zones[i] = new
                return new
        raise KeyError(name)

    def own_villain(self, villain_id: str) -> VillainState | None:
        """The villain in play, this state's own to change (None when it is not in play)."""
        for z in self.zones:
            for slot, v in enumerate(z.villains):
                if v is not None and v.id == villain_id:
                    if self._mine(("villain", villain_id)):
                        return v
                    zone = self.own_zone(z.name)
                    zone.villains[slot] = new = _copy(v)
                    return new
        return None

    def own_deck(self, name: str) -> list[str]:
        return self._own_pile(self.decks, "deck", name)

    def own_discards(self, name: str) -> list[str]:
        return self._own_pile(self.discards, "discards", name)

    def _own_pile(self, piles: dict[str, list[str]], kind: str, name: str) -> list[str]:
        if not self._mine((kind, name)):
            piles[name] = list(piles[name])
        return piles[name]

    def own_shared_hand(self) -> list[str]:
        if not self._mine(("hand", "")):
            self.shared_hand = list(self.shared_hand)
        return self.shared_hand

    def own_hand(self, h: HeroState) -> list[str]:
        """The hand ``h`` plays from (solo: the shared one), this state's own to change."""
        return self.own_shared_hand() if self.solo else self.own_hero(h.id).hand

    def say(self, sentence: str) -> None:
        self.log.append(sentence)
        if len(self.log) > LOG_LENGTH:
            del self.log[:-LOG_LENGTH]
        if self.phase == "villain":
            self.villain_report = [*self.villain_report, sentence][-REPORT_LENGTH:]


def _copy(record):
    """A shallow copy of a record (faster than dataclasses.replace, which runs __init__)."""
    new = object.__new__(type(record))
    new.__dict__.update(record.__dict__)
    return new
