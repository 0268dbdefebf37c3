"""A damaged journal: bits flipped in the main file and in the write-ahead log at many offsets,
both files cut short. Start-up always gets a usable journal and session (no exception), says
what it recovered, and loses nothing that the intact prefix or the newest intact backup holds.

Each case is a fresh small journal: the on-disk image of a real session taken while it runs
(the main file holds a finished game and the start of a second, the log the rest, as after a
crash), with a rolling backup taken when the first game ended. The reference for every kept
prefix is a second session fed the same acknowledged actions, cut at the same entry.
"""

import json
import shutil
import sqlite3
import struct

import pytest

from companion.actions import Action
from companion.backups import Backups, listing
from companion.errors import JournalDamage
from companion.games import Catalog
from companion.journal import Journal
from companion.journal_recovery import RecoveryLog, open_journal
from companion.journal_wal import FRAME_HEADER, HEADER
from companion.session import Session

PLAYERS = {"players": ["dash", "violet"], "starting_problems": ["A", "B", "C"]}
CATALOG = Catalog()


def moves(count, first):
    """Legal actions, each carrying a marker (a timer's label) to find it in the files by."""
    out = []
    for k in range(count):
        n = first + k
        if k % 3 == 0:
            out.append(Action("timer.start", data={"name": f"t{n}", "seconds": 600,
                                                   "label": f"mark-{n:03d}"}))
        else:                     # no player named: whoever's turn it is
            out.append(Action("roll", data={"face": "1"}) if k % 3 == 1
                       else Action("move", data={"to": "start"}))
    return out


class Image:
    """The files of a journal as a crash leaves them, and what each entry said."""

    def __init__(self, root):
        self.root = root / "image"
        self.root.mkdir()
        live = root / "live"
        journal = Journal(live / "journal.sqlite3")
        session = Session(journal, CATALOG)
        backups = Backups(live / "backups", journal)
        session.add_listener(backups.on_view)
        self.actions = {}                 # seq -> (game number, action)
        session.start("incredibles", PLAYERS, seed=5)
        for action in moves(60, 0):       # two full pages of entries, then some
            self.actions[session.submit(action)["seq"]] = (1, action)
        session.close_game()              # the first game ends: a backup is taken
        self.backup_seq = session.seq
        session.start("incredibles", PLAYERS, seed=6)
        self.second_start = session.seq
        for action in moves(3, 100):
            self.actions[session.submit(action)["seq"]] = (2, action)
        journal._conn().execute("PRAGMA wal_checkpoint(TRUNCATE)")   # so far: in the main file
        for action in moves(12, 200):
            self.actions[session.submit(action)["seq"]] = (2, action)
        self.last_seq = session.seq
        self.state = session.view()["state"]
        assert _wait(lambda: listing(live / "backups")), "no backup at the game's end"
        for name in ("journal.sqlite3", "journal.sqlite3-wal"):    # on disk, as at a crash
            shutil.copyfile(live / name, self.root / name)
        shutil.copytree(live / "backups", self.root / "backups")
        journal.close()
        # the same journal after a clean stop: SQLite has moved the log into the main file
        self.clean = root / "clean"
        shutil.copytree(self.root, self.clean)
        db = sqlite3.connect(self.clean / "journal.sqlite3")
        db.execute("SELECT COUNT(*) FROM entries").fetchone()
        db.close()
        assert not (self.clean / "journal.sqlite3-wal").exists()

    def fresh(self, where, clean=False):
        shutil.copytree(self.clean if clean else self.root, where)
        return where


def _wait(predicate, timeout=5.0):
    import time
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.01)
    return predicate()


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    return Image(tmp_path_factory.mktemp("journal"))


def reference(image, kept):
    """The state a session reaches from the kept acknowledged actions of the second game (the
    one in progress), replayed from its start; None when its start was not kept."""
    if image.second_start not in kept:
        return None
    with Journal(":memory:") as journal:
        session = Session(journal, CATALOG)
        session.start("incredibles", PLAYERS, seed=6)
        for seq in sorted(s for s, (game, _a) in image.actions.items() if game == 2 and s in kept):
            session.submit(image.actions[seq][1])
        return session.view()["state"]


def start(data):
    """What `companion serve` does at start-up, in-process."""
    journal, session, report = open_journal(
        data / "journal.sqlite3", lambda j: Session(j, CATALOG),
        backups=lambda: [(b.path, b.seq) for b in listing(data / "backups")])
    return journal, session, report


def assert_sound(image, data, floor=0, exact=True):
    """Starts, reports, keeps a prefix that replays to the reference, and keeps at least
    ``floor`` entries; returns the report. Without a report the journal must be as it was
    (``exact``), or, where what was cut off leaves no trace (a log cut at a frame's end reads
    as transactions never committed), a prefix of it above the floor."""
    journal, session, report = start(data)
    try:
        view = session.view()
        if report is None:
            if exact:                            # damage nowhere it mattered
                assert view["seq"] == image.last_seq and view["state"] == image.state
            else:
                assert floor <= view["seq"] == journal.last_seq() and journal.check(full=True).ok
                assert view["state"] == reference(image, set(range(1, view["seq"] + 1)))
            return None
        kept = set(range(1, report.seen_through + 1)) - {
            n for a, b in report.lost for n in range(a, b + 1)}
        assert set(range(1, floor + 1)) <= kept, report.text()     # nothing below the floor lost
        assert journal.check(full=True).ok and view["seq"] == journal.last_seq()
        assert view["state"] == reference(image, kept), report.text()
        assert (data / "damaged").is_dir() and report.text().startswith("The journal was found damaged")
        return report
    finally:
        journal.close()


def offset_of(data, marker):
    raw = (data / "journal.sqlite3").read_bytes()
    at = raw.find(marker.encode())
    assert at > 0, marker
    return at


def flip(path, offset, mask=0x04):
    raw = bytearray(path.read_bytes())
    raw[offset] ^= mask
    path.write_bytes(bytes(raw))


# -- the reproductions of issue 18 ---------------------------------------------------------------

def test_invalid_utf8_in_a_payload_is_damage_not_an_operational_error(image, tmp_path):
    """Issue 18: "a bit flip that makes a payload invalid UTF-8 gives a sqlite3.OperationalError
    traceback at start-up"."""
    data = image.fresh(tmp_path / "data")
    at = offset_of(data, "mark-003")
    raw = bytearray((data / "journal.sqlite3").read_bytes())
    raw[at] = 0xFF
    (data / "journal.sqlite3").write_bytes(bytes(raw))
    report = assert_sound(image, data, floor=image.last_seq)   # the backup holds entry 3 intact
    assert report.lost == [] and "not UTF-8" in report.reason


def test_damage_inside_an_entry_is_reported_as_journal_damage(image, tmp_path):
    """Issue 18: "damage inside an entry's content fails with a rules message ... that does not
    say the journal is damaged". A changed move of the game in progress (no backup has it)."""
    data = image.fresh(tmp_path / "data", clean=True)
    flip(data / "journal.sqlite3", offset_of(data, "mark-200") + 6)     # "mark-200" -> "mark-600"
    report = assert_sound(image, data)
    damaged = image.second_start + 4
    assert report.lost == [[damaged, image.last_seq]] and report.seen_through == image.last_seq
    assert f"entry {damaged} is damaged" in report.reason and "checksum" in report.reason
    assert f"entries {damaged} to {image.last_seq}" in report.text()


def test_an_entry_the_rules_refuse_on_replay_is_journal_damage(image, tmp_path):
    """A journal of an older companion has no checksums: a changed move is then found by the
    rules refusing it on replay, and reported as damage, with the rules' reason."""
    data = image.fresh(tmp_path / "data")
    with sqlite3.connect(data / "journal.sqlite3") as db:
        db.execute("UPDATE entries SET crc = NULL")
        seq = db.execute("SELECT MIN(seq) FROM entries WHERE payload LIKE '%\"move\"%' AND game_id = 2"
                         ).fetchone()[0]
        db.execute("UPDATE entries SET payload = replace(payload, '\"start\"', '\"Z9\"') WHERE seq = ?",
                   (seq,))
    report = assert_sound(image, data)
    assert report.lost == [[seq, image.last_seq]]
    assert f"entry {seq} (move) cannot be replayed" in report.reason


def test_write_ahead_log_damage_drops_no_acknowledged_move_and_says_so(image, tmp_path, caplog):
    """Issue 18: "WAL frames lost to damage drop acknowledged moves with no log line"."""
    data = image.fresh(tmp_path / "data")
    wal = data / "journal.sqlite3-wal"
    flip(wal, HEADER + FRAME_HEADER + 100)          # inside the first frame's page
    shutil.copytree(data, tmp_path / "copy")
    with pytest.raises(JournalDamage, match="write-ahead log is damaged at frame 1"):
        Journal(tmp_path / "copy" / "journal.sqlite3")        # what SQLite alone would drop
    report = assert_sound(image, data, floor=image.last_seq)
    assert "committed transaction" in report.reason and report.lost == []
    assert any("journal was found damaged" in r.getMessage() for r in caplog.records)


# -- the suite: many offsets, both files, and truncations ---------------------------------------

def _main_offsets(image, clean):
    size = ((image.clean if clean else image.root) / "journal.sqlite3").stat().st_size
    # the header's fields, the first bytes of each page, and points spread over the file
    return sorted({0, 28, 60, 68, 100, 4100} | {size * k // 9 + 11 for k in range(1, 9)})


def _wal_offsets(image):
    raw = (image.root / "journal.sqlite3-wal").read_bytes()
    page = struct.unpack(">I", raw[8:12])[0]
    step = FRAME_HEADER + page
    frames = (len(raw) - HEADER) // step
    picks = {0, 16, 24}                                               # the log's header
    for i in (0, frames // 3, frames // 2, frames - 1):
        at = HEADER + i * step
        # the commit mark, a salt, the checksum, the page's data
        picks |= {at + 4, at + 8, at + 16, at + FRAME_HEADER + 50}
    return sorted(picks)


@pytest.mark.parametrize("clean", [False, True], ids=["after a crash", "after a clean stop"])
@pytest.mark.parametrize("which", range(14))
def test_bit_flips_in_the_main_file(image, tmp_path, which, clean):
    offsets = _main_offsets(image, clean)
    if which >= len(offsets):
        pytest.skip("fewer offsets in this image")
    data = image.fresh(tmp_path / "data", clean)
    flip(data / "journal.sqlite3", offsets[which], 0x10)
    # the backup (taken when the first game ended) is intact: nothing it holds may be lost
    assert_sound(image, data, floor=image.backup_seq)


@pytest.mark.parametrize("which", range(19))
def test_bit_flips_in_the_write_ahead_log(image, tmp_path, which):
    offsets = _wal_offsets(image)
    if which >= len(offsets):
        pytest.skip("fewer offsets in this image")
    data = image.fresh(tmp_path / "data")
    flip(data / "journal.sqlite3-wal", offsets[which], 0x01)
    # the main file and the backup are intact: nothing they hold may be lost
    assert_sound(image, data, floor=image.second_start + 3)


@pytest.mark.parametrize("file, keep", [
    ("journal.sqlite3", 0), ("journal.sqlite3", 100), ("journal.sqlite3", 4096),
    ("journal.sqlite3", "half"), ("journal.sqlite3-wal", 20), ("journal.sqlite3-wal", 32),
    ("journal.sqlite3-wal", "half"), ("journal.sqlite3-wal", "frame"),
])
def test_truncations(image, tmp_path, file, keep):
    data = image.fresh(tmp_path / "data")
    path = data / file
    raw = path.read_bytes()
    if keep == "half":
        keep = len(raw) // 2
    elif keep == "frame":                       # whole frames only: the last ones are gone
        page = struct.unpack(">I", raw[8:12])[0]
        keep = HEADER + ((len(raw) - HEADER) // (FRAME_HEADER + page) - 3) * (FRAME_HEADER + page)
    path.write_bytes(raw[:keep])
    floor = image.backup_seq if file == "journal.sqlite3" else image.second_start + 3
    assert_sound(image, data, floor=floor, exact=False)


def test_a_lost_journal_comes_back_from_its_newest_backup(image, tmp_path):
    data = image.fresh(tmp_path / "data")
    for name in ("journal.sqlite3", "journal.sqlite3-wal"):
        (data / name).unlink()
    report = assert_sound(image, data, floor=image.backup_seq)
    # The backup is taken on the event bus's thread after the game ended, so it may also hold
    # the next game's first entry: never less than it was asked for.
    assert report.kept_through >= image.backup_seq and "the end of the journal was lost" in report.reason


def test_the_recovery_is_recorded_for_the_table_and_not_repeated(image, tmp_path):
    data = image.fresh(tmp_path / "data", clean=True)
    flip(data / "journal.sqlite3", offset_of(data, "mark-200") + 6)
    journal, session, report = start(data)
    journal.close()
    book = RecoveryLog(data)
    book.add(report)
    assert book.notices()[0]["text"] == report.text()
    assert book.notices()[0]["lost"] == report.lost_count == image.last_seq - image.second_start - 3
    assert "damaged/" in report.text() and str(data) not in report.text()   # no absolute path
    journal, session, again = start(data)                       # the next start-up: all is well
    journal.close()
    assert again is None and session.view()["seq"] == report.kept_through
    book.acknowledge()
    assert book.notices() == [] and len(book.records()) == 1
    old = json.loads((data / "recoveries.json").read_text())
    assert old[0]["acknowledged"] is True


@pytest.mark.parametrize("marker", ["mark-203", "mark-209"])
def test_a_damaged_page_stops_no_count_of_what_came_after_it(image, tmp_path, marker):
    """100 bytes overwritten inside a page of entries: SQLite's scan of the entries stops at
    that page, and recovery took the entries before it for the whole journal, kept the
    longest prefix and said 'Nothing was lost', though the journal had gone further and the
    rows past the page still read. Now the rows are read one by one past the damage, the
    journal's own numbering says how far it went, and what is not kept is reported lost
    (and kept in the damaged copy)."""
    data = image.fresh(tmp_path / "data", clean=True)
    raw = bytearray((data / "journal.sqlite3").read_bytes())
    at = offset_of(data, marker) - 50
    raw[at:at + 100] = b"\xa5" * 100
    (data / "journal.sqlite3").write_bytes(bytes(raw))
    report = assert_sound(image, data, floor=image.backup_seq)
    assert report is not None and report.seen_through == image.last_seq, report.text()
    assert report.lost and "Nothing was lost" not in report.text(), report.text()


def test_an_entry_whose_checksum_holds_but_which_is_no_json_is_damage_not_a_traceback(tmp_path):
    """A row written by something else than the companion: its checksum made to fit, its payload
    no JSON. `serve` stopped with a JSONDecodeError and systemd restarted it for ever; `journal
    check` raised a ValueError. Both now call it damage: check names the entry, start-up
    recovers the entries before it (found by a hostile-input audit)."""
    from companion.journal_rows import entry_crc

    data = tmp_path / "data"
    data.mkdir()
    with Journal(data / "journal.sqlite3") as journal:
        session = Session(journal, CATALOG)
        session.start("incredibles", PLAYERS, seed=5)
        for action in moves(4, 0):
            session.submit(action)
        last = session.seq
    db = sqlite3.connect(data / "journal.sqlite3")
    gid, kind, at = db.execute("SELECT game_id, kind, at FROM entries WHERE seq = ?", (last,)).fetchone()
    db.execute("UPDATE entries SET payload = ?, crc = ? WHERE seq = ?",
               ("not json", entry_crc(last, gid, kind, "not json", at), last))
    db.commit()
    db.close()
    with Journal(data / "journal.sqlite3") as journal:
        health = journal.check()
        assert not health.ok and any(f"entry {last} is damaged" in p for p in health.problems)
    journal, session, report = start(data)
    try:
        assert report is not None and session.view()["seq"] == last - 1, report
        assert report.lost == [(last, last)] or report.lost == [[last, last]], report.lost
    finally:
        journal.close()


def test_a_folder_where_the_journal_goes_is_said_plainly_not_recovered(tmp_path):
    """A folder named journal.sqlite3 in the data folder: start-up took it for a damaged journal
    and its recovery raised IsADirectoryError; `journal check` too (found by a hostile-input
    audit). It is a mistake to put right: said, and nothing is moved."""
    from companion.errors import JournalError
    from companion.journal_commands import check

    data = tmp_path / "data"
    (data / "journal.sqlite3").mkdir(parents=True)
    with pytest.raises(JournalError, match="is a folder, not a journal file"):
        start(data)
    health, _how = check(data / "journal.sqlite3")
    assert not health.ok and "is a folder" in health.problems[0]
    # doctor says so too, without sending the owner to `journal recover`, which mends no folder
    from companion.journal_commands import doctor_findings
    found = doctor_findings(data)[0]
    assert found["status"] == "fail" and "journal recover" not in found["fix"], found
    assert (data / "journal.sqlite3").is_dir() and not (data / "damaged").exists()
