"""Held Training & Luck cards: which can be played now, and playing one.

"You may use a Training & Luck card before you start your turn, during your turn, or you may use
a Training & Luck card before another player's turn if you wish to change the outcome of his
turn." Cards drawn "Play At Once" are resolved in xmen_track as they are drawn.
"""

from __future__ import annotations

from typing import Any

from companion.games import xmen_recovery as recovery
from companion.games.base import forbid
from companion.games.xmen_data import XMenData
from companion.games.xmen_state import R_LUCK, Team, XMenState


def playable(data: XMenData, s: XMenState) -> list[dict[str, Any]]:
    """Held cards that could be played now, with the targets or characters each one needs."""
    out: list[dict[str, Any]] = []
    if s.phase != "play":
        return out
    for t in s.teams:
        for cid in t.held:
            card = data.luck[cid]
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


def held_card(team: Team, key: str) -> str | None:
    """The held card named by its id ("medi-lab-2") or its family ("medi-lab")."""
    return next((c for c in team.held if c == key or c.rsplit("-", 1)[0] == key), None)


def play(data: XMenData, s: XMenState, team: Team, cid: str, target: str | None,
         hero_id: str | None) -> None:
    """Play a held card; ``target`` and ``hero_id`` are already checked to be a player's name and
    a character id when given. Raises IllegalAction when the rules forbid it now."""
    card = data.luck[cid]
    player = team.player
    mine = team is s.current
    if card.effect == "cerebro":
        if target == player:
            raise forbid("Cerebro is played on another player", R_LUCK)
        if target == s.current.player:
            raise forbid(f"{target}'s turn has already begun: play Cerebro right before his next "
                         "turn begins", R_LUCK)
        s.team(target).cerebro += 1
        s.log.append(f"{player} plays {card.title} on {target}.")
    elif card.effect in ("extra_dice", "bonus_experience"):
        if not mine:
            raise forbid(f"{card.title} helps your own turn: play it during your turn", R_LUCK)
        if card.effect == "extra_dice":
            hero = s.hero(team, hero_id)
            if hero is None or hero.acted:
                raise forbid(f"{data.characters[hero_id].name} is not a character of yours who has "
                             "yet to roll this turn", R_LUCK)
            team.boosts[hero_id] = team.boosts.get(hero_id, 0) + card.params["dice"]
            s.log.append(f"{player} plays {card.title}: {data.characters[hero_id].name} rolls "
                         f"{card.params['dice']} more dice this turn.")
        else:
            team.bonus_dice += card.params["dice"]
            s.log.append(f"{player} plays {card.title}: {card.params['dice']} more Experience "
                         "Bonus dice this turn.")
    elif card.effect == "heal":
        hero = s.hero(team, hero_id)
        if hero is None or hero.hits == 0:
            raise forbid(f"{data.characters[hero_id].name} is not a character of yours with hit "
                         "chips", R_LUCK)
        hero.hits = max(0, hero.hits - card.params["hits"])
        if not recovery.on_picture(data, hero) and hero_id in s.must_recover:
            s.must_recover.remove(hero_id)
        s.log.append(f"{player} plays {card.title}: {data.characters[hero_id].name} has "
                     f"{hero.hits} hits.")
    else:
        raise forbid(f"{card.title} is played at once when drawn", R_LUCK)
    team.held.remove(cid)
    s.luck_discard.append(cid)   # "place the card face up next to the deck"


def needs(data: XMenData, cid: str) -> str | None:
    """What a card's play needs besides the card: "target", "hero" or nothing."""
    effect = data.luck[cid].effect
    return {"cerebro": "target", "extra_dice": "hero", "heal": "hero"}.get(effect)
