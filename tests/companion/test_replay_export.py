"""`companion journal export --game N` writes "that game as a replay file for `companion replay`"
(docs/actions.md): replayed, it must end where the game ended. A hostile-input audit found it
did not: replay applied every action at today's time (hero time's expiry, journaled at its
deadline, was refused: "hero time still has 3 s left"), and set the game up as a new one, with
today's readings of the rules in place of those the game was played with. Through the real
commands, on a real journal."""

import json
import subprocess
import sys
from pathlib import Path

from companion.actions import Action
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session

ROOT = Path(__file__).resolve().parents[2]


class Clock:
    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        return self.now


def companion(*args):
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


def test_an_exported_game_replays_to_where_it_ended(tmp_path):
    """Invincible begun before the option hero_time_controls (its options lack it: a pause in a
    Training Phase was accepted then), with hero time paused, a move undone under the pause,
    and hero time run out: 'when it runs out, the phase ends immediately'."""
    data = tmp_path / "data"
    data.mkdir()
    clock = Clock()
    with Journal(data / "journal.sqlite3") as journal:
        journal.start_game("invincible", {"heroes": ["invincible", "atom-eve"], "hero_time": 10},
                           3, clock())                       # as a companion before it wrote it
        session = Session(journal, Catalog(), clock=clock)
        clock.now += 5
        session.submit(Action("advance"))
        clock.now += 20
        session.submit(Action("pull", data={"hero": "invincible", "cubes": ["yellow", "yellow", "orange"]}))
        clock.now += 10
        session.submit(Action("timer.pause", data={"name": "hero_time"}))
        clock.now += 3
        session.submit(Action("undo"))                   # the pull; the pause stays
        clock.now += 30
        session.submit(Action("timer.resume", data={"name": "hero_time"}))
        clock.now += 601
        session.tick()                                   # hero time ran out
        clock.now += 2
        view = session.submit(Action("timer.pause", data={"name": "hero_time"}))
        assert view["state"]["phase"] != "hero" and view["timers"]["hero_time"]["expired"]
    out = tmp_path / "game.jsonl"
    done = companion("--data", str(data), "journal", "export", "--game", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text().splitlines()[0])["recorded"] is True
    again = companion("replay", str(out), "--game", "invincible")
    assert again.returncode == 0, again.stderr
    replayed = json.loads(again.stdout)
    assert replayed["state"] == view["state"] and replayed["expect"] == view["expect"]


def test_a_file_written_by_hand_is_still_a_new_game(tmp_path):
    """Without the export's "recorded", a file is a new game with today's readings: a pause
    outside the Hero Phase is refused, as at the table."""
    path = tmp_path / "mine.jsonl"
    path.write_text(json.dumps({"setup": {"heroes": ["invincible", "atom-eve"], "hero_time": 10},
                                "seed": 3}) + "\n"
                    + json.dumps({"type": "timer.pause", "data": {"name": "hero_time"}}) + "\n")
    done = companion("replay", str(path), "--game", "invincible")
    assert done.returncode == 2 and "only during the Hero Phase" in done.stderr, done.stderr


def test_a_recorded_files_bad_seed_is_named(tmp_path):
    """A hostile-input audit: a recorded file's seed "abc" read ':memory:: game 1's record is
    damaged', true 'checksum does not match', 10**30 'the journal could not be written'."""
    for seed in ("abc", 1.5, True, 10 ** 30, -1):
        path = tmp_path / "game.jsonl"
        path.write_text(json.dumps({"setup": {"heroes": ["invincible", "atom-eve"]}, "seed": seed,
                                    "recorded": True}) + "\n")
        done = companion("replay", str(path), "--game", "invincible")
        assert done.returncode == 2 and "the seed must be a whole number from 0" in done.stderr, \
            (seed, done.stderr)
