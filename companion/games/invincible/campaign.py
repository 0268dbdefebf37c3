"""Campaign Mode: seven episodes in order, two attempts each, helpers gained on a loss, the
challenge offered after a win, and the campaign total.

Progress is a pure function of the games played so far: each finished campaign game's outcome
carries a ``campaign`` record; the next game is started with ``options.campaign.history`` = the
list of those records, oldest first. Nothing else is remembered between games.
"""

from __future__ import annotations

import random
from typing import Any

from companion.errors import SetupError
from companion.games.invincible.data import InvincibleData
from companion.games.invincible.state import InvincibleState

EPISODES = 7


def progress(d: InvincibleData, history: Any) -> dict[str, Any]:
    """Where a campaign stands after ``history`` (records from earlier games' outcomes)."""
    if not isinstance(history, list):
        raise SetupError("campaign.history must be a list of earlier games' campaign records")
    episode, attempt, helpers, won_last, total = 1, 1, [], False, 0
    results = []
    for i, r in enumerate(history):
        where = f"campaign.history[{i}]"
        if not isinstance(r, dict) or not isinstance(r.get("won"), bool):
            raise SetupError(f"{where} must be a campaign record with 'won'")
        if r.get("episode") != episode or r.get("attempt") != attempt:
            raise SetupError(f"{where} is episode {r.get('episode')} attempt {r.get('attempt')}, "
                             f"but the campaign was at episode {episode} attempt {attempt}")
        used = _ids(r.get("helpers_used", []), d.helpers, f"{where}.helpers_used")
        # Heroic Assembly: 'In Campaign Mode, unused helpers gained this way carry forward to a
        # future episode' (won or lost)
        assembled = _ids(r.get("helpers_assembled", []), d.helpers, f"{where}.helpers_assembled")
        results.append({"episode": episode, "attempt": attempt, "won": r["won"],
                        "score": r.get("score")})
        helpers.extend(h for h in assembled if h not in helpers)
        if r["won"]:
            # 'You keep any helper cards until you actually use them to win an episode'
            for h in used:
                if h in helpers:
                    helpers.remove(h)
            score = r.get("score")
            if isinstance(score, int) and not isinstance(score, bool):
                total += score
            episode, attempt, won_last = episode + 1, 1, True
        else:
            # 'a helper you use in a losing attempt comes back to you at the end of that episode
            # along with whatever helper the loss grants'
            gained = r.get("helper_gained")
            if gained is not None:
                helpers.extend(_ids([gained], d.helpers, f"{where}.helper_gained"))
            if attempt == 1:
                attempt = 2   # 'try the episode again if this was your first attempt'
            else:
                episode, attempt, won_last = episode + 1, 1, False  # 'move on ... regardless'
    return {"episode": episode, "attempt": attempt, "helpers": helpers,
            "challenge_allowed": won_last, "total": total, "results": results,
            "finished": episode > min(EPISODES, max(d.episodes))}


def helper_for_loss(s: InvincibleState, rng: random.Random) -> str | None:
    """'gain the helper card listed for that episode in the Episode Guide (or a random one if you
    already have it)'."""
    d = s.data
    held = set(s.campaign.get("helpers", [])) | set(s.helpers)
    listed = d.episodes[s.episode].helper
    if listed not in held:
        return listed
    others = sorted(set(d.helpers) - held)
    return rng.choice(others) if others else None


def record(s: InvincibleState, total: int | None) -> dict[str, Any]:
    """What this game adds to the campaign history once it is over."""
    return {"id": s.campaign.get("id"), "episode": s.episode, "attempt": s.campaign["attempt"],
            "won": s.result["status"] == "won", "score": total,
            "helpers_used": list(s.helpers_used), "helper_gained": s.helper_gained,
            "helpers_assembled": [h for h in s.assembled if h in s.helpers],
            "challenges": list(s.challenges)}


def _ids(values: Any, known: dict, where: str) -> list[str]:
    if not isinstance(values, list) or not all(isinstance(v, str) and v in known for v in values):
        raise SetupError(f"{where} must list known helper cards")
    return list(values)


def history_from_games(games: list[dict[str, Any]], campaign_id: Any) -> list[dict[str, Any]]:
    """The campaign records of finished games, oldest first, from the session's game history
    (``Session.history()`` rows: id, game, outcome). A game closed before it ended has no record
    and does not count as an attempt."""
    records = []
    for g in sorted(games, key=lambda g: g.get("id", 0)):
        outcome = g.get("outcome") or {}
        record = outcome.get("campaign")
        if (g.get("game") == "invincible" and outcome.get("status") in ("won", "lost")
                and isinstance(record, dict) and record.get("id") == campaign_id):
            records.append(record)
    return records
