"""`companion doctor`: --simulate passes every check and exits 0; real problems are named with
a fix, and the exit code says so."""

import pytest

from companion.cli import main as companion
from hardware.doctor import run


def test_doctor_simulate_exits_zero_with_every_check_passing(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    assert run(["--data", str(tmp_path), "--simulate"]) == 0
    out = capsys.readouterr().out
    for check in ("gpio backend", "button confirm", "led timer", "buzzer", "serial device",
                  "serial events", "data write speed"):
        assert f"OK    {check}" in out
    assert "FAIL" not in out


def test_the_cli_forwards_to_doctor(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    assert companion(["--data", str(tmp_path), "doctor", "--simulate"]) == 0
    assert "checks passed, 0 failed" in capsys.readouterr().out


def test_a_config_mistake_is_named_with_its_fix(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text('[gpio.buttons.undo]\npin = 41\nhold = "undo"\n')
    assert run(["--data", str(tmp_path), "--config", str(config), "--simulate"]) == 1
    out = capsys.readouterr().out
    assert f"FAIL  config             {config}: gpio.buttons.undo.pin: 41 is not a BCM GPIO number (0-27)" in out
    assert "fix: correct that key" in out


def test_missing_backend_and_device_say_how_to_fix_them(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    config = tmp_path / "config.toml"
    config.write_text('[gpio]\npin_factory = "lgpio"\n[gpio.buttons.undo]\npin = 4\nhold = "undo"\n'
                      f'[serial]\nport = "{tmp_path}/ttyACM7"\nhello_timeout = 0.5\n')
    assert run(["--data", str(tmp_path), "--config", str(config)]) == 1
    out = capsys.readouterr().out
    assert "FAIL  gpio backend       GPIO backend 'lgpio' cannot be used here" in out
    assert "python3-lgpio" in out
    assert f"serial.port {tmp_path}/ttyACM7 does not exist" in out
    assert "ls -l /dev/serial/by-id/" in out


def test_a_camera_probe_is_reported_like_any_check(tmp_path, capsys):
    def probe(simulate):
        assert simulate is True
        return [{"check": "camera frames", "status": "ok", "detail": "30 frames in 1.0 s"},
                {"check": "camera glare", "status": "fail", "detail": "glare on 12% of the tray",
                 "fix": "move the lamp"}]

    assert run(["--data", str(tmp_path), "--simulate"], camera=probe) == 1
    out = capsys.readouterr().out
    assert "OK    camera frames" in out and "fix: move the lamp" in out


@pytest.mark.parametrize("text, words", [
    ("[camera]\nzzz = 1\n", "camera"),
    ("[dashboard]\nzzz = 1\n", "dashboard.zzz: unknown setting"),
])
def test_doctor_checks_the_sections_serve_checks_in_the_config_it_was_given(tmp_path, capsys,
                                                                             monkeypatch, text, words):
    """`serve` stopped on a misspelt [camera] or [dashboard] key while `doctor` said every check
    passed; and `companion doctor --data X --config Y` read another folder's config for its
    camera check (found by a hostile-input audit)."""
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "elsewhere"))
    config = tmp_path / "mine.toml"
    config.write_text(text)
    assert companion(["doctor", "--data", str(tmp_path), "--config", str(config), "--simulate"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  config" in out and str(config) in out and words in out, out


def test_a_mistake_in_an_owners_component_file_is_named_by_doctor(tmp_path, capsys, monkeypatch):
    """doctor printed '23 checks passed' over any mistake in the component files, found only
    when a family started that game (found by an owner's-box audit)."""
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    assert run(["--data", str(tmp_path), "--simulate"]) == 0
    out = capsys.readouterr().out
    for game in ("incredibles", "xmen-alert", "invincible"):
        assert f"OK    data {game}" in out, out
    (tmp_path / "components").mkdir()
    (tmp_path / "components" / "xmen-alert.toml").write_text("characters = 3\n")
    assert run(["--data", str(tmp_path), "--simulate"]) == 1
    out = capsys.readouterr().out
    assert f"FAIL  data xmen-alert    {tmp_path / 'components' / 'xmen-alert.toml'}: " in out, out
    assert "OK    data incredibles" in out and "remove your copy to use the shipped file" in out


def test_doctor_warns_of_a_game_in_progress_the_next_start_will_hold_back(tmp_path, capsys, monkeypatch):
    """A valid edit of a component file while a game is in progress: doctor said every file
    loads and the journal is healthy, and the next start held the game back (found by a
    verification audit). Now doctor says so first."""
    from pathlib import Path

    from companion.actions import Action
    from companion.games import Catalog
    from companion.journal import Journal
    from companion.session import Session

    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    session = Session(Journal(tmp_path / "journal.sqlite3"), Catalog(tmp_path / "components"))
    session.start("incredibles", {"players": ["dash"], "starting_problems": ["A", "B", "C"]}, seed=3)
    session.submit(Action("roll", "dash", {"face": "2"}))
    session.journal.close()
    assert run(["--data", str(tmp_path), "--simulate"]) == 0
    assert "game in progress" not in capsys.readouterr().out
    shipped = Path(Catalog()("incredibles").boxed.paths[0])
    (tmp_path / "components").mkdir()
    (tmp_path / "components" / "incredibles.toml").write_text(
        shipped.read_text().replace("edna = 3", "edna = 2"))
    run(["--data", str(tmp_path), "--simulate"])
    out = capsys.readouterr().out
    assert "WARN  game in progress   The game in progress (incredibles, game 1) cannot be set up" in out, out
    assert "fix: put the data back" in out


def test_doctor_simulate_with_the_pis_config_checks_the_simulated_tray(tmp_path, capsys, monkeypatch):
    """The example config names the Pi camera; `doctor --simulate` with it failed the camera
    check ('the Pi camera needs picamera2') where `serve --simulate` stands the simulated tray
    in, and `make pi-check` failed on it."""
    from pathlib import Path

    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    example = Path(__file__).resolve().parents[2] / "deploy" / "config.example.toml"
    assert companion(["--data", str(tmp_path), "doctor", "--simulate", "--config", str(example)]) == 0
    out = capsys.readouterr().out
    assert "picamera2" not in out and "FAIL" not in out, out


def test_doctor_leaves_the_devices_to_a_running_service_and_says_how_to_check_them(tmp_path, capsys):
    """docs/hardware.md sends an owner to `companion doctor` on the Pi. Run beside the service,
    it probed the pins, the serial port and the camera the service holds, and each came back
    failing with a wiring fix for wiring that works. With the service's lock held (as `serve`
    holds it), the devices are left alone and the owner is told to stop the service first."""
    from companion.journal_recovery import DataLock

    config = tmp_path / "config.toml"
    config.write_text('[gpio]\npin_factory = "lgpio"\n[gpio.buttons.undo]\npin = 4\nhold = "undo"\n'
                      f'[serial]\nport = "{tmp_path}/ttyACM7"\nhello_timeout = 0.5\n')
    probed = []
    lock = DataLock(tmp_path)                                   # the running service
    try:
        code = run(["--data", str(tmp_path), "--config", str(config)],
                   camera=lambda simulate: probed.append(simulate) or [])
    finally:
        lock.release()
    out = capsys.readouterr().out
    assert code == 0 and probed == [], out
    assert "WARN  devices" in out and "the service is running" in out
    assert "fix: sudo systemctl stop companion, run doctor again" in out
    assert "gpio backend" not in out and "serial device" not in out


def test_doctor_warns_of_an_undo_entry_that_does_not_match_the_journal(tmp_path, capsys, monkeypatch):
    """A hand-edited undo entry (its checksum made to match): doctor said '8 checks passed' and
    the next start held the game back (a hostile-input audit). Now doctor says so first."""
    import json
    import sqlite3

    from companion.actions import Action
    from companion.games import Catalog
    from companion.journal import Journal
    from companion.journal_rows import entry_crc
    from companion.session import Session

    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    session = Session(Journal(tmp_path / "journal.sqlite3"), Catalog())
    session.start("incredibles", {"players": ["dash"], "starting_problems": ["A", "B", "C"]}, seed=3)
    session.submit(Action("roll", "dash", {"face": "2"}))
    seq = session.submit(Action("undo"))["seq"]
    session.journal.close()
    assert run(["--data", str(tmp_path), "--simulate"]) == 0
    assert "game in progress" not in capsys.readouterr().out
    text = json.dumps({"type": "undo", "undoes": "2", "source": "api"})
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:
        gid, at = db.execute("SELECT game_id, at FROM entries WHERE seq = ?", (seq,)).fetchone()
        db.execute("UPDATE entries SET payload = ?, crc = ? WHERE seq = ?",
                   (text, entry_crc(seq, gid, "undo", text, at), seq))
    db.close()
    run(["--data", str(tmp_path), "--simulate"])
    out = capsys.readouterr().out
    assert f"WARN  game in progress   The game in progress (incredibles, game 1) cannot be replayed: its undo entry {seq}" in out, out
    assert "fix: restore a backup from before that undo entry" in out
    # with no checksum to vouch for it, start-up takes it for damage and recovers: doctor says so
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:
        db.execute("UPDATE entries SET crc = NULL WHERE seq = ?", (seq,))
    db.close()
    run(["--data", str(tmp_path), "--simulate"])
    out = capsys.readouterr().out
    assert f"entry {seq} (undo) cannot be replayed" in out and "the next start recovers" in out, out
