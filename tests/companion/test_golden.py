"""Games recorded before the engines were restructured (issue 11) replay to the same bytes.

The fixtures in golden/ were written by the code of main at bfa6a48 (golden/record.py says how): what
`companion replay` printed for each game's sample file, and SQLite journals written through a
real session (undo entries, camera reads confirmed, corrected and dismissed, table timers and
Invincible's hero time) with the view each restarts to. Journals written before a change must
replay to the same states after it.

Parts were changed on purpose. ``expect["dice"]`` became the typed DiceRequest contract
(companion/dice.py): each of its entries must still hold every key the recorded one had, with
the same value; it may add keys (sides, meanings, single...). The view gained keys the recorded
ones predate (ADDED), and a game's state keys (STATE_ADDED), each checked where it was made; a log line
reworded on purpose is listed with its recorded words (LOG_REWORDED). And expect lists only the moves the rules
accept now (Invincible listed every card effect and ``use_helper`` whatever the state): each of
expect's lists of actions (``actions``, and a hero's own in ``heroes``) must be the recorded one
with entries left out, in the same order. One recorded prompt was wrong and was corrected by
hand: invincible.midgame.view.json's "Hero Phase: Atom Eve pull and play cubes, then done."
while her pull (black, orange, black) waited in her ready area and a pull was refused ('All
three cubes from a pull must be either played or dropped before you pull again') now reads
"Atom Eve play or drop the ready cubes, then pull again or done."
(tests/companion/games/test_invincible_next_step.py). Everything else, bytes.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session

GOLDEN = Path(__file__).with_name("golden")
SAMPLES = Path(__file__).with_name("games")
GAMES = {"incredibles": "incredibles", "xmen-alert": "xmen", "invincible": "invincible"}
JOURNALS = sorted(p.name for p in GOLDEN.glob("*.sqlite3"))
# views' keys added since the recordings: issue 13's newest roll, any channel
# (tests/companion/test_last_roll.py); what an undo took back (tests/web/test_browser.py); which
# timer controls a screen offers (tests/web/test_hero_time_controls.py); the next step while a
# camera read waits for a tap, as shown and spoken (tests/web/test_table_view.py)
ADDED = {"last_roll", "undone", "timer_controls", "read_waits"}
# state keys added since: Invincible's Villain Phase report (test_invincible_villains.py); what
# the latest Incredibles Alarm did (tests/web/test_table_view.py)
STATE_ADDED = {"villain_report", "alarm_said"}
# log lines reworded on purpose since, now -> recorded: the board's Start space by its printed
# name, as every word the table reads names it (tests/companion/games/test_incredibles_space_names.py)
LOG_REWORDED = {"Violet moves to Start.": "Violet moves to start."}
# a reminder's keys added since: one the table must not miss (tests/web/test_table_view.py)
REMINDER_ADDED = {"urgent"}


def fewer(got: list, want: list) -> None:
    """``got`` is ``want`` with entries left out, in the same order."""
    rest = iter(want)
    assert all(x in rest for x in got), (got, want)


def is_later_pull(roll: dict, recorded: dict | None) -> bool:
    """An Invincible pull entered by hand (tapped on a phone, or "Pull for me") is the last roll
    now, as a pull the camera read always was: it may replace the older roll the recording
    showed (tests/companion/test_last_roll.py)."""
    return (roll["type"] == "pull" and roll["read"] is None
            and (recorded is None or roll["at"] >= recorded["at"]))


def same_but_dice(text: str, recorded: str, indent: int, sort_keys: bool) -> None:
    """``text`` equals ``recorded`` byte for byte, except that each expect.dice entry may hold
    keys the recorded one lacks, and expect's lists of actions may leave entries out."""
    new, old = json.loads(text), json.loads(recorded)
    read, roll = old.get("dice_read"), new.get("last_roll")
    if read and read.get("confirmed") and new.get("dice_read") is None and roll and roll["read"] != read["id"]:
        new["dice_read"] = read      # issue 13: a confirmed read is put away once a later roll replaces it
    if roll and roll != old.get("last_roll") and is_later_pull(roll, old.get("last_roll")):
        new["last_roll"] = old.get("last_roll")
    for key in ADDED - old.keys():
        new.pop(key, None)
    for got, want in zip(new.get("reminders") or [], old.get("reminders") or []):
        if isinstance(got, dict) and isinstance(want, dict):
            for key in REMINDER_ADDED - want.keys():
                got.pop(key, None)
    if isinstance(new.get("state"), dict) and isinstance(old.get("state"), dict):
        for key in STATE_ADDED - old["state"].keys():
            new["state"].pop(key, None)
        if isinstance(new["state"].get("log"), list):
            new["state"]["log"] = [LOG_REWORDED.get(line, line) for line in new["state"]["log"]]
    if isinstance(new.get("expect"), dict) and isinstance(old.get("expect"), dict):
        fewer(new["expect"]["actions"], old["expect"]["actions"])
        new["expect"]["actions"] = old["expect"]["actions"]
        for got, want in zip(new["expect"].get("heroes") or [], old["expect"].get("heroes") or []):
            if isinstance(got, dict) and isinstance(want, dict):
                fewer(got["actions"], want["actions"])
                got["actions"] = want["actions"]
        got, want = new["expect"].get("dice"), old["expect"].get("dice")
        assert (got is None) == (want is None)
        if want is not None:
            assert len(got) == len(want), (got, want)
            for g, w in zip(got, want):
                assert {k: g.get(k) for k in w} == w, (g, w)
            new["expect"]["dice"] = want
    again = json.dumps(new, indent=indent, sort_keys=sort_keys) + "\n"
    assert again == recorded


class Clock:
    def __init__(self, now):
        self.now = now

    def __call__(self):
        return self.now


@pytest.mark.parametrize("game", GAMES)
def test_companion_replay_prints_the_recorded_bytes(game):
    sample = SAMPLES / f"{GAMES[game]}_sample_game.jsonl"
    proc = subprocess.run([sys.executable, "-m", "companion", "replay", str(sample), "--game", game],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    same_but_dice(proc.stdout, (GOLDEN / f"{game}.replay.json").read_text(), 2, False)


@pytest.mark.parametrize("name", JOURNALS)
def test_a_recorded_journal_restarts_to_the_recorded_view(name, tmp_path):
    path = tmp_path / name
    shutil.copy(GOLDEN / name, path)          # opening a journal writes to it: never the fixture
    with Journal(path) as journal:
        game = journal.current_game()
        entries = journal.entries(game.id)
        assert any(e.kind == "undo" for e in entries)
        view = Session(journal, Catalog(), clock=Clock(entries[-1].at)).view()
    text = json.dumps(view, indent=1, sort_keys=True) + "\n"
    same_but_dice(text, (GOLDEN / name.replace(".sqlite3", ".view.json")).read_text(), 1, True)


def test_every_game_has_its_fixtures():
    for game in GAMES:
        assert (GOLDEN / f"{game}.replay.json").is_file()
        assert {f"{game}.journal.sqlite3", f"{game}.midgame.sqlite3"} <= set(JOURNALS)
