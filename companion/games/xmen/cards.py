"""Held Training & Luck cards: which can be played now, and playing one.

"You may use a Training & Luck card before you start your turn, during your turn, or you may use
a Training & Luck card before another player's turn if you wish to change the outcome of his
turn." Cards drawn "Play At Once" are resolved in track.py as they are drawn.
"""

from __future__ import annotations

from typing import Any

from companion.errors import IllegalAction
from companion.games.xmen import recovery
from companion.games.xmen.state import R_LUCK, Team, XMenState

NEEDS = {"cerebro": "target", "extra_dice": "hero", "heal": "hero"}


def playable(s: XMenState) -> list[dict[str, Any]]:
    """Held cards that could be played now, with the targets or characters each one needs."""
    out: list[dict[str, Any]] = []
    if s.phase != "play":
        return out
    for t in s.teams:
        for cid in t.held:
            card = s.data.luck[cid]
            mine = t is s.current
            if card.effect == "cerebro":
                targets = [o.player for o in s.teams if o is not t and o is not s.current]
                if targets:
                    out.append({"player": t.player, "card": cid, "targets": targets})
            elif card.effect == "heal":
                hurt = [h.id for h in t.heroes if h.hits > 0]
                if hurt:
                    out.append({"player": t.player, "card": cid, "heroes": hurt})
            elif card.effect == "extra_dice" and mine:
                fresh = [h.id for h in t.heroes if not h.acted]
                if fresh:
                    out.append({"player": t.player, "card": cid, "heroes": fresh})
            elif card.effect == "bonus_experience" and mine:
                out.append({"player": t.player, "card": cid})
    return out


def any_playable(s: XMenState) -> bool:
    return any(t.held for t in s.teams) and bool(playable(s))


def held_card(team: Team, key: str) -> str | None:
    """The held card named by its id ("medi-lab-2") or its family ("medi-lab")."""
    return next((c for c in team.held if c == key or c.rsplit("-", 1)[0] == key), None)


def needs(s: XMenState, cid: str) -> str | None:
    """What a card's play needs besides the card: "target", "hero" or nothing."""
    return NEEDS.get(s.data.luck[cid].effect)


def problem(s: XMenState, team: Team, cid: str, target: str | None,
            hero_id: str | None) -> IllegalAction | None:
    """Why ``team`` may not play held card ``cid`` now (``target`` a player's name and
    ``hero_id`` a character id, when the card needs one)."""
    data = s.data
    card = data.luck[cid]
    if card.effect == "cerebro":
        if target == team.player:
            return IllegalAction("Cerebro is played on another player", R_LUCK)
        if target == s.current.player:
            return IllegalAction(f"{target}'s turn has already begun: play Cerebro right before "
                                 "his next turn begins", R_LUCK)
    elif card.effect in ("extra_dice", "bonus_experience"):
        if team is not s.current:
            return IllegalAction(f"{card.title} helps your own turn: play it during your turn",
                                 R_LUCK)
        hero = team.hero(hero_id) if card.effect == "extra_dice" else None
        if card.effect == "extra_dice" and (hero is None or hero.acted):
            return IllegalAction(f"{data.characters[hero_id].name} is not a character of yours "
                                 "who has yet to roll this turn", R_LUCK)
    elif card.effect == "heal":
        hero = team.hero(hero_id)
        if hero is None or hero.hits == 0:
            return IllegalAction(f"{data.characters[hero_id].name} is not a character of yours "
                                 "with hit chips", R_LUCK)
    else:
        return IllegalAction(f"{card.title} is played at once when drawn", R_LUCK)
    return None


def play(s: XMenState, i: int, cid: str, target: str | None, hero_id: str | None) -> None:
    """Team ``i`` plays held card ``cid`` (checked by ``problem``)."""
    data = s.data
    card = data.luck[cid]
    team = s.own_team(i)
    player = team.player
    if card.effect == "cerebro":
        s.own_team(s.team_index(target)).cerebro += 1
        s.log.append(f"{player} plays {card.title} on {target}.")
    elif card.effect == "extra_dice":
        team.boosts[hero_id] = team.boosts.get(hero_id, 0) + card.params["dice"]
        s.log.append(f"{player} plays {card.title}: {data.characters[hero_id].name} rolls "
                     f"{card.params['dice']} more dice this turn.")
    elif card.effect == "bonus_experience":
        team.bonus_dice += card.params["dice"]
        s.log.append(f"{player} plays {card.title}: {card.params['dice']} more Experience "
                     "Bonus dice this turn.")
    else:    # heal
        hero = team.hero(hero_id)
        hero.hits = max(0, hero.hits - card.params["hits"])
        if not recovery.on_picture(data, hero) and hero_id in s.must_recover:
            s.own("must_recover").remove(hero_id)
        s.log.append(f"{player} plays {card.title}: {data.characters[hero_id].name} has "
                     f"{hero.hits} hits.")
    team.held.remove(cid)
    s.own("luck_discard").append(cid)   # "place the card face up next to the deck"
