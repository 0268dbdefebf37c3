"""Which throw a read of the tray is, so that one throw is never two players' rolls.

A throw begins when the tray moves after a read, or at a Read dice press over a still tray (the
press asks for the roll expected then). A read is of the throw that began before it: a roll
entered since by another channel (typed on a phone, a button), or the same throw's earlier read
confirmed, is that throw's roll, and the read is not used again for the next roll. A press over
dice already read is refused until they move, while their roll is the table's (an undo of it
leaves them to be read again).

A press decides and a read is handed to the session in turn (``turn``, a lock): a press in the
moment a read was being journaled once found "not read yet" and had the same dice read again as
the next player's roll.
"""

from __future__ import annotations

import math
import threading
import time
from typing import Any

from companion.actions import Action
from companion.errors import IllegalAction, Stale

# how a roll entered by another channel is named to the table (the Last roll panel's words)
ENTERED_BY = {"dashboard": "on a phone", "button": "with a table button",
              "serial": "on the table controller", "token": "with a token", "api": "by a script"}
SEEN_S = 0.5        # a press over dice already read waits this long for frames taken after it
AGAIN_S = 1.0       # ... but not again so soon after a refusal (a storm of presses on one worker)
READ_ALREADY = ("the dice in the tray were read already and have not moved since: throw them "
                "for this roll (or enter it by hand)")


class Throws:
    """The camera's reads, the Read dice presses and the table's rolls, kept apart."""

    def __init__(self, session):
        self.session = session
        self.watcher = None         # the camera's (vision/watcher.py), set once it is made
        self.turn = threading.Lock()
        self.at = session.clock()   # when the throw being read began (the session's clock)
        self.reads: set[str] = set()   # the reads of that throw (over moving dice, then settled)
        self.game = session.view().get("game_id")   # the game it began in
        self.open = False           # the tray moved since the latest settled read
        self.taken = False          # the latest read became a move (the roll, a read, or its own)
        self.seen_s = SEEN_S
        self._refused_at = -math.inf

    def began(self) -> None:
        """The tray moved after a read (the watcher's ``on_throw``)."""
        with self.turn:
            if not self.open:       # a read over moving dice leaves the same throw open
                self.open = True
                self._new()

    def press(self) -> None:
        """A Read dice press: IllegalAction over dice already read that have not moved; else the
        read it asks for is of the throw under way, or of a still tray for the roll asked now."""
        if self.taken and time.monotonic() - self._refused_at > AGAIN_S:
            self.watcher.moving_now(self.seen_s)       # a throw a moment ago: let it be seen
        with self.turn:
            if self.refusal():
                self._refused_at = time.monotonic()
                raise IllegalAction(READ_ALREADY)
            if not self.open or self._rolled():
                # a still tray, or one that never looks still (flickering light: every read is
                # over "moving" dice) whose throw's roll was taken already: a new throw
                self.open = True
                self._new()

    def refusal(self) -> str | None:
        """Why a press would be refused now (the Devices page asks too), without waiting."""
        if self.taken and not self.watcher.settle.armed and self._still_the_roll():
            return READ_ALREADY
        return None

    def asked_now(self) -> None:
        """A read of a frame in hand (no watcher): of the roll asked now."""
        with self.turn:
            self._new()

    def handed(self, taken: bool) -> None:
        """A read was handed to the session (``taken``: it became a move, or was this throw's
        already); under ``turn``."""
        self.taken = taken
        self.open = self.open and self.watcher is not None and self.watcher.read_moving

    def submit(self, action: Action, read_id: str) -> dict[str, Any] | None:
        """Submit the read ``read_id`` of this throw, unless its roll was entered meanwhile:
        then that roll (the last roll's record) is returned and nothing is journaled; so is
        ``{"game": True}`` for a throw that began in a game since put away. A roll
        confirmed meanwhile from an earlier throw's read is not this one's. Looked at and taken
        on the same table (``if_seq``); under ``turn``."""
        self.reads.add(read_id)
        for _ in range(10):
            view = self.session.view()
            if self.game is not None and view.get("game_id") != self.game:
                return {"game": True}   # the throw began in a game since put away
            roll = view.get("last_roll")
            if (roll and roll.get("at") is not None and roll["at"] > self.at
                    and roll.get("read") in (None, *self.reads)):
                return roll
            try:
                self.session.submit(action, if_seq=view["seq"])
                return None
            except Stale:
                continue      # the table changed between the look and the read: look again
        raise Stale("the table kept changing while the camera's read waited: throw again")

    def _rolled(self) -> bool:
        """A read of the throw under way became the table's roll."""
        roll = self.session.view().get("last_roll")
        return bool(roll) and roll.get("read") in self.reads

    def _still_the_roll(self) -> bool:
        """The throw's roll is still the table's: one undone (a roll typed by mistake while the
        dice rolled) leaves the dice in the tray to be read for it."""
        roll = self.session.view().get("last_roll")
        return bool(roll) and (roll.get("read") in self.reads
                               or (roll.get("at") is not None and roll["at"] > self.at))

    def _new(self) -> None:
        self.at, self.reads = self.session.clock(), set()
        self.game = self.session.view().get("game_id")


def entered_words(roll: dict[str, Any]) -> str:
    """What the table is told of a read not used: its throw's roll was entered already."""
    if roll.get("game"):
        return ("the dice were thrown before this game began: the camera's read of them is not "
                "used; throw them for this game's roll")
    if roll.get("read") is not None:
        return ("these dice were read already (the camera's first read of them was taken): the "
                "read is not used again; throw again for the next roll")
    how = ENTERED_BY.get(roll.get("source"), "by hand")
    return (f"the roll was entered {how} while the dice rolled: the camera's read of the same "
            "throw is not used; throw again for the next roll")
