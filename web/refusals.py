"""A refused change made over HTTP (a phone's tap) goes on the refusals board every screen hears of.

The page that made it shows the full reason from its own answer; the others (above all the
table) show a short notice. ``X-Companion-Page`` names the page, so it can skip its own echo.
"""

from __future__ import annotations

import re

from companion.errors import BadAction, Conflict, IllegalAction, NoGame, Stale

PAGE_HEADER = "X-Companion-Page"
PAGE_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
REFUSALS = (IllegalAction, BadAction, Conflict, NoGame)
# changes whose refusal the table hears of (starting a game is refused on the setup page alone)
CHANNELS = ("/api/actions", "/api/dice/", "/api/hardware/", "/api/camera/")


def refused(session, request, exc: Exception) -> None:
    board = getattr(session, "refusals", None)
    if board is None or request.method != "POST" or not isinstance(exc, REFUSALS):
        return
    if isinstance(exc, Stale):     # two phones' taps crossing: the later one's phone retries
        return
    if not request.path.startswith(CHANNELS):
        return
    page = request.headers.get(PAGE_HEADER)
    board.post(str(exc), source="dashboard", origin=request.path.rsplit("/", 1)[-1],
               rule=getattr(exc, "rule", None), page=page if page and PAGE_ID.match(page) else None)
