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
    # each of these was ignored (a typo: the example config promises a message naming it), or
    # a traceback at start-up (a host that is no address; nesting deeper than the reader recurses)
    ("[server]\nprot = 8000", "server.prot: not a [server] key"),
    ('[server]\nhost = "999.999.1.1"', "server.host: '999.999.1.1' is not a host name"),
    ('[server]\nhost = "bad host"', "server.host: 'bad host' is not a host name"),
    ('[server]\nhost = ""', "server.host: '' is not a host name"),
    ("a = " + "[" * 3000 + "]" * 3000, "nested too deeply"),
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



@pytest.mark.parametrize("args, words", [
    (["--threads", "0"], "--threads 0: give 1 to 256"),
    (["--host", "zz zz"], "--host 'zz zz': not a host name"),
    (["--port", "{taken}"], "Address already in use"),
])
def test_serve_that_cannot_listen_says_why_without_a_traceback(tmp_path, args, words):
    """A port another service holds, a host that is no address: tracebacks (OSError, waitress's
    ValueError). --threads 0: the dashboard's address printed, and every request hung."""
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    args = [a.format(taken=taken.getsockname()[1]) for a in args]
    try:
        proc = subprocess.run([sys.executable, "-m", "companion", "serve", "--data", str(tmp_path),
                               *args], capture_output=True, text=True, timeout=60)
    finally:
        taken.close()
    assert proc.returncode == 2 and words in proc.stderr, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
