"""`POST /api/dice/confirm` over real HTTP to a real `companion serve`: a flagged read with a die
too few is put right by adding the die the camera missed; bad bodies get a 400 that says what is
wrong, a count the roll cannot take a 422 that says how to put it right, and neither changes
anything."""

import pytest

FOUR = [("xmen", 0.9), ("marvel", 0.95), ("blank", 0.9), ("xmen", 0.4)]


def read_of(faces_conf, read_id):
    return {"type": "dice.read", "source": "camera", "data": {
        "id": read_id, "set": "xmen-alert",
        "dice": [{"face": f, "confidence": c, "box": [10 + 50 * i, 10, 40, 40]}
                 for i, (f, c) in enumerate(faces_conf)]}}


@pytest.fixture
def waiting(server):
    status, view = server.post("/api/session", {"game": "xmen-alert", "seed": 1,
                                                "options": {"players": ["Ana", "Ben"]}})
    assert status == 201, view
    status, view = server.post("/api/actions", read_of(FOUR, "cam-4"))
    assert status == 200 and view["dice_read"]["confirmed"] is False, view
    return view


@pytest.mark.parametrize("body, words", [
    ({"id": "cam-4", "faces": "xmen"}, "data.faces must be a list with one entry for each die read"),
    ({"id": "cam-4", "faces": ["xmen", "marvel", "blank", 4]}, "data.faces must be a list"),
    ({"id": "cam-4", "faces": ["xmen", "marvel"]}, "data.faces has 2 entries and the read 4 dice"),
    ({"id": "cam-4", "added": "marvel"}, "data.added must be a list of up to 30 faces"),
    ({"id": "cam-4", "added": [None]}, "data.added must be a list"),
    ({"id": "cam-4", "added": ["x" * 41]}, "data.added must be a list"),
    ({"id": "cam-4", "added": ["skull"]}, "skull is not a face of the alert"),
    ({"id": "cam-4", "add": ["marvel"]}, "confirm takes id, faces and added, not add"),
    ({"faces": None, "added": ["marvel"]}, "confirm needs the read's id"),
    ("[1, 2]", "the body must be a JSON object"),
])
def test_a_bad_body_is_a_400_that_says_why_and_changes_nothing(server, waiting, body, words):
    status, answer = server.post("/api/dice/confirm", body) if isinstance(body, dict) else \
        server.post("/api/dice/confirm", raw=body.encode())
    assert status == 400 and words in answer["error"], answer
    status, now = server.get("/api/state")
    assert now["seq"] == waiting["seq"] and now["dice_read"] == waiting["dice_read"]


def test_the_missing_die_is_added_over_http_and_undo_brings_the_read_back(server, waiting):
    # confirmed as read: the roll cannot take four dice; why, and how to put it right
    status, answer = server.post("/api/dice/confirm", {"id": "cam-4"})
    assert status == 422 and answer["error"] == ("this roll is 5 dice and the camera found 4: add "
                                                "each die the camera missed; the read still waits")
    assert server.get("/api/state")[1]["dice_read"] == waiting["dice_read"]
    status, view = server.post("/api/dice/confirm", {"id": "cam-4", "faces": ["xmen", "marvel", "blank", "marvel"],
                                                     "added": ["evil_mutant"]})
    assert status == 200, view
    read = view["dice_read"]
    assert read["confirmed"] and read["added"] == ["evil_mutant"] and read["corrected"] == [3]
    assert read["faces"] == ["xmen", "marvel", "blank", "marvel", "evil_mutant"]
    assert len(view["last_roll"]["dice"]) == 5 and view["last_roll"]["confirmed_by"] == "dashboard"
    assert view["state"]["going_first"]["rolls"] == {view["last_roll"]["player"]: 5}
    # the same read again: it is no longer waiting
    assert server.post("/api/dice/confirm", {"id": "cam-4", "added": ["xmen"]})[0] == 409
    status, back = server.post("/api/actions", {"type": "undo"})
    assert status == 200 and back["dice_read"] == waiting["dice_read"]
