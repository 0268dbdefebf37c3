"""The refusals board: a refusal from any channel reaches every screen at once, without being journaled."""

import threading

from companion.refusals import KEEP, SHOWN, Refusals
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session


def test_refusals_are_numbered_bounded_and_heard_by_their_listener():
    heard = []
    board = Refusals()
    board.listen(heard.append)
    first = board.post("no card is to be drawn now", source="button", origin="button card")
    assert first["id"] == 1 and first["kind"] == "refused" and heard[-1] == {"last": 1, "recent": [first]}
    for i in range(KEEP + 5):
        board.post(f"n{i}", source="camera")
    assert board.last_id == KEEP + 6
    assert [n["id"] for n in board.since(0)] == list(range(7, KEEP + 7))    # the newest KEEP
    assert board.since(board.last_id) == []
    assert board.post("x" * 5000, source="api")["text"] == "x" * 400       # bounded text


def test_a_listener_is_handed_the_whole_board_now_and_after_each_post_in_order(tmp_path):
    session = Session(Journal(tmp_path / "j.sqlite3"), Catalog())
    seq = session.seq
    heard = []
    session.refusals.listen(heard.append)
    assert heard == [{"last": 0, "recent": []}]                  # an opening value, even empty
    posters = [threading.Thread(target=lambda i=i: [session.refusals.post(f"t{i}-{k}", source="api")
                                                    for k in range(10)]) for i in range(4)]
    for t in posters:
        t.start()
    for t in posters:
        t.join(5)
    assert [h["last"] for h in heard] == list(range(41))         # every post, none out of order
    assert len(heard[-1]["recent"]) == SHOWN and heard[-1]["recent"][-1]["id"] == 40
    assert session.seq == seq                                    # a refusal is never journaled
