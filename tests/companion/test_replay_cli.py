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
