"""A real `companion serve` on a damaged journal: it starts without a traceback, the table is
told plainly what was recovered, `companion doctor` says so too, and the notice goes once read.
Then the journal's own commands: check, export (a replay file), restore (one command)."""

import json
import re
import signal
import subprocess
import sys

import pytest

from companion.journal_wal import FRAME_HEADER, HEADER

SETUP = {"game": "incredibles", "players": ["dash", "violet"], "seed": 11,
         "starting_problems": ["A", "B", "C"]}
MOVES = [("roll", "dash", {"face": "1"}), ("move", "dash", {"to": "start"}),
         ("roll", "violet", {"face": "1"}), ("move", "violet", {"to": "start"})]


def companion(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, timeout=timeout)


def played(server_factory, data):
    server = server_factory(data=data)
    assert server.post("/api/session", SETUP)[0] == 201
    for type_, player, body in MOVES:
        status, view = server.act(type_, player, **body)
        assert status == 200, view
    return server, view


def test_a_damaged_log_is_recovered_and_the_table_is_told(server_factory, tmp_path):
    data = tmp_path / "data"
    server, before = played(server_factory, data)
    server.kill()                                  # a crash: the moves are in the log
    wal = data / "journal.sqlite3-wal"
    raw = bytearray(wal.read_bytes())
    raw[HEADER + FRAME_HEADER + 300] ^= 0x08        # a flipped bit in the first frame
    wal.write_bytes(bytes(raw))

    server = server_factory(data=data)
    status, view = server.get("/api/state")
    assert status == 200 and view["seq"] == before["seq"] and view["state"] == before["state"]
    (notice,) = view["notices"]
    assert notice["kind"] == "journal" and notice["lost"] == 0
    assert "write-ahead log is damaged" in notice["text"] and "Nothing was lost" in notice["text"]
    assert "damaged/" in notice["text"] and str(data) not in notice["text"]
    assert len(list((data / "damaged").iterdir())) == 1
    doctor = companion("--data", str(data), "doctor", "--simulate")
    assert "WARN  journal recovered" in doctor.stdout and "OK    journal " in doctor.stdout
    assert "OK    journal backup" in doctor.stdout                  # one taken after recovery
    # read at the table: gone from the state, and from the next start
    status, view = server.request("DELETE", "/api/notices")
    assert status == 200 and view["notices"] == []
    server.proc.send_signal(signal.SIGTERM)
    _out, err = server.proc.communicate(timeout=30)
    assert server.proc.returncode == 0 and "Traceback" not in err, err
    assert "The journal was found damaged" in err                 # the log says so too
    again = server_factory(data=data)
    assert again.get("/api/state")[1]["notices"] == []


def test_a_log_past_reading_is_not_dropped_without_a_word(server_factory, tmp_path):
    """A write-ahead log overwritten with noise (no header, no frame SQLite accepts) was taken
    for no log at all: SQLite ignored it and the acknowledged moves in it were gone, with no
    notice and no copy kept. Now the table is told the moves it held cannot be counted, and
    the log is kept aside."""
    import random

    data = tmp_path / "data"
    server, before = played(server_factory, data)
    server.kill()
    wal = data / "journal.sqlite3-wal"
    assert wal.stat().st_size > HEADER
    wal.write_bytes(random.Random(4).randbytes(wal.stat().st_size))

    server = server_factory(data=data)
    status, view = server.get("/api/state")
    assert status == 200
    (notice,) = view["notices"]
    assert "write-ahead log cannot be read at all" in notice["text"], notice
    assert "cannot be counted: check the board" in notice["text"], notice
    assert "Nothing was lost" not in notice["text"]
    (aside,) = (data / "damaged").iterdir()
    assert (aside / "journal.sqlite3-wal").read_bytes() == wal.read_bytes() or \
        (aside / "journal.sqlite3-wal").stat().st_size > HEADER


def test_a_journal_past_reading_with_no_backup_does_not_say_nothing_was_lost(
        server_factory, tmp_path, pages):
    """A journal that is not SQLite at all, before any backup was taken (the first minutes of
    a first game): the notice said "Recovered from nothing: no entry could be kept. Nothing was
    lost." with the game gone."""
    import shutil

    data = tmp_path / "data"
    server, _before = played(server_factory, data)
    server.stop()
    shutil.rmtree(data / "backups", ignore_errors=True)
    (data / "journal.sqlite3").write_bytes(b"hello, this is not a database" * 100)

    server = server_factory(data=data)
    status, view = server.get("/api/state")
    assert status == 200
    (notice,) = view["notices"]
    assert "Nothing was lost" not in notice["text"], notice
    assert "The journal itself could not be read" in notice["text"], notice
    assert "moves of any game it may have held cannot be counted" in notice["text"], notice
    # the table's short version too (it said "Nothing was lost." whenever none was counted)
    table = pages(server.url + "/table", 800, 480)
    table.wait_for_selector("#alerts p")
    said = table.inner_text("#alerts")
    assert "Nothing was lost" not in said and "could not all be counted" in said, said


def test_an_emptied_journal_is_told_not_taken_for_a_new_one(server_factory, tmp_path, pages):
    """A journal file cut to nothing (a power cut while the card was written, a damaged card)
    is what SQLite takes for a new database, dropping the log beside it: the service started
    with no game and no word of the one in progress. Now, where a journal was (backups of it, or
    a log holding commits), the table is told, the files are kept aside, and the game comes back
    from a backup where there is one. An empty file in a fresh folder is still a new journal."""
    data = tmp_path / "data"
    server, before = played(server_factory, data)
    server.stop()                                    # a clean stop: a backup taken
    (data / "journal.sqlite3").write_bytes(b"")
    server = server_factory(data=data)
    view = server.get("/api/state")[1]
    assert view["seq"] == before["seq"] and view["state"] == before["state"]
    (notice,) = view["notices"]
    assert "the journal file was empty" in notice["text"], notice
    assert "the backup journal-" in notice["text"], notice
    server.stop()

    fresh = tmp_path / "fresh"                       # the first minutes of a first game
    server, before = played(server_factory, fresh)
    server.kill()                                    # the moves in the log, no backup yet
    assert not list((fresh / "backups").glob("*")) and (fresh / "journal.sqlite3-wal").stat().st_size
    (fresh / "journal.sqlite3").write_bytes(b"")
    server = server_factory(data=fresh)
    view = server.get("/api/state")[1]
    (notice,) = view["notices"]
    assert "the journal file was empty" in notice["text"], notice
    assert "Nothing was lost" not in notice["text"], notice
    (kept,) = (fresh / "damaged").iterdir()
    assert (kept / "journal.sqlite3").stat().st_size == 0
    assert (kept / "journal.sqlite3-wal").stat().st_size > 0
    table = pages(server.url + "/table", 800, 480)
    table.wait_for_selector("#alerts p")
    said = table.inner_text("#alerts")
    assert "Nothing was lost" not in said, said
    server.stop()

    new = tmp_path / "new"                           # made by hand: no journal was ever there
    new.mkdir()
    (new / "journal.sqlite3").write_bytes(b"")
    server = server_factory(data=new)
    view = server.get("/api/state")[1]
    assert view["notices"] == [] and view["state"] is None
    assert not (new / "damaged").exists()


def test_damage_in_the_main_file_starts_without_a_traceback(server_factory, tmp_path):
    """Issue 18: invalid UTF-8 in a payload gave an OperationalError traceback at start-up."""
    data = tmp_path / "data"
    server, before = played(server_factory, data)
    server.stop()                  # a clean stop: all in the main file, and a backup taken
    path = data / "journal.sqlite3"
    raw = bytearray(path.read_bytes())
    at = raw.find(b'"to": "start"')               # the first move of the game in progress
    assert at > 0
    raw[at + 7] = 0xFF
    path.write_bytes(bytes(raw))
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", "0",
                             "--data", str(data)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        line = proc.stdout.readline()
        assert "dashboard at" in line
        port = int(re.search(r"http://[^/]+:(\d+)/", line).group(1))
        import urllib.request
        view = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state").read())
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "Traceback" not in err, err
    text = view["notices"][0]["text"]
    assert "not UTF-8" in text
    # the backup taken when the service stopped holds the damaged entry intact
    assert "the backup journal-" in text and "Nothing was lost" in text
    assert view["seq"] == before["seq"] and view["state"] == before["state"]


def test_check_export_and_restore(server_factory, tmp_path):
    data = tmp_path / "data"
    server, before = played(server_factory, data)
    assert server.request("DELETE", "/api/session")[0] == 200     # a game's end: a backup
    server.post("/api/session", SETUP)
    rolled = server.act("roll", "dash", face="2")[1]
    # while the service runs: check reads a snapshot, restore refuses
    check = companion("--data", str(data), "journal", "check")
    assert check.returncode == 0 and "OK:" in check.stdout and "snapshot" in check.stdout
    refused = companion("--data", str(data), "journal", "restore")
    assert refused.returncode == 2 and "the table service is running" in refused.stderr
    server.stop()

    check = companion("--data", str(data), "journal", "check")
    assert check.returncode == 0 and "write-ahead log included" in check.stdout
    out = tmp_path / "game1.jsonl"
    export = companion("--data", str(data), "journal", "export", "--game", "1", "--out", str(out))
    assert export.returncode == 0, export.stderr
    replay = companion("replay", str(out), "--game", "incredibles")
    assert replay.returncode == 0, replay.stderr
    assert json.loads(replay.stdout)["state"] == before["state"]      # the same game, replayed

    raw = bytearray((data / "journal.sqlite3").read_bytes())
    raw[raw.find(b'"face": "2"') + 9] ^= 0x01                         # damage the new game
    (data / "journal.sqlite3").write_bytes(bytes(raw))
    check = companion("--data", str(data), "journal", "check")
    assert check.returncode == 1 and "DAMAGED" in check.stdout and "checksum" in check.stdout

    # one command puts back the newest backup (taken when the service stopped)
    restore = companion("--data", str(data), "journal", "restore")
    assert restore.returncode == 0 and "restored" in restore.stdout, restore.stderr
    assert any((data / "replaced").iterdir())
    assert companion("--data", str(data), "journal", "check").returncode == 0
    server = server_factory(data=data)
    view = server.get("/api/state")[1]
    assert view["seq"] == rolled["seq"] and view["state"] == rolled["state"]
    assert view["notices"] == []


@pytest.mark.browser
def test_the_table_screen_shows_the_notice_until_it_is_read(server_factory, tmp_path, pages):
    data = tmp_path / "data"
    server, before = played(server_factory, data)
    server.kill()
    wal = data / "journal.sqlite3-wal"
    raw = bytearray(wal.read_bytes())
    raw[HEADER + 8] ^= 0x01                          # a salt of the first frame
    wal.write_bytes(bytes(raw))
    server = server_factory(data=data)
    table = pages(server.url + "/table", 800, 480)
    table.wait_for_selector("#alerts:not([hidden])")
    assert "The journal was found damaged" in table.inner_text("#alerts")
    assert "Nothing was lost" in table.inner_text("#alerts")
    # in short on the table, in the table's column: nothing scrolls, nothing sits over it
    # (nor over the notice: boxes overlap only where one holds the other)
    boxes = table.evaluate("""() => [...document.querySelectorAll('#alerts, #banner, .tv-grid')].map((e) => {
        const r = e.getBoundingClientRect(); return [r.top, r.bottom]; })""")
    assert all(a[1] <= b[0] + 0.5 for a, b in zip(sorted(boxes), sorted(boxes)[1:])), boxes
    assert table.evaluate("document.documentElement.scrollHeight") <= 480
    grid = table.locator(".tv-grid").bounding_box()
    assert grid["height"] >= 0.4 * 480, grid                       # the game keeps most of it
    assert "null" not in table.inner_text("#dice")                  # the roll already moved on
    table.locator('[data-key="dismiss-notices"]').click()
    table.wait_for_selector("#alerts", state="hidden")
    assert server.get("/api/state")[1]["notices"] == []
