"""Step 5: the Experience Track, the Training & Luck cards drawn on it, and drawing from the decks.
Works on a move's fork (see state.py)."""

from __future__ import annotations

import random

from companion.games.xmen import battle, draws
from companion.games.xmen.state import HQ, Hero, Team, XMenState


def draw(deck: list[str], discard: list[str], rng: random.Random) -> str | None:
    """The top card; an empty deck first takes its shuffled discards (both the fork's own lists,
    XMenState.own).

    "When all the X-Men Alert Cards have been played, shuffle the cards already turned in" and
    "When all the Training & Luck Cards have been used, shuffle them and put them face down".
    """
    if not deck and discard:
        deck.extend(discard)
        discard.clear()
        rng.shuffle(deck)
    return deck.pop(0) if deck else None


def recruit_top(s: XMenState, i: int, why: str) -> None:
    """Team ``i`` takes the top X-Men Power Stat card, at Headquarters."""
    data, team = s.data, s.teams[i]
    if len(team.heroes) >= data.max_team:
        s.log.append(f"{team.player} already has {data.max_team} X-Men: no recruit from {why}.")
        return
    if not s.stat_deck:
        s.log.append(f"The Power Stat deck is empty: {team.player} recruits nobody from {why}.")
        return
    hid = s.own("stat_deck").pop(0)
    s.own_team(i).heroes.append(Hero(hid, acted=True))
    s.log.append(f"{team.player} recruits {data.characters[hid].name} ({why}).")


def won(s: XMenState, team: Team) -> bool:
    """ "In the Basic game, the first player to reach or pass the first X-Men Recruit space on the
    Experience Track wins!" / "In the Advanced game, the first player to reach the Victory space
    on the Experience Track wins! You do not have to reach the Victory space by exact count." """
    goal = s.data.track_spaces if s.advanced else s.data.recruit_spaces[0]
    return team.mover >= goal


def move(s: XMenState, i: int, spaces: int, rng: random.Random, by_card: bool = False) -> None:
    """Move team ``i``'s mover and do what the space it lands on says."""
    data = s.data
    team = s.own_team(i)
    before = team.mover
    team.mover = max(0, min(data.track_spaces, team.mover + spaces))
    if team.mover == before:
        return
    s.log.append(f"{team.player}'s mover goes from {before or 'Start'} to space {team.mover}"
                 + (" (Victory)." if team.mover == data.track_spaces else "."))
    if won(s, team):
        s.winner = team.player
        return
    if s.advanced and team.mover in data.recruit_spaces:
        # "If your Team's Experience Mover lands on an X-Men Recruit space, draw the top X-Men
        # Power Stat Card." "If you already have four characters ... do not recruit"
        recruit_top(s, i, "an X-Men Recruit space")
    if team.mover in data.training_luck_spaces and not by_card:
        # A card's own move does not draw again (an assumption that keeps chains finite).
        if draws.physical(s, "training_luck"):
            if not draws.wait(s, "training_luck", team=i):    # the table draws: moves_draw.py
                s.log.append("The Training & Luck deck is empty: no card.")
            return
        card_id = draw(s.own("luck_deck"), s.own("luck_discard"), rng)
        if card_id is None:
            s.log.append("The Training & Luck deck is empty: no card.")
            return
        luck_drawn(s, i, card_id, rng)


def luck_drawn(s: XMenState, i: int, card_id: str, rng: random.Random) -> None:
    """Team ``i`` drew Training & Luck card ``card_id`` (the companion's draw or the table's):
    "If the card reads 'Play At Once,' you must use that card immediately. If the card reads
    'Hold Until Needed,' place the card face down near your other cards"."""
    card = s.data.luck[card_id]
    team = s.own_team(i)
    if card.timing == "at_once":
        s.log.append(f"{team.player} draws {card.title} (play at once).")
        play_at_once(s, i, card_id, rng)
    else:
        team.held.append(card_id)
        s.log.append(f"{team.player} draws {card.title} and holds it until needed.")


def play_at_once(s: XMenState, i: int, card_id: str, rng: random.Random) -> None:
    card = s.data.luck[card_id]
    s.own("luck_discard").append(card_id)
    if card.effect == "advance":
        move(s, i, card.params["spaces"], rng, by_card=True)
    elif card.effect == "retreat":
        move(s, i, -card.params["spaces"], rng, by_card=True)
    elif card.effect == "team_to_hq":
        battle.send_home(s, i)
        s.log.append(f"{s.teams[i].player}'s whole team returns to Headquarters.")


def bonus_dice(s: XMenState, team: Team) -> int:
    """ "These characters receive Experience Bonus dice when at Headquarters and their team is
    turning in Evil Mutants." plus the dice of Training & Luck cards played this turn."""
    n = team.bonus_dice
    for h in team.heroes:
        if h.where == HQ:
            n += sum(a.params["dice"] for a in
                     s.data.characters[h.id].abilities_of("bonus_experience", s.advanced))
    return n
