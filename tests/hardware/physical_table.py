"""A whole table in simulation, driven through its physical channels only: dice thrown into the
rendered tray and read by the real vision pipeline when the Read-dice button is pressed,
Invincible's pulls laid in a hero's area of the rendered pull mat and read once it settles,
gpiozero MockFactory button presses, the serial peripheral's events (buttons, tokens on
readers) over a real pseudo-terminal, and taps on the screen only where the test says so. Every
input is counted by channel, and every roll thrown is kept to be checked against the journal.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

from companion.cli import _confirm_waiting_read
from hardware.wiring import DEFAULT_GPIO, attach
from vision.card_camera import CardCamera, stand_in
from vision.card_render import draw
from vision.pull_camera import PullCamera, SimulatedPullMat
from vision.simulated_tray import TUMBLE_FRAMES, SimulatedTray
from vision.table_camera import TableCamera

FAST_SERIAL = {"heartbeat_timeout": 3.0, "backoff_initial": 0.1, "backoff_max": 0.5,
               "buttons": {"1": {"action": "next"}, "2": {"action": "confirm", "hold": "undo"}}}


class PhysicalTable:
    def __init__(self, session, data_dir, readers: dict[int, str], tags: dict[str, str],
                 seed: int = 0, buttons: dict[str, dict] | None = None, pull_mat: bool = False):
        self.session = session
        self.inputs: Counter = Counter()
        self.throws: list[list[str]] = []
        self.tray = SimulatedTray(seed=seed, fps=0)
        self.camera = TableCamera(session, self.tray, data_dir, simulate=True)
        self.cards = CardCamera(session, data_dir, simulate=True)    # the marked card area
        self.card_frame = None
        self.tags = {piece: tag for tag, piece in tags.items()}
        self.readers = {space: n for n, space in readers.items()}
        self._placed: dict[str, int] = {}
        sections = {"serial": FAST_SERIAL,
                    "tokens": {"readers": {str(n): s for n, s in readers.items()},
                               "tags": {tag: {"piece": piece} for tag, piece in tags.items()}}}
        if buttons:                       # the default table's buttons and these (a hero's Done)
            sections["gpio"] = {**DEFAULT_GPIO, "buttons": {**DEFAULT_GPIO["buttons"], **buttons}}
        self.mat = SimulatedPullMat(seed=seed, fps=0) if pull_mat else None
        self.pulls = PullCamera(session, self.mat, simulate=True) if pull_mat else None
        self._clock = 0.0
        self.hardware = attach(session, sections, simulate=True, read_dice=self._read_tray,
                               confirm=lambda: _confirm_waiting_read(session),
                               read_card=lambda: self.cards.read_now(self.card_frame))
        assert self.hardware.link.wait_for("ready", 10), self.hardware.status()["serial"]

    def close(self) -> None:
        self.hardware.close()
        self.camera.close()
        if self.pulls is not None:
            self.pulls.close()

    # -- the channels ----------------------------------------------------------------------------

    def _read_tray(self) -> None:
        """The Read-dice button: the camera reads the tray as it lies now."""
        frame = None
        for _ in range(TUMBLE_FRAMES + 1):     # past the tumbling frames to the settled one
            frame = self.tray.read()
        self.camera.read_frame(frame)

    def settle(self) -> None:
        assert self.hardware.dispatcher.wait_idle(30)

    def press(self, button: str, hold: bool = False) -> None:
        """A table-edge button, pressed through its mock pin."""
        self.inputs["gpio"] += 1
        self.hardware.press(button, hold=hold)
        if hold:
            threading.Event().wait(self.hardware.buttons[button].settings.hold_time + 0.3)
        self.settle()

    def device_press(self, number: int) -> None:
        """A button on the serial peripheral: its BTN events over the pseudo-terminal."""
        self.inputs["serial"] += 1
        seq, refused = self.session.seq, self.hardware.dispatcher.counts["refused"]
        self.hardware.device.press(number)
        self._wait_serial(seq, refused)

    def place(self, piece: str, space: str) -> None:
        """A piece's token put on the reader under ``space`` (taken off the one it was on)."""
        tag = self.tags[piece]
        if piece in self._placed:
            self.hardware.device.remove(tag, self._placed[piece])
            self.inputs["serial"] += 1
        self.inputs["serial"] += 1
        self._placed[piece] = self.readers[space]
        seq = self.session.seq
        refused = self.hardware.dispatcher.counts["refused"]
        self.hardware.device.place(tag, self.readers[space])
        self._wait_serial(seq, refused)

    def _wait_serial(self, seq: int, refused: int) -> None:
        deadline = threading.Event()
        for _ in range(500):
            self.settle()
            if self.session.seq > seq or self.hardware.dispatcher.counts["refused"] > refused:
                return
            deadline.wait(0.02)
        raise AssertionError("the device's event never reached the session")

    def lay_card(self, cards: list[dict[str, Any]], card_id: str, seed: int) -> bool:
        """The card drawn from the table's own deck, laid in the card area (a rendered draw of its
        stand-in, tilted) and the Card button pressed. True when the camera named it and the
        journal took it; False when it asked for a tap (the caller taps it)."""
        self.inputs["card"] += 1
        self.card_frame = draw(stand_in(cards, card_id), seed, "tilt")
        seq = self.session.seq
        self.press("card")
        return self.session.seq > seq

    def tap(self, action: dict[str, Any]) -> dict[str, Any]:
        """A choice made on the screen (the only input that is not physical)."""
        self.inputs["tap"] += 1
        return self.session.submit(action)

    def roll(self) -> dict[str, Any]:
        """Throw the dice the game expects now into the tray, press Read dice; a read flagged as
        unsure is confirmed with the Confirm button when it read right, put right with a tap
        when not (a face corrected, a die the camera missed added, something it took for a die
        marked not a die). Returns the read as the table keeps it (its faces in the order found
        in the tray, then the dice the players added)."""
        thrown = self.camera.throw()
        seq = self.session.seq
        self.press("dice")
        read = self.session.view().get("dice_read")
        assert self.session.seq > seq and read, (self.camera.status(), thrown)
        self.throws.append(sorted(thrown))
        self.inputs["camera"] += 1
        # The dice of a roll lie in the tray in no order: the read lists them as it found them.
        self._confirm(read, thrown)
        return self.session.view()["dice_read"]

    def pull(self, hero: str) -> list[str]:
        """``hero`` draws cubes from their bag and lays them in their pull area; the mat is watched
        frame by frame (15 a second, on the frames' own clock) until the camera has read them. A
        read flagged as unsure is confirmed as for dice. Returns the cubes laid."""
        laid = self.pulls.lay(hero)["laid"]
        self.throws.append(sorted(laid))
        self.inputs["pull area"] += 1
        seq = self.session.seq
        for _ in range(60):
            self._clock += 1 / 15
            if any(x["hero"] == hero and "kept" not in x
                   for x in self.pulls.look(self.mat.read(), self._clock)):
                break
        read = self.session.view().get("dice_read")
        assert self.session.seq > seq and read and read["player"] == hero, (self.pulls.status(), laid)
        self._confirm(read, laid)
        return laid

    def _confirm(self, read: dict[str, Any], truth: list[str]) -> None:
        if not read["confirmed"]:
            self.inputs["flagged"] += 1
            if sorted(read["faces"]) == sorted(truth):
                self.press("confirm")
            else:
                self.inputs["tap"] += 1
                if len(read["faces"]) != len(truth):
                    self.inputs["count put right"] += 1
                faces, added = put_right(read["faces"], truth)
                self.session.confirm_read(read["id"], faces, added=added)
            read = self.session.view()["dice_read"]
        assert read["confirmed"] and sorted(read["faces"]) == sorted(truth), (read, truth)


def put_right(read: list[str], tray: list[str]) -> tuple[list[str | None], list[str]]:
    """The tap a player makes, looking at the tray, to make a read show its dice: a read die
    stays as read where a die in the tray shows that face; the others are corrected to a face no
    read die accounts for, or marked not a die (None) when none is left; faces still unaccounted
    for are the dice the camera missed, added."""
    left = Counter(tray)
    faces: list[str | None] = []
    for face in read:
        faces.append(face if left[face] > 0 else None)
        left[face] -= 1 if left[face] > 0 else 0
    missing = list(left.elements())
    for i, face in enumerate(faces):
        if face is None and missing:
            faces[i] = missing.pop(0)
    return faces, missing


def journal_rolls(session) -> list[list[str]]:
    """The faces of every roll the journal holds, as applied (each camera read's faces, or the
    players' confirmation of a flagged one: its faces, less the read dice marked not a die
    (null), with the dice they added), each roll's faces sorted: dice lie in no order. A read
    sure of every die but with a die too few or too many waited too: the confirmation of its
    id that follows it says so."""
    rolls, waiting, applied = [], None, None
    for entry in session.journal.entries(session.view()["game_id"]):
        action = entry.payload
        if action["type"] == "dice.read":
            waiting = [d["face"] for d in action["data"]["dice"]]
            applied = None
            if all(d.get("confidence", 1) >= session.read_threshold for d in action["data"]["dice"]):
                rolls.append(sorted(waiting))
                applied = action["data"].get("id")
        elif action["type"] == "dice.confirm":
            data = action["data"]
            if applied is not None and data.get("id") in (None, applied):
                rolls.pop()                    # the sure read waited for its count
            applied = None
            faces = data["faces"] if data.get("faces") is not None else waiting
            rolls.append(sorted([f for f in faces if f is not None] + data.get("added", [])))
    return rolls
