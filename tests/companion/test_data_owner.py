"""The data folder belongs to the user the service runs as (on the Pi, `companion`, 0750). An
owner at the Pi types the journal commands as themselves or with sudo: neither may end in a
traceback, and root must never leave files the service can no longer write."""

import os
import shutil
import subprocess
import sys

import pytest

from hardware.doctor import config_fix
from companion.components import load_toml
from companion.errors import DataFileError

NOBODY = 65534
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root, to act as two users")


def companion(*args, user=None):
    """`companion ARGS` as root, or as ``user`` (uid) through util-linux's setpriv."""
    become = [] if user is None else ["setpriv", f"--reuid={user}", f"--regid={user}",
                                      "--clear-groups"]
    return subprocess.run([*become, sys.executable, "-m", "companion", *args],
                          capture_output=True, text=True, timeout=60, cwd="/")


def can_become(user):
    try:
        return subprocess.run(["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups",
                               sys.executable, "-c", "import companion"], timeout=60,
                              capture_output=True).returncode == 0
    except OSError:
        return False


def journal_folder(tmp_path, owner):
    data = tmp_path / "data"
    data.mkdir()
    (data / "journal.sqlite3").write_bytes(b"")            # an empty journal, the folder's
    for path in (data, *data.iterdir()):
        shutil.chown(path, owner, owner)
    data.chmod(0o750)
    return data


@as_root
def test_root_restoring_in_the_service_users_folder_is_sent_to_run_as_that_user(tmp_path):
    """`sudo companion journal restore` left journal.sqlite3 root's: the service, run as its
    own user, then refused every move ('attempt to write a readonly database')."""
    data = journal_folder(tmp_path, NOBODY)
    before = sorted(p.name for p in data.iterdir())
    done = companion("--data", str(data), "journal", "restore")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"{data} belongs to nobody: run this as nobody (sudo -u nobody" in done.stderr
    assert sorted(p.name for p in data.iterdir()) == before
    assert all(p.stat().st_uid == NOBODY for p in data.iterdir())


@as_root
def test_a_look_at_the_journal_makes_no_lock_file_root_would_own(tmp_path):
    data = journal_folder(tmp_path, NOBODY)
    looked = companion("--data", str(data), "journal", "check")
    assert looked.returncode == 0, looked.stderr
    assert not (data / "companion.lock").exists()


@as_root
def test_a_user_who_may_not_read_the_folder_gets_one_line_not_a_traceback(tmp_path):
    if not can_become(NOBODY):
        pytest.skip("this machine cannot run its Python as another user (setpriv)")
    data = journal_folder(tmp_path, 0)
    tmp_path.chmod(0o755)
    for what in (["journal", "check"], ["journal", "restore"], ["doctor"]):
        done = companion("--data", str(data), *what, user=NOBODY)
        assert "Traceback" not in done.stderr + done.stdout, (what, done.stderr)
        said = done.stderr + done.stdout
        assert done.returncode != 0 and "ermission denied" in said, (what, said)


def test_doctor_says_to_run_as_the_service_user_for_a_config_it_may_not_read(tmp_path):
    """A config file this user may not read (the Pi's is 0640, the service's group) is no key
    to correct."""
    try:
        raise DataFileError("config.toml: cannot be read") from PermissionError(13, "denied")
    except DataFileError as exc:
        assert "run doctor as the service's user" in config_fix(exc)
    with pytest.raises(DataFileError) as bad:
        (tmp_path / "c.toml").write_text("x = ")
        load_toml(tmp_path / "c.toml")
    assert config_fix(bad.value).startswith("correct that key")


def test_a_look_at_a_folder_that_is_not_there_makes_none(tmp_path):
    """`journal check` on a mistyped folder made it (as root: root's), answering 'OK, 0 games'
    as if it were a new table's (found by a verification audit)."""
    missing = tmp_path / "no-such-data"
    looked = companion("--data", str(missing), "journal", "check")
    assert looked.returncode == 0 and "no journal yet" in looked.stdout, looked
    restored = companion("--data", str(missing), "journal", "restore")
    assert restored.returncode == 2 and "Traceback" not in restored.stderr, restored.stderr
    assert "no journal there to work on" in restored.stderr
    assert not missing.exists()


def test_a_data_folder_that_cannot_be_written_is_not_called_empty(tmp_path):
    """A data folder the service cannot write in (a card gone read-only; here its lock is a
    folder) was answered "no journal there to work on", as if the game were gone; the journal
    in it is whole (found by a durability audit)."""
    data = tmp_path / "data"
    made = companion("--data", str(data), "journal", "check")
    assert made.returncode == 0, made
    (data / "companion.lock").mkdir(parents=True)
    served = companion("--data", str(data), "journal", "restore")
    assert served.returncode == 2 and "Traceback" not in served.stderr, served.stderr
    assert "no journal there" not in served.stderr
    assert "cannot be written" in served.stderr and "left as it is" in served.stderr, served.stderr
