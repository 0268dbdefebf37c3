"""Each button of each game's table map, pressed through gpiozero's MockFactory in each phase of
that game: it does what the map says where it means something, and where it does not, the press
is refused with the map's reason on the refusals board every screen shows (companion/refusals.py)
and nothing is journaled."""

import random

import pytest

from companion.actions import Action
from companion.cli import _confirm_waiting_read
from companion.dice import requests
from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from hardware.wiring import DEFAULT_GPIO, attach

CATALOG = Catalog()
BUTTON_PINS = {"next": "next", "read_dice": "dice", "draw_card": "card", "confirm": "confirm",
               "timer_toggle": "timer"}
PHASES = {"incredibles": ("roll", "move", "fix", "choose", "over"),
          "xmen-alert": ("first", "play", "bonus", "over"),
          "invincible": ("advance", "hero", "training", "villain")}
OPTIONS = {"incredibles": {"players": ["dash", "violet"]},
           "xmen-alert": {"players": ["Ana", "Ben"], "advanced": True},
           "invincible": {"heroes": ["invincible", "atom-eve"]}}


def session_in(game, phase, tmp_path):
    """A real session whose game random play (the engine's own sampler) has brought to
    ``phase``; X-Men's table ends a game by abandoning it."""
    for seed in range(40):
        session = Session(Journal(":memory:"), CATALOG)   # SQLite, without an fsync a step
        session.start(game, OPTIONS[game], seed=seed)
        rng = random.Random(seed)
        for _ in range(600):
            view = session.view()
            if view["expect"].get("phase", "over") == phase:
                return session
            if view["outcome"]["status"] != "playing":
                break
            if game == "xmen-alert" and phase == "over" and rng.random() < 0.05:
                session.submit(Action("game.abandon", data={"reason": "bedtime"}))
                continue
            engine, table = session._engine, session._top()
            session.submit(engine.sample_action(table.game, rng))
        session.journal.close()
    raise AssertionError(f"random play never reached {game}'s {phase} phase")


def press(handle, session, button):
    seq, refused = session.seq, len(session.refusals.since(0))
    handle.press(BUTTON_PINS[button])
    assert handle.dispatcher.wait_idle(5)
    board = session.refusals.since(0)
    return session.seq > seq, board[-1] if len(board) > refused else None


@pytest.mark.parametrize("game, phase", [(g, p) for g, phases in PHASES.items() for p in phases])
def test_each_button_does_what_the_map_says_or_is_refused_with_why(game, phase, tmp_path):
    session = session_in(game, phase, tmp_path)
    table = CATALOG(game).table_map()
    reads = []

    def read_dice():
        reads.append(session.seq)
        wanted = requests(session.view()["expect"])[0]
        faces = [d.sides[0] for d in wanted.dice for _ in range(d.count)]
        session.submit(Action("dice.read", source="camera", data={
            "set": wanted.first.set, "dice": [{"face": f, "confidence": 0.3} for f in faces]}))

    gpio = {**DEFAULT_GPIO, "hold_time": 0.2}
    handle = attach(session, {"gpio": gpio, "serial": {"enabled": False}}, simulate=True,
                    read_dice=read_dice,
                    confirm=lambda: _confirm_waiting_read(session))
    try:
        for button in BUTTON_PINS:
            meaning = table.meaning(button, phase)
            before = session.view()
            changed, refusal = press(handle, session, button)
            if meaning is None:
                assert not changed and refusal is not None, (button, phase)
                assert f"means nothing now ({phase} phase)" in refusal["text"]
                assert table.notes.get(button, "") in refusal["text"]
                assert (before["expect"].get("prompt") or "No game") in refusal["text"]
                continue
            if meaning.action is not None:
                assert changed and refusal is None, (button, phase, refusal)
                last = session.journal.entries(before["game_id"])[-1].payload
                assert (last["type"], last["source"]) == (meaning.action["type"], "button")
            elif meaning.own == "read_dice" and not any(
                    r.action for r in requests(before["expect"])):
                assert not changed and "no dice are to be read now" in refusal["text"]
                continue
            elif meaning.own == "read_dice":
                assert reads and changed, (button, phase)
                # ... the read waits for a tap: Confirm confirms it as read
                assert session.view()["dice_read"]["confirmed"] is False
                changed, refusal = press(handle, session, "confirm")
                assert changed and refusal is None and session.view()["dice_read"]["confirmed"]
                session.submit(Action("undo"))
            elif meaning.own == "confirm_read":       # nothing waits now: refused, and why
                assert not changed and "nothing to confirm now" in refusal["text"]
                continue
            elif meaning.own == "timer" and table.timer != "turn":   # a game's own timer
                timer = before["timers"].get(table.timer)
                if timer is None or timer.get("expired"):
                    assert not changed and "timer is not running now" in refusal["text"]
                    continue
                assert changed and session.view()["timers"][table.timer]["running"] != timer["running"]
                assert press(handle, session, button)[0]
                assert session.view()["timers"][table.timer]["running"] == timer["running"]
                session.submit(Action("undo"))
            elif meaning.own == "timer":
                assert changed and session.view()["timers"][table.timer]["running"]
                assert press(handle, session, button)[0]
                assert not session.view()["timers"][table.timer]["running"]
                session.submit(Action("undo"))
            session.submit(Action("undo"))
            assert session.view()["state"] == before["state"], (button, phase)
        # undo is a long press on Confirm (the default table): it takes the last action back
        if session.undo_preview() is not None:
            seq = session.seq
            handle.press("undo", hold=True)
            assert handle.dispatcher.wait_idle(5) and _wait(lambda: session.seq > seq)
            assert session.journal.entries(before["game_id"])[-1].kind == "undo"
    finally:
        handle.close()
        session.journal.close()


def _wait(predicate, timeout=5.0):
    import time

    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True
