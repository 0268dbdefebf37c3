"""The undo history keeps a bounded number of tables, whatever the game's length, and rebuilds
any other by replaying from the nearest one below (counts, not times)."""

from companion.fold import Table
from companion.history import KEEP, WINDOW, History
from companion.snapshots import EVERY


def counting(n: int = 3000, saved: bool = True):
    """A history of ``n`` actions whose table is the running sum of the actions' numbers; the
    journal's snapshots (when ``saved``) are the checkpoints' exact tables."""
    journal: dict[int, Table] = {}
    history = History(Table(0), lambda table, depth, step: Table(table.game + int(step[1])),
                      lambda seq, depth: journal.get(seq))
    total = 0
    for seq in range(1, n + 1):
        total += seq % 7
        table = Table(total)
        snapshot = saved and history.needs_snapshot(history.depth + 1)
        if snapshot:
            journal[seq] = table
        history.push(seq, str(seq % 7), table, saved=snapshot)
    return history, journal


def undo_one(history):
    """What an undo of the top action does (companion/undo.py's Plan, no timer step above it)."""
    table = history.table_at(history.depth - 1)
    history.take_back(history.depth - 1, [], history.latest_move(below=history.depth - 1))
    return table


def test_tables_in_memory_stay_bounded_while_the_game_grows():
    history, journal = counting()
    assert len(journal) == 3000 // EVERY
    assert len(history._tables) <= 1 + WINDOW + KEEP + 1
    assert history.top().game == sum(s % 7 for s in range(1, 3001)) and history.replayed == 0


def test_undo_replays_each_action_at_most_once_from_the_nearest_snapshot_below():
    history, _journal = counting()
    expected = [0]
    for seq in range(1, 3001):
        expected.append(expected[-1] + seq % 7)
    for depth in range(2999, 1499, -1):
        assert undo_one(history).game == expected[depth]
        assert len(history._tables) <= 1 + WINDOW + KEEP + EVERY + 1
    assert history.replayed <= 1500 + EVERY


def test_without_snapshots_the_checkpoints_stay_in_memory_and_undo_still_replays_little():
    history, journal = counting(1000, saved=False)
    assert journal == {} and len(history._tables) <= 1 + WINDOW + 1000 // EVERY + 1
    for depth in range(999, 799, -1):
        undo_one(history)
    assert history.top().game == sum(s % 7 for s in range(1, 801))
    assert history.replayed <= 200 + EVERY
