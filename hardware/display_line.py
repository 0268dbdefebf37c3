"""A prompt made to fit the serial device's one-line display (``[serial] display_width``,
16 characters on the usual LCD): whole words, asides left out first, and a mark where it goes on.

A prompt cut at the width ("Dash: roll the M") reads as a word the game does not have; whole
words and a closing ">" say "more on the screens". An HD44780 has no ellipsis; ">" is ASCII.
"""

from __future__ import annotations

import re

MORE = ">"
_ASIDE = re.compile(r"\s*\([^()]*\)")


def fit(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, cut between words."""
    line = " ".join(text.split())
    if len(line) <= width:
        return line
    shorter = " ".join(_ASIDE.sub("", line).split())      # "(Combo +1)", "(2 left)"
    if len(shorter) <= width:
        return shorter
    room = width - len(MORE)
    if room < 1:
        return shorter[:width]
    cut = shorter.rfind(" ", 0, room + 1)
    head = shorter[:cut] if cut > 0 else shorter[:room]     # one long word: cut inside it
    return head.rstrip(" ,;:-") + MORE
