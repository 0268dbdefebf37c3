"""Which ready cube fits which symbol of which power (Hero Phase › Pulling and Playing Cubes;
Chain Lightning's black-cube limit): the play's own check with its refusal (``fit``), and the
quick questions the random player, expect and PLAY's ``when`` ask of every cube and slot.
"""

from __future__ import annotations

from companion.games.base import forbid
from companion.games.invincible.state import R_CLARIFY, R_POWERS, R_PULL, HeroState, InvincibleState

WILD = ("black", "red")


def black_count(h: HeroState) -> int:
    """'Every black cube on that hero's board and powers counts toward the limit, including
    cubes sitting in the dropped area.'"""
    on_powers = sum(c == "black" for p in h.powers.values() for c in p.cubes)
    return on_powers + h.ready.count("black") + h.dropped.count("black")


def in_play(s: InvincibleState, h: HeroState, rule: str) -> bool:
    """A filled power of ``h`` with ``pull_rule`` ``rule``: 'in play' is read as filled this
    round."""
    powers = s.data.powers
    return any(p.filled and powers[p.power].pull_rule == rule for p in h.powers.values())


def _too_black(s: InvincibleState, h: HeroState) -> bool:
    """Chain Lightning: 'you still can't play a black cube if doing so would cause you to
    crash'. Black cubes it lets wait in the ready area are counted once played or dropped."""
    if not in_play(s, h, "no_crash"):    # the rare case first: most heroes have no such power
        return False
    on_board = sum(c == "black" for p in h.powers.values() for c in p.cubes)
    return on_board + h.dropped.count("black") + 1 >= s.data.limits["crash_black"]


def fit(s: InvincibleState, h: HeroState, cube: str, slot: str, symbol: int | None = None):
    """The symbol ``cube`` would cover on the power in ``slot`` (``symbol``: the one asked for),
    or a function that makes the refusal saying why it cannot go there (made only when it is
    raised: the Hero Phase asks this of every cube and slot)."""
    played = h.powers.get(slot)
    if played is None:
        return lambda: forbid(f"{h.name} has no power in slot {slot!r} (slots: "
                              f"{', '.join(h.powers)})", R_POWERS)
    power = s.data.powers[played.power]
    if cube == "black" and _too_black(s, h):
        return lambda: forbid(f"Chain Lightning: {h.name} 'still can't play a black cube if doing "
                              "so would cause you to crash'", R_CLARIFY)
    if played.filled:
        return lambda: forbid(f"{power.name} is already filled this round: 'Cubes are not "
                              "removed after a power resolves — they stay put, blocking the "
                              "power'", R_PULL)
    if slot.startswith("under:"):
        above = h.powers.get(slot[6:])
        if above is None or not above.filled:
            return lambda: forbid(f"{power.name} is an Ultimate Power: 'you can't play any cubes "
                                  "on it until the Super Power above it is filled'", R_POWERS)
    cubes, symbols = played.cubes, power.symbols
    if symbol is not None:
        if symbol >= len(cubes) or cubes[symbol] is not None:
            free = [i for i, c in enumerate(cubes) if c is None]
            return lambda: forbid(f"symbol {symbol} of {power.name} is not an open symbol "
                                  f"(open: {free})", R_PULL)
        if cube not in WILD and symbols[symbol] != cube:
            return lambda: forbid(f"a {cube} cube cannot cover a {symbols[symbol]} symbol (only "
                                  "black cubes are wild)", R_PULL)
        return symbol
    first = None
    for i, c in enumerate(cubes):
        if c is None:
            if symbols[i] == cube:
                return i
            if first is None:
                first = i
    if cube in WILD and first is not None:
        return first
    return lambda: forbid(f"{power.name} has no open {cube} symbol (open: " + ", ".join(
        symbols[i] for i, c in enumerate(cubes) if c is None) + "); black cubes are wild", R_PULL)


def fitting(s: InvincibleState, h: HeroState, cube: str) -> list[str]:
    """The slots a ready ``cube`` can be played on now."""
    if cube == "black" and _too_black(s, h):
        return []
    powers = h.powers
    return [slot for slot, played in powers.items() if _fits(s, powers, cube, slot, played)]


def can_play(s: InvincibleState, h: HeroState) -> bool:
    """Some ready cube fits some power (``fitting`` of any ready cube is not empty), asked slot
    by slot rather than cube by slot: PLAY's ``when`` asks it before every Hero Phase move."""
    ready = set(h.ready)
    if "black" in ready and _too_black(s, h):
        ready.discard("black")
    if not ready:
        return False
    wild = not ready.isdisjoint(WILD)
    powers, cards = h.powers, s.data.powers
    for slot, played in powers.items():
        if played.filled:
            continue
        if slot.startswith("under:"):
            above = powers.get(slot[6:])
            if above is None or not above.filled:
                continue
        symbols = cards[played.power].symbols
        for i, c in enumerate(played.cubes):
            if c is None and (wild or symbols[i] in ready):
                return True
    return False


def _fits(s: InvincibleState, powers: dict, cube: str, slot: str, played) -> bool:
    """``fit(...)`` gives a symbol (Chain Lightning's black-cube limit checked by the caller):
    the same tests without making a refusal, as the random player and expect ask it of every
    ready cube and slot."""
    if played.filled:
        return False
    if slot.startswith("under:"):
        above = powers.get(slot[6:])
        if above is None or not above.filled:
            return False
    cubes = played.cubes
    if cube in WILD:
        return None in cubes
    symbols = s.data.powers[played.power].symbols
    return any(c is None and symbols[i] == cube for i, c in enumerate(cubes))
