"""The camera at the table: every settled roll is read with the dice set the game expects now
and handed to the session as one `dice.read` action (the session decides, from each die's
confidence, whether it is the roll itself or waits for the players' tap).

The game's engine names the die it expects (its first DiceRequest, companion/dice.py: set
"incredibles-movement", its faces and sides); a box's dice are taught together as one set
("incredibles"), so the engine's set maps to the taught set by its first word, or by the
`[camera] sets` table.
"""

from __future__ import annotations

import logging
import random
import re
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from companion.actions import Action
from companion.dice import DiceRequest, check_readable, readable
from companion.errors import CompanionError, IllegalAction
from vision.card_camera import checked_area
from vision.errors import UnknownSet, VisionError
from vision.photolog import PhotoLog
from vision.reader import (DEFAULT_RECOGNIZER, DEFAULT_THRESHOLD, RECOGNIZERS, DieRead, Reader,
                           make_reader, teach)
from vision.render import GAME_SETS, write_teaching_photos
from vision.sets import sets_dir
from vision.settle import SettleDetector
from vision.throws import Throws, entered_words
from vision.watcher import CameraWatcher, WatchingCamera

log = logging.getLogger(__name__)
BOX_SETS = {"incredibles": "incredibles", "xmen": "xmen", "invincible": "invincible"}
RETRY_SET_S = 5.0   # a set that failed to load is tried again this often (mended meanwhile?)
NO_FRAME_S = 3.0    # a camera that gave no frame for this long cannot answer a Read dice press
READ_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def taught_set_for(engine_set: str, overrides: dict[str, str] | None = None) -> str:
    if overrides and engine_set in overrides:
        return overrides[engine_set]
    return BOX_SETS.get(engine_set.split("-")[0], engine_set)


class TableCamera(WatchingCamera):
    """Reads the tray for the session. Acts as the watcher's reader, so it can pick the set."""

    def __init__(self, session, source, data_dir: Path, *, threshold: float = DEFAULT_THRESHOLD,
                 sets: dict[str, str] | None = None, simulate: bool = False,
                 settle_s: float = 0.6, recognizer: str = DEFAULT_RECOGNIZER):
        self.session = session
        self.source = source
        self.data_dir = Path(data_dir)
        self.threshold = threshold
        self.overrides = sets or {}
        self.simulate = simulate
        self.recognizer = recognizer
        self.photolog = PhotoLog(self.data_dir, recognizer)
        self.last_obstructed = False
        self.last_error: str | None = None
        self.reads = 0
        self._asked = threading.Event()   # a player asked for the next read (Read dice)
        self._asked_at = -1.0             # when (time.monotonic()) the latest press came
        self._read_began = 0.0            # when the latest read of a frame began
        self.throws = Throws(session)     # which throw a read is (vision/throws.py)
        self._left_unread = 0             # die-like things the latest read could not read
        self._set_trouble: str | None = None   # why the latest read had no set to read with
        self._readers: dict[str, Reader] = {}
        self._failed: dict[str, float] = {}        # set name -> when loading it last failed
        self.retry_set_s = RETRY_SET_S
        self.no_frame_s = NO_FRAME_S
        self._teaching = threading.Lock()
        self._rng = random.Random(0)   # simulated throws repeat from run to run
        session.add_listener(self._on_view)
        self.watcher = CameraWatcher(source, self, self._on_roll, settle=SettleDetector(settle_s),
                                     stop_at_end=False, on_throw=self.throws.began)
        self.throws.watcher = self.watcher

    # -- life ------------------------------------------------------------------------------------

    def read_now(self) -> None:
        """A player pressed "read the dice": read the tray now (dice still rolling, once they
        settle). Refused, saying why, when the game expects no dice the camera can read, the
        camera gives no frames, or the dice have not moved since their read became a move."""
        check_readable(self.session.view().get("expect"))
        if self.watcher.silent(self.no_frame_s):
            why = self.watcher.error or self.last_error
            raise IllegalAction("the camera gives no picture now" + (f" ({why})" if why else "")
                                + ": check its cable and the [camera] source, or enter the roll")
        self.throws.press()               # read already, not moved since: the next roll's dice?
        self._asked_at = time.monotonic()
        self._asked.set()
        self.watcher.read_now()
        entry = self._entry()
        if entry and self._untaught_stand_in(taught_set_for(entry.first.set, self.overrides)):
            # the first read of a game's dice teaches the stand-in set: say why nothing comes yet
            # (kind "wait": the press did something, the screens say "is busy", not "did nothing")
            board = getattr(self.session, "refusals", None)
            if board is not None:
                board.post("the simulated tray's stand-in dice are being taught, once (some "
                           "seconds here, a minute on a Pi): the read follows", source="camera",
                           kind="wait", origin="dice tray")

    def press_refusal(self) -> str | None:
        """Why a Read dice press would be refused by the camera now (the Devices page), without
        waiting for frames; the rules' own reasons are the table map's."""
        if self.watcher.silent(self.no_frame_s):
            return "the camera gives no picture now"
        why = self.throws.refusal()
        return why.split(":")[0] if why else None

    def photo(self, read_id: str) -> bytes | None:
        """The JPEG of a read's frame, for the dashboard."""
        if not READ_ID.match(read_id):
            return None
        path = self.photolog.folder / f"{read_id}.jpg"
        return path.read_bytes() if path.is_file() else None

    def status(self) -> dict[str, Any]:
        entry = self._entry()
        return {"source": repr(self.source), "running": self.watcher.running,
                "expects": entry.first.set if entry else None, "reads": self.reads,
                # not an error: a fixed die-like mark beside the tray is left unread every time
                "left_unread": self._left_unread,
                "threshold": self.threshold,
                "error": self.last_error or (str(self.watcher.error) if self.watcher.error else None)}

    def throw(self, faces: list[str] | None = None) -> list[str]:
        """Simulation: throw the dice the game expects now (random faces unless given) into the
        simulated tray; returns the faces that landed."""
        entry = self._entry()
        if entry is None or not hasattr(self.source, "throw"):
            raise IllegalAction("no dice are expected now" if entry is None
                                else "only the simulated tray can be thrown from here")
        if faces is None:   # a throw of the real dice: each die shows one of its sides
            faces = [self._rng.choice(d.sides) for d in entry.dice for _ in range(d.count)]
        return self.source.throw(faces)

    def read_frame(self, frame: np.ndarray) -> None:
        """Read ``frame`` as a settled roll and hand it to the session: what the watcher does
        with a settled frame, for a caller that has the frame in hand (the read-the-dice button
        in a simulation that runs without the watcher's thread)."""
        self._asked.set()
        self.throws.asked_now()
        self._on_roll(self.read(frame), frame)

    # -- the watcher's reader ----------------------------------------------------------------------

    def read(self, frame: np.ndarray) -> list[DieRead]:
        self._read_began = time.monotonic()
        entry = self._entry()
        reader = self._reader(entry.first.set) if entry else None
        self._left_unread, self._set_trouble = 0, None
        if reader is None:
            self.last_obstructed = False
            self._set_trouble = self.last_error if entry else None
            return []
        reads = reader.read(frame)
        self.last_obstructed = reader.last_obstructed
        self._left_unread = len(reader.last_unread)
        allowed = set(entry.faces)
        # Something die-like went unread: the whole roll waits for the players' tap (they
        # add what is missing), it is never applied as if the tray held only what was read.
        unsure = bool(reader.last_unread)
        # A face this die does not have is no read at all: the players must say what it shows.
        return [r if (not allowed or r.face in allowed) and not unsure
                else DieRead(r.face, min(r.confidence, self.threshold / 2), r.box, False)
                for r in reads]

    def _reader(self, engine_set: str) -> Reader | None:
        name = taught_set_for(engine_set, self.overrides)
        if name not in self._readers:
            failed = self._failed.get(name)
            if failed is not None and time.monotonic() - failed < self.retry_set_s:
                return None           # the set's files were bad a moment ago: not every frame
            try:
                try:
                    self._readers[name] = self._make(name)
                except UnknownSet:
                    if not (self.simulate and name in GAME_SETS):
                        raise
                    self._teach_stand_ins(name)
                    self._readers[name] = self._make(name)
            except VisionError as exc:   # unknown, or a damaged file (named): say so, go on
                self._failed[name] = time.monotonic()
                if self.last_error != str(exc):
                    log.warning("camera: %s", exc)
                self.last_error = str(exc)
                return None
            self._failed.pop(name, None)
        return self._readers[name]

    def _untaught_stand_in(self, name: str) -> bool:
        """Simulation: a box's set the next read must teach from stand-in photos first."""
        return (self.simulate and name in GAME_SETS and name not in self._readers
                and not (sets_dir(self.data_dir) / name / "model.json").is_file())

    def _make(self, name: str):
        return make_reader(name, self.data_dir, self.threshold, self.recognizer)

    def _teach_stand_ins(self, name: str) -> None:
        # Simulation only: teach the box's set from rendered stand-in photos, once.
        with self._teaching:
            folder = self.data_dir / "dice" / "stand-in-photos" / name
            log.info("camera: teaching the stand-in %s dice (simulation)", name)
            write_teaching_photos(name, folder)
            teach(name, folder, self.data_dir, self.recognizer)

    # -- results -----------------------------------------------------------------------------------

    def _on_roll(self, reads: list[DieRead], frame: np.ndarray) -> None:
        with self.throws.turn:            # a press decides before or after, never between
            self.throws.handed(self._hand(reads, frame))

    def _hand(self, reads: list[DieRead], frame: np.ndarray) -> bool:
        """Hand a read to the session; whether it became a move (or was its throw's already)."""
        asked = self._asked.is_set()
        if asked and not reads and self._asked_at > self._read_began:
            # Read dice pressed while this read was under way (the stand-in set being taught,
            # seconds to a minute): its frame is from before the press, maybe before the throw,
            # so its "no die" is no answer; the watcher reads again for the press, and that
            # read answers it
            return False
        self._asked.clear()
        entry = self._entry()
        if entry is None:
            return False
        if not reads:
            # A settled tray with nothing read is mostly dice picked up; but a player who
            # pressed Read dice must hear why nothing came of it, on every screen.
            if asked:
                self._tell_nothing_read()
            return False
        read_id = self.photolog.add(frame, taught_set_for(entry.first.set, self.overrides), reads)
        action = Action("dice.read", source="camera", data={
            "id": read_id, "set": entry.first.set, "image": f"/api/dice/{read_id}.jpg",
            "dice": [r.to_json() for r in reads]})
        board = getattr(self.session, "refusals", None)
        try:
            entered = self.throws.submit(action, read_id)
        except CompanionError as exc:      # refused by the rules: say so, keep watching
            self.last_error = str(exc)
            log.info("camera read refused: %s", exc)
            if board is not None:          # every screen shows why the roll was not taken
                board.post(str(exc), source="camera", origin="camera",
                           rule=getattr(exc, "rule", None))
            return False
        self.reads += 1
        self.last_error = None
        if entered is not None and board is not None:
            board.post(entered_words(entered), source="camera", kind="ask", origin="dice tray")
        return True

    def _tell_nothing_read(self) -> None:
        n = self._left_unread
        text = (f"the dice cannot be read: {self._set_trouble}" if self._set_trouble else
                f"{n} die-like thing{'s' if n > 1 else ''} in the tray could not be read; throw "
                "again, or enter the roll" if n else
                "no die in the tray could be read; throw the dice, or enter the roll")
        board = getattr(self.session, "refusals", None)
        if board is not None:
            board.post(text, source="camera", kind="ask", origin="dice tray")

    def _on_view(self, view: dict[str, Any]) -> None:
        read = view.get("dice_read")
        if read and read.get("confirmed") and (read.get("corrected") or read.get("removed")):
            # the players' face for each die read, in the log's order: None where they said
            # it is not a die (the dice they added were never read, so have no crop to keep)
            removed = set(read.get("removed") or ())
            faces = [None if i in removed else d["face"] for i, d in enumerate(read["dice"])]
            try:
                self.photolog.correct(read["id"], faces)
            except CompanionError:
                pass   # not one of ours (typed in), or already gone

    def _entry(self) -> DiceRequest | None:
        # The session's latest view, not the listener's copy: the event bus delivers it on its
        # own thread, a moment late under load, and a Read-dice press just after the change
        # that asks for dice was then read as "no dice expected" and lost without a word. A
        # read is a settled frame, not every frame: the view's shallow copy costs nothing here.
        return readable(self.session.view().get("expect"))


def settings(section: dict[str, Any], source: str) -> dict[str, Any]:
    """The `[camera]` config section, checked; every error names the key."""
    from companion.errors import DataFileError

    known = {"source", "threshold", "sets", "settle_seconds", "recognizer", "card_area",
             "pull_source", "pull_areas"}
    unknown = set(section) - known
    if unknown:
        raise DataFileError(f"{source}: camera: unknown key(s) {', '.join(sorted(unknown))}; "
                            f"known: {', '.join(sorted(known))}")
    out: dict[str, Any] = {"source": section.get("source"), "threshold": DEFAULT_THRESHOLD,
                           "sets": {}, "settle_s": 0.6,
                           "recognizer": section.get("recognizer", DEFAULT_RECOGNIZER)}
    if out["recognizer"] not in RECOGNIZERS:
        raise DataFileError(f"{source}: camera.recognizer: one of {', '.join(RECOGNIZERS)}")
    if out["source"] is not None and (isinstance(out["source"], bool)
                                      or not isinstance(out["source"], (str, int))):
        raise DataFileError(f"{source}: camera.source: a camera index, device, video, folder, "
                            "'picamera' or 'synthetic'")
    for key, name, low, high in (("threshold", "threshold", 0.0, 1.0),
                                 ("settle_seconds", "settle_s", 0.05, 10.0)):
        if key in section:
            value = section[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
                raise DataFileError(f"{source}: camera.{key}: a number from {low} to {high}")
            out[name] = float(value)
    table = section.get("sets", {})
    if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                              for k, v in table.items()):
        raise DataFileError(f"{source}: camera.sets: a table of the game's die set = taught set")
    out["sets"] = table
    if "card_area" in section:           # read by vision/card_camera.py
        checked_area(section["card_area"], source)
    if "pull_areas" in section:          # read by vision/pull_camera.py
        from vision.pull_camera import checked_areas
        checked_areas(section["pull_areas"], source)
    pull = section.get("pull_source")
    if pull is not None and (isinstance(pull, bool) or not isinstance(pull, (str, int))
                             or "pull_areas" not in section):
        raise DataFileError(f"{source}: camera.pull_source: the camera over the pull areas (an "
                            "index, device or folder), with camera.pull_areas saying where they lie")
    return out
