"""The round and the team: advancing the episode at the start of a round (rulebook: Round
Structure, Advance the Episode), and the moves open all game long: a helper card, the episode's
bonus, and the win condition the players declare.
"""

from __future__ import annotations

from companion.games.base import forbid
from companion.games.invincible import contingency, resolve, villains
from companion.games.invincible.data_episodes import parse_icon
from companion.games.invincible.needs import Need, TableMove, hero_named
from companion.games.invincible.state import (
    R_CHALLENGE, R_CLARIFY, R_PLACE, R_POWERS, R_WINLOSE, InvincibleState,
)
from companion.games.move_table import Play


def _now(play: Play) -> float:
    return play.action.at if play.action.at is not None else 0.0


def advance(state: InvincibleState, play: Play) -> InvincibleState:
    """'Move the round marker one space along the episode card's track'; ``data.villains`` are
    villain cards drawn from a physical deck, in the order the icons reveal them."""
    d = state.data
    wanted = list(play.args["villains"] or ())
    for vid in wanted:
        level = d.villains[vid].level
        deck, pile = state.decks[f"villain{level}"], state.discards[f"villain{level}"]
        if vid not in deck and not (not deck and vid in pile):
            raise forbid(f"{d.villains[vid].name} is not in the Level {level} villain deck",
                         R_PLACE)
    s = state.fork()
    villains.advance(s, play.rng, _now(play), wanted)
    return s


def villains_to_reveal(s: InvincibleState) -> list[dict]:
    """What the next advance reveals, for a table drawing its own villain cards: for each villain
    icon of the space the round marker moves to (in order; hardcore icons only on hardcore), its
    level and the cards of that level's deck that may come up (advance accepts them), in the
    data's order."""
    space = s.space + 1 if s.round > 1 else s.space
    out = []
    for icon in (s.track[space] if space < len(s.track) else ()):
        hardcore, words = parse_icon(icon)
        if words[0] != "villain" or (hardcore and s.difficulty != "hardcore"):
            continue
        level = int(words[1])
        left = set(s.decks[f"villain{level}"] or s.discards[f"villain{level}"])
        out.append({"level": level, "deck": [v for v in s.data.villains if v in left]})
    return out


def episode_bonus(state: InvincibleState, play: Play) -> InvincibleState:
    """'The Episode Guide also lists a bonus scoring condition specific to each episode': the
    players say whether it is met (data.met)."""
    s = state.fork()
    s.episode_bonus = play.args["met"]
    s.say("Episode bonus " + ("claimed." if s.episode_bonus else "withdrawn."))
    return s


def _declare(state: InvincibleState, play: Play) -> InvincibleState:
    s = state.fork()
    s.declared = True
    return s


DECLARE_WIN = TableMove(_declare, Need(
    lambda s, h: s.data.episodes[s.episode].win["kind"] == "declare",
    lambda s, h: "this episode's win condition is checked by the companion "
                 f"({s.data.episodes[s.episode].win_text})", R_WINLOSE))


# -- helper cards ----------------------------------------------------------------------------------

def helper_refusal(s: InvincibleState, helper: str, hero: str | None = None):
    """Why the team cannot spend ``helper`` now (None: it can). 'Helper cards grant the team a
    one-time special power to use whenever they need it'; one that cancels villain abilities
    (Cecil's Contingency) is spent right after an event card is revealed; one with effects
    'can be used any time a power could be activated': in the Hero Phase, by a hero (``hero``:
    the one the table names, else any) who could fill a power now."""
    if helper not in s.helpers:
        return forbid(f"the team holds no unused helper {helper!r} (held: "
                      f"{', '.join(s.helpers) or 'none'})", R_CHALLENGE)
    card = s.data.helpers[helper]
    p = s.pending
    if card.cancel_abilities and not (p is not None and p["kind"] == "contingency"
                                      and p["helper"] == helper):
        return forbid(f"{card.name} is spent right after an event card is revealed", R_CLARIFY)
    if card.effects:
        if s.phase != "hero":
            return forbid(f"{card.name}: 'unless a helper specifies otherwise, it can be used any "
                          "time a power could be activated': in the Hero Phase", R_CHALLENGE)
        who = helper_heroes(s)
        if hero is not None and hero not in who or not who:
            return forbid(f"{card.name}: no power could be activated now by "
                          f"{s.hero(hero).name if hero else 'any hero'} (done, crashed, or a "
                          "power still resolving: 'each power must fully resolve before the next "
                          "begins')", R_POWERS)
    return None


def helper_heroes(s: InvincibleState) -> list[str]:
    """The heroes who could activate a power now, so through whom a helper's effects may come
    (the hero a 'self' effect moves or heals; the effects reach any zone)."""
    return [h.id for h in s.heroes if h.id not in s.resolutions and not h.done
            and not (h.crashed and not h.rescued)]


def usable_helpers(s: InvincibleState) -> list[str]:
    return [h for h in s.helpers if helper_refusal(s, h) is None]


def use_helper(state: InvincibleState, play: Play) -> InvincibleState:
    """Spend a helper card (data.helper). A cancelling one cancels data.cancel (the
    ``villain:ability`` labels); one with effects opens them as steps the table answers with
    ``effect`` (data.hero: the hero they come through, default the first who could activate a
    power), reaching any zone; a placeholder without effects is only spent."""
    helper = play.args["helper"]
    hero = hero_named(state, play.args["hero"], play.player, "use_helper", required=False) \
        if state.data.helpers[helper].effects else None
    refusal = helper_refusal(state, helper, hero.id if hero else None)
    if refusal:
        raise refusal
    card = state.data.helpers[helper]
    s = state.fork()
    if card.effects:
        s.helpers.remove(helper)
        s.helpers_used.append(helper)
        resolve.open_helper(s, s.hero(hero.id if hero else helper_heroes(s)[0]), card, _now(play))
        return s
    if card.cancel_abilities:
        contingency.cancel(s, play.args["cancel"])
    s.helpers.remove(helper)
    s.helpers_used.append(helper)
    s.say(f"The team uses {card.name}: {card.text}")
    if card.cancel_abilities:
        s.pending = None
        villains.run(s, play.rng, _now(play))
    return s
