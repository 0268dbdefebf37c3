"""The words a phone shows for a move, in a real headless Chromium against a real `companion
serve`: the Undo button names the move as the table made it (a camera's roll by its faces, a
Frozone choice by what Frozone fixed), and a space as the board prints it ("Start", printed:
"place it on the Start space"), while the actions sent keep the data's id.
"""

import pytest

from browser_pages import wait_rendered, words

pytestmark = pytest.mark.browser


def post(server, path, body):
    status, view = server.post(path, body)
    assert status in (200, 201), (path, body, view)
    return view


def start(server, **extra):
    return post(server, "/api/session", {"game": "incredibles", "players": ["dash"], "seed": 7,
                                         "starting_problems": ["A", "B", "C"], **extra})


def read(face, confidence, read_id):
    return {"type": "dice.read", "source": "camera",
            "data": {"id": read_id, "set": "incredibles-movement",
                     "dice": [{"face": face, "confidence": confidence, "box": [10, 10, 40, 40]}]}}


def tapped(phone, key):
    before = int(phone.evaluate("Number(document.body.dataset.rendered)"))
    phone.locator(f'#controls [data-key="{key}"]').click()
    wait_rendered(phone, before + 1)


def test_a_camera_roll_is_undone_by_its_faces_and_start_is_named_as_printed(server, pages):
    start(server)
    view = post(server, "/api/actions", read("3", 0.99, "cam-sure"))     # sure: applied at once
    assert view["state"]["roll"]["face"] == "3"
    phone = pages(server.url + "/play")
    wait_rendered(phone, view["seq"])
    assert words(phone, "#undo") == "Undo: Dash's roll: 3"
    # Dash stands on the Start space: the button to stay names it as the board does
    assert words(phone, '#controls [data-key="move-start"]') == "Stay (Start)"
    tapped(phone, "move-13")
    tapped(phone, "roll-1")
    tapped(phone, "move-start")
    assert words(phone, "#undo") == "Undo: Dash: move to Start"
    assert server.get("/api/state")[1]["state"]["movers"][0]["space"] == "start"   # the id sent

    # an unsure read, confirmed with a tap: the Undo names the roll the tap made
    view = post(server, "/api/actions", read("2", 0.3, "cam-unsure"))
    assert view["dice_read"]["confirmed"] is False
    wait_rendered(phone, view["seq"])
    assert words(phone, "#undo") == "Undo: the camera's read of 1 die"   # nothing rolled yet
    phone.locator('[data-key="confirm-read"]').click()
    wait_rendered(phone, view["seq"] + 1)
    assert words(phone, "#undo") == "Undo: Dash's roll: 2"


def test_a_cards_choice_is_undone_in_the_tables_words(server, pages):
    # problems A and E both need Strength: "Frozone Helps: Strength" asks which one it fixes
    view = start(server, starting_problems=["A", "E", "B"], deck=["frozone-strength", "road-13"])
    phone = pages(server.url + "/play")
    wait_rendered(phone, view["seq"])
    tapped(phone, "roll-alarm")
    tapped(phone, "choose-E")
    assert words(phone, "#undo") == "Undo: Frozone fixes problem E"
    # the Road Destroyed card drops rubble on 13, where Dash stands: the spaces offered are
    # named as printed, and the Undo says where the mover went
    tapped(phone, "roll-1")
    tapped(phone, "move-13")
    tapped(phone, "roll-alarm")
    assert "(12, 14, Start)" in words(phone, "#controls")
    assert words(phone, '#controls [data-key="choose-start"]') == "Start"
    tapped(phone, "choose-start")
    assert words(phone, "#undo") == "Undo: move off the rubble to Start"


def test_a_camera_pull_is_undone_by_its_cubes(server, pages):
    """Invincible: 'Draw three random cubes from your bag at a time', read by the camera over the
    hero's pull area; the Undo once said 'the camera's read of 3 cubes'."""
    server.post("/api/session", {"game": "invincible", "seed": 4, "options": {
        "heroes": [{"hero": "invincible", "name": "Ana"}, {"hero": "atom-eve", "name": "Ben"}],
        "episode": 1}})
    server.act("advance")
    view = post(server, "/api/actions", {
        "type": "dice.read", "player": "atom-eve", "source": "camera",
        "data": {"id": "pull-1", "set": "invincible-cubes",
                 "dice": [{"face": c, "confidence": 0.99} for c in ("blue", "blue", "black")]}})
    phone = pages(server.url + "/play")
    wait_rendered(phone, view["seq"])
    assert words(phone, "#undo") == "Undo: Atom Eve's pull: Blue, Blue, Black"
