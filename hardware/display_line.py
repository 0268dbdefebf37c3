"""A prompt made to fit the serial device's one-line display (``[serial] display_width``,
16 characters on the usual LCD): asides left out first, then whole words with a mark where it
goes on, and a word cut only where whole words would leave most of the line empty.

A prompt cut at the width ("Dash: roll the M") reads as a word the game does not have, and one
cut to whole words alone often says nothing ("Mrs.>"). So: "Dash: roll the>", "Mrs. Incredible:"
(a name and its colon: more follows), "Round 1: advanc>". An HD44780 has no ellipsis; ">" is ASCII.
"""

from __future__ import annotations

import re

MORE = ">"
_ASIDE = re.compile(r"\s*\([^()]*\)")
ENOUGH = 2 / 3      # whole words must fill this much of the line, or a word is cut to fill it


def fit(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters."""
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
    words = shorter[:cut].rstrip(" ,;:-") + MORE if cut > 0 else ""
    colon = shorter.rfind(": ", 0, width + 1)              # "Mrs. Incredible:" says more follows
    named = shorter[:colon + 1] if colon > 0 else ""
    best = max((words, named), key=lambda s: len(s.rstrip(MORE)))
    if len(best.rstrip(MORE)) >= ENOUGH * width:
        return best
    return shorter[:room].rstrip() + MORE
