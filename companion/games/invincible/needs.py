"""A move one hero makes (a pull, a card effect, learning a power, the crash die): which hero the
action names, what the move needs of that hero now, and the words a refusal says when it is
missing.

Heroes act at the same time in the Hero and Training Phases, so such a move is open while any
hero may make it: the move table's ``when`` is ``HeroMove.when``, expect's per-hero lists are
``open_for``, and the handler refuses a hero with the same needs, in the same words. What a need
cannot say on its own (which cube fits which symbol, which card a hero can afford) is the
handler's own check; ``choice`` says whether any such choice is open, with the same check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from companion.errors import BadAction, IllegalAction
from companion.games.invincible.state import HeroState, InvincibleState
from companion.games.move_table import Play

Check = Callable[[InvincibleState, HeroState], bool]


@dataclass(frozen=True)
class Need:
    """What a hero's move needs now: ``holds(state, hero)``, and the refusal's ``words``."""

    holds: Check
    words: Callable[[InvincibleState, HeroState], str]
    rule: str


def unmet(needs: tuple[Need, ...], s: InvincibleState, h: HeroState | None) -> IllegalAction | None:
    """The refusal of the first need that does not hold (None: they all do)."""
    for need in needs:
        if not need.holds(s, h):
            return IllegalAction(need.words(s, h), need.rule)
    return None


class HeroMove:
    """The handler of a move one hero makes: ``act(state, play, hero)`` runs once the hero the
    action names has every need; it checks what is particular to its rule and returns the new
    state."""

    def __init__(self, act: Callable[[InvincibleState, Play, HeroState], InvincibleState],
                 *needs: Need, choice: Check | None = None):
        self.act, self.needs, self.choice = act, needs, choice

    def refusal(self, s: InvincibleState, h: HeroState) -> IllegalAction | None:
        return unmet(self.needs, s, h)

    def open_for(self, s: InvincibleState, h: HeroState) -> bool:
        for need in self.needs:
            if not need.holds(s, h):
                return False
        return self.choice is None or self.choice(s, h)

    def when(self, s: InvincibleState) -> bool:
        return any(self.open_for(s, h) for h in s.heroes)

    def heroes(self, s: InvincibleState) -> list[HeroState]:
        """The heroes who may make this move now (a sampler picks among them)."""
        return [h for h in s.heroes if self.open_for(s, h)]

    def __call__(self, state: InvincibleState, play: Play) -> InvincibleState:
        h = hero_named(state, play.args.get("hero"), play.player, play.action.type)
        refusal = self.refusal(state, h)
        if refusal is not None:
            raise refusal
        return self.act(state, play, h)


class TableMove:
    """The handler of a move the table makes, with no hero: ``act(state, play)`` runs once every
    need holds (a need's hero is None here)."""

    def __init__(self, act: Callable[[InvincibleState, Play], InvincibleState], *needs: Need):
        self.act, self.needs = act, needs

    def when(self, s: InvincibleState) -> bool:
        return all(n.holds(s, None) for n in self.needs)

    def __call__(self, state: InvincibleState, play: Play) -> InvincibleState:
        refusal = unmet(self.needs, state, None)
        if refusal is not None:
            raise refusal
        return self.act(state, play)


def hero_named(s: InvincibleState, key: str | None, player: str | None, what: str,
               required: bool = True) -> HeroState | None:
    """The hero ``data.hero`` names (its id or its name), else the action's player: a hero's id
    or name, or the player's own name unless they play two heroes (solo)."""
    key = key if key is not None else player
    if key is None:
        if not required:
            return None
        raise BadAction(f"{what} needs data.hero (one of {', '.join(h.id for h in s.heroes)})")
    for h in s.heroes:
        if key == h.id:
            return h
    folded = key.lower()
    for h in s.heroes:
        if folded == h.name.lower():
            return h
    mine = [h for h in s.heroes if folded == h.player.lower()]
    if len(mine) == 1:
        return mine[0]
    raise BadAction(f"{what}: {key!r} is not a hero in this game "
                    f"({', '.join(h.id for h in s.heroes)})")
