"""The X-Men Alert game's state: plain dataclasses that serialise to JSON, the rulebook's section
names, the lookups every part asks, and the checks every state must pass.

A state is never changed once made. A move works on ``fork()``: a copy whose log and lists of
teams and zones are its own, and whose teams, Battle Zones, decks and other lists are shared with
the state it came from until the move takes one to change (``own_team``, ``own_zone``: a copy of
that record, its heroes or sides with it; ``own``: a copy of that list; each made once per move).
A move changes only what it owns; everything else is shared, never copied.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.move_table import data_field
from companion.games.xmen.data import XMenData

# the state's lists and dicts a move changes now and then: shared with the state it was forked
# from until the move takes its own copy (XMenState.own)
SHARED = ("alert_deck", "alert_discard", "stat_deck", "luck_deck", "luck_discard", "must_recover",
          "first_rolls", "first_to_roll", "unchecked")
HQ = -1   # Hero.where when the figure stands on its Power Stat card
LOG_LENGTH = 40

# Rulebook sections, named the way the rulebook names them.
R_CONTENTS = "Description of Game Contents › 9 Dice"
R_SETUP = "Set Up"
R_FIRST = "Going First"
R_PLAYING = "Playing"
R_STEP1 = "Step 1: Setting Up a Battle Zone"
R_FIGHT = "Step 2: Fighting Battles"
R_NEW = "Step 2 › Characters Starting A New Battle"
R_JOIN = "Step 2 › Characters Joining A Battle Already In Progress (Advanced)"
R_BATTLE = "Step 2 › The Battle"
R_TEAMWORK = "Step 2 › Team Work (Advanced)"
R_CAPTURE = "Step 2 › Capturing An Evil Mutant"
R_RECRUIT = "Step 3: Recruiting Other X-Men (Advanced)"
R_RECOVER = "Step 4: Recovery At Headquarters"
R_SERIOUS = "Step 4 › Seriously Wounded Characters"
R_TURN_IN = "Step 5: Captured Evil Mutants & The Experience Track"
R_BONUS = "Step 5 › Bonus Experience Points (Advanced)"
R_RECRUIT_SPACE = "Step 5 › X-Men Recruit Space (Advanced)"
R_LUCK = "Step 5 › Training & Luck Space"
R_STEP6 = "Step 6"
R_WIN = "Winning"


@dataclass
class Hero:
    """One X-Men on a team: its Power Stat card, hit chips and where its figure stands."""
    id: str
    hits: int = 0
    where: int = HQ        # HQ, or the Battle Zone's index (0-based)
    acted: bool = False    # battled, recruited or recovered this turn


@dataclass
class Team:
    player: str
    heroes: list[Hero]
    mover: int = 0                     # space on the Experience Track; 0 is Start
    captured: list[str] = field(default_factory=list)   # waiting to be turned in (Step 5)
    held: list[str] = field(default_factory=list)       # Training & Luck cards held
    cerebro: int = 0                   # Cerebro cards played on this team for its next turn
    boosts: dict[str, int] = field(default_factory=dict)  # hero -> extra dice from cards, this turn
    bonus_dice: int = 0                # Experience Bonus dice from cards, this turn

    def fork(self) -> "Team":
        """A copy to change: its heroes and lists are its own."""
        return Team(self.player, [Hero(h.id, h.hits, h.where, h.acted) for h in self.heroes],
                    self.mover, list(self.captured), list(self.held), self.cerebro,
                    dict(self.boosts), self.bonus_dice)

    def hero(self, hero_id: str) -> Hero | None:
        for h in self.heroes:
            if h.id == hero_id:
                return h
        return None


@dataclass
class Side:
    """One team in one Battle Zone: its leader's space on the Strength Track and its figures."""
    player: str
    leader: str
    order: list[str]               # who fights, leader first, then the backers
    position: int = 0              # 0: in the Deployment Area, not yet on the track
    started: bool = False          # the team has rolled here: joining now needs flight


@dataclass
class Zone:
    card: str | None = None        # the X-Men Alert card on the large X
    recruit: str | None = None     # the Power Stat card being recruited (Advanced)
    indicator: int | None = None   # the Strength Indicator's space; None on the centre X
    sides: list[Side] = field(default_factory=list)

    def fork(self) -> "Zone":
        """A copy to change: its sides are its own."""
        return Zone(self.card, self.recruit, self.indicator,
                    [Side(x.player, x.leader, list(x.order), x.position, x.started)
                     for x in self.sides])

    def side(self, player: str) -> Side | None:
        for x in self.sides:
            if x.player == player:
                return x
        return None

    @property
    def kind(self) -> str | None:
        """What the zone holds: "battle" (an Evil Mutant), "recruit" (an X-Men), None (empty)."""
        if self.card is None:
            return None
        return "recruit" if self.recruit is not None else "battle"


@dataclass
class XMenState:
    advanced: bool
    teams: list[Team]
    zones: list[Zone]
    alert_deck: list[str]          # top first
    alert_discard: list[str]       # turned-in cards, face up
    stat_deck: list[str]           # top first; lost characters go to the bottom
    luck_deck: list[str]
    luck_discard: list[str]
    options: dict[str, Any]
    phase: str = "first"           # first | play | bonus | draw | over
    turn: int = 0
    starter: int = 0               # who went first: a round ends when play comes back to him
    round: int = 0
    stage: str = "battle"          # battle | recruit | recover: the turn's steps 2, 3 and 4
    zone_open: int | None = None   # the zone where the team is midway through its fights
    must_recover: list[str] = field(default_factory=list)
    first_rolls: dict[str, int] = field(default_factory=dict)
    first_to_roll: list[str] = field(default_factory=list)
    bonus: dict[str, int] | None = None    # pending Step 5 with Experience Bonus dice (replaced, never changed)
    # the card the table draws from its own deck now (draws.py; replaced, never changed)
    drawing: dict[str, Any] | None = None
    last_roll: dict[str, Any] | None = None
    winner: str | None = None
    ended: str | None = None       # why the game ended without a winner
    log: list[str] = field(default_factory=list)
    # what this turn accepted without checking, on assumed cards (option unconfirmed): reminders
    # ({"text", "rule"}) until the turn ends
    unchecked: list[dict[str, str]] = field(default_factory=list)
    # the players whose turns passed at once (Cerebro) right before this turn, told in its next
    # step until it ends (turn.py; replaced, never changed)
    passed: list[str] = field(default_factory=list)
    data: XMenData = data_field()  # the component data with the game's typed cards, shared
    # which teams and zones this state has copied for itself (see own_team): not game state
    mine: set[tuple[str, int]] = field(default_factory=set, repr=False, compare=False,
                                       metadata={"json": False})

    def fork(self) -> "XMenState":
        """A copy to make the next state from: its lists of teams and zones and its log are its
        own; the teams and zones themselves are shared until own_team / own_zone copies the one
        a move changes, and the decks and other lists (SHARED) until ``own`` copies one."""
        s = object.__new__(XMenState)
        s.__dict__.update(self.__dict__)      # every field, then a container of its own each
        s.teams, s.zones, s.log = list(self.teams), list(self.zones), list(self.log)
        s.mine = set()
        return s

    def own(self, name: str) -> Any:
        """The list or dict field ``name`` (one of SHARED), copied for this state the first time
        a move changes it; until then it is the one of the state this was forked from."""
        if name not in self.mine:
            setattr(self, name, getattr(self, name).copy())
            self.mine.add(name)
        return getattr(self, name)

    def own_team(self, i: int) -> Team:
        """Team ``i``, copied for this state the first time a move asks (then changed freely)."""
        if ("team", i) not in self.mine:
            self.teams[i] = self.teams[i].fork()
            self.mine.add(("team", i))
        return self.teams[i]

    def own_zone(self, z: int) -> Zone:
        """Battle Zone ``z``, copied for this state the first time a move asks."""
        if ("zone", z) not in self.mine:
            self.zones[z] = self.zones[z].fork()
            self.mine.add(("zone", z))
        return self.zones[z]

    # -- lookups ------------------------------------------------------------------------------

    def team(self, player: str) -> Team:
        for t in self.teams:
            if t.player == player:
                return t
        raise KeyError(player)

    def team_index(self, player: str) -> int:
        for i, t in enumerate(self.teams):
            if t.player == player:
                return i
        raise KeyError(player)

    @property
    def current(self) -> Team:
        return self.teams[self.turn]

    def hero(self, team: Team, hero_id: str) -> Hero | None:
        return team.hero(hero_id)

    def unfought(self, team: Team, kind: str | None = None) -> list[tuple[int, str]]:
        """(zone, hero) of every figure of the team in a Battle Zone that has not fought this turn.

        "If your character(s) is already in a Battle Zone, you must continue to battle that Evil
        Mutant."
        """
        return [(h.where, h.id) for h in team.heroes
                if h.where != HQ and not h.acted and (kind is None or self.zones[h.where].kind == kind)]

    def trusted(self, hero_id: str) -> bool:
        """A rule may refuse on this character's Power Stat card: it is printed, or the owner
        confirmed it (the Your box page), or the players asked for strict checks (option
        ``unconfirmed = "refuse"``)."""
        return (not self.data.characters[hero_id].assumption
                or self.options.get("unconfirmed") == "refuse")

    def remind(self, why: str, rule: str) -> None:
        """What a rule would refuse on an assumed card was accepted: said in the log and in the
        reminders until the turn ends."""
        self.log.append(f"Reminder: {why}.")
        self.own("unchecked").append({"text": why[0].upper() + why[1:] + ".", "rule": rule})

    def pending_recovery(self) -> list[str]:
        """The seriously wounded of the current team who have yet to roll to recover."""
        team = self.current
        return [h for h in self.must_recover if (x := team.hero(h)) is not None and not x.acted]


def invariants(s: XMenState) -> list[str]:
    """What is wrong with a state: cards lost or duplicated, figures out of place, two leaders
    on one space, a leader past the indicator, a phase that disagrees with the game's end."""
    bad = _cards_kept(s) + _teams_in_place(s)
    for z, zone in enumerate(s.zones):
        bad += _zone_in_order(s, z, zone)
    if (s.phase == "over") != (s.winner is not None or s.ended is not None):
        bad.append("the phase and the game's end disagree")
    if (s.phase == "bonus") != (s.bonus is not None):
        bad.append("the bonus phase and its pending roll disagree")
    if (s.phase == "draw") != (s.drawing is not None):
        bad.append("the draw phase and the card the table draws disagree")
    return bad


def _cards_kept(s: XMenState) -> list[str]:
    d, bad = s.data, []
    alert = s.alert_deck + s.alert_discard + [z.card for z in s.zones if z.card] + \
        [c for t in s.teams for c in t.captured]
    if sorted(alert) != sorted(d.alert_cards(s.advanced)):
        bad.append("X-Men Alert cards were lost or duplicated")
    stats = s.stat_deck + [h.id for t in s.teams for h in t.heroes] + \
        [z.recruit for z in s.zones if z.recruit]
    if sorted(stats) != sorted(d.characters):
        bad.append("Power Stat cards were lost or duplicated")
    luck = s.luck_deck + s.luck_discard + [c for t in s.teams for c in t.held]
    if sorted(luck) != sorted(d.luck_cards(s.advanced)):
        bad.append("Training & Luck cards were lost or duplicated")
    return bad


def _teams_in_place(s: XMenState) -> list[str]:
    d, bad = s.data, []
    limit = d.max_team if s.advanced else 1
    for t in s.teams:
        if len(t.heroes) > limit:
            bad.append(f"{t.player} has {len(t.heroes)} X-Men (at most {limit})")
        if not 0 <= t.mover <= d.track_spaces:
            bad.append(f"{t.player}'s mover is off the Experience Track")
        for h in t.heroes:
            if h.hits < 0:
                bad.append(f"{h.id} has negative hits")
            if h.where != HQ:
                side = s.zones[h.where].side(t.player)
                if side is None or h.id not in side.order:
                    bad.append(f"{h.id} stands in Battle Zone {h.where + 1} outside its team's area")
                # an assumed Durability does not refuse the deployment (battle.unchecked_wounded)
                if h.hits >= d.characters[h.id].durability and s.trusted(h.id):
                    bad.append(f"{h.id} fights with every X symbol covered")
    return bad


def _zone_in_order(s: XMenState, z: int, zone: Zone) -> list[str]:
    d, bad = s.data, []
    if zone.card is None:
        if zone.sides or zone.indicator is not None:
            bad.append(f"Battle Zone {z + 1} is empty but has teams or an indicator")
        return bad
    if not 1 <= zone.indicator <= d.strength_track:
        bad.append(f"Battle Zone {z + 1}'s indicator is off the Strength Track")
    if (zone.recruit is not None) != (d.alert[zone.card].kind == "recruit"):
        bad.append(f"Battle Zone {z + 1}'s recruit and card disagree")
    spaces = [x.position for x in zone.sides if x.position > 0]
    if len(spaces) != len(set(spaces)):
        bad.append(f"two leaders share a space in Battle Zone {z + 1}")
    for x in zone.sides:
        t = s.team(x.player)
        if not x.order or x.order[0] != x.leader:
            bad.append(f"{x.player}'s side in Battle Zone {z + 1} has no leader in front")
        if not 0 <= x.position < zone.indicator:
            bad.append(f"{x.player}'s leader is at or past the indicator without capturing")
        for hid in x.order:
            h = t.hero(hid)
            if h is None or h.where != z:
                bad.append(f"{hid} is listed in Battle Zone {z + 1} but is not there")
    if len({x.player for x in zone.sides}) != len(zone.sides):
        bad.append(f"a team appears twice in Battle Zone {z + 1}")
    return bad
