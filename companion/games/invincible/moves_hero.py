"""The generic effect moves (``damage``, ``rescue``, ...; the rules are in effects.py): the answer
to a villain's or ability's text the companion cannot apply itself (the ``manual`` question), and
nothing else. In the Hero Phase an effect comes only from the power resolving (resolve.py), with
the card's amount; these moves are refused there in the rule's words (``FROM_A_POWER``).

An effect is open while it could do something: ``damage`` while an enemy is in play,
``strengthen`` while a token is left and the hero has a damaging power, and so on; what each needs
is declared once below.
"""

from __future__ import annotations

from companion.errors import IllegalAction
from companion.games.invincible import board, effects
from companion.games.invincible.needs import HeroMove, Need, TableMove
from companion.games.invincible.state import (
    R_BASIC, R_CLARIFY, R_KEYWORDS, R_POWERS, HeroState, InvincibleState,
)
from companion.games.move_table import Play


# -- the effects -----------------------------------------------------------------------------------

def _apply(name: str):
    effect = effects.BY_NAME[name]

    def act(state: InvincibleState, play: Play, hero: HeroState | None = None) -> InvincibleState:
        s = state.fork()
        effect(s, hero, play.args, play.rng)
        return s
    act.__name__ = name
    return act


def _enemy(s: InvincibleState, h) -> bool:
    return any(board.enemies_in(z) for z in s.zones)


def _someone_to_rescue(s: InvincibleState, h) -> bool:
    return any(z.danger > 0 for z in s.zones) or any(effects.rescuable(x) for x in s.heroes)


def _to_thwart(s: InvincibleState, h: HeroState) -> bool:
    """An ability this hero can reach, or a villain not fully thwarted (a helper reaches it)."""
    return (any(effects.ability_open(s, h, a) for a in s.data.episodes[s.episode].abilities)
            or any(v.thwart < v.thwart_spaces for _, _, v in board.villains_in_play(s)))


def _damaging(s: InvincibleState, h: HeroState) -> bool:
    return any(effects.deals_damage(s, p.power) for p in h.powers.values())


def _with_cubes(s: InvincibleState, h: HeroState) -> bool:
    return any(any(p.cubes) for p in h.powers.values())


EFFECTS: dict[str, HeroMove | TableMove] = {
    "damage": HeroMove(_apply("damage"), Need(
        _enemy, lambda s, h: "there is no villain or minion in play to damage", R_BASIC)),
    "rescue": HeroMove(_apply("rescue"), Need(
        _someone_to_rescue, lambda s, h: "no civilian is in danger and no crashed hero waits for "
                                         "rescue", R_BASIC)),
    "thwart": HeroMove(_apply("thwart"), Need(
        lambda s, h: effects.thwart_tokens_left(s) > 0,
        lambda s, h: f"all {effects.THWART_TOKENS} thwart tokens are in use", R_BASIC),
        choice=_to_thwart),
    "heal": HeroMove(_apply("heal")),
    "move": HeroMove(_apply("move")),
    "gain_cube": HeroMove(_apply("gain_cube")),
    "strengthen": HeroMove(_apply("strengthen"), Need(
        lambda s, h: s.strengthen_left > 0,
        lambda s, h: f"all {effects.STRENGTHEN_TOKENS} strengthen tokens are in use", R_KEYWORDS),
        choice=_damaging),
    "confidence": HeroMove(_apply("confidence")),
    "endanger": TableMove(_apply("endanger")),
    "hurt": HeroMove(_apply("hurt")),
    "minions": TableMove(_apply("minions")),
    "bubble": HeroMove(_apply("bubble"), Need(
        effects.gives_bubble, lambda s, h: f"{h.name} has no filled power that gives the bubble",
        R_CLARIFY)),
    "clear_power": HeroMove(_apply("clear_power"), choice=_with_cubes),
}


def from_a_power(kind: str) -> IllegalAction:
    """A generic effect typed in the Hero Phase: 'Filling a power means using its text, dealing
    whatever damage it shows'; its amount is the card's."""
    if kind == "resolved":
        return IllegalAction("a power is resolved when its effects have been applied (effect) or "
                             "those it lets you skip declined (decline)", R_POWERS)
    return IllegalAction(f"{kind} comes only from a power, an ability, a helper, an event or a "
                         "rule that grants it, with its printed amount: 'Filling a power means "
                         "using its text, dealing whatever damage it shows'. Fill the power, then "
                         "answer its effect (effect)", R_POWERS)
