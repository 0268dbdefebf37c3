"""deploy/: the scripts pass shellcheck, the unit passes systemd-analyze verify, and the example
config is a config this companion accepts."""

import shutil
import subprocess
from pathlib import Path

import pytest

from companion.config import load
from hardware.settings import gpio_settings, serial_settings, token_settings

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
# the Pi-shaped check that runs install.sh under emulation is held to the same standard
SCRIPTS = sorted(DEPLOY.glob("*.sh")) + sorted((DEPLOY.parent / "tests" / "pi").glob("*.sh"))


def test_there_are_scripts_to_check():
    assert {p.name for p in SCRIPTS} >= {"install.sh", "kiosk.sh"}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_scripts_pass_shellcheck(script):
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt-get install -y shellcheck)")
    result = subprocess.run(["shellcheck", "--severity=style", str(script)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_scripts_parse_and_are_executable(script):
    assert script.stat().st_mode & 0o111, f"{script.name} is not executable"
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0


def test_the_unit_passes_systemd_analyze_verify(tmp_path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not available here")
    unit = (DEPLOY / "companion.service").read_text()
    assert "ExecStart=/opt/companion/venv/bin/companion serve --config /etc/companion/config.toml " \
           "--data /var/lib/companion" in unit
    assert "Restart=on-failure" in unit and "TimeoutStopSec=" in unit
    # verify also checks that ExecStart exists: point it at a stand-in of the installed command
    fake = tmp_path / "companion"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    copy = tmp_path / "companion.service"
    copy.write_text(unit.replace("/opt/companion/venv/bin/companion", str(fake)))
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True)
    assert result.returncode == 0 and "companion.service" not in result.stderr, result.stderr


def test_install_is_idempotent_by_construction():
    """The script cannot run here (no Raspberry Pi OS); check the guards that make a second run
    harmless are present rather than trusting the comment."""
    text = (DEPLOY / "install.sh").read_text()
    assert 'if ! id -u "$SERVICE_USER"' in text                  # user added once
    assert 'if [ ! -e "$CONFIG_DIR/config.toml" ]' in text       # owner's config kept
    assert 'if [ ! -x "$PREFIX/venv/bin/python" ]' in text       # venv made once
    assert "--system-site-packages" in text                      # picamera2, lgpio from apt
    for package in ("python3-picamera2", "python3-lgpio"):
        assert package in text
    assert "gpio dialout video" in text
    assert "set -euo pipefail" in text


def test_the_example_config_is_accepted(tmp_path):
    config = load(DEPLOY / "config.example.toml", tmp_path)
    assert (config.host, config.port, config.trust_loopback) == ("0.0.0.0", 8000, True)
    source = str(config.path)
    gpio = gpio_settings(config.section("gpio"), source)
    assert gpio.buttons["confirm"].hold.name == "undo" and gpio.shutdown.enabled is False
    assert gpio.buttons["done_eve"].press.player == "atom-eve"
    serial = serial_settings(config.section("serial"), source)
    assert serial.usb == ((0x2E8A, 0x0005),) and serial.enabled is False
    tokens = token_settings(config.section("tokens"), source)
    assert tokens.tags["04A1B2C3"].place.action.data == {"to": "{space}"}


def test_the_example_config_shows_every_key_and_its_camera_and_screens_are_accepted(tmp_path):
    """The README: 'deploy/config.example.toml shows every key'. It had no [camera] source, so
    a Pi installed with it read no dice, and no [dashboard] or [components] at all."""
    import re

    from companion.config import SERVER_KEYS
    from vision.table_camera import settings as camera_settings
    from web.settings import load as dashboard_settings

    text = (DEPLOY / "config.example.toml").read_text()
    shown = set(re.findall(r"^#? ?([a-z_]+) ?[=:]", text, re.M))
    with pytest.raises(Exception, match="known: ") as refused:      # every key the camera takes
        camera_settings({"nonsense": 1}, "x")
    camera = set(str(refused.value).split("known: ")[1].split(", "))
    dashboard = {"public_url", "kid_mode", "table_sound", "phone_sound"}
    every = SERVER_KEYS | camera | dashboard | {"dir"}
    assert len(camera) == 8 and not every - shown, sorted(every - shown)
    config = load(DEPLOY / "config.example.toml", tmp_path)
    assert camera_settings(config.section("camera"), str(config.path))["source"] == "picamera"
    assert dashboard_settings(config).table_sound is True


def test_a_simulation_with_the_example_config_answers_with_a_simulated_tray(server_factory):
    """`serve --simulate` is 'simulated camera, buttons and serial device (no hardware
    needed)': with the Pi's config (its camera the Pi camera) it stopped, asking for picamera2.
    A configured camera is stood in for by the simulated tray; the buttons are mock pins."""
    server = server_factory("--simulate", "--config", str(DEPLOY / "config.example.toml"))
    status, hardware = server.get("/api/hardware")
    assert status == 200 and hardware["can_throw"] is True, hardware
    assert hardware["status"]["simulated"] is True


def test_the_unit_waits_for_the_longest_clean_stop():
    """A clean stop drains requests (web/serving.py DRAIN), closes the server's threads (1 s)
    and waits for the adapters (ATTACH_WAIT_S): 16 s at worst, which the unit's 15 s cut short
    with a SIGKILL (found by an install audit)."""
    import re

    from companion.cli import ATTACH_WAIT_S
    from web.serving import DRAIN

    unit = (DEPLOY / "companion.service").read_text()
    allowed = int(re.search(r"^TimeoutStopSec=(\d+)$", unit, re.M).group(1))
    assert allowed >= DRAIN + 1.0 + ATTACH_WAIT_S + 5, allowed       # and a margin


def test_the_companion_command_install_sh_writes_runs_as_the_service_does(tmp_path):
    """`companion doctor` on the Pi was 'command not found' (the venv is not on the PATH), and
    with sudo the journal commands left root's files the service could not write (found by an
    install audit). install.sh writes a `companion` that runs the installed one with the
    service's data and config, as the service's user: here, the written script run as that user
    reaches a stand-in of the installed command with both set and every argument kept."""
    import getpass
    import re

    text = (DEPLOY / "install.sh").read_text()
    block = re.search(r"cat > /usr/local/bin/companion <<WRAPPER\n(.*?\nWRAPPER\n)", text, re.S)
    assert block, "install.sh writes no companion command"
    prefix = tmp_path / "opt"
    (prefix / "venv" / "bin").mkdir(parents=True)
    stand_in = prefix / "venv" / "bin" / "companion"
    stand_in.write_text('#!/bin/sh\necho "$COMPANION_DATA|$COMPANION_CONFIG|$*"\n')
    stand_in.chmod(0o755)
    wrapper = tmp_path / "companion"
    script = f"cat > {wrapper} <<WRAPPER\n{block.group(1)}"
    env = {"PATH": "/usr/bin:/bin", "PREFIX": str(prefix), "DATA_DIR": "/var/lib/companion",
           "CONFIG_DIR": "/etc/companion", "SERVICE_USER": getpass.getuser()}
    subprocess.run(["bash", "-c", script], env=env, check=True)
    wrapper.chmod(0o755)
    if shutil.which("shellcheck"):
        subprocess.run(["shellcheck", str(wrapper)], check=True)
    ran = subprocess.run([str(wrapper), "journal", "check", "--quick"], capture_output=True,
                         text=True, env={"PATH": "/usr/bin:/bin"}, check=True)
    assert ran.stdout.strip() == "/var/lib/companion|/etc/companion/config.toml|journal check --quick"


def test_make_run_installs_what_the_service_runs_on_and_make_test_adds_the_test_tools(tmp_path):
    """The README's `make run` 'sets up and starts the service in simulation ... nothing else to
    install': it installed the test extra too (Playwright, Hypothesis, pytest), some hundred MB on
    a Pi that only plays (found by an install audit). Make's own dry run, on a fresh copy."""
    import shutil
    import subprocess

    root = DEPLOY.parent
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(root / name, tmp_path / name)

    def planned(target):
        done = subprocess.run(["make", "-n", target], cwd=tmp_path, capture_output=True,
                              text=True, timeout=30)
        assert done.returncode == 0, done.stderr
        return [line for line in done.stdout.splitlines() if "pip install" in line]

    run = planned("run")
    assert any(line.endswith("pip install --quiet -e .") for line in run), run
    assert not any("[test]" in line for line in run), run
    assert any("-e '.[test]'" in line for line in planned("test"))
