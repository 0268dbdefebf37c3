"""The Alarm: drawing a card and doing what it says (rulebook: Card Types). Each function works on
a fork of the state (see state.py) and changes it in place.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.incredibles.data import Card
from companion.games.incredibles.state import R_FROZONE, R_ROAD, IncrediblesState, Slot


def a_problem(power: str) -> str:
    """ "an Agility problem", "a Strength problem"."""
    return ("an " if power[:1].lower() in "aeiou" else "a ") + power.title() + " problem"


def tell(s: IncrediblesState, text: str) -> None:
    """A card's effect: in the log, and in what the latest Alarm did (the table's Last card)."""
    s.log.append(text)
    s.alarm_said.append(text)


def alarm(s: IncrediblesState) -> None:
    s.alarm_said = []
    # "If the cards run out, each time the Alarm symbol is rolled, slide all the cards on the
    # Problem Track one space to the right. Do not shuffle or reuse discarded cards."
    if not s.deck:
        tell(s, "Alarm! The deck is empty: the Problem Track slides.")
        slide(s)
        s.last_card = None
        return
    if s.data.physical_deck:     # the table draws the real card and names it: moves.draw
        s.phase = "draw"
        # the card of this Alarm is not named yet: the previous one is no longer the last drawn
        # as every screen shows it
        s.last_card = None
        s.log.append("Alarm! Draw the top card of the deck and name it.")
        return
    drawn(s, s.deck.pop(0))


def drawn(s: IncrediblesState, card_id: str) -> None:
    """The card ``card_id`` came off the deck (the companion's draw or the table's): do it."""
    card = s.data.cards[card_id]
    s.last_card = card.id
    s.log.append(f"Alarm! Drew {card.title}.")
    DRAWN[card.kind](s, card)


def slide(s: IncrediblesState) -> None:
    track = [None] + s.track
    while len(track) > s.data.track_spaces:
        off = track.pop()
        if off is None:
            continue
        if off.face_up:
            s.too_late = off       # "If a face-up Problem Card slides onto 'Too Late!', the game is over"
        else:
            s.discard.append(off.card)   # "...a face-down Problem Card ... discard it."
            tell(s, f"Problem {off.tile} was fixed in time and is discarded.")
    s.track = track


def problem(s: IncrediblesState, card: Card) -> None:
    s.tiles[card.tile] = "problem"
    slide(s)
    s.track[0] = Slot(card.id, card.tile, card.power, True)


def road_destroyed(s: IncrediblesState, card: Card) -> None:
    s.discard.append(card.id)
    if card.space not in s.rubble:
        s.rubble.append(card.space)
    stranded = [m.hero for m in s.movers if m.space == card.space]
    if stranded:
        ask_displace(s, card.space, stranded)


def ask_displace(s: IncrediblesState, space: str, heroes: list[str]) -> None:
    """Rubble fell on these movers: each moves to an adjacent space, the players' choice when
    there is more than one."""
    adjacency = s.data.adjacency
    options = [n for n in adjacency[space] if n not in s.rubble] or list(adjacency[space])
    hero = heroes[0]
    if len(options) == 1:
        mover = s.place(hero, options[0])
        tell(s, f"{mover.name} is moved off the rubble to {s.data.label(options[0])}.")
        if heroes[1:]:
            ask_displace(s, space, heroes[1:])
        return
    name = s.mover_of(hero).name
    back = s.phase if s.phase != "choose" else s.pending["return_phase"]
    s.pending = {"kind": "displace", "hero": hero, "from": space, "options": options,
                 "then": heroes[1:], "return_phase": back,
                 "prompt": f"Rubble fell on {name}'s space {s.data.label(space)}: choose an "
                           f"adjacent space ({', '.join(map(s.data.label, options))}).", "rule": R_ROAD}
    s.phase = "choose"


def frozone(s: IncrediblesState, card: Card) -> None:
    s.discard.append(card.id)
    matches = [slot.tile for slot in s.track
               if slot is not None and slot.face_up and slot.power == card.power]
    if not matches:
        # "If there are no problems with a matching Power symbol, the Frozone Card is discarded
        # with no effect."
        tell(s, "Frozone finds no matching problem: no effect.")
    elif len(matches) == 1:
        fixed(s, matches[0], "Frozone", by_card=True)
    else:
        s.pending = {"kind": "frozone", "power": card.power, "options": matches,
                     "return_phase": s.phase,
                     "prompt": f"Frozone helps: choose {a_problem(card.power)} to fix "
                               f"({', '.join(matches)}).", "rule": R_FROZONE}
        s.phase = "choose"


def jackjack(s: IncrediblesState, card: Card) -> None:
    s.discard.append(card.id)
    there = [m.name for m in s.movers if m.space == card.space]
    if there:
        # "If a Mover is on the space where Jack-Jack appears, Jack-Jack is immediately rescued"
        s.jackjack = None
        tell(s, f"Jack-Jack teleports to space {card.space}, where {' and '.join(there)} "
                     f"{'stands' if len(there) == 1 else 'stand'}: rescued at once!")
    else:
        s.jackjack = card.space
        s.log.append(f"Jack-Jack teleports to space {card.space}.")   # the title says it


def edna(s: IncrediblesState, card: Card) -> None:
    s.discard.append(card.id)
    if s.jackjack is not None:
        s.jackjack = None
        tell(s, "Edna rescues Jack-Jack!")
    else:
        tell(s, "Edna: Jack-Jack is not on the board, no effect.")


def fixed(s: IncrediblesState, tile: str, by: str, rolled: str | None = None,
          by_card: bool = False) -> None:
    # "turn over the tile ... Turn the corresponding Problem Card on the Problem Track face-down"
    s.tiles[tile] = "safe"
    s.track = [replace(slot, face_up=False) if slot is not None and slot.tile == tile else slot
               for slot in s.track]
    said = f"{by} fixed problem {tile}" + (f" (rolled {rolled})." if rolled else ".")
    if by_card:                  # Frozone's card: what the Alarm did, for the table too
        tell(s, said)
    else:
        s.log.append(said)


DRAWN = {"problem": problem, "road_destroyed": road_destroyed, "frozone": frozone,
         "jackjack": jackjack, "edna": edna}
