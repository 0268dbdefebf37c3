"""The Training Phase: confidence, learning powers, Learn By Punching, one cube, rearranging,
and the reset (cubes back to bags, hands refilled)."""

from __future__ import annotations

import random

from companion.errors import BadAction
from companion.games.base import forbid
from companion.games.invincible_data import InvincibleData
from companion.games.invincible_state import (
    R_GAIN, R_LEARN, R_RESET, R_TRAINING, HeroState, InvincibleState, Played,
)

LEARNED_KINDS = ("super", "ultimate", "punch", "experimental")


def power_id(card: str) -> str:
    return card.split("#", 1)[0]


def confidence(d: InvincibleData, h: HeroState) -> int:
    """'Add up the confidence values on every power you filled this round'."""
    total = sum(d.powers[p.power].confidence for p in h.powers.values() if p.filled)
    return total + h.bonus_confidence


def left(d: InvincibleData, h: HeroState) -> int:
    return confidence(d, h) - h.confidence_spent


def hand(s: InvincibleState, h: HeroState) -> list[str]:
    """Solo: 'Your two heroes share one hand of cards during the Training Phase'."""
    return s.shared_hand if s.solo else h.hand


def start(d: InvincibleData, s: InvincibleState) -> None:
    s.phase = "training"
    for h in s.heroes:
        h.confidence_spent, h.cube_gained, h.done, h.ultimates_wanted = 0, False, False, 0
    s.say("Training Phase: spend confidence to learn powers, gain a cube, then done.")


def _check(s: InvincibleState, h: HeroState, what: str) -> None:
    if s.phase != "training":
        raise forbid(f"{what} happens in the Training Phase (now: {s.phase})", R_TRAINING)
    if h.done:
        raise forbid(f"{h.name} has finished training this round", R_TRAINING)


def _from_hand(s, h, card, what) -> None:
    if not isinstance(card, str) or card not in hand(s, h):
        raise forbid(f"{what}: {card!r} is not in {h.name}'s hand ({', '.join(hand(s, h)) or 'empty'})",
                     R_LEARN)


def _slot_fits(d: InvincibleData, h: HeroState, slot: str, power_id_: str) -> None:
    power = d.powers[power_id_]
    if slot in d.colored_slots:
        if power.colours and slot not in power.colours:
            raise forbid(f"the {slot} slot holds a {slot} power; {power.name} is "
                         f"{'/'.join(power.colours)} (use a flex slot)", R_LEARN)
    elif not slot.startswith("flex") or slot not in d.slot_names():
        raise forbid(f"{slot!r} is not a slot for learned powers: use "
                     + ", ".join([*d.colored_slots, *(n for n in d.slot_names() if n.startswith('flex'))]),
                     R_LEARN)


def _discard_card(s: InvincibleState, d: InvincibleData, card: str) -> None:
    kind = d.powers[power_id(card)].kind
    if kind == "punch":
        s.punch_left += 1
    elif kind in ("super", "ultimate"):
        s.discards[kind].append(card)


def _clear_slot(d, s, h: HeroState, slot: str) -> None:
    old = h.powers.pop(slot, None)
    if old is not None:
        # cubes on a discarded power go to the dropped area (as New and Improved says) and back
        # to the bag at the reset
        h.dropped.extend(c for c in old.cubes if c is not None)
        _discard_card(s, d, old.card)
        s.say(f"{h.name} discards {d.powers[old.power].name} from the {slot} slot.")


def learn(d, s, h: HeroState, card: str, slot: str) -> None:
    """'you may learn as many powers as you can afford'; Supers go in a colour-matched or flex
    slot, Ultimates beneath a Super Power sharing a colour."""
    _check(s, h, "Learning a power")
    _from_hand(s, h, card, "learn")
    power = d.powers[power_id(card)]
    if power.cost > left(d, h):
        raise forbid(f"{power.name} costs {power.cost} confidence; {h.name} has {left(d, h)} left",
                     R_LEARN)
    if not isinstance(slot, str):
        raise BadAction("learn: data.slot names a slot")
    if power.kind == "ultimate":
        above = slot[6:] if slot.startswith("under:") else slot
        sup = h.powers.get(above)
        if sup is None or d.powers[sup.power].kind != "super":
            raise forbid(f"an Ultimate Power is placed beneath one of your Super Powers (not your "
                         f"starter or signature power); {above!r} holds none", R_LEARN)
        if not set(power.colours) & set(d.powers[sup.power].colours):
            raise forbid(f"{power.name} must share a cube colour with the Super Power above it",
                         R_LEARN)
        slot = f"under:{above}"
    else:
        _slot_fits(d, h, slot, power.id)
    hand(s, h).remove(card)
    _clear_slot(d, s, h, slot)
    h.powers[slot] = Played(card, power.id, [None] * len(power.symbols))
    h.confidence_spent += power.cost
    s.say(f"{h.name} learns {power.name} ({power.cost} confidence) into the {slot} slot.")


def punch(d, s, h: HeroState, discard: str, slot: str) -> None:
    """'instead of learning a power from your hand, you may discard a card from your hand to take
    a Learn By Punching card'; 'only if you don't already have a copy in play'."""
    _check(s, h, "Learn By Punching")
    if any(p.power == "learn-by-punching" for p in h.powers.values()):
        raise forbid(f"{h.name} already has Learn By Punching in play", R_LEARN)
    if s.punch_left <= 0:
        raise forbid("no Learn By Punching card is left", R_LEARN)
    _from_hand(s, h, discard, "punch")
    if not isinstance(slot, str):
        raise BadAction("punch: data.slot names a slot")
    _slot_fits(d, h, slot, "learn-by-punching")
    hand(s, h).remove(discard)
    _discard_card(s, d, discard)
    _clear_slot(d, s, h, slot)
    power = d.powers["learn-by-punching"]
    h.powers[slot] = Played("learn-by-punching", power.id, [None] * len(power.symbols))
    s.punch_left -= 1
    s.say(f"{h.name} discards a card and takes Learn By Punching into the {slot} slot.")


def gain_cube(d, s, h: HeroState, discard: str, colour) -> None:
    """'Once per Training Phase, each hero may discard a power from their hand to take a cube
    matching that power's color from the shared supply'."""
    _check(s, h, "Gaining a cube")
    if h.cube_gained:
        raise forbid(f"{h.name} already gained a cube this Training Phase (once per phase)", R_GAIN)
    _from_hand(s, h, discard, "train_cube")
    power = d.powers[power_id(discard)]
    colours = power.colours
    if colour is None and len(colours) == 1:
        colour = colours[0]
    if colour not in colours:
        raise forbid(f"{power.name} gives a cube of its colour: choose one of {', '.join(colours)}",
                     R_GAIN)
    if s.supply.get(colour, 0) <= 0:
        raise forbid(f"the supply has no {colour} cube left: 'heroes simply can no longer gain "
                     "that color'", R_GAIN)
    hand(s, h).remove(discard)
    _discard_card(s, d, discard)
    s.supply[colour] -= 1
    h.bag[colour] = h.bag.get(colour, 0) + 1
    h.cube_gained = True
    s.say(f"{h.name} discards {power.name} to gain a {colour} cube.")


def discard_power(d, s, h: HeroState, slot: str) -> None:
    _check(s, h, "Discarding a learned power")
    played = h.powers.get(slot) if isinstance(slot, str) else None
    if played is None or d.powers[played.power].kind not in LEARNED_KINDS:
        raise forbid(f"{slot!r} holds no learned power (basic, starter and signature powers stay)",
                     R_LEARN)
    _clear_slot(d, s, h, slot)


def arrange(d, s, h: HeroState, a: str, b: str) -> None:
    """'you can freely rearrange your powers between slots (as long as the color restrictions on
    your first four slots are respected)'."""
    _check(s, h, "Rearranging powers")
    for slot in (a, b):
        if not isinstance(slot, str) or slot not in d.slot_names() or slot in ("starter", "signature"):
            raise forbid(f"{slot!r} is not a slot for learned powers", R_LEARN)
    pa, pb = h.powers.get(a), h.powers.get(b)
    if pa is not None:
        _slot_fits(d, h, b, pa.power)
    if pb is not None:
        _slot_fits(d, h, a, pb.power)
    for x, y in ((a, b), (f"under:{a}", f"under:{b}")):
        px, py = h.powers.pop(x, None), h.powers.pop(y, None)
        if px is not None:
            h.powers[y] = px
        if py is not None:
            h.powers[x] = py
    s.say(f"{h.name} swaps the powers of the {a} and {b} slots.")


def finish(d, s, h: HeroState, ultimates, rng: random.Random, drawn=None) -> None:
    _check(s, h, "Finishing training")
    cap = 2 if s.solo else 1
    if ultimates is None:
        ultimates = 0
    if isinstance(ultimates, bool) or not isinstance(ultimates, int) or not 0 <= ultimates <= cap:
        raise BadAction(f"done: data.ultimates is how many refill cards come from the Ultimate "
                        f"deck (0 to {cap})")
    if ultimates and d.episodes[s.episode].fixed_order:
        raise forbid("Episode 1 leaves the Ultimate Power deck in the box", R_RESET)
    drawn = _drawn(d, s, h, drawn, cap)
    h.done, h.ultimates_wanted, h.drawn = True, ultimates, drawn
    s.say(f"{h.name} finishes training.")
    if all(x.done for x in s.heroes):
        reset(d, s, rng)


def reset(d, s, rng: random.Random) -> None:
    """'Once everyone has finished, all players reset: cubes return to bags and hands are
    refilled.'"""
    for h in s.heroes:
        for slot in [k for k in h.powers if k.startswith("under:")]:
            above = h.powers.get(slot[6:])
            if above is None or d.powers[above.power].kind != "super" or not (
                    set(d.powers[above.power].colours) & set(d.powers[h.powers[slot].power].colours)):
                # 'if it ends the phase without a paired Super Power, discard it'
                _clear_slot(d, s, h, slot)
        for p in h.powers.values():
            for c in p.cubes:
                if c is not None:
                    h.bag[c] = h.bag.get(c, 0) + 1
            p.cubes = [None] * len(p.cubes)
            p.filled = False
        for c in h.ready + h.dropped:
            h.bag[c] = h.bag.get(c, 0) + 1
        h.ready, h.dropped, h.last_pull = [], [], []
        h.bonus_confidence = h.confidence_spent = 0
    if s.solo:
        wanted = min(2, sum(h.ultimates_wanted for h in s.heroes))
        physical = [c for h in s.heroes for c in h.drawn]
        refill(d, s, s.shared_hand, d.limits["solo_hand"], wanted, rng, physical)
    else:
        for h in s.heroes:
            refill(d, s, h.hand, d.limits["hand"], h.ultimates_wanted, rng, h.drawn)
    for h in s.heroes:
        h.drawn = []
    s.phase = "villain"
    s.say("Reset: cubes return to the bags and hands are refilled. Villain Phase: reveal the event.")


def refill(d, s, cards: list[str], size: int, ultimates: int, rng, physical=()) -> None:
    """'you may draw at most one card from the Ultimate Power deck per refill; the rest must come
    from the Super Power deck'. Cards drawn from physical decks come first."""
    for card in physical:
        if len(cards) >= size:
            break
        kind = d.powers[power_id(card)].kind
        if card in s.decks[kind]:
            s.decks[kind].remove(card)
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


def _drawn(d, s, h: HeroState, drawn, cap: int) -> list[str]:
    """Refill cards the table drew from its physical decks, named by card or power id."""
    if drawn is None:
        return []
    if not isinstance(drawn, list) or not all(isinstance(c, str) for c in drawn):
        raise BadAction("done: data.drawn lists the cards drawn from the physical power decks")
    size = d.limits["solo_hand"] if s.solo else d.limits["hand"]
    room = size - len(hand(s, h)) - (sum(len(x.drawn) for x in s.heroes) if s.solo else 0)
    if len(drawn) > room:
        raise forbid(f"the refill draws {room} card(s), not {len(drawn)}", R_RESET)
    taken, ultimates = [], 0
    for name in drawn:
        kind = d.powers[power_id(name)].kind if power_id(name) in d.powers else None
        pile = s.decks.get(kind, []) if kind in ("super", "ultimate") else []
        card = name if name in pile else next((c for c in pile if power_id(c) == name
                                                and c not in taken), None)
        if card is None or card in taken:
            raise forbid(f"{name!r} is not in the Super or Ultimate Power deck", R_RESET)
        ultimates += kind == "ultimate"
        taken.append(card)
    if ultimates > cap:
        raise forbid(f"at most {cap} card(s) of a refill come from the Ultimate deck", R_RESET)
    return taken


def draw(s: InvincibleState, deck: str, rng) -> str | None:
    pile = s.decks[deck]
    if not pile and s.discards[deck]:
        pile.extend(s.discards[deck])
        s.discards[deck].clear()
        rng.shuffle(pile)
        s.say(f"The {deck} power deck ran out: its discard pile is reshuffled (assumed).")
    return pile.pop(0) if pile else None

