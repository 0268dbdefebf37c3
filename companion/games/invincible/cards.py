"""Power cards between the hand, the hero's slots, the decks and the discard piles: discarding a
card or the power in a slot, drawing (with a reshuffle when a deck runs out), and the Training
Phase's reset, which refills every hand (rulebook: Training Phase › Reset). Every function here
changes a fork.
"""

from __future__ import annotations

import random

from companion.games.invincible.state import HeroState, InvincibleState, Played


def power_id(card: str) -> str:
    return card.split("#", 1)[0]


def discard_card(s: InvincibleState, card: str) -> None:
    kind = s.data.powers[power_id(card)].kind
    if kind == "punch":
        s.punch_left += 1
    elif kind in ("super", "ultimate"):
        s.own_discards(kind).append(card)
    elif kind == "experimental":
        s.experimental = [*s.experimental, card]    # back beside Robot's board


def clear_slot(s: InvincibleState, h: HeroState, slot: str) -> None:
    """The power in the fork's own ``h``'s ``slot`` (if any) goes to its discard pile."""
    old = h.powers.pop(slot, None)
    if old is not None and old.filled:
        keep_confidence(s, h, old)
    if old is not None:
        # cubes on a discarded power go to the dropped area (as New and Improved says) and back
        # to the bag at the reset
        h.dropped.extend(c for c in old.cubes if c is not None)
        discard_card(s, old.card)
        s.say(f"{h.name} discards {s.data.powers[old.power].name} from the {slot} slot.")


def keep_confidence(s: InvincibleState, h: HeroState, filled: Played) -> None:
    """A filled power leaving the fork's own ``h``'s board keeps the confidence it gave: 'Add up
    the confidence values on every power you filled this round' (filled, not still on the board;
    'Filling a power means ... gaining whatever confidence it shows'; Learn By Punching: 'once
    filled, you keep its confidence whether or not you later discard it'). Only Clean Slate's
    'removing cubes from an already-filled power forfeits any confidence it granted'."""
    h.bonus_confidence += s.data.powers[filled.power].confidence


def return_experimental(s: InvincibleState) -> None:
    """Technical Genius: 'When a hero fills an Experimental power, they return it to the side of
    Robot's hero board during the Training Phase' (at its start); its cubes wait in the dropped
    area for the reset, as a discarded power's do."""
    for h in list(s.heroes):
        used = [slot for slot, p in h.powers.items()
                if p.filled and s.data.powers[p.power].kind == "experimental"]
        if used:
            me = s.own_hero(h.id)
            for slot in used:
                p = me.powers.pop(slot)
                keep_confidence(s, me, p)
                me.dropped.extend(c for c in p.cubes if c is not None)
                s.experimental = [*s.experimental, p.card]
                s.say(f"{me.name} returns {s.data.powers[p.power].name} beside Robot's board.")


def reset(s: InvincibleState, rng: random.Random) -> None:
    """'Once everyone has finished, all players reset: cubes return to bags and hands are
    refilled.'"""
    d = s.data
    for h in s.own_heroes():
        for slot in [k for k in h.powers if k.startswith("under:")]:
            above = h.powers.get(slot[6:])
            if above is None or d.powers[above.power].kind != "super" or not (
                    set(d.powers[above.power].colours) & set(d.powers[h.powers[slot].power].colours)):
                # 'if it ends the phase without a paired Super Power, discard it'
                clear_slot(s, h, slot)
        for slot, p in h.powers.items():
            for c in p.cubes:
                if c is not None:
                    h.bag[c] = h.bag.get(c, 0) + 1
            h.powers[slot] = Played(p.card, p.power, [None] * len(p.cubes), False, p.strength)
        for c in h.ready + h.dropped:
            h.bag[c] = h.bag.get(c, 0) + 1
        h.ready, h.dropped, h.last_pull = [], [], []
        h.bonus_confidence = h.confidence_spent = 0
    if s.solo:
        wanted = min(2, sum(h.ultimates_wanted for h in s.heroes))
        physical = [c for h in s.heroes for c in h.drawn]
        refill(s, s.own_shared_hand(), d.limits["solo_hand"], wanted, rng, physical)
    else:
        for h in s.heroes:
            refill(s, h.hand, d.limits["hand"], h.ultimates_wanted, rng, h.drawn)
    for h in s.heroes:
        h.drawn = []
    s.phase, s.villain_report = "villain", []
    s.say("Reset: cubes return to the bags and hands are refilled. Villain Phase: reveal the event.")


def refill(s: InvincibleState, cards: list[str], size: int, ultimates: int, rng,
           physical=()) -> None:
    """'you may draw at most one card from the Ultimate Power deck per refill; the rest must come
    from the Super Power deck'. Cards drawn from physical decks come first."""
    for card in physical:
        if len(cards) >= size:
            break
        kind = s.data.powers[power_id(card)].kind
        if card in s.decks[kind]:
            s.own_deck(kind).remove(card)
            cards.append(card)
            ultimates -= kind == "ultimate"
    ultimates = max(0, ultimates)
    while len(cards) < size:
        deck = "ultimate" if ultimates > 0 else "super"
        card = draw(s, deck, rng)
        if card is None and deck == "ultimate":
            ultimates = 0
            continue
        if card is None:
            s.say("The Super Power deck is empty: hands stay short.")
            return
        if deck == "ultimate":
            ultimates -= 1
        cards.append(card)


def draw(s: InvincibleState, deck: str, rng) -> str | None:
    pile = s.own_deck(deck)
    if not pile and s.discards[deck]:
        pile.extend(s.discards[deck])
        s.own_discards(deck).clear()
        rng.shuffle(pile)
        s.say(f"The {deck} power deck ran out: its discard pile is reshuffled (assumed).")
    return pile.pop(0) if pile else None
