"""Which learned power may sit in which slot by its cube colours ('slot it into the
color-matched space beneath your hero board'; an Ultimate 'beneath a Super Power that shares at
least one cube color with it'), and the reminders where only an assumed card's colours let one
through (moves_training.py's checks, the Training Phase's reminders)."""

from __future__ import annotations

from companion.games.invincible.data import InvincibleData
from companion.games.invincible.state import HeroState


def wrong_colour(d: InvincibleData, slot: str, power) -> bool:
    """'slot it into the color-matched space beneath your hero board': ``power`` is not of the
    colour of the coloured ``slot``."""
    return slot in d.colored_slots and bool(power.colours) and slot not in power.colours


def unchecked_colour(d: InvincibleData, slot: str, power) -> bool:
    """Of the wrong colour for ``slot``, but only by an assumed card (its colours are not
    printed and the owner has not confirmed it): accepted with a reminder."""
    return wrong_colour(d, slot, power) and power.assumed and not d.strict


def unshared(ultimate, sup) -> bool:
    """'it must be placed beneath a Super Power that shares at least one cube color with it'."""
    return not set(ultimate.colours) & set(sup.colours)


def unchecked_shared(d: InvincibleData, ultimate, sup) -> bool:
    """No colour shared, but only by assumed cards (either one's colours are assumed): accepted
    with a reminder."""
    return unshared(ultimate, sup) and (ultimate.assumed or sup.assumed) and not d.strict


def colour_reminder(d: InvincibleData, slot: str, power) -> str | None:
    """What the table is reminded of where ``power`` sits in ``slot`` against its assumed
    colours (None: nothing), for the log and the Training Phase's reminders."""
    if unchecked_colour(d, slot, power):
        return (f"{power.name} is {'/'.join(power.colours)} in the {slot} slot: its colours are "
                "assumed, not printed, so the slot's colour was not checked (confirm the card "
                "on the Your box page)")
    return None


def ultimate_reminder(d: InvincibleData, ultimate, sup) -> str | None:
    """The reminder where ``ultimate`` sits beneath ``sup`` sharing no colour (None: they
    share one, or nothing was let through)."""
    if unchecked_shared(d, ultimate, sup):
        return (f"{ultimate.name} shares no cube colour with {sup.name} above it: their colours "
                "are assumed, not printed, so this was not checked (confirm the cards on the "
                "Your box page)")
    return None


def slot_reminder(d: InvincibleData, h: HeroState, slot: str) -> str | None:
    """The reminder for the power ``h`` holds in ``slot`` where only an assumed colour let it
    through (None: nothing)."""
    power = d.powers[h.powers[slot].power]
    if not slot.startswith("under:"):
        return colour_reminder(d, slot, power)
    above = h.powers.get(slot[6:])
    return above and ultimate_reminder(d, power, d.powers[above.power])


def placement_reminders(d: InvincibleData, h: HeroState) -> list[str]:
    """Every power ``h`` holds where only an assumed colour was let through (the Training
    Phase's reminders)."""
    return [f"{h.name}: {why[0].upper() + why[1:]}." for slot in h.powers
            if (why := slot_reminder(d, h, slot))]


def slot_words(slot: str, into: bool = False) -> str:
    """A slot as the table says it ("two 'flex slots' that can hold a power of any color"):
    'the yellow slot', 'flex slot 2', 'beneath the blue slot'; ``into``: where a power goes
    ('into flex slot 2', 'beneath the blue slot'). Never the data's key ('flex2')."""
    if slot.startswith("under:"):
        return "beneath " + slot_words(slot[len("under:"):])
    flex = slot.startswith("flex") and slot[4:].isdigit()
    words = f"flex slot {slot[4:]}" if flex else f"the {slot} slot"
    return f"into {words}" if into else words
