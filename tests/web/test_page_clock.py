"""A page's clock is the server's as it opens, not the time of the last change: its timers count
from now. A phone opened (or woken, or reconnected) minutes after the last move showed the hero
time left as it was at that move (9:27 with 7:10 left, found by an audit of Invincible's hero
time): the warning came late, then the clock jumped to "Time's up!"."""

import contextlib
import threading
import time

from browser_pages import WAIT
from companion import ticker
from companion.actions import Action
from companion.backups import Backups
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


def test_a_timer_that_ran_out_while_the_companion_was_off_is_on_the_pages_opened_after(
        tmp_path, pages):
    """Told on the refusals board, news of a moment, it was gone before any page reconnected
    after the restart (found by a verification audit): it is a notice in every view now, on the
    table and the phones until someone says they read it."""
    with _restarted_after_hero_time_ran_out(tmp_path) as session, live_app(session) as live:
        for path_, size in (("/table", (800, 480)), ("/play", (390, 844))):
            page = pages(f"http://127.0.0.1:{live.port}{path_}", *size)
            page.wait_for_selector("#alerts p", timeout=WAIT)
            said = page.inner_text("#alerts")
            assert "Hero time ran out at" in said and "companion was off" in said, said


def test_a_notice_that_comes_or_goes_at_the_same_seq_is_shown_on_an_open_page(tmp_path, pages):
    """The ticker's notice comes right after the expiry it tells of, at the same seq, and
    "Understood" clears the notices at the same seq: a page that already had that seq took the
    new view for its own echo and drew nothing."""
    with Journal(tmp_path / "journal.sqlite3") as journal:
        session = Session(journal, Catalog())
        session.start("incredibles", {"players": ["dash", "violet"],
                                      "starting_problems": ["A", "B", "C"]}, seed=3)
        with live_app(session) as live:
            table = pages(f"http://127.0.0.1:{live.port}/table", 800, 480)
            table.wait_for_function(f"document.body.dataset.seq === '{session.seq}'")
            session.set_notices([{"kind": "timer", "text": "Turn ran out at 17:06, while the "
                                  "companion was off; its end is applied now (check the board)."}])
            table.wait_for_selector("#alerts p", timeout=WAIT)
            assert "Turn ran out at 17:06" in table.inner_text("#alerts")
            session.set_notices([], read=True)
            table.wait_for_selector("#alerts", state="hidden", timeout=WAIT)


def test_a_late_timers_notice_leaves_the_open_pages_when_undo_takes_its_end_back(tmp_path,
                                                                                 pages):
    """Found at a table: after start-up ran hero time out, Undo took the end back (hero time
    full again), and every screen still said it had run out until someone tapped Understood."""
    with _restarted_after_hero_time_ran_out(tmp_path) as session, live_app(session) as live:
        opened = [pages(f"http://127.0.0.1:{live.port}{path_}", *size)
                  for path_, size in (("/table", (800, 480)), ("/play", (390, 844)))]
        for page in opened:
            page.wait_for_selector("#alerts p", timeout=WAIT)
            assert "Hero time ran out at" in page.inner_text("#alerts")
        undone = session.submit(Action("undo"))    # the advance, and the end with it
        assert not undone["timers"]["hero_time"]["expired"]
        for page in opened:
            page.wait_for_function(f"document.body.dataset.seq === '{undone['seq']}'")
            page.wait_for_selector("#alerts", state="hidden", timeout=WAIT)


@contextlib.contextmanager
def _restarted_after_hero_time_ran_out(tmp_path):
    """An Invincible Hero Phase begun, the companion off for a quarter of an hour (hero time is
    ten minutes), started again with its ticker: the session once its notice is in the view."""
    clock = Clock()
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        session = Session(journal, Catalog(), clock)
        session.start("invincible", {"heroes": ["invincible", "atom-eve"], "hero_time": 10},
                      seed=3)
        session.submit(Action("advance"))
    clock.now += 900                                     # off for a quarter of an hour
    with Journal(path) as journal:
        session = Session(journal, Catalog(), clock)
        stopping = threading.Event()
        thread = threading.Thread(target=ticker.run, args=(
            session, Backups(tmp_path / "backups", journal), stopping))
        thread.start()
        try:
            deadline = time.monotonic() + 10
            while not session.view()["notices"] and time.monotonic() < deadline:
                time.sleep(0.05)
            yield session
        finally:
            stopping.set()
            thread.join(5)
