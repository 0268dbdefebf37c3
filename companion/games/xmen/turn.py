"""The turn's frame: the first turn, Step 1 (filling empty Battle Zones) as each turn begins, and
Step 6 (play passes to the left). Works on a move's fork (see state.py)."""

from __future__ import annotations

import random

from companion.games.xmen import battle, draws, recovery, track
from companion.games.xmen.state import XMenState


def start_play(s: XMenState, first: int, rng: random.Random) -> None:
    s.phase, s.turn, s.starter, s.round = "play", first, first, 1
    s.first_to_roll = []
    s.log.append(f"{s.teams[first].player} goes first.")
    begin_turn(s, rng)


def begin_turn(s: XMenState, rng: random.Random) -> None:
    for _ in range(4 * len(s.teams) + 8):     # a Cerebro'd team's turn passes at once
        team = s.own_team(s.turn)
        for h in team.heroes:
            h.acted = False
        team.boosts, team.bonus_dice = {}, 0
        s.stage, s.zone_open, s.must_recover, s.bonus = "battle", None, [], None
        if not team.heroes:
            # "In the event a player loses their entire team of characters, at the start of
            # his next turn, that player recruits one X-Men by taking the top X-Men Power
            # Stat Card from the deck."
            track.recruit_top(s, s.turn, "having lost the whole team")
            for h in team.heroes:
                h.acted = False
        if not fill_zones(s, rng):
            return          # the table draws the card itself: zones_filled goes on from there
        if not _passes(s):
            return


def zones_filled(s: XMenState, rng: random.Random) -> None:
    """The table named the Alert card it drew (moves_draw.py): the other empty Battle Zones are
    filled, then the turn begins."""
    if fill_zones(s, rng) and _passes(s):
        begin_turn(s, rng)


def _passes(s: XMenState) -> bool:
    """The rest of a turn's start, once every Battle Zone is filled; True when the turn passes at
    once (Cerebro) and the next one begins."""
    team = s.current
    if not any(t.heroes for t in s.teams) and not s.stat_deck:
        s.ended = "no team has an X-Men left and the Power Stat deck is empty"
        s.phase = "over"
        s.log.append("Every team is lost and no X-Men is left to recruit: the game ends.")
        return False
    if team.cerebro:
        s.own_team(s.turn).cerebro -= 1
        battle.send_home(s, s.turn)
        s.log.append(f"Cerebro is on the fritz! {team.player}'s whole team reports to "
                     "Headquarters for this turn, with no other actions.")
        passed = [*s.passed, team.player]
        pass_turn(s)
        s.passed = passed       # told to the table through the next turn (view.expect)
        return True
    s.must_recover = [h.id for h in team.heroes if recovery.on_picture(s.data, h)]
    s.log.append(f"{team.player}'s turn (round {s.round}).")
    return False


def pass_turn(s: XMenState) -> None:
    # "Once you have completed your turn, play continues to the left."
    s.turn = (s.turn + 1) % len(s.teams)
    s.unchecked, s.passed = [], []
    if s.turn == s.starter:
        s.round += 1


def finish_turn(s: XMenState, rng: random.Random) -> None:
    if s.winner is not None:
        return
    pass_turn(s)
    begin_turn(s, rng)


def fill_zones(s: XMenState, rng: random.Random) -> bool:
    """ "If a Battle Zone is empty, draw the top X-Men Alert Card and place it face up on the
    large X in the Battle Zone." False when the table draws the card itself (option
    physical_decks) and the game waits for its name."""
    d = s.data
    for z in range(len(s.zones)):
        if s.zones[z].card is not None:
            continue
        for _ in range(len(d.alert) + 1):
            if draws.physical(s, "alert"):
                if draws.wait(s, "alert", zone=z):
                    return False
                break
            cid = track.draw(s.own("alert_deck"), s.own("alert_discard"), rng)
            if cid is None or alert_drawn(s, z, cid):
                break
    return True


def alert_drawn(s: XMenState, z: int, cid: str) -> bool:
    """The Alert card ``cid`` came off the deck for empty Battle Zone ``z`` (the companion's draw
    or the table's): place it. False when it is set aside and another card is drawn."""
    d = s.data
    card = d.alert[cid]
    if card.kind == "recruit":
        if all(len(t.heroes) >= d.max_team for t in s.teams) or not s.stat_deck:
            # "If all players already have the maximum number of four X-Men
            # characters on their teams, place the recruit card to the side and draw
            # another card." (an empty Power Stat deck is treated the same way)
            s.own("alert_discard").append(cid)
            s.log.append("A Recruit card nobody can use is set aside.")
            return False
        # "turn over the top X-Men Power Stat Card. The Strength Indicator is placed
        # on the number space that corresponds to that X-Men character's Total Power"
        zone = s.own_zone(z)
        zone.card, zone.recruit = cid, s.own("stat_deck").pop(0)
        zone.indicator = d.characters[zone.recruit].total_power
        s.log.append(f"Battle Zone {z + 1}: {d.characters[zone.recruit].name} can be "
                     f"recruited (Total Power {zone.indicator}).")
    else:
        zone = s.own_zone(z)
        zone.card, zone.indicator = cid, card.strength
        s.log.append(f"Battle Zone {z + 1}: {card.name} appears (Strength "
                     f"{card.strength}, Experience {card.experience}).")
    return True
