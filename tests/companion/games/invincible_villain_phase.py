"""An Invincible game brought to its Villain Phase by the heroes doing nothing but stop, through
any channel: ``view()`` returns the session's view (in memory or GET /api/state) and
``submit(action)`` plays an action (in memory or POST /api/actions)."""

from tests.companion.games.invincible_helpers import stopping


def to_villain_phase(view, submit, limit=200):
    """Returns expect once the Villain Phase waits for its event card."""
    for _ in range(limit):
        now = view()
        if "reveal" in now["expect"]["actions"]:
            return now["expect"]
        submit(stopping(now))
    raise AssertionError("no Villain Phase came")
