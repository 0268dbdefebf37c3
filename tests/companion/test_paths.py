"""Files written whole or not at all (companion/paths.py ``write_whole``): the box, the join
code, a taught card's photo and the photo log's entries are all kept through it."""

import os
import stat

import pytest

from companion.paths import write_whole


def test_the_new_contents_replace_the_old_with_the_mode_asked(tmp_path):
    path = tmp_path / "join_code.txt"
    path.write_text("old\n")
    write_whole(path, "new\n", mode=0o600)
    assert path.read_text() == "new\n"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    write_whole(path, b"\x00bytes")
    assert path.read_bytes() == b"\x00bytes"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["join_code.txt"]


def test_a_write_that_fails_leaves_the_old_file_and_nothing_beside_it(tmp_path):
    taken = tmp_path / "box.toml"
    taken.mkdir()                       # a folder where the file should go: the rename fails
    (taken / "inside").write_text("kept")
    with pytest.raises(OSError):
        write_whole(taken, "format = 1\n")
    assert (taken / "inside").read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["box.toml"]
