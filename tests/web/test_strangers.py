"""Strangers on the network, over real HTTP: DNS rebinding (the Host allow-list), guessing the
join code from many addresses (a limit for the whole table), health detail only for the trusted.
Each test reproduces a finding of issue 18."""

import http.client
import json
import socket
import tomllib
from pathlib import Path

import pytest

from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from live_server import live_app
from web.access import (CODE_ALPHABET, CODE_LENGTH, COOKIE, GLOBAL_WRONG_LIMIT, WRONG_CODE_LIMIT,
                        Access)
from web.hosts import HostAllowList, machine_addresses

REPO = Path(__file__).resolve().parents[2]
GAME = {"game": "incredibles", "players": ["dash", "violet"], "seed": 3}
ROLL = {"type": "roll", "player": "dash", "data": {"face": "2"}}


def call(port, method, path, body=None, headers=None, source="127.0.0.1", connect="127.0.0.1"):
    conn = http.client.HTTPConnection(connect, port, timeout=10, source_address=(source, 0))
    payload = json.dumps(body).encode() if body is not None else None
    conn.request(method, path, body=payload,
                 headers={"Content-Type": "application/json", **(headers or {})})
    res = conn.getresponse()
    out = res.status, res.getheader("Set-Cookie"), json.loads(res.read() or b"null")
    conn.close()
    return out


# -- DNS rebinding ----------------------------------------------------------------------------

def test_dns_rebinding_is_refused_on_every_request(server):
    """Issue 18: `curl -H 'Host: evil.example:P' http://127.0.0.1:P/api/access` returned the join
    code, and a POST with Host and Origin both evil.example was applied."""
    assert server.post("/api/session", GAME)[0] == 201
    seq = server.get("/api/state")[1]["seq"]
    evil = {"Host": f"evil.example:{server.port}"}
    for method, path in (("GET", "/api/access"), ("GET", "/api/state"), ("GET", "/api/health"),
                         ("GET", "/"), ("GET", "/api/join.svg"), ("GET", "/api/events")):
        status, _c, body = call(server.port, method, path, headers=evil)
        assert status == 403 and "does not answer to the name" in body["error"], path
        assert "code" not in body
    status, _c, body = call(server.port, "POST", "/api/actions", ROLL,
                            {**evil, "Origin": f"http://evil.example:{server.port}"})
    assert status == 403 and "evil.example" in body["error"]
    assert server.get("/api/state")[1]["seq"] == seq                  # nothing applied


def test_the_tables_own_names_and_addresses_pass(server_factory, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "config.toml").write_text('[server]\nallowed_hosts = ["companion.example"]\n'
                                      '[dashboard]\npublic_url = "http://pi.example:8000"\n')
    server = server_factory(data=data)
    hostname = socket.gethostname()
    lan = sorted(a for a in machine_addresses() if ":" not in a and not a.startswith("127."))
    names = ["localhost", "127.0.0.1", "[::1]", hostname, f"{hostname}.local",
             "companion.example", "pi.example", *lan]
    for name in names:
        host = f"{name}:{server.port}"
        status, _c, access = call(server.port, "GET", "/api/access", headers={"Host": host})
        assert status == 200 and access["trusted"], name
        # a write from our own page, opened under that name, passes the Origin check too
        status, _c, body = call(server.port, "POST", "/api/session", GAME,
                                {"Host": host, "Origin": f"http://{host}"})
        assert status == 201, (name, body)
    # a page opened under an allowed name cannot write to us under another one
    status, _c, body = call(server.port, "POST", "/api/actions", ROLL,
                            {"Host": f"localhost:{server.port}", "Origin": "http://companion.example"})
    assert status == 403 and "another site" in body["error"]


def test_a_new_address_is_looked_up_again_but_not_on_every_request():
    found = [{"192.168.1.7"}]
    clock = [0.0]
    hosts = HostAllowList(addresses=lambda: found[0], names=lambda: {"pi"}, clock=lambda: clock[0])
    assert hosts.allows("192.168.1.7:8000") and hosts.allows("PI.") and not hosts.allows("evil.example")
    found[0] = {"10.0.0.9"}                         # a new DHCP lease
    assert not hosts.allows("10.0.0.9")             # looked up a moment ago: not yet again
    clock[0] += 11
    assert hosts.allows("10.0.0.9:8000") and not hosts.allows("192.168.1.7")
    assert hosts.allows(None) and not hosts.allows("a b") and not hosts.allows("[::1")


# -- guessing the join code -----------------------------------------------------------------------

@pytest.fixture
def table(tmp_path):
    """A table whose trusted screen is 127.0.0.1 alone; 127.0.0.2 and up are strangers' phones."""
    code = "KX7PM3QA"
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = Session(journal, Catalog())
        access = Access(code, trusts=lambda addr: addr == "127.0.0.1")
        with live_app(session, extras={"access": access}) as live:
            live.code = code
            yield live


def test_guessing_from_many_addresses_is_limited_for_the_whole_table(table):
    """Issue 18: "ten more addresses gave 100 more guesses in 1.5 s". Now at most
    GLOBAL_WRONG_LIMIT wrong codes a minute get an answer, whatever the number of addresses."""
    answered = refused = 0
    for n in range(2, 13):                        # eleven strangers, ten guesses each
        for i in range(WRONG_CODE_LIMIT):
            status, _c, _b = call(table.port, "POST", "/api/join", {"code": f"GUESS{n:03d}{i}"},
                                  source=f"127.0.0.{n}")
            answered += status == 403
            refused += status == 429
    assert answered == GLOBAL_WRONG_LIMIT and refused == 110 - GLOBAL_WRONG_LIMIT
    # the right code from a new address is refused too while the table is being guessed at ...
    status, _c, body = call(table.port, "POST", "/api/join", {"code": table.code}, source="127.0.0.20")
    assert status == 429 and "someone is guessing" in body["error"]
    # ... but the table's own screen is never locked out
    status, _c, access = call(table.port, "GET", "/api/access")
    assert status == 200 and access["code"] == table.code
    assert call(table.port, "POST", "/api/join", {"code": table.code})[0] == 200
    assert call(table.port, "POST", "/api/session", GAME)[0] == 201


def test_a_lockout_does_not_log_out_the_phones_already_joined(table):
    status, cookie, _b = call(table.port, "POST", "/api/join", {"code": table.code.lower()},
                              source="127.0.0.2")
    assert status == 200 and table.code not in cookie and table.code.lower() not in cookie
    pair = cookie.split(";")[0]
    assert pair.startswith(COOKIE + "=")
    for i in range(GLOBAL_WRONG_LIMIT + 5):             # a stranger's spree from many addresses
        call(table.port, "POST", "/api/join", {"code": f"WRONG{i:04d}"}, source=f"127.0.1.{i + 1}")
    assert call(table.port, "POST", "/api/join", {"code": table.code}, source="127.0.0.3")[0] == 429
    status, _c, view = call(table.port, "POST", "/api/session", GAME, {"Cookie": pair},
                            source="127.0.0.2")
    assert status == 201 and view["game"] == "incredibles"
    # a forged cookie is not a way round the limit: it is not the code, and not a guess either
    status, _c, body = call(table.port, "POST", "/api/actions", ROLL,
                            {"Cookie": f"{COOKIE}={table.code}"}, source="127.0.0.4")
    assert status == 401 and "expired" in body["error"]


def test_codes_are_made_long_enough_and_the_example_suggests_none(server_factory, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "join_code.txt").write_text("ABC234\n")          # kept by an older companion
    server = server_factory(data=data)
    code = server.get("/api/access")[1]["code"]
    assert len(code) == CODE_LENGTH == 8 and set(code) <= set(CODE_ALPHABET) and code != "ABC234"
    example = (REPO / "deploy" / "config.example.toml").read_text()
    assert "join_code" not in tomllib.loads(example).get("server", {})
    assert not any(line.lstrip("# ").startswith("join_code =") for line in example.splitlines())


# -- health ---------------------------------------------------------------------------------------

def test_health_detail_only_for_the_trusted_screen(server_factory, tmp_path):
    """Issue 18: /api/health stayed open with watch_requires_code = true and showed the
    journal's absolute path and hardware details."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "config.toml").write_text("[server]\nwatch_requires_code = true\ntrust_loopback = false\n")
    server = server_factory(data=data)
    status, body = server.get("/api/health")
    assert status == 200 and body == {"ok": True}
    assert server.get("/api/state")[0] == 401
    trusted = server_factory("--simulate", data=tmp_path / "other")
    status, body = trusted.get("/api/health")
    assert body["journal"].endswith("journal.sqlite3") and body["hardware"] is not None
