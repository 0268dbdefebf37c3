"""The Hero Phase: pulls, playing and dropping cubes, defiance, powers resolving, crashing, the
end of the phase (crash damage) and the hero-time expiry."""

from __future__ import annotations

import random

from companion.errors import BadAction
from companion.games import invincible_board as board
from companion.games import invincible_training as training
from companion.games.base import forbid
from companion.games.invincible_data import CUBES, InvincibleData
from companion.games.invincible_state import (
    R_CRASH, R_DEFIANCE, R_HERO, R_HERO_END, R_POWERS, R_PULL, HeroState,
    InvincibleState,
)

WILD = ("black", "red")


def black_count(h: HeroState) -> int:
    """'Every black cube on that hero's board and powers counts toward the limit, including
    cubes sitting in the dropped area.'"""
    on_powers = sum(c == "black" for p in h.powers.values() for c in p.cubes)
    return on_powers + h.ready.count("black") + h.dropped.count("black")


def finished(h: HeroState) -> bool:
    """Stopped by choice (done), or forced to stop by a crash nobody has rescued yet."""
    return h.done or (h.crashed and not h.rescued)


def _in_hero_phase(s: InvincibleState, h: HeroState, what: str) -> None:
    if s.phase != "hero":
        raise forbid(f"{what} only happens in the Hero Phase (now: {s.phase})", R_HERO)
    if s.resolving is not None:
        r = s.resolving
        raise forbid(f"{s.hero(r['hero']).name}'s {r['name']} is resolving: 'each power must "
                     "fully resolve before the next begins'. Apply its effects, then send "
                     "resolved.", R_PULL)
    if h.done:
        raise forbid(f"{h.name} has already stopped for this Hero Phase", R_HERO)


def _take(h: HeroState, cubes: list | None, n: int, rng: random.Random, what: str) -> list[str]:
    if cubes is None:
        pool = [c for c, k in sorted(h.bag.items()) for _ in range(k)]
        return rng.sample(pool, n)
    if not isinstance(cubes, list) or not all(isinstance(c, str) for c in cubes):
        raise BadAction(f"{what}: data.cubes is a list of cube colours")
    cubes = [c.strip().lower() for c in cubes]
    bad = [c for c in cubes if c not in CUBES]
    if bad:
        raise BadAction(f"{what}: unknown cube colour(s) {bad}; colours are {', '.join(CUBES)}")
    if len(cubes) != n:
        raise forbid(f"{what}: pull {n} cube(s) from {h.name}'s bag, not {len(cubes)}", R_PULL)
    for c in set(cubes):
        if cubes.count(c) > h.bag.get(c, 0):
            raise forbid(f"{h.name}'s bag holds only {h.bag.get(c, 0)} {c} cube(s)", R_PULL)
    return cubes


def _draw(h: HeroState, cubes: list[str]) -> None:
    for c in cubes:
        h.bag[c] -= 1


def _crash_check(d: InvincibleData, s: InvincibleState, h: HeroState, pulled: list[str]) -> None:
    """'The instant a hero pulls a fifth black cube, they crash'."""
    if "black" in pulled and black_count(h) >= d.limits["crash_black"]:
        h.crashed, h.can_pull = True, False
        s.say(f"{h.name} pulls a {_ordinal(black_count(h))} black cube and crashes! A teammate "
              "can rescue them before the Hero Phase ends.")


def _returns_black(d, h: HeroState) -> bool:
    """Going to the Limit: 'Black cubes pulled with this power in play are returned to the bag
    before they can cause a crash ... You may pull cubes even in situations that would normally
    stop you'. 'In play' is read as filled this round."""
    return any(p.filled and d.powers[p.power].pull_rule == "return_black" for p in h.powers.values())


def pull(d, s, h: HeroState, cubes, rng, now: float) -> None:
    _in_hero_phase(s, h, "Pulling cubes")
    limitless = _returns_black(d, h)
    if h.crashed and not limitless:
        raise forbid(f"{h.name} has crashed: 'A crashed hero cannot pull any more cubes for the "
                     "rest of the round'", R_CRASH)
    if not h.can_pull and not limitless:
        raise forbid(f"{h.name} took part in a crash rescue: 'neither you nor the crashed hero "
                     "can pull any more cubes this round'", R_CRASH)
    if h.ready:
        raise forbid(f"{h.name} still has {len(h.ready)} cube(s) in the ready area: 'All three "
                     "cubes from a pull must be either played or dropped before you pull again'",
                     R_PULL)
    n = min(d.limits["pull"], sum(h.bag.values()))
    if n == 0:
        raise forbid(f"{h.name}'s bag is empty: send done to stop", R_PULL)
    got = _take(h, cubes, n, rng, "pull")
    _draw(h, got)
    h.pulls += 1
    s.say(f"{h.name} pulls {', '.join(got)}.")
    if limitless and "black" in got:
        back = got.count("black")
        h.bag["black"] += back
        got = [c for c in got if c != "black"]
        s.say(f"Going to the Limit: {back} black cube(s) go back to the bag.")
    h.ready, h.last_pull = list(got), list(got)
    _crash_check(d, s, h, got)
    _maybe_end(d, s, now)


def defiance(d, s, h: HeroState, cubes, rng, now: float) -> None:
    """'you may flip your defiance token face down to set that pull aside, pull three fresh
    cubes, and then return the first three to your ready area — as long as the original pull
    didn't cause you to crash.'"""
    _in_hero_phase(s, h, "Defiance")
    if not h.defiance:
        raise forbid(f"{h.name}'s defiance token is face down: visit Guardians HQ to recharge it",
                     R_DEFIANCE)
    if h.crashed:
        raise forbid("Defiance cannot undo a crash", R_DEFIANCE)
    if not h.last_pull or sorted(h.ready) != sorted(h.last_pull):
        raise forbid("defiance sets aside the three cubes you just pulled, before you play or "
                     "drop any of them", R_DEFIANCE)
    n = min(d.limits["pull"], sum(h.bag.values()))
    if n == 0:
        raise forbid(f"{h.name}'s bag is empty: there is nothing to pull", R_DEFIANCE)
    got = _take(h, cubes, n, rng, "defiance")
    _draw(h, got)
    h.defiance = False
    first = h.ready
    h.ready, h.last_pull = list(got) + first, []
    s.say(f"{h.name} flips defiance: sets aside {', '.join(first)}, pulls {', '.join(got)}.")
    _crash_check(d, s, h, got)
    _maybe_end(d, s, now)


def play(d, s, h: HeroState, cube: str, slot: str, symbol, rng) -> None:
    _in_hero_phase(s, h, "Playing a cube")
    if cube not in h.ready:
        raise forbid(f"{h.name} has no {cube} cube in the ready area", R_PULL)
    if h.crashed and not h.rescued:
        raise forbid(f"{h.name} has crashed: they can use the cubes from that pull only once "
                     "rescued", R_CRASH)
    played = h.powers.get(slot)
    if played is None:
        raise forbid(f"{h.name} has no power in slot {slot!r} (slots: {', '.join(h.powers)})",
                     R_POWERS)
    power = d.powers[played.power]
    if played.filled:
        raise forbid(f"{power.name} is already filled this round: 'Cubes are not removed after a "
                     "power resolves — they stay put, blocking the power'", R_PULL)
    if slot.startswith("under:"):
        above = h.powers.get(slot[6:])
        if above is None or not above.filled:
            raise forbid(f"{power.name} is an Ultimate Power: 'you can't play any cubes on it until "
                         "the Super Power above it is filled'", R_POWERS)
    free = [i for i, c in enumerate(played.cubes) if c is None]
    if symbol is not None:
        if isinstance(symbol, bool) or not isinstance(symbol, int):
            raise BadAction("play: data.symbol is the symbol's index from 0")
        if symbol not in free:
            raise forbid(f"symbol {symbol} of {power.name} is not an open symbol "
                         f"(open: {free})", R_PULL)
        if cube not in WILD and power.symbols[symbol] != cube:
            raise forbid(f"a {cube} cube cannot cover a {power.symbols[symbol]} symbol (only "
                         "black cubes are wild)", R_PULL)
        index = symbol
    else:
        exact = [i for i in free if power.symbols[i] == cube]
        if exact:
            index = exact[0]
        elif cube in WILD:
            index = free[0]
        else:
            raise forbid(f"{power.name} has no open {cube} symbol (open: "
                         f"{', '.join(power.symbols[i] for i in free)}); black cubes are wild",
                         R_PULL)
    h.ready.remove(cube)
    h.last_pull = []
    played.cubes[index] = cube
    if all(c is not None for c in played.cubes):
        # 'the moment a cube covers a power's last remaining symbol, you resolve that power
        # immediately, before playing your next cube'
        played.filled = True
        s.resolving = {"hero": h.id, "slot": slot, "power": power.id, "name": power.name,
                       "effects": list(power.effects), "ranged": power.ranged,
                       "strength": played.strength, "confidence": power.confidence}
        s.say(f"{h.name} fills {power.name}: resolve it now"
              + (f" ({'; '.join(power.effects)})" if power.effects else "") + ".")
    else:
        s.say(f"{h.name} plays {cube} on {power.name}.")


def drop(d, s, h: HeroState, cube: str) -> None:
    _in_hero_phase(s, h, "Dropping a cube")
    if cube not in h.ready:
        raise forbid(f"{h.name} has no {cube} cube in the ready area", R_PULL)
    h.ready.remove(cube)
    h.last_pull = []
    h.dropped.append(cube)
    s.say(f"{h.name} drops {cube}.")


def done(d, s, h: HeroState, now: float) -> None:
    """'Each player's "done" ends their Hero Phase'; cubes left in the ready area are dropped."""
    _in_hero_phase(s, h, "Stopping")
    h.dropped.extend(h.ready)
    h.ready, h.done = [], True
    s.say(f"{h.name} stops for this Hero Phase.")
    _maybe_end(d, s, now)


def resolved(d, s, h: HeroState | None, now: float) -> None:
    r = s.resolving
    if r is None:
        raise forbid("no power is resolving", R_POWERS)
    if h is not None and h.id != r["hero"]:
        raise forbid(f"{s.hero(r['hero']).name}'s {r['name']} is the power resolving", R_POWERS)
    s.resolving = None
    s.say(f"{r['name']} is resolved.")
    if s.phase == "hero_end":
        end_phase(d, s, now)
    else:
        _maybe_end(d, s, now)


def _maybe_end(d, s, now) -> None:
    """'The Hero Phase ends once every player has either chosen to stop pulling or been forced
    to stop by crashing'."""
    if s.phase == "hero" and s.resolving is None and s.result is None and all(
            finished(h) for h in s.heroes):
        end_phase(d, s, now)


def end_phase(d, s, now) -> None:
    if s.timer is not None and s.timer.running:
        s.timer = s.timer.pause(now)
    for h in s.heroes:
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
        training.start(d, s)


def expire(d, s, now: float) -> None:
    """'when it runs out, the phase ends immediately. Heroes may finish resolving any power they
    were already in the middle of, but any cubes still sitting in their ready area count as
    dropped, and any hero who crashed and wasn't rescued rolls crash damage'."""
    s.timer = s.timer.expire(now)
    if s.phase != "hero":
        return
    s.say("Hero time is up: the Hero Phase ends now.")
    for h in s.heroes:
        h.dropped.extend(h.ready)
        h.ready, h.done = [], True
    if s.resolving is not None:
        s.phase = "hero_end"
        s.say(f"{s.resolving['name']} may finish resolving.")
    else:
        end_phase(d, s, now)


def crash_roll(d, s, h: HeroState, faces, rng) -> None:
    """'roll the crash die at the end of the phase and take the damage shown; rolling the "1+"
    face means you take 1 damage and roll again, potentially several times in a row.'"""
    if s.phase != "crash":
        raise forbid("the crash die is rolled at the end of the Hero Phase", R_HERO_END)
    if not (h.crashed and not h.rescued):
        raise forbid(f"{h.name} did not crash (or was rescued): no crash damage", R_HERO_END)
    die = d.crash_die
    if faces is None:
        rolled = [rng.choice(die)]
        while rolled[-1].again:
            rolled.append(rng.choice(die))
    else:
        if isinstance(faces, str):
            faces = [faces]
        if not isinstance(faces, list) or not faces or not all(isinstance(f, str) for f in faces):
            raise BadAction("crash_roll: data.faces is the list of crash die faces rolled, in order")
        by_id = {f.id: f for f in die}
        unknown = [f for f in faces if f not in by_id]
        if unknown:
            raise BadAction(f"crash_roll: {unknown} not faces of the crash die "
                            f"({', '.join(sorted(by_id))})")
        rolled = [by_id[f] for f in faces]
        for f in rolled[:-1]:
            if not f.again:
                raise forbid(f"'{f.id}' ends the crash roll: only the re-roll face is followed "
                             "by another roll", R_CRASH)
    # A camera reads one roll at a time: a sequence ending on the re-roll face applies its damage
    # and waits for the next roll.
    total = sum(f.damage for f in rolled)
    again = rolled[-1].again
    s.say(f"{h.name} rolls the crash die: {', '.join(f.id for f in rolled)}"
          + (" — roll again." if again else "."))
    before = s.kos
    board.hurt_hero(d, s, h.id, total, "crash damage")
    if not again or s.kos > before:
        h.crashed = False  # 'Otherwise, stand their standee back up'
    if s.result is None and not any(x.crashed and not x.rescued for x in s.heroes):
        training.start(d, s)


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")

