"""`make pi-check` itself runs in CI (.ci/run) where the machine allows; here, what a machine
that does not allow it is told."""

import os
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).with_name("pi_check.sh")


def test_without_root_it_says_plainly_that_it_cannot_run():
    cmd = ["bash", str(SCRIPT), "--can-run"]
    if os.geteuid() == 0:
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd="/")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout.strip() == "pi-check: cannot run here: it needs root (debootstrap, chroot, mounts)"


def test_an_unknown_argument_is_refused_before_anything_runs():
    proc = subprocess.run(["bash", str(SCRIPT), "--frobnicate"], capture_output=True, text=True,
                          timeout=60, cwd="/")
    assert proc.returncode == 1 and "unknown argument --frobnicate" in proc.stderr
