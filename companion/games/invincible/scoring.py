"""Scoring as printed under Modes of Play › Scoring, and the campaign's two changes to it."""

from __future__ import annotations

from typing import Any

from companion.games.invincible.state import InvincibleState


def score(s: InvincibleState) -> dict[str, Any]:
    """The score so far (final once the game is over), item by item."""
    d = s.data
    sc = d.scoring
    campaign = s.campaign is not None
    won = s.result is not None and s.result["status"] == "won"
    lost = s.result is not None and s.result["status"] == "lost"
    if campaign and lost:
        # 'mark a loss on the sheet without scoring it'
        return {"total": None, "items": [], "note": "Campaign Mode marks a loss without scoring it."}
    # the outcome is asked after every action: items are appended in place, not through a helper
    items = []
    add = items.append
    if won:
        # 'Score points for winning, based on difficulty: 20 for Easy, 30 for Normal, 50 for Hardcore.'
        add({"what": f"won on {s.difficulty}", "points": sc["win"][s.difficulty]})
    if s.defeated:
        by_level = [0, 0, 0]
        villains = d.villains
        for vid in s.defeated:
            by_level[villains[vid].level - 1] += 1
        for level, count in enumerate(by_level, start=1):
            if count:
                # 'Score 1 point per Level I villain defeated, 2 per Level II, and 3 per Level III.'
                add({"what": f"{count} Level {'I' * level} villain(s) defeated",
                     "points": count * sc["villain_level"][level - 1]})
    dead = 0
    for z in s.zones:     # board.dead_total, without a generator
        dead += z.dead
    if dead:
        add({"what": f"{dead} civilian casualt{'y' if dead == 1 else 'ies'}",
             "points": dead * sc["casualty"]})
    if s.kos:
        add({"what": f"{s.kos} hero KO{'' if s.kos == 1 else 's'}", "points": s.kos * sc["ko"]})
    if s.challenges:
        add({"what": f"{len(s.challenges)} challenge card{'' if len(s.challenges) == 1 else 's'}",
             "points": len(s.challenges) * sc["challenge"]})
    if not campaign:
        # 'If you're not playing Campaign Mode, score 10 points if you took no helper cards, or 5
        # if you took exactly one.'
        if not s.helpers_taken:
            add({"what": "no helper cards taken", "points": sc["no_helpers"]})
        elif len(s.helpers_taken) == 1:
            add({"what": "exactly one helper card taken", "points": sc["one_helper"]})
    if s.episode_bonus:
        bonus = d.episodes[s.episode].bonus
        add({"what": "episode bonus", "points": bonus["points"]})
    if campaign and won and s.campaign.get("attempt") == 1:
        # 'if you won an episode on your first attempt, add a bonus 10 points'
        add({"what": "won on the first attempt", "points": sc["first_try"]})
    total = 0
    for item in items:      # a loop, not sum() over a generator: the loop asks after every action
        total += item["points"]
    return {"total": total, "items": items, "final": s.result is not None}

