"""The X-Men Alert game's state: plain dataclasses that serialise to JSON, with a fast copy.

``clone`` copies by hand rather than with ``copy.deepcopy``: random playouts apply hundreds of
thousands of actions, and a hand copy of these small records is many times quicker.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

HQ = -1   # Hero.where when the figure stands on its Power Stat card

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

    def clone(self) -> "Hero":
        return Hero(self.id, self.hits, self.where, self.acted)


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

    def clone(self) -> "Team":
        return Team(self.player, [h.clone() for h in self.heroes], self.mover,
                    list(self.captured), list(self.held), self.cerebro, dict(self.boosts),
                    self.bonus_dice)


@dataclass
class Side:
    """One team in one Battle Zone: its leader's space on the Strength Track and its figures."""
    player: str
    leader: str
    order: list[str]               # who fights, leader first, then the backers
    position: int = 0              # 0: in the Deployment Area, not yet on the track
    started: bool = False          # the team has rolled here: joining now needs flight

    def clone(self) -> "Side":
        return Side(self.player, self.leader, list(self.order), self.position, self.started)


@dataclass
class Zone:
    card: str | None = None        # the X-Men Alert card on the large X
    recruit: str | None = None     # the Power Stat card being recruited (Advanced)
    indicator: int | None = None   # the Strength Indicator's space; None on the centre X
    sides: list[Side] = field(default_factory=list)

    def clone(self) -> "Zone":
        return Zone(self.card, self.recruit, self.indicator, [x.clone() for x in self.sides])

    def side(self, player: str) -> Side | None:
        for x in self.sides:
            if x.player == player:
                return x
        return None


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
    phase: str = "first"           # first | play | bonus | over
    turn: int = 0
    starter: int = 0               # who went first: a round ends when play comes back to him
    round: int = 0
    stage: str = "battle"          # battle | recruit | recover: the turn's steps 2, 3 and 4
    zone_open: int | None = None   # the zone where the team is midway through its fights
    must_recover: list[str] = field(default_factory=list)
    first_rolls: dict[str, int] = field(default_factory=dict)
    first_to_roll: list[str] = field(default_factory=list)
    bonus: dict[str, int] | None = None    # pending Step 5 with Experience Bonus dice
    last_roll: dict[str, Any] | None = None
    winner: str | None = None
    ended: str | None = None       # why the game ended without a winner
    log: list[str] = field(default_factory=list)

    def clone(self) -> "XMenState":
        return XMenState(
            self.advanced, [t.clone() for t in self.teams], [z.clone() for z in self.zones],
            list(self.alert_deck), list(self.alert_discard), list(self.stat_deck),
            list(self.luck_deck), list(self.luck_discard), self.options, self.phase, self.turn,
            self.starter, self.round, self.stage, self.zone_open, list(self.must_recover),
            dict(self.first_rolls), list(self.first_to_roll),
            dict(self.bonus) if self.bonus is not None else None,
            self.last_roll, self.winner, self.ended, list(self.log))

    # -- lookups ------------------------------------------------------------------------------

    def team(self, player: str) -> Team:
        for t in self.teams:
            if t.player == player:
                return t
        raise KeyError(player)

    @property
    def current(self) -> Team:
        return self.teams[self.turn]

    def hero(self, team: Team, hero_id: str) -> Hero | None:
        for h in team.heroes:
            if h.id == hero_id:
                return h
        return None
