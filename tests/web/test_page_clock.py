"""A page's clock is the server's as it opens, not the time of the last change: its timers count
from now. A phone opened (or woken, or reconnected) minutes after the last move showed the hero
time left as it was at that move (9:27 with 7:10 left, found by an audit of Invincible's hero
time): the warning came late, then the clock jumped to "Time's up!"."""

import time

from browser_pages import WAIT
from companion.actions import Action
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from live_server import live_app


class Clock:
    def __init__(self):
        self.now = time.time()

    def __call__(self):
        return self.now


def test_a_page_opened_long_after_the_last_change_counts_its_timer_from_now(tmp_path, pages):
    clock = Clock()
    with Journal(tmp_path / "journal.sqlite3") as journal:
        session = Session(journal, Catalog(), clock)
        session.start("incredibles", {"players": ["dash", "violet"],
                                      "starting_problems": ["A", "B", "C"]}, seed=3)
        with live_app(session) as live:
            session.submit(Action("timer.start", data={"name": "turn", "seconds": 600}))
            clock.now += 150                    # two and a half minutes without a move
            for path, size in (("/play", (412, 915)), ("/table", (1280, 720))):
                page = pages(f"http://127.0.0.1:{live.port}{path}", *size)
                left = page.locator('[data-left="turn"]').first
                left.wait_for(timeout=WAIT)
                page.wait_for_timeout(1200)     # the page recounts its timers every second
                shown = left.inner_text()
                assert shown in ("7:30", "7:29", "7:28"), (path, shown)
