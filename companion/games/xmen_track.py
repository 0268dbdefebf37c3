"""Step 5 and the cards: the Experience Track, Training & Luck cards and drawing from the decks."""

from __future__ import annotations

import random

from companion.games import xmen_battle as battle
from companion.games.xmen_data import XMenData
from companion.games.xmen_state import HQ, Hero, Team, XMenState


def draw(deck: list[str], discard: list[str], rng: random.Random) -> str | None:
    """The top card; an empty deck first takes its shuffled discards.

    "When all the X-Men Alert Cards have been played, shuffle the cards already turned in" and
    "When all the Training & Luck Cards have been used, shuffle them and put them face down".
    """
    if not deck and discard:
        deck.extend(discard)
        discard.clear()
        rng.shuffle(deck)
    return deck.pop(0) if deck else None


def recruit_top(data: XMenData, s: XMenState, team: Team, why: str) -> None:
    """Take the top X-Men Power Stat card onto the team, at Headquarters."""
    if len(team.heroes) >= data.max_team:
        s.log.append(f"{team.player} already has {data.max_team} X-Men: no recruit from {why}.")
        return
    if not s.stat_deck:
        s.log.append(f"The Power Stat deck is empty: {team.player} recruits nobody from {why}.")
        return
    hid = s.stat_deck.pop(0)
    team.heroes.append(Hero(hid, acted=True))
    s.log.append(f"{team.player} recruits {data.characters[hid].name} ({why}).")


def won(data: XMenData, s: XMenState, team: Team) -> bool:
    """ "In the Basic game, the first player to reach or pass the first X-Men Recruit space on the
    Experience Track wins!" / "In the Advanced game, the first player to reach the Victory space
    on the Experience Track wins! You do not have to reach the Victory space by exact count." """
    goal = data.track_spaces if s.advanced else data.recruit_spaces[0]
    return team.mover >= goal


def move(data: XMenData, s: XMenState, team: Team, spaces: int, rng: random.Random,
         by_card: bool = False) -> None:
    """Move a team's mover and do what the space it lands on says."""
    before = team.mover
    team.mover = max(0, min(data.track_spaces, team.mover + spaces))
    if team.mover == before:
        return
    s.log.append(f"{team.player}'s mover goes from {before or 'Start'} to space {team.mover}"
                 + (" (Victory)." if team.mover == data.track_spaces else "."))
    if won(data, s, team):
        s.winner = team.player
        return
    if s.advanced and team.mover in data.recruit_spaces:
        # "If your Team's Experience Mover lands on an X-Men Recruit space, draw the top X-Men
        # Power Stat Card." "If you already have four characters ... do not recruit"
        recruit_top(data, s, team, "an X-Men Recruit space")
    if team.mover in data.training_luck_spaces and not by_card:
        # A card's own move does not draw again (an assumption that keeps chains finite).
        card_id = draw(s.luck_deck, s.luck_discard, rng)
        if card_id is None:
            s.log.append("The Training & Luck deck is empty: no card.")
            return
        card = data.luck[card_id]
        if card.timing == "at_once":
            s.log.append(f"{team.player} draws {card.title} (play at once).")
            play_at_once(data, s, team, card_id, rng)
        else:
            team.held.append(card_id)
            s.log.append(f"{team.player} draws {card.title} and holds it until needed.")


def play_at_once(data: XMenData, s: XMenState, team: Team, card_id: str,
                 rng: random.Random) -> None:
    card = data.luck[card_id]
    s.luck_discard.append(card_id)
    if card.effect == "advance":
        move(data, s, team, card.params["spaces"], rng, by_card=True)
    elif card.effect == "retreat":
        move(data, s, team, -card.params["spaces"], rng, by_card=True)
    elif card.effect == "team_to_hq":
        battle.send_home(s, team)
        s.log.append(f"{team.player}'s whole team returns to Headquarters.")


def bonus_dice(data: XMenData, s: XMenState, team: Team) -> int:
    """ "These characters receive Experience Bonus dice when at Headquarters and their team is
    turning in Evil Mutants." plus the dice of Training & Luck cards played this turn."""
    n = team.bonus_dice
    for h in team.heroes:
        if h.where == HQ:
            n += sum(a.params["dice"] for a in
                     data.characters[h.id].abilities_of("bonus_experience", s.advanced))
    return n
