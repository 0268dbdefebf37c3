"""A full SD card over real HTTP: a tap that cannot be journaled is answered 503 (the table
cannot keep moves now), never 400 (the docs' "malformed action", which tells a phone its tap was
wrong); nothing is kept, and the same tap is taken once there is room again."""

import json

from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from live_server import live_app

BIG = {"type": "timer.start", "data": {"name": "big", "seconds": 60, "label": "x" * 12000}}


def test_a_full_card_is_a_503_and_the_tap_is_taken_once_there_is_room(tmp_path):
    with Journal(tmp_path / "journal.sqlite3") as journal:
        session = Session(journal, Catalog())
        session.start("incredibles", {"players": ["dash", "violet"],
                                      "starting_problems": ["A", "B", "C"]}, seed=3)
        db = journal._conn()
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")     # the card is full
        before = journal.last_seq()
        with live_app(session) as live:
            status, _h, body = live.json("POST", "/api/actions", BIG)
            error = json.loads(body)["error"]
            assert status == 503, (status, error)
            assert "could not be written" in error and "full" in error, error
            assert journal.last_seq() == before
            db.execute("PRAGMA max_page_count = 1073741823")   # room again
            status, _h, body = live.json("POST", "/api/actions", BIG)
            assert status == 200 and "big" in json.loads(body)["timers"], body
            assert journal.last_seq() == before + 1
