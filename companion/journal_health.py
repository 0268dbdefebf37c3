"""What ``Journal.check`` finds: every game, every entry and every snapshot looked at (and with
``full``, every page of the file), on request (`companion journal check`, `companion doctor`,
a backup about to be restored). A damaged snapshot is reported but harms nothing: it is never
used, the entries replay instead.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from companion.errors import JournalDamage
from companion.journal_rows import Health


def check(journal: Any, full: bool = False) -> Health:
    """Look at every game, entry and snapshot (and, with ``full``, every page of the file)."""
    health = Health()
    if journal.wal is not None and journal.wal.damaged:
        health.problems.append(journal.wal.describe())
    pragma = "integrity_check" if full else "quick_check"
    try:
        found = journal.pragma(pragma)
        if found != ["ok"]:
            health.problems.append("SQLite finds the file damaged: " + "; ".join(found[:3]))
        games = journal.history(limit=1 << 30)
    except (sqlite3.DatabaseError, JournalDamage) as exc:
        health.problems.append(str(exc))
        return health
    health.games = len(games)
    for record in reversed(games):
        try:
            health.moves += len(journal.entries(record.id))
        except JournalDamage as exc:
            health.problems.append(str(exc).replace(journal.path + ": ", ""))
            health.first_damaged = min(filter(None, (health.first_damaged, exc.seq)),
                                       default=None)
        for seq in sorted(journal.snapshots(record.id)):
            health.snapshots += 1
            if journal.snapshot(seq) is None:
                health.snapshots_damaged.append(seq)
    health.last_seq = journal.last_seq()
    return health
