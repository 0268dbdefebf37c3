"""The component counts the rulebook prints (``[counts]`` in invincible.toml), checked against the
cards the three files hold: "36 Ultimate Power cards; 4 Signature Power cards and 3 Experimental
Technology cards; 13 Level II Villain cards and 12 Level III Villain cards; ... and 12 Omni-Man
Event cards", "7 episode cards", "6 helper cards, 6 challenge cards", "4 starter power cards".

A deck whose cards the rulebook does not print still holds the printed number of cards (the
unknown ones as placeholders, marked assumed), so it runs out and reshuffles when the real one
does; a file that holds another number is refused, naming the count and where the cards are.
"""

from __future__ import annotations

from typing import Any

from companion.components import Reader

#: count key -> (what is counted, the file (0: powers, 1: episodes, 2: this one) and key they are in)
WHAT = {
    "ultimate": ("Ultimate Power cards", 0, "deck.powers / placeholders.powers"),
    "signature": ("Signature Power cards", 0, "starters.powers"),
    "experimental": ("Experimental Technology cards", 0, "deck.powers"),
    "starter": ("starter power cards", 0, "starters.powers"),
    "villain2_full": ("Level II villains beyond Episode 1's (full_game_only = true)", 1,
                      "villains"),
    "villain3": ("Level III villains", 1, "villains"),
    "episodes": ("episodes", 1, "episodes"),
    "helpers": ("helper cards", 2, "helpers"),
    "challenges": ("challenge cards", 2, "challenges"),
}


def held(powers: dict, villains: dict, episodes: dict, helpers: dict,
         challenges: dict) -> dict[str, int]:
    """How many of each counted card the files hold (a power's ``copies`` count as cards)."""
    def kind(k: str) -> int:
        return sum(p.copies for p in powers.values() if p.kind == k)
    return {
        "ultimate": kind("ultimate"), "signature": kind("signature"),
        "experimental": kind("experimental"), "starter": kind("starter"),
        "villain2_full": sum(v.level == 2 and v.full_game_only for v in villains.values()),
        "villain3": sum(v.level == 3 for v in villains.values()),
        "episodes": len(episodes), "helpers": len(helpers), "challenges": len(challenges),
    }


def check(main: Reader, files: tuple[Reader, Reader], powers: dict, villains: dict,
          episodes: dict, boss_events: dict, helpers: dict, challenges: dict) -> dict[str, Any]:
    """The printed counts, each one the files must hold."""
    counts_r = main.table("counts")
    readers = (*files, main)
    have = held(powers, villains, episodes, helpers, challenges)
    out: dict[str, Any] = {}
    for key, (what, file, where) in WHAT.items():
        want = counts_r.get(key, int)
        if have[key] != want:
            raise readers[file].fail(where, f"holds {have[key]} {what}; the rulebook prints {want} "
                                            f"({main.path}: counts.{key}): add placeholders for "
                                            "the cards it does not print, or correct the count")
        out[key] = want
    per_boss = counts_r.get("boss_events", dict, {})
    for boss, want in per_boss.items():
        got = sum(e.boss == boss for e in boss_events.values())
        if isinstance(want, bool) or not isinstance(want, int) or got != want:
            raise files[1].fail("boss_events", f"holds {got} event cards for {boss}; the "
                                               f"rulebook prints {want!r} ({main.path}: "
                                               f"counts.boss_events.{boss})")
    out["boss_events"] = dict(per_boss)
    return out
