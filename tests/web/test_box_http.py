"""The "Your box" API over real HTTP to a real `companion serve`: a bad box file is refused with
the place named and nothing changed; only the table's own screen changes the box."""

import urllib.request

import pytest

BAD = [
    (b'format = 1\ngame = "incredibles"\n[patch.board]\nnumbered = "sixteen"\n', "board.numbered: expected int"),
    (b'format = 1\ngame = "incredibles"\n[patch.deck]\nvillain = ["A"]\n', "deck.villain: unknown card kind"),
    (b'format = 1\ngame = "incredibles"\n[[patch.heroes]]\nid = "jack-jack"\npower = "speed"\n', "heroes[4].name: missing"),
]


def post_text(server, path, text: bytes, headers=None):
    return server.request("POST", path, raw=text, headers={"Content-Type": "text/plain",
                                                           "X-Companion": "1", **(headers or {})})


def test_import_refuses_a_bad_box_file_naming_the_place_and_changes_nothing(server):
    status, box = server.post("/api/box/incredibles/items", {"key": "card/edna-1", "values": None})
    assert status == 200 and "1 of 30 cards confirmed" in box["checklist"]["summary"]
    saved = (server.data / "components" / "box" / "incredibles.toml").read_bytes()
    for text, where in BAD:
        status, body = post_text(server, "/api/box/incredibles/import", text)
        assert status == 400 and where in body["error"], (where, body)
    status, body = post_text(server, "/api/box/incredibles/import", b"#" * (70 * 1024))
    assert status == 413 and "larger than 65536 bytes" in body["error"]
    assert (server.data / "components" / "box" / "incredibles.toml").read_bytes() == saved
    assert server.get("/api/box/incredibles")[1]["checklist"] == box["checklist"]


def test_export_then_import_carries_one_owners_box_to_another_table(server_factory, tmp_path):
    first = server_factory(data=tmp_path / "one")
    status, _ = first.post("/api/box/incredibles/items",
                           {"key": "card/jackjack-4", "values": {"kind": "road_destroyed", "names": "4"}})
    assert status == 200
    with urllib.request.urlopen(first.url + "/api/box/incredibles/export", timeout=10) as res:
        text = res.read()
        assert res.headers["Content-Type"].startswith("application/toml")
    second = server_factory(data=tmp_path / "two")
    status, box = post_text(second, "/api/box/incredibles/import", text)
    assert status == 200
    cards = {i["key"]: i for i in box["items"]}
    assert "card/jackjack-4" not in cards and cards["card/road-4"]["status"] == "confirmed"
    assert box["hash"] == first.get("/api/box/incredibles")[1]["hash"]


def test_a_joined_phone_may_read_the_box_but_not_change_it(server_factory, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "config.toml").write_text("[server]\ntrust_loopback = false\n")
    server = server_factory(data=data)
    code = (data / "join_code.txt").read_text().strip()
    assert server.get("/api/box/incredibles")[0] == 200
    status, body = server.post("/api/box/incredibles/items", {"key": "board", "values": None},
                               headers={"X-Join-Code": code})
    assert status == 403 and "table's own screen" in body["error"]
    status, body = post_text(server, "/api/box/incredibles/import",
                             b'format = 1\ngame = "incredibles"\n', {"X-Join-Code": code})
    assert status == 403
    assert not (data / "components" / "box" / "incredibles.toml").exists()


@pytest.mark.parametrize("key, values, where", [
    ("card/nope", None, "card/nope: no such card"),
    ("card/edna-1", {"kind": "villain"}, "'villain' is not a card type"),
    ("board", {"links": [["start", "Z"]]}, "board.links[0]"),
])
def test_a_bad_edit_names_the_field(server, key, values, where):
    status, body = server.post("/api/box/incredibles/items", {"key": key, "values": values})
    assert status == 400 and where in body["error"], body


def test_a_box_made_against_other_base_data_is_warned_of_on_the_box_and_setup_pages(server):
    """An owner's box file made against other component data (its ``base`` is not this table's):
    imported, it is used, and the Your box page and the setup page say the base changed under
    it; saving the box again records it against this table's data."""
    other = "0" * 64
    text = (f'format = 1\ngame = "incredibles"\nbase = "{other}"\n[patch.jackjack_die]\n'
            'confirmed = true\n').encode()
    status, box = post_text(server, "/api/box/incredibles/import", text)
    assert status == 200 and "changed since your box was made" in box["warning"]
    with urllib.request.urlopen(server.url + "/box?game=incredibles", timeout=10) as res:
        assert 'id="box-warning"' in res.read().decode()
    assert "changed since your box was made" in server.get("/api/games/incredibles")[1]["box_warning"]
    status, box = server.post("/api/box/incredibles/items", {"key": "jackjack_die", "values": None})
    assert status == 200 and box["warning"] is None
    assert server.get("/api/games/incredibles")[1]["box_warning"] is None
    with urllib.request.urlopen(server.url + "/box?game=incredibles", timeout=10) as res:
        assert 'id="box-warning"' not in res.read().decode()


def test_teaching_cards_without_a_camera_says_so(server):
    status, body = server.get("/api/box/incredibles/cards")
    assert status == 409 and "no camera is attached to teach the cards with" in body["error"]
    status, body = server.post("/api/box/incredibles/cards/take", {"card": "edna-1"},
                               headers={"X-Companion": "1"})
    assert status == 409 and "no camera is attached" in body["error"]
    for bad, why in (({"card": 5}, "take needs card"), ({"card": "edna-1", "deck": "../x"}, "deck:"),
                     ({"card": "x" * 81}, "take needs card")):
        status, body = server.post("/api/box/incredibles/cards/take", bad, headers={"X-Companion": "1"})
        assert status == 400 and why in body["error"], (bad, body)
    status, body = server.post("/api/camera/card", {"card": "edna-1"}, headers={"X-Companion": "1"})
    assert status == 409 and "only in the simulated card area" in body["error"]
