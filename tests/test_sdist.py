"""The source distribution is a Pi's install source too: unpacked, `deploy/install.sh` installs
the package from the folder above it and copies the unit, kiosk start, polkit rule and example
config from `deploy/`. The sdist lacked `deploy/` (setuptools ships only the packages unless
MANIFEST.in says more), so an unpacked release had nothing to install with.

Built with `python -m build --sdist` (the test extra's `build`), as a release is, from a copy of
the checkout so that no egg-info lands in it; it takes a few seconds with pip's cache warm.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from project_layout import REPO

# what .gitignore keeps out of the checkout's top (dot folders are skipped by their dot)
NOT_SOURCE = {"build", "dist", "data", "var"}


def _copy_checkout(dest: Path) -> None:
    dest.mkdir()
    for entry in REPO.iterdir():
        if entry.name in NOT_SOURCE or entry.name.startswith(".") or entry.name.endswith(".egg-info"):
            continue
        if entry.is_dir():
            shutil.copytree(entry, dest / entry.name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
        else:
            shutil.copy2(entry, dest / entry.name)


def test_the_sdist_carries_the_pi_install_files(tmp_path):
    src, out = tmp_path / "src", tmp_path / "dist"
    _copy_checkout(src)
    proc = subprocess.run([sys.executable, "-m", "build", "--sdist", "--outdir", str(out), str(src)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"python -m build --sdist failed:\n{proc.stdout}\n{proc.stderr}"
    (sdist,) = out.glob("companion-*.tar.gz")
    with tarfile.open(sdist) as tar:
        members = {m.name.split("/", 1)[1]: m for m in tar.getmembers() if "/" in m.name}
        for path in sorted((REPO / "deploy").iterdir()):
            name = f"deploy/{path.name}"
            assert name in members, f"{name} is not in {sdist.name}"
            assert tar.extractfile(members[name]).read() == path.read_bytes(), name
        # `sudo deploy/install.sh` from the unpacked folder, as docs/hardware.md runs it
        assert members["deploy/install.sh"].mode & 0o111, "install.sh lost its executable bit"
        assert members["deploy/kiosk.sh"].mode & 0o111, "kiosk.sh lost its executable bit"
        assert not [n for n in members if "__pycache__" in n or n.endswith(".pyc")]
