"""A power card's printed effects as data (the ``effects`` of each power in
``invincible_powers.toml``): what the engine applies when the power's last cube is played.

Each effect is a table ``{ kind = "damage", amount = 2 }``; the kinds, and what each leaves for
the table to choose, are in resolve.py. ``optional = true`` marks a printed "may"; on a card with
more than one effect every effect may be skipped ("When a power offers multiple effects, you may
do them in any order and skip any you don't want, unless the card says otherwise"), and a power
with ``ordered = true`` resolves its effects in the printed order (Whirlwind Mode).

``per`` multiplies the amount: "rescued" (civilians the hero rescued this round, Turn the Tide),
"type" (the hero's other filled powers of the card's Type, Power Surge), "healed" (heroes this
power healed, Resilient Spirit); ``combo`` is a Combo bonus added when another power of the card's
Type is filled; ``play = true`` plays a gained cube at once (the Masteries, Guardians, Gather!);
a move with ``enemy = true`` may move an enemy instead (Flying Charge). repeats.py applies them.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.components import Reader

#: every effect kind the engine applies, with the amount it takes when the data gives none
KINDS = {
    "damage": 1, "explosive": 1, "move": 0, "move_enemy": 0, "rescue": 1, "rescue_crashed": 0,
    "thwart": 1, "heal": 1, "gain_cube": 0, "strengthen": 0, "confidence": 1, "bubble": 0,
    "clear_power": 0, "hurt_self": 1, "gain_helper": 0, "hurl": 0, "immortal": 0, "text": 0,
    # card_powers.py and experimental.py: cards that add things to the table
    "knock": 1, "drone": 1, "autosave": 0, "from_the_lab": 0, "discard_gain": 0, "relearn": 0,
    "copy_power": 0, "give_experimental": 0,
}
#: words for the table of the kinds whose kind name says little
HINTS = {
    "knock": "knock: 1 damage to a minion and another enemy in your zone",
    "drone": "place Robot's drone on an enemy",
    "autosave": "Autosave: the next time a hero in your zone crashes, you may attempt a rescue",
    "from_the_lab": "discard a power from your hand to use its effect",
    "discard_gain": "discard a power from your hand to gain a cube of its colour",
    "relearn": "discard a learned power and learn one from your hand",
    "copy_power": "use one of your other filled powers again",
    "give_experimental": "give an Experimental Technology card to any hero",
}
#: who a move or heal reaches: the hero using the power, or any hero in range
TARGETS = ("self", "hero", "each")
PER = ("", "rescued", "type", "healed")
GAIN = ("yellow", "blue", "orange", "purple", "red", "any")


@dataclass(frozen=True)
class PowerEffect:
    kind: str
    amount: int = 0
    colour: str = ""         # gain_cube: a colour, or "any" (the table chooses)
    target: str = "self"     # move, heal, bubble: "self" or "hero" (any hero in range)
    optional: bool = False   # a printed "may"
    text: str = ""           # the card's words, for a kind the engine does not apply ("text")
    per: str = ""            # the amount counts per: PER (see the module's docstring)
    combo: int = 0           # Combo: added when another power of the card's Type is filled
    play: bool = False       # gain_cube: the cube is played at once (or dropped)
    enemy: bool = False      # move: may move an enemy from the hero's zone instead
    safe: tuple[int, int] | None = None   # applies only with this many civilians safe (low, high)

    @property
    def hint(self) -> str:
        """A few words for the table: 'damage 2', 'gain a blue cube', 'rescue 2'."""
        if self.kind == "text":
            return self.text
        if self.kind in HINTS:
            return HINTS[self.kind]
        if self.kind == "hurt_self":
            return f"take {self.amount} damage yourself"
        if self.kind == "gain_cube":
            return (f"gain {'a cube of any colour' if self.colour == 'any' else 'a ' + self.colour + ' cube'}"
                    + (" for a hero" if self.target == "hero" else "")
                    + (" and play it at once" if self.play else ""))
        words = self.kind.replace("_", " ")
        if self.target != "self":
            words += " a hero" if self.target == "hero" else " each hero in range"
        if self.enemy:
            words += " (or an enemy)"
        if self.per:
            words = f"{words} {self.amount} per " + {
                "rescued": "civilian rescued this round", "type": "other filled power of its Type",
                "healed": "hero healed"}[self.per]
        elif KINDS[self.kind]:
            words = f"{words} {self.amount}"
        return words + (f" (Combo +{self.combo})" if self.combo else "")


def effects(p: Reader) -> tuple[PowerEffect, ...]:
    """A power's ``effects``: a list of effect tables, each checked by its key."""
    if "effects" not in p.data:
        return ()
    out = []
    for e in p.tables("effects"):
        kind = e.one_of("kind", set(KINDS))
        amount = e.get("amount", int, KINDS[kind])
        if amount < 0 or amount > 20:
            raise e.fail("amount", "expected 0 to 20")
        colour = e.one_of("colour", set(GAIN), "") if kind == "gain_cube" else ""
        if kind == "gain_cube" and not colour:
            raise e.fail("colour", f"gain_cube needs a colour among {', '.join(GAIN)}")
        text = e.get("text", str, "")
        if kind == "text" and not text:
            raise e.fail("text", "a text effect needs the card's words")
        for key, only in (("play", "gain_cube"), ("enemy", "move")):
            if e.get(key, bool, False) and kind != only:
                raise e.fail(key, f"{key} is for a {only} effect")
        if not 0 <= e.get("combo", int, 0) <= 20:
            raise e.fail("combo", "expected 0 to 20")
        out.append(PowerEffect(kind, amount, colour, e.one_of("target", set(TARGETS), "self"),
                               e.get("optional", bool, False), text,
                               e.one_of("per", set(PER), ""), e.get("combo", int, 0),
                               e.get("play", bool, False), e.get("enemy", bool, False),
                               _safe(e)))
    return tuple(out)


def _safe(e: Reader) -> tuple[int, int] | None:
    """``safe = [low, high]``: the effect applies only when the hero's zone has low to high
    civilians in safety as the power fills (Convenient Creation's three effects)."""
    if "safe" not in e.data:
        return None
    value = e.get("safe", list)
    if len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value) \
            or not 0 <= value[0] <= value[1]:
        raise e.fail("safe", "expected [low, high], whole numbers with 0 <= low <= high")
    return value[0], value[1]
