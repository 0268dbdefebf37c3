"""`companion replay FILE --game incredibles`: the final state as JSON, or exit 2 naming the line."""

import json
import subprocess
import sys


def replay(path, *args):
    return subprocess.run([sys.executable, "-m", "companion", "replay", str(path), *args],
                          capture_output=True, text=True, timeout=60)


def write(tmp_path, *lines):
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(json.dumps(x) if not isinstance(x, str) else x for x in lines) + "\n")
    return path


def test_replay_prints_the_final_state(tmp_path):
    path = write(tmp_path, {"setup": {"players": ["dash"], "starting_problems": ["A", "B", "C"]},
                            "seed": 4},
                 {"type": "roll", "data": {"face": "1"}}, {"type": "move", "data": {"to": "1"}})
    proc = replay(path, "--game", "incredibles")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["state"]["jackjack"] is None and out["expect"]["phase"] == "roll"


def test_an_illegal_line_exits_2_naming_line_and_reason(tmp_path):
    # strict: on the assumed board a move too far is otherwise accepted with a reminder
    path = write(tmp_path, {"setup": {"players": ["dash"], "unconfirmed": "refuse"}, "seed": 4},
                 {"type": "roll", "data": {"face": "1"}}, {"type": "move", "data": {"to": "L"}})
    proc = replay(path, "--game", "incredibles")
    assert proc.returncode == 2
    assert "game.jsonl:3:" in proc.stderr and "more than 1 space" in proc.stderr


def test_malformed_json_line_exits_2(tmp_path):
    path = write(tmp_path, {"setup": {"players": ["dash"]}}, "{roll")
    proc = replay(path, "--game", "incredibles")
    assert proc.returncode == 2 and "game.jsonl:2: the line is not valid JSON" in proc.stderr


def test_players_from_the_command_line(tmp_path):
    path = write(tmp_path, {"type": "roll", "player": "violet", "data": {"face": "2"}})
    proc = replay(path, "--game", "incredibles", "--players", "violet,dash", "--seed", "1")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["expect"]["player"] == "violet"


def test_a_line_earlier_than_the_one_before_is_named_before_what_it_causes(tmp_path):
    """Each line is applied at its own "at". A file going back in time (edited by hand, two
    merged) had hero time's expiry refused with only "hero time still has 100 s left", a message
    about the clock, not the file; now a warning names the line at fault and both times first."""
    path = write(tmp_path, {"setup": {"heroes": ["invincible", "atom-eve"], "hero_time": 10},
                            "seed": 3},
                 {"type": "advance", "at": 1000},
                 {"type": "pull", "data": {"hero": "invincible",
                                           "cubes": ["yellow", "yellow", "orange"]}, "at": 1700},
                 {"type": "timer.expire", "data": {"name": "hero_time"}, "at": 1500})
    proc = replay(path, "--game", "invincible")
    assert proc.returncode == 2 and proc.stdout == ""
    warning = proc.stderr.index('game.jsonl:4: warning: its "at" 1500 is earlier than 1700 on line 3')
    assert warning < proc.stderr.index("game.jsonl:4: hero time still has"), proc.stderr


def test_a_game_whose_clock_stepped_back_replays_as_start_up_played_it(tmp_path):
    """A Pi has no clock of its own until the network sets it, so the journal of a real game can
    go back in time, and `journal export` writes it as stamped: the replay warns and goes on."""
    steps = [{"type": "roll", "data": {"face": "1"}, "at": 5000},
             {"type": "move", "data": {"to": "1"}, "at": 40}]
    back = replay(write(tmp_path, {"setup": {"players": ["dash"]}, "seed": 4}, *steps),
                  "--game", "incredibles")
    assert back.returncode == 0, back.stderr
    assert 'game.jsonl:3: warning: its "at" 40 is earlier than 5000 on line 2' in back.stderr
    ordered = tmp_path / "ordered"
    ordered.mkdir()
    steps[1]["at"] = 5001
    same = replay(write(ordered, {"setup": {"players": ["dash"]}, "seed": 4}, *steps),
                  "--game", "incredibles")
    assert same.returncode == 0 and "warning" not in same.stderr, same.stderr
    assert json.loads(back.stdout)["state"] == json.loads(same.stdout)["state"]


def test_equal_times_and_lines_without_a_time_still_replay(tmp_path):
    """An export writes an undo without "at" (it takes the time of the line before); two
    actions may share a second."""
    path = write(tmp_path, {"setup": {"players": ["dash"], "starting_problems": ["A", "B", "C"]},
                            "seed": 4},
                 {"type": "roll", "data": {"face": "1"}, "at": 50},
                 {"type": "move", "data": {"to": "1"}, "at": 50},
                 {"type": "undo"},
                 {"type": "move", "data": {"to": "1"}, "at": 50.5})
    proc = replay(path, "--game", "incredibles")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["expect"]["phase"] == "roll"


def test_a_time_no_float_holds_is_named_not_a_traceback(tmp_path):
    """JSON holds an integer of 400 digits; the clock could not turn it into a time and the
    replay stopped with Python's OverflowError."""
    path = write(tmp_path, {"setup": {"players": ["dash"]}},
                 '{"type": "roll", "data": {"face": "1"}, "at": 1' + "0" * 400 + "}")
    proc = replay(path, "--game", "incredibles")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "game.jsonl:2: 'at' must be a number of seconds" in proc.stderr, proc.stderr
