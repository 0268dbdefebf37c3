"""The Incredibles' state: plain dataclasses that serialise to JSON, the rulebook's section names,
the board queries every part asks (which spaces a mover reaches, which problem stands where),
and the checks every state must pass.

States are never changed once made: a move works on ``fork()``, a copy whose lists and dicts are
its own, and replaces a mover or a track slot rather than changing it, since the records inside
are shared with the state it came from.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any

from companion.games.incredibles.data import IncrediblesData
from companion.games.move_table import data_field

# Rulebook sections, named the way the rulebook's contents name them.
R_SETUP = "Set Up"
R_ROLL = "On Your Turn › 1. Roll the Movement Die"
R_ALARM = "On Your Turn › 2. If you roll an Alarm symbol"
R_MOVE = "On Your Turn › 3. Move your Mover"
R_FIX = "On Your Turn › 4. Try to fix a problem"
R_PROBLEM = "Card Types › Problem Cards"
R_ROAD = "Card Types › Road Destroyed Cards"
R_FROZONE = "Card Types › Frozone Cards"
R_JACKJACK = "Card Types › Jack-Jack Cards"
R_EDNA = "Card Types › Edna Cards"
R_EMPTY = "Card Types › IMPORTANT (the cards run out)"
R_END = "Ending the Game"

LOG_LENGTH = 30
REACHABLE_KEPT = 4096   # answers of reachable() kept per game data (a board has some 40 spaces)


@dataclass
class Mover:
    hero: str
    name: str       # the player's name, or the hero's
    space: str


@dataclass
class Slot:
    card: str
    tile: str
    power: str
    face_up: bool


@dataclass
class IncrediblesState:
    movers: list[Mover]
    track: list[Slot | None]
    deck: list[str]                       # top first
    tiles: dict[str, str]                 # letter -> "problem" | "safe"
    jackjack: str | None                  # his die's space; None once rescued
    turn: int = 0
    round: int = 1
    phase: str = "roll"                   # roll | choose | move | fix | over
    roll: dict[str, Any] | None = None
    pending: dict[str, Any] | None = None
    discard: list[str] = field(default_factory=list)
    rubble: list[str] = field(default_factory=list)
    last_card: str | None = None
    too_late: Slot | None = None
    last_fix: dict[str, Any] | None = None
    log: list[str] = field(default_factory=list)
    # the last move went unchecked on the assumed board: the reminder, until the next roll
    unchecked: str | None = None
    # what the latest Alarm's card did, in words (the table shows it under the Last card; the
    # log, on the phones, has it among everything else)
    alarm_said: list[str] = field(default_factory=list)
    data: IncrediblesData = data_field()

    def fork(self) -> "IncrediblesState":
        """A copy to make the next state from: its lists and dicts are its own (a shallow copy
        each), the records in them are shared (replace them, never change them)."""
        return IncrediblesState(
            list(self.movers), list(self.track), list(self.deck), dict(self.tiles),
            self.jackjack, self.turn, self.round, self.phase, self.roll, self.pending,
            list(self.discard), list(self.rubble), self.last_card, self.too_late,
            self.last_fix, list(self.log), self.unchecked, list(self.alarm_said), data=self.data)

    @property
    def mover(self) -> Mover:
        """The mover whose turn it is."""
        return self.movers[self.turn]

    def mover_of(self, hero: str) -> Mover:
        return next(m for m in self.movers if m.hero == hero)

    def place(self, hero: str, space: str) -> Mover:
        """Put ``hero``'s mover on ``space`` (on a fork); returns the new mover."""
        i = next(i for i, m in enumerate(self.movers) if m.hero == hero)
        self.movers[i] = replace(self.movers[i], space=space)
        return self.movers[i]

    def reachable(self, start: str, steps: int) -> list[str]:
        """Spaces a mover can end on within ``steps``, never onto or through rubble."""
        # The same few questions come back every turn (the random player's, the move's check,
        # the view's): the answers are kept with the game's data, which they depend on.
        known = self.data.__dict__.setdefault("_reachable", {})
        key = (start, steps, tuple(self.rubble))
        found = known.get(key)
        if found is None:
            if len(known) >= REACHABLE_KEPT:
                known.clear()
            found = known[key] = self._reachable(start, steps)
        return list(found)

    def _reachable(self, start: str, steps: int) -> tuple[str, ...]:
        adjacency, rubble = self.data.adjacency, self.rubble
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if seen[here] == steps:
                continue
            for nxt in adjacency[here]:
                if nxt not in seen and nxt not in rubble:
                    seen[nxt] = seen[here] + 1
                    queue.append(nxt)
        return tuple(sorted(seen, key=self.data.rank.__getitem__))

    def slot_for(self, space: str) -> Slot | None:
        """The face-up problem on ``space``, if one is there."""
        for slot in self.track:
            if slot is not None and slot.face_up and slot.tile == space:
                return slot
        return None


def setting_up(s: IncrediblesState) -> bool:
    """The table is naming the starting Problem Cards it selected (option starting_problems =
    "drawn"): the track fills up before the first turn, and stays full from then on."""
    return s.phase == "draw" and len(s.track) < s.data.track_spaces


def playing(s: IncrediblesState) -> bool:
    """Whether outcome(s) is "playing", without building its answer (asked several times an
    action: the move's check, what is open, the end of the game after it)."""
    if s.too_late is not None and s.too_late.face_up:
        return False
    return s.jackjack is not None or any(slot is not None and slot.face_up for slot in s.track)


def outcome(s: IncrediblesState) -> dict[str, Any]:
    """ "If a face-up Problem Card slides onto 'Too Late!', the game is over" (lost); won when
    every problem is fixed and Jack-Jack is rescued."""
    if s.too_late is not None and s.too_late.face_up:
        return {"status": "lost", "reason": f"problem {s.too_late.tile} reached \"Too Late!\"",
                "rule": R_END}
    if s.jackjack is None and all(slot is None or not slot.face_up for slot in s.track):
        return {"status": "won", "reason": "every problem is fixed and Jack-Jack is rescued",
                "rule": R_END}
    return {"status": "playing"}


def invariants(s: IncrediblesState) -> list[str]:
    """What is wrong with a state: cards lost or duplicated, tiles that disagree with their
    cards, movers off the board or on rubble, a pending choice out of its phase."""
    d, bad = s.data, []
    on_track = [slot.card for slot in s.track if slot is not None]
    cards = s.deck + s.discard + on_track + ([s.too_late.card] if s.too_late else [])
    if sorted(cards) != sorted(d.cards):
        bad.append("cards were lost or duplicated between deck, track and discard")
    if len(s.track) > d.track_spaces:
        bad.append("the Problem Track is longer than the board's")
    for letter, side in s.tiles.items():
        face_up = any(slot and slot.tile == letter and slot.face_up for slot in s.track)
        lost_here = s.too_late is not None and s.too_late.tile == letter
        if (side == "problem") != (face_up or lost_here):
            bad.append(f"tile {letter} shows {side} but its card disagrees")
    for m in s.movers:
        if m.space not in d.adjacency:
            bad.append(f"{m.name} stands on unknown space {m.space}")
        if m.space in s.rubble and s.phase != "choose":
            bad.append(f"{m.name} stands on rubble at {m.space}")
    if len(s.rubble) > len(set(s.rubble)):
        bad.append("rubble placed twice on one space")
    if (s.phase == "choose") != (s.pending is not None):
        bad.append("a pending choice and the phase disagree")
    return bad
