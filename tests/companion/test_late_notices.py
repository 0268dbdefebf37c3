"""A notice that a timer ran out while the companion was off tells of the expiry start-up
journaled, and stands exactly as long as the game in progress has that entry
(companion/notices.py). Found at a table: Invincible, hero-time variant; start-up ran hero time
out, the players pressed Undo, hero time was back, and every screen still said it had run out
until someone tapped Understood.

A real session on a real journal in a folder, started again as `companion serve` starts it
(the notices book, its listener, the ticker with the book); the HTTP service, its restarts and
<data>/notices.json are in tests/web/test_crash_recovery.py."""

import threading
import time

import pytest

from companion import ticker
from companion.actions import Action
from companion.backups import Backups
from companion.games import Catalog
from companion.journal import Journal
from companion.journal_recovery import RecoveryLog
from companion.session import Session

HEROES = {"heroes": ["invincible", "atom-eve"], "hero_time": 10}
# what start-up shows of a recovered journal: tied to no entry, it stands until read, as before
RECOVERED = {"kind": "journal", "at": 900.0, "text": "The journal was found damaged at start-up "
             "(...). Nothing was lost.", "lost": 0, "untold": False}


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def until(check, seconds=10.0):
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "never happened"
        time.sleep(0.05)


@pytest.fixture
def late(tmp_path):
    """A Hero Phase begun and a pull made; the companion off for a quarter of an hour (hero time
    is ten minutes); started again, and its ticker's first tick has run hero time out."""
    clock = Clock()
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        session = Session(journal, Catalog(), clock)
        session.start("invincible", HEROES, seed=3)
        session.submit(Action("advance"))                          # hero time starts
        clock.now += 100
        session.submit(Action("pull", "invincible", {"hero": "invincible"}))
    clock.now += 800
    journal = Journal(path)
    session = Session(journal, Catalog(), clock)
    book = RecoveryLog(tmp_path)
    session.set_notices([RECOVERED])
    session.add_listener(book.told.listener(journal))
    heard: list[int] = []          # after the book's listener: it is done with what this heard
    session.add_listener(lambda view: heard.append(view["seq"]))
    stopping = threading.Event()
    thread = threading.Thread(target=ticker.run, args=(
        session, Backups(tmp_path / "backups", journal), stopping, book))
    thread.start()
    try:
        until(lambda: len(session.view()["notices"]) == 2)
        yield session, book, heard
    finally:
        stopping.set()
        thread.join(5)
        journal.close()


def told_of_timers(book):
    """The timers' notices <data>/notices.json keeps, as a restart reads them."""
    return [n["text"] for n in book.told.notices()]


def test_the_notice_stands_while_its_expiry_does_and_goes_with_it(late):
    session, book, heard = late
    recovered, timer = session.view()["notices"]
    assert recovered == RECOVERED
    assert timer["text"].startswith("Hero time ran out at ") and "was off" in timer["text"]
    assert session.view()["timers"]["hero_time"]["expired"]
    assert told_of_timers(book) == [timer["text"]]

    # Undo takes back the pull; the expiry above it applies again to the Hero Phase below: the
    # phase still ended while the companion was off, and the notice still says so
    view = session.submit(Action("undo"))
    assert view["undone"]["action"]["type"] == "pull"
    assert view["timers"]["hero_time"]["expired"]
    assert view["notices"] == [RECOVERED, timer]
    until(lambda: view["seq"] in heard)                  # the book's listener has had it
    assert told_of_timers(book) == [timer["text"]]

    # Undo takes back the advance: the expiry has nothing to end and goes too, and its notice
    view = session.submit(Action("undo"))
    assert view["undone"]["action"]["type"] == "advance"
    hero_time = view["timers"]["hero_time"]
    assert not hero_time["expired"] and hero_time["remaining"] == 600, hero_time
    assert view["notices"] == [RECOVERED]                # the undo's own view
    assert session.view()["notices"] == [RECOVERED]
    until(lambda: told_of_timers(book) == [])
    assert book.notices() == []


@pytest.mark.parametrize("then", ["close", "another"])
def test_the_notice_goes_with_its_game(late, then):
    """The game closed, or another started: the expiry is in no game in progress."""
    session, book, _heard = late
    if then == "close":
        view = session.close_game()
    else:
        view = session.start("incredibles", {"players": ["dash"]}, seed=7)
    assert view["notices"] == [RECOVERED]
    until(lambda: told_of_timers(book) == [])

