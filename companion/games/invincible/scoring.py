"""Scoring as printed under Modes of Play › Scoring, and the campaign's two changes to it."""

from __future__ import annotations

from typing import Any

from companion.games.invincible.board import dead_total
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
    items = []

    def add(what: str, points: int) -> None:
        items.append({"what": what, "points": points})

    if won:
        # 'Score points for winning, based on difficulty: 20 for Easy, 30 for Normal, 50 for Hardcore.'
        add(f"won on {s.difficulty}", sc["win"][s.difficulty])
    by_level = [0, 0, 0]
    for vid in s.defeated:
        by_level[d.villains[vid].level - 1] += 1
    for level, count in enumerate(by_level, start=1):
        if count:
            # 'Score 1 point per Level I villain defeated, 2 per Level II, and 3 per Level III.'
            add(f"{count} Level {'I' * level} villain(s) defeated", count * sc["villain_level"][level - 1])
    dead = dead_total(s)
    if dead:
        add(f"{dead} civilian casualt{'y' if dead == 1 else 'ies'}", dead * sc["casualty"])
    if s.kos:
        add(f"{s.kos} hero KO(s)", s.kos * sc["ko"])
    if s.challenges:
        add(f"{len(s.challenges)} challenge card(s)", len(s.challenges) * sc["challenge"])
    if not campaign:
        # 'If you're not playing Campaign Mode, score 10 points if you took no helper cards, or 5
        # if you took exactly one.'
        if not s.helpers_taken:
            add("no helper cards taken", sc["no_helpers"])
        elif len(s.helpers_taken) == 1:
            add("exactly one helper card taken", sc["one_helper"])
    if s.episode_bonus:
        bonus = d.episodes[s.episode].bonus
        add("episode bonus", bonus["points"])
    if campaign and won and s.campaign.get("attempt") == 1:
        # 'if you won an episode on your first attempt, add a bonus 10 points'
        add("won on the first attempt", sc["first_try"])
    return {"total": sum(i["points"] for i in items), "items": items,
            "final": s.result is not None}
