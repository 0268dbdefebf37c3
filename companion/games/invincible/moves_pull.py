"""The Hero Phase's cubes: pull, defiance, play, drop and done, crashing, the end of the phase and
the crash die (rulebook: Hero Phase › Pulling and Playing Cubes, Defiance; Crashing).

Each move is a HeroMove (needs.py): what it needs of the hero is declared once below, and serves
the move table's "open", expect's per-hero lists and the refusal alike.
"""

from __future__ import annotations

import random

from companion.games.base import forbid
from companion.games.invincible import board, card_powers, moves_training, resolve
from companion.games.invincible.cube_fit import black_count, can_play, fit, in_play
from companion.games.invincible.needs import HeroMove, Need, unmet
from companion.games.invincible.state import (
    R_CRASH, R_DEFIANCE, R_HERO, R_HERO_END, R_PULL, HeroState, InvincibleState,
)
from companion.games.move_table import Play

def finished(h: HeroState) -> bool:
    """Stopped by choice (done), or forced to stop by a crash nobody has rescued yet."""
    return h.done or (h.crashed and not h.rescued)


def limitless(s: InvincibleState, h: HeroState) -> bool:
    """Going to the Limit and Chain Lightning: 'You may pull cubes even in situations that would
    normally stop you (already crashed, or having just attempted a crash rescue)'."""
    return in_play(s, h, "return_black") or in_play(s, h, "no_crash")


def _bag(h: HeroState) -> int:
    return sum(h.bag.values())


# -- what the moves need ----------------------------------------------------------------------------

def free(s: InvincibleState, h: HeroState) -> bool:
    """'each power must fully resolve before the next begins': table-wide; in the hero-time
    variant each hero's own ('Heroes pull and play independently'), so one hero resolving does
    not hold up the others."""
    return h.id not in s.resolutions if s.hero_time is not None else not s.resolutions


def _resolving(s: InvincibleState, h: HeroState) -> str:
    r = s.resolutions.get(h.id) or s.resolving
    return (f"{s.hero(r['hero']).name}'s {r['name']} is resolving: 'each power must fully resolve "
            "before the next begins'. Answer its effects (effect, or decline what may be skipped).")


IN_PLAY = (
    Need(free, _resolving, R_PULL),
    Need(lambda s, h: not h.done, lambda s, h: f"{h.name} has already stopped for this Hero Phase",
         R_HERO),
)
READY = Need(lambda s, h: bool(h.ready),
             lambda s, h: f"{h.name} has no cube in the ready area: pull first", R_PULL)


# -- the moves --------------------------------------------------------------------------------------

def _take(h: HeroState, cubes: list[str] | None, n: int, rng: random.Random, what: str) -> list[str]:
    if cubes is None:
        pool = [c for c, k in sorted(h.bag.items()) for _ in range(k)]
        return rng.sample(pool, n)
    if len(cubes) != n:
        raise forbid(f"{what}: pull {n} cube(s) from {h.name}'s bag, not {len(cubes)}", R_PULL)
    for c in set(cubes):
        if cubes.count(c) > h.bag.get(c, 0):
            raise forbid(f"{h.name}'s bag holds only {h.bag.get(c, 0)} {c} cube(s)", R_PULL)
    return cubes


def _draw(s: InvincibleState, h: HeroState, cubes: list[str], rng, what: str) -> list[str]:
    """``cubes`` (None: a virtual pull) out of the fork's own ``h``'s bag."""
    got = _take(h, cubes, min(s.data.limits["pull"], _bag(h)), rng, what)
    for c in got:
        h.bag[c] -= 1
    return got


def _crash_check(s: InvincibleState, h: HeroState, pulled: list[str]) -> None:
    """'The instant a hero pulls a fifth black cube, they crash'; Chain Lightning: 'Pulling a
    black cube with this power in play doesn't force an immediate crash'."""
    if "black" in pulled and black_count(h) >= s.data.limits["crash_black"] and not in_play(
            s, h, "no_crash"):
        h.crashed, h.can_pull = True, False
        s.say(f"{h.name} pulls a {_ordinal(black_count(h))} black cube and crashes! A teammate "
              "can rescue them before the Hero Phase ends.")
        card_powers.autosave_trigger(s, h)


def _to_the_limit(s: InvincibleState, h: HeroState, got: list[str]) -> list[str]:
    """Going to the Limit: 'Black cubes pulled with this power in play are returned to the bag
    before they can cause a crash; this is not optional' (a pull, or defiance's fresh one)."""
    if in_play(s, h, "return_black") and "black" in got:
        back = got.count("black")
        h.bag["black"] += back
        s.say(f"Going to the Limit: {board.counted(back, 'black cube')} go back to the bag.")
        return [c for c in got if c != "black"]
    return got


def _pull(state: InvincibleState, play: Play, hero: HeroState) -> InvincibleState:
    s = state.fork()
    h = s.own_hero(hero.id)
    got = _draw(s, h, play.args["cubes"], play.rng, "pull")
    h.pulls += 1
    s.say(f"{h.name} pulls {', '.join(got)}.")
    got = _to_the_limit(s, h, got)
    h.ready, h.last_pull = list(got), list(got)
    _crash_check(s, h, got)
    maybe_end(s, _now(play))
    return s


#: a crash rescue tried: 'neither you nor the crashed hero can pull any more cubes this round',
#: fresh cubes by defiance included
RESCUE_TRIED = Need(lambda s, h: h.can_pull or limitless(s, h),
                    lambda s, h: f"{h.name} took part in a crash rescue: 'neither you nor the "
                                 "crashed hero can pull any more cubes this round'", R_CRASH)

CLEARED = Need(lambda s, h: not h.ready,
               lambda s, h: f"{h.name} still has {len(h.ready)} cube(s) in the ready area: 'All "
                            "three cubes from a pull must be either played or dropped before you "
                            "pull again'", R_PULL)

PULL = HeroMove(
    _pull, *IN_PLAY,
    Need(lambda s, h: not h.crashed or limitless(s, h),
         lambda s, h: f"{h.name} has crashed: 'A crashed hero cannot pull any more cubes for the "
                      "rest of the round'", R_CRASH),
    RESCUE_TRIED,
    CLEARED,
    Need(lambda s, h: _bag(h) > 0, lambda s, h: f"{h.name}'s bag is empty: send done to stop",
         R_PULL),
)


def pulls_once_cleared(s: InvincibleState, h: HeroState) -> bool:
    """Whether the cubes in the ready area are all that keeps ``h`` from pulling: 'All three
    cubes from a pull must be either played or dropped before you pull again'. PULL's own needs,
    so the next step's "then pull again" is what the pull then accepts."""
    return unmet(tuple(n for n in PULL.needs if n is not CLEARED), s, h) is None


def _defiance(state: InvincibleState, play: Play, hero: HeroState) -> InvincibleState:
    """'you may flip your defiance token face down to set that pull aside, pull three fresh
    cubes, and then return the first three to your ready area — as long as the original pull
    didn't cause you to crash.'"""
    s = state.fork()
    h = s.own_hero(hero.id)
    got = _draw(s, h, play.args["cubes"], play.rng, "defiance")
    h.defiance = False
    first = h.ready
    s.say(f"{h.name} flips defiance: sets aside {', '.join(first)}, pulls {', '.join(got)}.")
    got = _to_the_limit(s, h, got)
    h.ready, h.last_pull = got + first, []
    _crash_check(s, h, got)
    maybe_end(s, _now(play))
    return s


DEFIANCE = HeroMove(
    _defiance, *IN_PLAY,
    Need(lambda s, h: h.defiance,
         lambda s, h: f"{h.name}'s defiance token is face down: visit Guardians HQ to recharge it",
         R_DEFIANCE),
    Need(lambda s, h: not h.crashed, lambda s, h: "Defiance cannot undo a crash", R_DEFIANCE),
    RESCUE_TRIED,
    Need(lambda s, h: bool(h.last_pull) and sorted(h.ready) == sorted(h.last_pull),
         lambda s, h: "defiance sets aside the three cubes you just pulled, before you play or "
                      "drop any of them", R_DEFIANCE),
    Need(lambda s, h: _bag(h) > 0,
         lambda s, h: f"{h.name}'s bag is empty: there is nothing to pull", R_DEFIANCE),
)


def _play(state: InvincibleState, play: Play, hero: HeroState) -> InvincibleState:
    cube, slot = play.args["cube"], play.args["power"]
    if cube not in hero.ready:
        raise forbid(f"{hero.name} has no {cube} cube in the ready area", R_PULL)
    index = fit(state, hero, cube, slot, play.args["symbol"])
    if index.__class__ is not int:
        raise index()
    s = state.fork()
    h = s.own_hero(hero.id)
    h.ready.remove(cube)
    h.last_pull = []
    old = h.powers[slot]
    cubes = list(old.cubes)
    cubes[index] = cube
    h.powers[slot] = played = old.with_cubes(cubes)
    if played.filled:
        # 'the moment a cube covers a power's last remaining symbol, you resolve that power
        # immediately, before playing your next cube'
        resolve.open_power(s, h, slot, _now(play))
    else:
        s.say(f"{h.name} plays {cube} on {s.data.powers[played.power].name}.")
    return s


PLAY = HeroMove(
    _play, *IN_PLAY, READY,
    Need(lambda s, h: not (h.crashed and not h.rescued),
         lambda s, h: f"{h.name} has crashed: they can use the cubes from that pull only once "
                      "rescued", R_CRASH),
    choice=can_play,
)


def _drop(state: InvincibleState, play: Play, hero: HeroState) -> InvincibleState:
    cube = play.args["cube"]
    if cube not in hero.ready:
        raise forbid(f"{hero.name} has no {cube} cube in the ready area", R_PULL)
    s = state.fork()
    h = s.own_hero(hero.id)
    h.ready.remove(cube)
    h.last_pull = []
    h.dropped.append(cube)
    s.say(f"{h.name} drops {cube}.")
    return s


DROP = HeroMove(_drop, *IN_PLAY, READY, Need(
    lambda s, h: not (h.crashed and not h.rescued),
    lambda s, h: f"{h.name} has crashed: 'leave the three cubes you just pulled in your ready "
                 "area' (a rescue lets them use the cubes)", R_CRASH))


def _done(state: InvincibleState, play: Play, hero: HeroState) -> InvincibleState:
    """'Each player's "done" ends their Hero Phase'; cubes left in the ready area are dropped."""
    s = state.fork()
    h = s.own_hero(hero.id)
    h.dropped.extend(h.ready)
    h.ready, h.done = [], True
    s.say(f"{h.name} stops for this Hero Phase.")
    maybe_end(s, _now(play))
    return s


DONE = HeroMove(_done, *IN_PLAY, Need(
    lambda s, h: not (h.crashed and not h.rescued),
    lambda s, h: f"{h.name} has crashed and already stopped: 'leave the three cubes you just "
                 "pulled in your ready area' (a rescue lets them use the cubes)", R_CRASH))


# -- the end of the Hero Phase ---------------------------------------------------------------------

def maybe_end(s: InvincibleState, now: float) -> None:
    """'The Hero Phase ends once every player has either chosen to stop pulling or been forced
    to stop by crashing'."""
    if s.phase == "hero" and not s.resolutions and s.result is None and all(
            finished(h) for h in s.heroes):
        end_phase(s, now)


def end_phase(s: InvincibleState, now: float) -> None:
    if s.timer is not None and s.timer.running:
        s.timer = s.timer.pause(now)
    for h in s.own_heroes():
        h.dropped.extend(h.ready)
        h.ready = []
        if h.rescued:
            h.crashed = False   # 'Stand the crashed hero's standee back up'
    waiting = [h.name for h in s.heroes if h.crashed and not h.rescued]
    if waiting:
        s.phase = "crash"
        s.say("The Hero Phase ends. Crashed and not rescued: " + ", ".join(waiting)
              + ": roll the crash die.")
    else:
        s.say("The Hero Phase ends.")
        moves_training.start(s)


def _crash_roll(state: InvincibleState, play: Play, hero: HeroState) -> InvincibleState:
    """'roll the crash die at the end of the phase and take the damage shown; rolling the "1+"
    face means you take 1 damage and roll again, potentially several times in a row.'"""
    die = state.data.crash_die
    faces = play.args["faces"]
    if faces is None:
        rolled = [play.rng.choice(die)]
        while rolled[-1].again:
            rolled.append(play.rng.choice(die))
    else:
        by_id = {f.id: f for f in die}
        rolled = [by_id[f] for f in faces]
        for f in rolled[:-1]:
            if not f.again:
                raise forbid(f"'{f.id}' ends the crash roll: only the re-roll face is followed "
                             "by another roll", R_CRASH)
    # A camera reads one roll at a time: a sequence ending on the re-roll face applies its damage
    # and waits for the next roll.
    s = state.fork()
    again = rolled[-1].again
    s.say(f"{hero.name} rolls the crash die: {', '.join(f.id for f in rolled)}"
          + (" — roll again." if again else "."))
    before = s.kos
    board.hurt_hero(s, hero.id, sum(f.damage for f in rolled), "crash damage")
    if not again or s.kos > before:
        s.own_hero(hero.id).crashed = False  # 'Otherwise, stand their standee back up'
    if s.result is None and not any(x.crashed and not x.rescued for x in s.heroes):
        moves_training.start(s)
    return s


CRASH_ROLL = HeroMove(
    _crash_roll,
    Need(lambda s, h: h.crashed and not h.rescued,
         lambda s, h: f"{h.name} did not crash (or was rescued): no crash damage", R_HERO_END),
)


def _now(play: Play) -> float:
    return play.action.at if play.action.at is not None else 0.0


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")

