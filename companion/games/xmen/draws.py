"""The table's own decks (setup option ``physical_decks``): the players draw the real card and name
it, with one tap or by the card camera; the companion checks it is still in that deck and keeps
the deck's count. Companion-drawn decks stay the default.

The decks drawn during play: the X-Men Alert deck ("If a Battle Zone is empty, draw the top X-Men
Alert Card", Step 1) and the Training & Luck deck ("If your Team's Experience mover lands on a
Training & Luck space, draw the top Training & Luck Card", Step 5). The Power Stat deck stays
the companion's. With a physical deck the companion's list of its cards has no order: it is the
set of cards still in the deck, and the table's own shuffle decides which comes up.

When the deck the table draws from is used up, the rules reshuffle: "When all the X-Men Alert
Cards have been played, shuffle the cards already turned in" / "When all the Training & Luck
Cards have been used, shuffle them". The turned-in (used) cards become the deck again, and the
prompt tells the table to shuffle them first.
"""

from __future__ import annotations

from typing import Any

from companion.errors import IllegalAction, SetupError
from companion.games.xmen.state import R_LUCK, R_STEP1, XMenState

DECKS = {"alert": "X-Men Alert", "training_luck": "Training & Luck"}
RULES = {"alert": R_STEP1, "training_luck": R_LUCK}


def checked(value: Any) -> list[str]:
    """The ``physical_decks`` option: a list of the decks the table draws itself (``true``: both)."""
    if value is True:
        return list(DECKS)
    if value is None or value is False:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value) \
            or any(v not in DECKS for v in value) or len(set(value)) != len(value):
        raise SetupError("physical_decks: a list of the decks the table draws itself, each once, "
                         "from " + ", ".join(f'"{k}" (the {v} deck)' for k, v in DECKS.items())
                         + "; or true for both")
    return [k for k in DECKS if k in value]


def physical(s: XMenState, deck: str) -> bool:
    return deck in s.options.get("physical_decks", ())


def piles(s: XMenState, deck: str, own: bool = False) -> tuple[list[str], list[str]]:
    """The deck's cards still face down, and its turned-in (used) cards (``own``: the fork's own
    lists, to change)."""
    names = ("alert_deck", "alert_discard") if deck == "alert" else ("luck_deck", "luck_discard")
    if own:
        return s.own(names[0]), s.own(names[1])
    return getattr(s, names[0]), getattr(s, names[1])


def title(s: XMenState, deck: str, card: str) -> str:
    return s.data.alert[card].name if deck == "alert" else s.data.luck[card].title


def wait(s: XMenState, deck: str, **where: int) -> bool:
    """The table draws the top card of ``deck`` now: the game waits in the draw phase for its
    name. False (nothing to wait for) when the deck and its used cards are both empty."""
    pile, used = piles(s, deck, own=True)
    reshuffled = 0
    if not pile and used:
        reshuffled = len(used)
        pile.extend(used)
        used.clear()
        s.log.append(f"The {DECKS[deck]} deck is used up: shuffle the {reshuffled} used cards "
                     "and place them face down as the new deck.")
    if not pile:
        return False
    s.drawing = {"deck": deck, **where, "reshuffled": reshuffled}
    s.phase = "draw"
    s.log.append(f"Draw the top {DECKS[deck]} card and name it.")
    return True


def named(s: XMenState, card: str) -> str:
    """The card id the table named for the draw waiting now (an id, or a card's printed name for
    any of its copies still in the deck); IllegalAction with the reason when it is not there."""
    deck = s.drawing["deck"]
    pile, _ = piles(s, deck)
    if card in pile:
        return card
    left = set(pile)
    same = [c for c in (s.data.alert if deck == "alert" else s.data.luck)
            if c in left and title(s, deck, c).casefold() == card.strip().casefold()]
    if same:
        return same[0]
    raise IllegalAction(f"{_why_not(s, deck, card)}. Name the card you drew ({len(pile)} left "
                        f"in the {DECKS[deck]} deck)", RULES[deck])


def _why_not(s: XMenState, deck: str, card: str) -> str:
    d = s.data
    cards = d.alert if deck == "alert" else d.luck
    other = "training_luck" if deck == "alert" else "alert"
    if card not in cards:
        if card in (d.luck if deck == "alert" else d.alert):
            return (f"{title(s, other, card)} is a {DECKS[other]} card, but the table draws from "
                    f"the {DECKS[deck]} deck now")
        return f"{card!r} is not a card of the {DECKS[deck]} deck"
    name = title(s, deck, card)
    if card not in (d.alert_cards(s.advanced) if deck == "alert" else d.luck_cards(s.advanced)):
        return (f"{name} is not in a Basic game's deck: 'Remove all {DECKS[deck]} cards with "
                "the Advanced symbol from the deck.'"
                + (" 'Also remove all \"Recruit Another X-Men\" cards.'" if deck == "alert" else ""))
    for z, zone in enumerate(s.zones):
        if zone.card == card:
            return f"{name} is not in the deck: it is in Battle Zone {z + 1}"
    for t in s.teams:
        if card in t.captured:
            return f"{name} is not in the deck: {t.player}'s team captured it"
        if card in t.held:
            return f"{name} is not in the deck: {t.player} holds it"
    used = "turned in (or set aside)" if deck == "alert" else "played"
    return f"{name} is not in the deck: it was {used} and lies face up beside the deck"


def expect(s: XMenState, actions: list[str]) -> dict[str, Any]:
    """The draw phase: which deck, why, and the cards still in it to pick from (in the data's
    order, never the deck's: the companion's list of a physical deck has no order)."""
    dr = s.drawing
    deck = dr["deck"]
    pile, _ = piles(s, deck)
    left = set(pile)
    cards = s.data.alert if deck == "alert" else s.data.luck
    listed = [{"id": c, "title": title(s, deck, c),
               "kind": cards[c].kind if deck == "alert" else cards[c].timing}
              for c in cards if c in left]
    team = s.current
    why = (f"Battle Zone {dr['zone'] + 1} is empty" if deck == "alert"
           else f"{s.teams[dr['team']].player}'s mover landed on a Training & Luck space")
    first = (f"shuffle the {dr['reshuffled']} used cards into a new face-down deck, then "
             if dr.get("reshuffled") else "")
    out = {"phase": "draw", "player": team.player, "actions": actions, "deck_name": deck,
           "deck": listed, "deck_count": len(pile), "dice": [],
           "prompt": f"{why}: {first}draw the top {DECKS[deck]} card from the table's deck and "
                     f"name it ({len(pile)} in the deck).", "rule": RULES[deck]}
    if deck == "alert":
        out["zone"] = dr["zone"] + 1
    return out
