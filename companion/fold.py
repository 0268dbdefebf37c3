"""The fold: what one journal entry does to the table, as a pure function.

``state = fold(step, actions, setup(seed))``: the session applies each journaled action with
``step`` (and replays the journal with it at start-up); nothing here holds a lock, writes the
journal or publishes. The table is the game's state, the table's own timers, and a camera read
that waits for the players' confirmation.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from companion import dice_reads, last_roll
from companion.actions import Action
from companion.dice import requests
from companion.errors import Conflict, IllegalAction
from companion.games.base import Game
from companion.timers import TIMER_ACTIONS, Timer, check_timer_action


@dataclass
class Table:
    """Everything the journal folds to: the game's state, the table's own timers, a camera
    read that waits for the players' confirmation, and the newest roll, whatever channel
    entered it (companion/last_roll.py)."""

    game: Any
    timers: dict[str, Timer] = field(default_factory=dict)
    dice_read: dict[str, Any] | None = None
    last_roll: dict[str, Any] | None = None


def step(engine: Game, table: Table, action: Action, rng: random.Random,
         read_threshold: float, expect: dict[str, Any] | None = None) -> Table:
    """The table after ``action`` (stamped with the server's time), or the refusal.
    ``expect``: ``engine.expect(table.game)`` where the caller has it already (the session's
    latest view); read, never changed."""
    status = engine.outcome(table.game)
    if status["status"] != "playing" and not action.type.startswith("timer."):
        raise IllegalAction(
            f"the game is over ({status['status']}: {status.get('reason', '')}); "
            "undo the last action or start a new game"
        )
    if action.type in TIMER_ACTIONS:
        name = check_timer_action(action)["name"]     # a name that is not a name refused here
        if name in engine.timers(table.game):
            return replace(table, game=engine.apply(table.game, action, rng))
        return replace(table, timers=apply_timer(table.timers, action))
    if expect is None:
        expect = engine.expect(table.game)
    if action.type in dice_reads.READ_ACTIONS:
        return _read(engine, table, action, rng, read_threshold, expect)
    # Any other action settles the table's dice: a waiting read is stale now, while a
    # confirmed one stays on show as the last roll until another roll replaces it.
    # a roll expect asks for, or one a camera read may stand for, entered by hand instead
    pulled = (last_roll.as_read(expect, _stood_for(engine, table.game, action), action)
              if action.type in engine.read_types else None)
    rolled = pulled is not None or last_roll.is_roll(expect, action)
    read = table.dice_read if table.dice_read and table.dice_read["confirmed"] and not rolled else None
    game = engine.apply(table.game, action, rng)
    roll = (last_roll.record(pulled or expect, action, engine.to_json(game),
                             before=_log(engine, table.game),
                             whose=pulled["player"] if pulled else None) if rolled
            else table.last_roll)
    return Table(game, table.timers, read, roll)


def _read(engine: Game, table: Table, action: Action, rng: random.Random,
          threshold: float, expect: dict[str, Any]) -> Table:
    waiting = table.dice_read if table.dice_read and not table.dice_read["confirmed"] else None
    if action.type == "dice.dismiss":
        if waiting is None:
            raise IllegalAction("there is no dice read waiting to be dismissed")
        return replace(table, dice_read=None)
    extra = engine.read_requests(table.game)
    if action.type == "dice.confirm":
        if waiting is None or action.data.get("id") not in (None, waiting["id"]):
            raise Conflict("that dice read is no longer waiting: the table has moved on")
        read = dice_reads.confirmed(waiting, *dice_reads.check_changes(action.data))
    else:
        dice_reads.check_source(action.data, requests(expect) + extra)
        read = dice_reads.proposal(action, dice_reads.check_dice(action.data), threshold)
        if read["doubtful"]:
            return replace(table, dice_read=dice_reads.unsure(read, expect, extra, action.player))
    # a confirmed read keeps the roll and the reader it was read for, whoever taps confirm
    player = read.get("player") or action.player
    request = dice_reads.chosen(expect, extra, read["set"], player)
    if action.type == "dice.confirm":
        dice_reads.check_count(request, read)
    elif dice_reads.miscounted(request, read):
        return replace(table, dice_read=dice_reads.with_roll(
            {**read, "confirmed": False, "miscounted": True}, expect, extra))
    game_action = dice_reads.action_for(expect, request, read["faces"], player,
                                        action.source).stamped(action.at)
    game = engine.apply(table.game, game_action, rng)
    return Table(game, table.timers, read,
                 last_roll.record({**(expect or {}), "dice": [request.to_json()]}, game_action,
                                  engine.to_json(game), read,
                                  before=_log(engine, table.game)))


def _log(engine: Game, game: Any) -> list[str] | None:
    """The game's log before a roll (companion/last_roll.py finds the roll's own line after
    it): the state's own list where it has one (a copy: a move may add to it in place), else
    its JSON's, which costs a whole state's JSON on every roll."""
    log = getattr(game, "log", None)
    return list(log) if isinstance(log, list) else engine.to_json(game).get("log")


def _stood_for(engine: Game, game: Any, action: Action) -> list:
    """The requests an action of ``action``'s type may stand for: a read's, or else a draw's
    (asked only then: a pull, most of Invincible's entered rolls, needs no defiance's)."""
    reads = engine.read_requests(game)
    if any(r.action == action.type for r in reads):
        return reads
    return engine.drawn_requests(game)


def apply_timer(timers: dict[str, Timer], action: Action) -> dict[str, Timer]:
    """The table's own timers (a plain turn timer for any game)."""
    args = check_timer_action(action)
    name, now = args["name"], action.at
    timers = dict(timers)
    if action.type == "timer.start":
        timers[name] = Timer(name, args["label"], args["seconds"], warn=args["warn"]).start(now)
        return timers
    timer = timers.get(name)
    if timer is None:
        raise IllegalAction(f"there is no timer called {name!r} to {action.type[6:]}")
    if action.type == "timer.pause":
        timers[name] = timer.pause(now)
    elif action.type == "timer.resume":
        if timer.expired:
            raise IllegalAction(f"the {timer.label} timer has run out: start it again instead")
        timers[name] = timer.resume(now)
    elif action.type == "timer.add":
        timers[name] = timer.add(args["seconds"])
    elif action.type == "timer.cancel":
        del timers[name]
    elif action.type == "timer.expire":
        if not timer.running:
            raise IllegalAction(f"the {timer.label} timer is not running")
        if timer.remaining(now) > 0.5:
            raise IllegalAction(f"the {timer.label} timer still has time left")
        timers[name] = timer.expire(now)
    return timers
