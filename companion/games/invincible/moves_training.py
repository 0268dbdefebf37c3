"""The Training Phase: confidence, learning powers, Learn By Punching, one cube, rearranging,
discarding, done, and the reset (cubes back to bags, hands refilled). Rulebook: Training Phase.

Every hero trains at the same time: each move is a HeroMove (needs.py) whose one need is that the
hero has not finished training; the rest is the move's own check, which its ``choice`` reuses.
"""

from __future__ import annotations

from companion.errors import BadAction
from companion.games.base import forbid
from companion.games.invincible import cards
from companion.games.invincible.data import InvincibleData
from companion.games.invincible.needs import HeroMove, Need
from companion.games.invincible.slot_colours import (
    slot_reminder, slot_words, unchecked_colour, unchecked_shared, unshared, wrong_colour,
)
from companion.games.invincible.state import (
    R_GAIN, R_LEARN, R_RESET, R_TRAINING, HeroState, InvincibleState, Played,
)
from companion.games.move_table import Play

LEARNED_KINDS = ("super", "ultimate", "punch", "experimental")
PUNCH = "learn-by-punching"


def confidence(d: InvincibleData, h: HeroState) -> int:
    """'Add up the confidence values on every power you filled this round'."""
    total = sum(d.powers[p.power].confidence for p in h.powers.values() if p.filled)
    return total + h.bonus_confidence


def left(d: InvincibleData, h: HeroState) -> int:
    return confidence(d, h) - h.confidence_spent


def start(s: InvincibleState) -> None:
    s.phase = "training"
    cards.return_experimental(s)
    for h in s.own_heroes():
        h.confidence_spent, h.cube_gained, h.done, h.ultimates_wanted = 0, False, False, 0
        h.trained = None
    s.say("Training Phase: spend confidence to learn powers, gain a cube, then done.")


TRAINING = Need(lambda s, h: not h.done,
                lambda s, h: f"{h.name} has finished training this round", R_TRAINING)


# -- the checks the moves share -------------------------------------------------------------------

def _in_hand(s: InvincibleState, h: HeroState, card: str, what: str):
    if card not in s.hand_of(h):
        return forbid(f"{what}: {card!r} is not in {h.name}'s hand "
                      f"({', '.join(s.hand_of(h)) or 'empty'})", R_LEARN)
    return None


def _learned_slots(d: InvincibleData) -> tuple[str, ...]:
    return tuple(n for n in d.slot_names() if n not in ("starter", "signature"))


def _slot_refusal(d: InvincibleData, slot: str, power_id_: str, lenient: bool = False):
    """Why the power may not go in ``slot`` (None: it may); ``lenient``: a colour only assumed
    data forbids is let through (unchecked_colour)."""
    power = d.powers[power_id_]
    if slot in d.colored_slots:
        if wrong_colour(d, slot, power) and not (lenient and unchecked_colour(d, slot, power)):
            return forbid(f"the {slot} slot holds a {slot} power; {power.name} is "
                          f"{'/'.join(power.colours)} (use a flex slot)", R_LEARN)
    elif not slot.startswith("flex") or slot not in d.slot_names():
        return forbid(f"{slot!r} is not a slot for learned powers: use "
                      + ", ".join(n for n in _learned_slots(d)), R_LEARN)
    return None


def unchecked_cost(d: InvincibleData, h: HeroState, power) -> bool:
    """More than ``h`` can afford, but only by assumed numbers (the card's cost and confidence
    are not printed and the owner has not confirmed it): accepted with a reminder."""
    return power.cost > left(d, h) and power.assumed and not d.strict


def _placed(s: InvincibleState, h: HeroState, card: str, slot: str, lenient: bool = False):
    """The slot learning ``card`` fills (an Ultimate goes beneath the Super Power in ``slot``),
    or the refusal that says why it cannot be learned there; ``lenient``: a cost only assumed
    data forbids is let through (unchecked_cost)."""
    d = s.data
    refusal = _in_hand(s, h, card, "learn")
    if refusal:
        return refusal
    power = d.powers[cards.power_id(card)]
    if power.cost > left(d, h) and not (lenient and unchecked_cost(d, h, power)):
        return forbid(f"{power.name} costs {power.cost} confidence; {h.name} has {left(d, h)} "
                      "left", R_LEARN)
    if power.kind != "ultimate":
        return _slot_refusal(d, slot, power.id, lenient) or slot
    above = slot[6:] if slot.startswith("under:") else slot
    return _beneath_refusal(d, h, power, above, lenient) or f"under:{above}"


def _beneath_refusal(d: InvincibleData, h: HeroState, ultimate, above: str, lenient: bool):
    """Why the Ultimate may not sit beneath the power in ``h``'s slot ``above`` (None: it may);
    ``lenient``: a colour only assumed data forbids is let through (unchecked_shared)."""
    sup = h.powers.get(above)
    if sup is None or d.powers[sup.power].kind != "super":
        return forbid(f"an Ultimate Power is placed beneath one of your Super Powers (not your "
                      f"starter or signature power); {above!r} holds none", R_LEARN)
    sup_power = d.powers[sup.power]
    if unshared(ultimate, sup_power) and not (lenient and unchecked_shared(d, ultimate, sup_power)):
        return forbid(f"{ultimate.name} must share a cube colour with the Super Power above it",
                      R_LEARN)
    return None


def learnable(s: InvincibleState, h: HeroState, lenient: bool = False) -> list[tuple[str, str]]:
    """The (card, slot) pairs ``h`` could learn now; ``lenient``: with those only assumed data
    forbids (accepted with a reminder; the table is offered only the others)."""
    return [(card, slot) for card in dict.fromkeys(s.hand_of(h)) for slot in _learned_slots(s.data)
            if isinstance(_placed(s, h, card, slot, lenient), str)]


def can_learn(s: InvincibleState, h: HeroState, lenient: bool = False) -> bool:
    """``learnable(s, h, lenient)`` is not empty: asked pair by pair, stopping at the first
    (LEARN's ``when`` asks it of every hero before each Training Phase move)."""
    slots = _learned_slots(s.data)
    return any(isinstance(_placed(s, h, card, slot, lenient), str)
               for card in dict.fromkeys(s.hand_of(h)) for slot in slots)


def _cube_colour(s: InvincibleState, card: str, colour: str | None):
    """The colour of cube discarding ``card`` gains (``colour``: the one asked for), or the
    refusal."""
    power = s.data.powers[cards.power_id(card)]
    colours = power.colours
    if colour is None and len(colours) == 1:
        colour = colours[0]
    if colour not in colours:
        return forbid(f"{power.name} gives a cube of its colour: choose one of "
                      f"{', '.join(colours)}", R_GAIN)
    if s.supply.get(colour, 0) <= 0:
        return forbid(f"the supply has no {colour} cube left: 'heroes simply can no longer gain "
                      "that color'", R_GAIN)
    return colour


def cube_choices(s: InvincibleState, h: HeroState) -> list[tuple[str, str]]:
    """The (card, colour) pairs ``h`` could discard for a cube now."""
    return [(card, c) for card in dict.fromkeys(s.hand_of(h))
            for c in s.data.powers[cards.power_id(card)].colours if s.supply.get(c, 0) > 0]


def punch_slots(s: InvincibleState) -> list[str]:
    """The slots Learn By Punching may go in."""
    return [slot for slot in _learned_slots(s.data) if _slot_refusal(s.data, slot, PUNCH) is None]


def _swap_refusal(d: InvincibleData, h: HeroState, a: str, b: str, lenient: bool = False):
    if a.startswith("under:") or b.startswith("under:"):
        return _repair_refusal(d, h, a, b, lenient)
    for slot in (a, b):
        if slot not in _learned_slots(d):
            return forbid(f"{slot!r} is not a slot for learned powers", R_LEARN)
    pa, pb = h.powers.get(a), h.powers.get(b)
    return ((pa and _slot_refusal(d, b, pa.power, lenient))
            or (pb and _slot_refusal(d, a, pb.power, lenient)) or None)


def _repair_refusal(d: InvincibleData, h: HeroState, a: str, b: str, lenient: bool):
    """'You may rearrange powers during the Training Phase to change an Ultimate's pairing':
    the Ultimates beneath two of the hero's Super Powers swap places (or one moves beneath a
    Super with none), each beneath a Super sharing a cube colour with it."""
    if not (a.startswith("under:") and b.startswith("under:")):
        return forbid("an Ultimate's pairing changes between the places beneath two Super "
                      f"Powers (under:<slot> and under:<slot>), not {a!r} and {b!r}", R_LEARN)
    for slot in (a, b):
        if slot[6:] not in _learned_slots(d):
            return forbid(f"{slot!r} is not beneath a slot for learned powers", R_LEARN)
    for source, target in ((a, b), (b, a)):
        moved = h.powers.get(source)
        refusal = moved and _beneath_refusal(d, h, d.powers[moved.power], target[6:], lenient)
        if refusal:
            return refusal
    return None


def arrangements(s: InvincibleState, h: HeroState) -> list[tuple[str, str]]:
    """The pairs of slots whose powers ``h`` may swap (a slot with itself changes nothing), and
    of the places beneath two Super Powers whose Ultimates may swap (at least one Ultimate)."""
    slots = _learned_slots(s.data)
    out = [(a, b) for a in slots for b in slots if _swap_refusal(s.data, h, a, b) is None]
    under = [f"under:{x}" for x in slots]
    return out + [(a, b) for a in under for b in under if a != b
                  and (a in h.powers or b in h.powers) and _swap_refusal(s.data, h, a, b) is None]


def learned(s: InvincibleState, h: HeroState) -> list[str]:
    """The slots holding a power ``h`` may discard (basic, starter and signature powers stay)."""
    return [slot for slot, p in h.powers.items() if s.data.powers[p.power].kind in LEARNED_KINDS]


# -- the moves -------------------------------------------------------------------------------------

def _learn(state: InvincibleState, play: Play, hero: HeroState) -> InvincibleState:
    """'you may learn as many powers as you can afford'; Supers go in a colour-matched or flex
    slot, Ultimates beneath a Super Power sharing a colour."""
    card = play.args["card"]
    slot = _placed(state, hero, card, play.args["slot"], lenient=True)
    if not isinstance(slot, str):
        raise slot
    s = state.fork()
    h = s.own_hero(hero.id)
    power = s.data.powers[cards.power_id(card)]
    if unchecked_cost(s.data, hero, power):
        s.say(f"Reminder: {power.name} costs {power.cost} confidence and {h.name} had "
              f"{left(s.data, hero)} left by the companion's count; both numbers are assumed, "
              "so the cost was not checked (confirm the card on the Your box page).")
    s.own_hand(h).remove(card)
    cards.clear_slot(s, h, slot)
    h.powers[slot] = Played(card, power.id, [None] * len(power.symbols))
    h.confidence_spent += power.cost
    h.trained = "learn"
    s.say(f"{h.name} learns {power.name} ({power.cost} confidence) {slot_words(slot, into=True)}.")
    why = slot_reminder(s.data, h, slot)
    if why:
        s.say(f"Reminder: {why}.")
    return s


LEARN = HeroMove(
    _learn, TRAINING,
    Need(lambda s, h: not (s.punch_instead and h.trained == "punch"),
         lambda s, h: f"{h.name} took Learn By Punching this Training Phase, 'instead of "
                      "learning a power from your hand'", R_LEARN),
    choice=lambda s, h: can_learn(s, h, lenient=True))


def _punch(state: InvincibleState, play: Play, hero: HeroState) -> InvincibleState:
    """'instead of learning a power from your hand, you may discard a card from your hand to take
    a Learn By Punching card'; 'only if you don't already have a copy in play'."""
    discard, slot = play.args["discard"], play.args["slot"]
    refusal = _in_hand(state, hero, discard, "punch") or _slot_refusal(state.data, slot, PUNCH)
    if refusal:
        raise refusal
    s = state.fork()
    h = s.own_hero(hero.id)
    s.own_hand(h).remove(discard)
    cards.discard_card(s, discard)
    cards.clear_slot(s, h, slot)
    power = s.data.powers[PUNCH]
    h.powers[slot] = Played(PUNCH, power.id, [None] * len(power.symbols))
    h.trained = "punch"
    s.punch_left -= 1
    s.say(f"{h.name} discards a card and takes Learn By Punching {slot_words(slot, into=True)}.")
    return s


PUNCH_MOVE = HeroMove(
    _punch, TRAINING,
    # 'Learn By Punching is always available as a fallback: instead of learning a power from your
    # hand, you may discard a card ...' (solo: 'even if your other hero already learned a power')
    Need(lambda s, h: not (s.punch_instead and h.trained == "learn"),
         lambda s, h: f"{h.name} learned a power this Training Phase: Learn By Punching is "
                      "taken 'instead of learning a power from your hand'", R_LEARN),
    Need(lambda s, h: not any(p.power == PUNCH for p in h.powers.values()),
         lambda s, h: f"{h.name} already has Learn By Punching in play", R_LEARN),
    Need(lambda s, h: s.punch_left > 0, lambda s, h: "no Learn By Punching card is left", R_LEARN),
    Need(lambda s, h: bool(s.hand_of(h)),
         lambda s, h: f"punch: {h.name}'s hand is empty: there is no card to discard", R_LEARN),
    choice=lambda s, h: bool(punch_slots(s)),
)


def _train_cube(state: InvincibleState, play: Play, hero: HeroState) -> InvincibleState:
    """'Once per Training Phase, each hero may discard a power from their hand to take a cube
    matching that power's color from the shared supply'."""
    discard = play.args["discard"]
    refusal = _in_hand(state, hero, discard, "train_cube")
    colour = refusal or _cube_colour(state, discard, play.args["colour"])
    if not isinstance(colour, str):
        raise colour
    s = state.fork()
    h = s.own_hero(hero.id)
    s.own_hand(h).remove(discard)
    cards.discard_card(s, discard)
    s.supply[colour] -= 1
    h.bag[colour] = h.bag.get(colour, 0) + 1
    h.cube_gained = True
    article = "an" if colour[:1] in "aeiou" else "a"       # "an orange cube"
    s.say(f"{h.name} discards {s.data.powers[cards.power_id(discard)].name} to gain {article} "
          f"{colour} cube.")
    return s


TRAIN_CUBE = HeroMove(
    _train_cube, TRAINING,
    Need(lambda s, h: not h.cube_gained,
         lambda s, h: f"{h.name} already gained a cube this Training Phase (once per phase)",
         R_GAIN),
    choice=lambda s, h: bool(cube_choices(s, h)),
)


def _discard_power(state: InvincibleState, play: Play, hero: HeroState) -> InvincibleState:
    slot = play.args["slot"]
    if slot not in learned(state, hero):
        raise forbid(f"{slot!r} holds no learned power (basic, starter and signature powers "
                     "stay)", R_LEARN)
    s = state.fork()
    h = s.own_hero(hero.id)
    cards.clear_slot(s, h, slot)   # Learn By Punching's confidence stays (cards.clear_slot)
    return s


DISCARD_POWER = HeroMove(_discard_power, TRAINING, choice=lambda s, h: bool(learned(s, h)))


def _arrange(state: InvincibleState, play: Play, hero: HeroState) -> InvincibleState:
    """'you can freely rearrange your powers between slots (as long as the color restrictions on
    your first four slots are respected)', and 'You may rearrange powers during the Training
    Phase to change an Ultimate's pairing' (slots = two under:<slot>)."""
    a, b = play.args["slots"]
    refusal = _swap_refusal(state.data, hero, a, b, lenient=True)
    if refusal:
        raise refusal
    s = state.fork()
    h = s.own_hero(hero.id)
    # two Supers swap with what is beneath them; two places beneath swap their Ultimates alone
    pairs = ((a, b),) if a.startswith("under:") else ((a, b), (f"under:{a}", f"under:{b}"))
    for x, y in pairs:
        px, py = h.powers.pop(x, None), h.powers.pop(y, None)
        if px is not None:
            h.powers[y] = px
        if py is not None:
            h.powers[x] = py
    s.say(f"{h.name} swaps the powers of {slot_words(a)} and {slot_words(b)}.")
    for why in filter(None, (slot_reminder(s.data, h, x) for x in (a, b) if x in h.powers)):
        s.say(f"Reminder: {why}.")
    return s


ARRANGE = HeroMove(_arrange, TRAINING, choice=lambda s, h: bool(_learned_slots(s.data)))


def _finish(state: InvincibleState, play: Play, hero: HeroState) -> InvincibleState:
    cap = 2 if state.solo else 1
    ultimates = play.args["ultimates"]
    if ultimates > cap:
        raise BadAction(f"done: data.ultimates is how many refill cards come from the Ultimate "
                        f"deck (0 to {cap})")
    if ultimates and state.data.episodes[state.episode].fixed_order:
        raise forbid("Episode 1 leaves the Ultimate Power deck in the box", R_RESET)
    drawn = _drawn(state, hero, play.args["drawn"], cap)
    s = state.fork()
    h = s.own_hero(hero.id)
    h.done, h.ultimates_wanted, h.drawn = True, ultimates, drawn
    s.say(f"{h.name} finishes training.")
    if all(x.done for x in s.heroes):
        cards.reset(s, play.rng)
    return s


FINISH = HeroMove(_finish, TRAINING)


def _drawn(s: InvincibleState, h: HeroState, drawn: list[str] | None, cap: int) -> list[str]:
    """Refill cards the table drew from its physical decks, named by card or power id."""
    if drawn is None:
        return []
    d = s.data
    size = d.limits["solo_hand"] if s.solo else d.limits["hand"]
    room = size - len(s.hand_of(h)) - (sum(len(x.drawn) for x in s.heroes) if s.solo else 0)
    if len(drawn) > room:
        raise forbid(f"the refill draws {room} card(s), not {len(drawn)}", R_RESET)
    taken, ultimates = [], 0
    for name in drawn:
        kind = d.powers[cards.power_id(name)].kind if cards.power_id(name) in d.powers else None
        pile = s.decks.get(kind, []) if kind in ("super", "ultimate") else []
        card = name if name in pile else next((c for c in pile if cards.power_id(c) == name
                                                and c not in taken), None)
        if card is None or card in taken:
            raise forbid(f"{name!r} is not in the Super or Ultimate Power deck", R_RESET)
        ultimates += kind == "ultimate"
        taken.append(card)
    if ultimates > cap:
        raise forbid(f"at most {cap} card(s) of a refill come from the Ultimate deck", R_RESET)
    return taken


