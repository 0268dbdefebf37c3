"""Invincible's pulls read by camera: cubes laid in a hero's marked pull area, rendered, read by
colour with real OpenCV (vision/pull_area.py, vision/cubes.py) and submitted to a real Session on
a real SQLite journal as that hero's pull, through the confirm-when-unsure path the dice take."""

import numpy as np
import pytest

from companion.errors import BadAction, IllegalAction
from companion.games import Catalog
from companion.games.invincible.data import CUBES
from companion.journal import Journal
from companion.session import Session
from vision.cubes import DEFAULT_COLOURS
from vision.pull_area import render_pull, read_pull


@pytest.fixture
def hero_phase(tmp_path):
    session = Session(Journal(tmp_path / "journal.sqlite3"), Catalog())
    session.start("invincible", {"heroes": ["invincible", "atom-eve"]}, seed=4)
    view = session.submit({"type": "advance"})
    assert view["expect"]["phase"] == "hero"
    return session


def hero(view, hero_id):
    return next(h for h in view["state"]["heroes"] if h["id"] == hero_id)


def bag_colours():
    """The colours a hero's bag is filled with, from Invincible's own data."""
    return sorted(c for c, n in Catalog()("invincible").data.bag.items() if n > 0)


def test_a_rendered_pull_of_three_cubes_becomes_that_heros_pull(hero_phase, tmp_path):
    """'Draw three random cubes from your bag at a time': the three laid in Atom Eve's pull
    area are her pull, journaled, and the same after a restart."""
    session = hero_phase
    rng = np.random.default_rng(7)
    colours = bag_colours()
    for _ in range(2):      # two pulls: play or drop them all before the next
        before = hero(session.view(), "atom-eve")
        pulled = [str(c) for c in rng.choice(colours, 3)]
        read = read_pull(render_pull(rng, pulled), "atom-eve")
        view = session.submit(read)
        after = hero(view, "atom-eve")
        assert view["dice_read"]["confirmed"] and sorted(view["dice_read"]["faces"]) == sorted(pulled)
        assert sorted(after["ready"]) == sorted(pulled)
        assert after["pulls"] == before["pulls"] + 1
        assert hero(view, "invincible")["ready"] == []              # nobody else's pull
        roll = view["last_roll"]
        assert roll["type"] == "pull" and roll["source"] == "camera"
        assert sorted(d["face"] for d in roll["dice"]) == sorted(pulled)
        for cube in after["ready"]:
            view = session.submit({"type": "drop", "data": {"hero": "atom-eve", "cube": cube}})
    entries = session.journal.entries(view["game_id"])
    reads = [e.payload for e in entries if e.payload.get("type") == "dice.read"]
    assert len(reads) == 2 and all(r["player"] == "atom-eve" for r in reads)
    again = Session(Journal(tmp_path / "journal.sqlite3"), Catalog()).view()
    assert hero(again, "atom-eve") == hero(view, "atom-eve")


def test_a_fifth_black_cube_read_by_camera_crashes(hero_phase):
    """'The instant a hero pulls a fifth black cube, they crash — pushed too far and now in
    danger. Every black cube on that hero's board and powers counts toward the limit, including
    cubes sitting in the dropped area. When you crash, leave the three cubes you just pulled in
    your ready area'."""
    session = hero_phase
    for pull in (["black", "black", "yellow"], ["black", "black", "blue"]):
        session.submit({"type": "pull", "data": {"hero": "invincible", "cubes": pull}})
        for cube in pull:
            session.submit({"type": "drop", "data": {"hero": "invincible", "cube": cube}})
    assert hero(session.view(), "invincible")["black_cubes"] == 4
    assert not hero(session.view(), "invincible")["crashed"]
    rng = np.random.default_rng(11)
    view = session.submit(read_pull(render_pull(rng, ["orange", "black", "purple"]), "invincible"))
    inv = hero(view, "invincible")
    assert inv["crashed"] and inv["black_cubes"] == 5
    assert sorted(inv["ready"]) == ["black", "orange", "purple"]
    assert "fifth black cube and crashes" in " ".join(view["state"]["log"][-2:])
    with pytest.raises(IllegalAction, match="crashed"):       # the crashed hero pulls no more
        session.submit(read_pull(render_pull(rng, ["blue", "blue", "yellow"]), "invincible"))


def test_an_unsure_cube_waits_for_a_tap_and_is_not_applied(hero_phase):
    """A cube the counter cannot tell between two colours waits for the players, as an unsure
    die does; their tap (correcting it) makes the pull, and only then."""
    session = hero_phase
    between = tuple((a + b) // 2 for a, b in zip(DEFAULT_COLOURS["yellow"], DEFAULT_COLOURS["orange"]))
    paint = {**DEFAULT_COLOURS, "amber": between}
    rng = np.random.default_rng(3)
    read = read_pull(render_pull(rng, ["blue", "amber", "black"], paint), "invincible")
    before = session.view()
    view = session.submit(read)
    waiting = view["dice_read"]
    assert not waiting["confirmed"] and len(waiting["doubtful"]) == 1
    assert waiting["roll"]["faces"] == list(CUBES) and waiting["roll"]["player"] == "invincible"
    assert hero(view, "invincible") == hero(before, "invincible")   # nothing pulled yet
    assert view["last_roll"] == before["last_roll"]
    faces = list(waiting["faces"])
    faces[waiting["doubtful"][0]] = "yellow"                        # the tap: it was yellow
    view = session.confirm_read(waiting["id"], faces)
    assert sorted(hero(view, "invincible")["ready"]) == ["black", "blue", "yellow"]
    assert view["dice_read"]["corrected"] == waiting["doubtful"]
    assert hero(view, "atom-eve")["ready"] == []


def test_a_pull_read_the_rules_refuse_is_refused_with_the_reason(hero_phase):
    """'All three cubes from a pull must be either played or dropped before you pull again';
    a read of two cubes is not a pull of three: it waits for a tap (the cube the camera
    missed added), nothing pulled. A second pull before the first is played, no cube, or a
    pull before the Hero Phase is refused, and nothing is applied."""
    session = hero_phase
    rng = np.random.default_rng(5)
    before = hero(session.view(), "invincible")
    view = session.submit(read_pull(render_pull(rng, ["blue", "purple"]), "invincible"))
    assert view["dice_read"]["miscounted"] and not view["dice_read"]["confirmed"]
    assert hero(view, "invincible") == before
    session.submit(read_pull(render_pull(rng, ["blue", "purple", "yellow"]), "invincible"))
    seq = session.seq
    with pytest.raises(IllegalAction, match="before you pull again"):
        session.submit(read_pull(render_pull(rng, ["blue", "orange", "yellow"]), "invincible"))
    assert session.seq == seq
    with pytest.raises(IllegalAction, match="name the player"):     # nobody's pull area
        session.submit(read_pull(render_pull(rng, ["blue", "orange", "yellow"]), "omni-man"))
    with pytest.raises(ValueError, match="no cube"):
        read_pull(render_pull(rng, []), "invincible")
    with pytest.raises(ValueError, match="colour image"):
        read_pull(np.zeros((240, 320), np.uint8), "invincible")
    session.start("invincible", {"heroes": ["invincible", "robot"]}, seed=4)   # advance phase
    with pytest.raises(BadAction, match="invincible-cubes"):
        session.submit(read_pull(render_pull(rng, ["blue", "purple", "yellow"]), "invincible"))
