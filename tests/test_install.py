"""The package as the Pi installs it: `pip install .` (not editable) into a fresh venv, as
deploy/install.sh does, then every command a newcomer or the service runs.

The rest of the suite runs on an editable install, whose import hook loads modules the project
forgot to import (issue 19: `companion --help` failed when installed). Here nothing of the
checkout is on the path: the commands run from the venv, in a folder outside the checkout.
The install takes seconds with pip's cache warm (a cold cache downloads the wheels once).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import cv2
import numpy as np
import pytest

from project_layout import REPO, project_packages

SAMPLES = REPO / "tests" / "companion" / "games"


class Installed:
    def __init__(self, root: Path):
        self.root = root
        self.venv = root / "venv"
        self.bin = self.venv / "bin"
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}

    def run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.bin / "companion"), "--data", str(self.root / "data"),
                               *args], cwd=self.root, env=self.env, capture_output=True,
                              text=True, timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    """A copy of what the wheel is built from (so no build/ or egg-info lands in the checkout and
    no stale build output leaks into the wheel), installed the way install.sh installs it."""
    root = tmp_path_factory.mktemp("installed")
    src = root / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, src / name)
    for package in project_packages():
        shutil.copytree(REPO / package, src / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    inst = Installed(root)
    subprocess.run([sys.executable, "-m", "venv", str(inst.venv)], check=True, env=inst.env,
                   timeout=300)
    proc = subprocess.run([str(inst.bin / "pip"), "install", "--quiet", str(src)], env=inst.env,
                          cwd=root, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"pip install . failed:\n{proc.stdout}\n{proc.stderr}"
    return inst


def test_the_install_is_a_copy_not_the_checkout(installed):
    code = ("import companion, hardware, vision, web, json\n"
            "print(json.dumps([m.__file__ for m in (companion, hardware, vision, web)]))")
    proc = subprocess.run([str(installed.bin / "python"), "-c", code], cwd=installed.root,
                          env=installed.env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    site = str(installed.venv / "lib")
    for path in json.loads(proc.stdout):
        assert path.startswith(site) and not path.startswith(str(REPO)), path


def test_help_lists_the_commands(installed):
    proc = installed.run("--help")
    assert proc.returncode == 0, proc.stderr
    for command in ("serve", "replay", "dice", "doctor"):
        assert command in proc.stdout


def test_doctor_passes_on_simulated_devices(installed):
    proc = installed.run("doctor", "--simulate")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"doctor: \d+ checks passed, 0 failed", proc.stdout), proc.stdout


@pytest.mark.parametrize("game, sample", [("xmen-alert", "xmen_sample_game.jsonl"),
                                          ("invincible", "invincible_sample_game.jsonl")])
def test_replay_of_a_sample_game_matches_the_checkout(installed, game, sample):
    proc = installed.run("replay", str(SAMPLES / sample), "--game", game)
    assert proc.returncode == 0, proc.stderr
    here = subprocess.run([sys.executable, "-m", "companion", "replay", str(SAMPLES / sample),
                           "--game", game], capture_output=True, text=True, timeout=120)
    assert here.returncode == 0, here.stderr
    final = json.loads(proc.stdout)
    assert final == json.loads(here.stdout)
    assert final["outcome"]["status"] == "won", final["outcome"]


def test_dice_read_of_a_rendered_roll(installed, tmp_path):
    from vision.render import render_roll

    img, faces, _ = render_roll(np.random.default_rng(3), "d6", 4)
    photo = tmp_path / "roll.png"
    cv2.imwrite(str(photo), img)
    proc = installed.run("dice", "read", "--set", "d6", "--json", str(photo))
    assert proc.returncode == 0, proc.stderr
    installed_faces = [d["face"] for d in json.loads(proc.stdout)["dice"]]
    here = subprocess.run([sys.executable, "-m", "companion", "--data", str(tmp_path / "data"),
                           "dice", "read", "--set", "d6", "--json", str(photo)],
                          capture_output=True, text=True, timeout=120)
    assert here.returncode == 0, here.stderr
    assert installed_faces == [d["face"] for d in json.loads(here.stdout)["dice"]]
    assert sorted(installed_faces) == sorted(faces)


def test_serve_simulate_answers_health(installed):
    proc = subprocess.Popen([str(installed.bin / "companion"), "--data",
                             str(installed.root / "serve-data"), "serve", "--simulate",
                             "--host", "127.0.0.1", "--port", "0"],
                            cwd=installed.root, env=installed.env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        match = re.search(r"http://[^/]+:(\d+)/", line)
        assert match, f"no address printed: {line!r}\n{proc.stderr.read() if proc.poll() else ''}"
        url = f"http://127.0.0.1:{match.group(1)}/api/health"
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url, timeout=10) as res:
                    health = json.loads(res.read())
                if not health.get("starting"):  # the adapters attach after the dashboard answers
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline and proc.poll() is None, "health never answered"
            time.sleep(0.2)
        assert health["ok"] is True and health["hardware"] is not None, health
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()
    assert proc.returncode == 0, proc.returncode
