"""The config file: absent is fine, broken stops start-up with a message naming the key."""

import subprocess
import sys

import pytest

from companion import config
from companion.errors import DataFileError


def test_no_file_means_embedded_defaults(tmp_path):
    cfg = config.load(None, tmp_path)
    assert cfg.path is None and cfg.port == 8000 and cfg.components_dir == tmp_path / "components"


def test_values_are_read_and_relative_dirs_resolved(tmp_path):
    (tmp_path / "config.toml").write_text(
        '[server]\nport = 9000\njoin_code = "abc123de"\n'
        'allowed_hosts = ["Table.Example.", "192.168.1.7"]\n[components]\ndir = "mine"\n'
        '[gpio]\npin_factory = "mock"\n')
    cfg = config.load(None, tmp_path)
    assert cfg.port == 9000 and cfg.join_code == "abc123de"
    assert cfg.allowed_hosts == ("table.example", "192.168.1.7")
    assert cfg.components_dir == tmp_path / "mine"
    assert cfg.section("gpio") == {"pin_factory": "mock"}


@pytest.mark.parametrize("text, words", [
    ("[server\nport = 1", "not valid TOML"),
    ("[sever]\nport = 1", "unknown section(s) sever"),
    ('[server]\nport = "eighty"', "server.port: expected int"),
    ("[server]\nport = 70000", "server.port: must be between"),
    ('[server]\njoin_code = "a b"', "server.join_code"),
    ('[server]\njoin_code = "TABLE42"', "server.join_code: must be 8 to 32"),
    ('[server]\nallowed_hosts = "table.example"', "server.allowed_hosts: expected list"),
    ('[server]\nallowed_hosts = ["evil example"]', "server.allowed_hosts: 'evil example'"),
    ("[server]\nwatch_requires_code = 1", "server.watch_requires_code"),
])
def test_broken_files_name_the_key(tmp_path, text, words):
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(DataFileError) as err:
        config.load(path, tmp_path)
    assert words in str(err.value) and str(path) in str(err.value)


def test_serve_with_a_broken_config_exits_with_the_message(tmp_path):
    (tmp_path / "config.toml").write_text("[server]\nport = 0.5\n")
    proc = subprocess.run([sys.executable, "-m", "companion", "serve", "--data", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "server.port" in proc.stderr and "Traceback" not in proc.stderr
