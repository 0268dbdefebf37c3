"""Who may watch and who may change the game, over real HTTP to a real `companion serve`.

Requests in these tests come from 127.0.0.1; a table that does not trust loopback
(`trust_loopback = false`) stands in for a phone on the table's Wi-Fi.
"""

import http.client
import json
import threading

import pytest

GAME = {"game": "incredibles", "players": ["dash", "violet"], "seed": 3,
        "starting_problems": ["A", "B", "C"]}


def configured(server_factory, tmp_path, text: str):
    data = tmp_path / "data"
    data.mkdir(parents=True, exist_ok=True)
    (data / "config.toml").write_text(text)
    return server_factory(data=data)


def raw_request(server, method, path, body: bytes | None = None, headers: dict | None = None):
    """A request with exactly the headers given (no JSON content type added for us)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request(method, path, body=body, headers=headers or {})
    res = conn.getresponse()
    out = res.status, res.getheader("Set-Cookie"), res.read()
    conn.close()
    return out


def test_the_pis_own_screen_is_trusted_and_sees_the_code(server):
    status, access = server.get("/api/access")
    assert status == 200 and access["trusted"] and access["joined"]
    assert len(access["code"]) == 8 and access["code"] in access["join_url"]
    assert "/play?code=" in access["join_url"] and "127.0.0.1" not in access["join_url"]
    assert server.post("/api/session", GAME)[0] == 201


def test_changing_the_game_needs_the_join_code_watching_does_not(server_factory, tmp_path):
    server = configured(server_factory, tmp_path,
                        '[server]\njoin_code = "TABLE4242"\ntrust_loopback = false\n')
    status, body = server.post("/api/session", GAME)
    assert status == 401 and body["need"] == "join_code" and "join code" in body["error"]
    status, body = server.post("/api/session", GAME, headers={"X-Join-Code": "WRONG1"})
    assert status == 403 and "not right" in body["error"]
    assert server.get("/api/state")[1]["game"] is None          # nothing was started
    status, view = server.post("/api/session", GAME, headers={"X-Join-Code": "table4242"})
    assert status == 201 and view["game"] == "incredibles"
    # anyone may watch, but only those with the code see it
    assert server.get("/api/state")[0] == 200
    status, access = server.get("/api/access")
    assert access == {**access, "trusted": False, "joined": False, "code": None, "join_url": None}
    assert server.get("/api/join.svg")[0] == 403
    status, body = server.act("roll", "dash", face="2")
    assert status == 401
    assert server.request("DELETE", "/api/session")[0] == 401
    assert server.get("/api/state")[1]["seq"] == view["seq"]


def test_joining_sets_a_cookie_that_later_requests_carry(server_factory, tmp_path):
    server = configured(server_factory, tmp_path,
                        '[server]\njoin_code = "TABLE4242"\ntrust_loopback = false\n'
                        "watch_requires_code = true\n")
    assert server.get("/api/state")[0] == 401
    status, _cookie, _ = raw_request(server, "GET", "/api/events")
    assert status == 401
    assert raw_request(server, "GET", "/play")[0] == 200  # the page shell asks for the code itself
    status, cookie, body = raw_request(server, "POST", "/api/join", json.dumps({"code": "nope"}).encode(),
                                       {"Content-Type": "application/json"})
    assert status == 403 and cookie is None
    status, cookie, body = raw_request(server, "POST", "/api/join", json.dumps({"code": "TABLE4242"}).encode(),
                                       {"Content-Type": "application/json"})
    assert status == 200 and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    pair = cookie.split(";")[0]
    status, _c, body = raw_request(server, "GET", "/api/state", headers={"Cookie": pair})
    assert status == 200
    status, view = server.post("/api/session", GAME, headers={"Cookie": pair})
    assert status == 201


def test_the_generated_code_is_kept_in_the_data_folder(server_factory, tmp_path):
    data = tmp_path / "data"
    server = server_factory(data=data)
    code = server.get("/api/access")[1]["code"]
    assert (data / "join_code.txt").read_text().strip() == code
    assert (data / "join_code.txt").stat().st_mode & 0o077 == 0
    server.stop()
    again = server_factory(data=data)
    assert again.get("/api/access")[1]["code"] == code


def test_guessing_codes_is_cut_off(server_factory, tmp_path):
    server = configured(server_factory, tmp_path,
                        '[server]\njoin_code = "TABLE4242"\ntrust_loopback = false\n')
    for i in range(10):
        assert server.post("/api/join", {"code": f"GUESS{i}"})[0] == 403
    status, body = server.post("/api/join", {"code": "TABLE4242"})
    assert status == 429 and "too many" in body["error"]


@pytest.mark.parametrize("headers, body, words", [
    ({"Content-Type": "application/json", "Origin": "http://evil.example"}, None, "another site"),
    ({"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, None, "cross-site"),
    ({"Content-Type": "application/json", "Origin": "null"}, None, "another site"),
    # the classic CSRF: a plain HTML form posting a JSON-looking text body
    ({"Content-Type": "text/plain"}, b'{"type": "roll", "data": {"face": "2"}, "x": "="}', "JSON"),
    ({"Content-Type": "application/x-www-form-urlencoded"}, b"type=roll", "JSON"),
])
def test_cross_site_requests_are_refused_even_from_the_trusted_screen(server, headers, body, words):
    server.post("/api/session", GAME)
    before = server.get("/api/state")[1]
    payload = body or json.dumps({"type": "roll", "player": "dash", "data": {"face": "2"}}).encode()
    status, _cookie, raw = raw_request(server, "POST", "/api/actions", payload, headers)
    assert status == 403 and words in json.loads(raw)["error"]
    assert server.get("/api/state")[1]["seq"] == before["seq"]


def test_our_own_pages_requests_pass_the_cross_site_checks(server):
    server.post("/api/session", GAME)
    origin = server.url
    status, _c, raw = raw_request(server, "POST", "/api/actions",
                                  json.dumps({"type": "roll", "player": "dash", "data": {"face": "2"}}).encode(),
                                  {"Content-Type": "application/json", "Origin": origin,
                                   "Sec-Fetch-Site": "same-origin", "X-Companion": "1"})
    assert status == 200, raw


def test_two_clients_acting_at_once_one_lands_the_other_is_told(server):
    """Both saw the same seq; the session serialises them: one is applied, one gets 409."""
    view = server.post("/api/session", GAME)[1]
    barrier = threading.Barrier(2)
    results = []

    def phone(face):
        barrier.wait()
        results.append(server.post("/api/actions", {"type": "roll", "player": "dash",
                                                    "data": {"face": face}, "if_seq": view["seq"]}))

    threads = [threading.Thread(target=phone, args=(f,)) for f in ("2", "3")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    statuses = sorted(status for status, _ in results)
    assert statuses == [200, 409]
    refused = next(body for status, body in results if status == 409)
    assert "changed since you looked" in refused["error"]
    after = server.get("/api/state")[1]
    assert after["seq"] == view["seq"] + 1 and after["expect"]["phase"] == "move"


def test_a_bad_dashboard_section_stops_start_up_naming_the_key(tmp_path):
    import subprocess
    import sys
    data = tmp_path / "data"
    data.mkdir()
    (data / "config.toml").write_text("[dashboard]\nkid_mod = true\n")
    proc = subprocess.run([sys.executable, "-m", "companion", "serve", "--port", "0", "--data", str(data)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "dashboard.kid_mod" in proc.stderr and "Traceback" not in proc.stderr
