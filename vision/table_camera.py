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
from companion.errors import CompanionError, IllegalAction, Stale
from vision.card_camera import checked_area
from vision.errors import UnknownSet, VisionError
from vision.photolog import PhotoLog
from vision.reader import (DEFAULT_RECOGNIZER, DEFAULT_THRESHOLD, RECOGNIZERS, DieRead, Reader,
                           make_reader, teach)
from vision.render import GAME_SETS, write_teaching_photos
from vision.sets import sets_dir
from vision.settle import SettleDetector
from vision.watcher import CameraWatcher, WatchingCamera

log = logging.getLogger(__name__)
BOX_SETS = {"incredibles": "incredibles", "xmen": "xmen", "invincible": "invincible"}
RETRY_SET_S = 5.0   # a set that failed to load is tried again this often (mended meanwhile?)
NO_FRAME_S = 3.0    # a camera that gave no frame for this long cannot answer a Read dice press
# how a roll entered by another channel is named to the table (the Last roll panel's words)
ENTERED_BY = {"dashboard": "on a phone", "button": "with a table button", "serial": "on the table "
              "controller", "token": "with a token", "api": "by a script", "camera": "from the "
              "camera's first read, confirmed"}
THROW_SEEN_S = 0.5  # a Read dice press just after a throw waits this long for the camera to see it
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
        self._taken = False               # the latest read became a move (the roll, a read)
        # when the throw being read began (the session's clock): a roll entered since then by
        # another channel is this throw's, and the read must not become the next roll too
        self._throw_at = session.clock()
        self._throw_reads: set[str] = set()   # reads of that throw (over moving dice, then settled)
        self._throw_open = False          # the tray moved since the latest settled read
        self._left_unread = 0             # die-like things the latest read could not read
        self._set_trouble: str | None = None   # why the latest read had no set to read with
        self._readers: dict[str, Reader] = {}
        self._failed: dict[str, float] = {}        # set name -> when loading it last failed
        self.retry_set_s = RETRY_SET_S
        self.no_frame_s = NO_FRAME_S
        self.throw_seen_s = THROW_SEEN_S
        self._teaching = threading.Lock()
        self._rng = random.Random(0)   # simulated throws repeat from run to run
        session.add_listener(self._on_view)
        self.watcher = CameraWatcher(source, self, self._on_roll, settle=SettleDetector(settle_s),
                                     stop_at_end=False, on_throw=self._on_throw)

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
        if self._taken and not self.watcher.moving_now(self.throw_seen_s):
            # the camera read this throw by itself: read again, it would be the next roll
            raise IllegalAction("the dice in the tray were read already and have not moved since:"
                                " throw them for this roll (or enter it by hand)")
        self._asked.set()
        if not self._throw_open:          # a still tray: read for the roll asked now (dice
            self._new_throw()             # still rolling are the throw that began them)
            self._throw_open = True
        self.watcher.read_now()
        entry = self._entry()
        if entry and self._untaught_stand_in(taught_set_for(entry.first.set, self.overrides)):
            # the first read of a game's dice teaches the stand-in set: say why nothing comes yet
            board = getattr(self.session, "refusals", None)
            if board is not None:
                board.post("the simulated tray's stand-in dice are being taught, once (some "
                           "seconds here, a minute on a Pi): the read follows", source="camera",
                           kind="ask", origin="dice tray")

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
        self._new_throw()
        self._on_roll(self.read(frame), frame)

    # -- the watcher's reader ----------------------------------------------------------------------

    def read(self, frame: np.ndarray) -> list[DieRead]:
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

    def _on_throw(self) -> None:
        if not self._throw_open:      # a read over moving dice leaves the same throw open
            self._throw_open = True
            self._new_throw()

    def _new_throw(self) -> None:
        self._throw_at, self._throw_reads = self.session.clock(), set()

    def _on_roll(self, reads: list[DieRead], frame: np.ndarray) -> None:
        asked = self._asked.is_set()
        self._asked.clear()
        self._taken = False
        since, self._throw_open = self._throw_at, self._throw_open and self.watcher.read_moving
        entry = self._entry()
        if entry is None:
            return
        if not reads:
            # A settled tray with nothing read is mostly dice picked up; but a player who
            # pressed Read dice must hear why nothing came of it, on every screen.
            if asked:
                self._tell_nothing_read()
            return
        read_id = self.photolog.add(frame, taught_set_for(entry.first.set, self.overrides), reads)
        self._throw_reads.add(read_id)
        action = Action("dice.read", source="camera", data={
            "id": read_id, "set": entry.first.set, "image": f"/api/dice/{read_id}.jpg",
            "dice": [r.to_json() for r in reads]})
        try:
            entered = self._submit_for_throw(action, since)
            self._taken = True
            self.reads += 1
            self.last_error = None
            if entered is not None:
                self._tell_entered(entered)
        except CompanionError as exc:      # refused by the rules: say so, keep watching
            self.last_error = str(exc)
            log.info("camera read refused: %s", exc)
            board = getattr(self.session, "refusals", None)
            if board is not None:          # every screen shows why the roll was not taken
                board.post(str(exc), source="camera", origin="camera",
                             rule=getattr(exc, "rule", None))

    def _submit_for_throw(self, action: Action, since: float) -> str | None:
        """Submit a read of the throw that began at ``since``, unless its roll was entered
        meanwhile (typed on a phone, a button, a read of it over moving dice confirmed): then it
        is not the next roll as well, and the channel that entered it is returned. A roll
        confirmed meanwhile from an earlier throw's read is not this one's. Checked and taken on
        the same table (``if_seq``)."""
        for _ in range(10):
            view = self.session.view()
            roll = view.get("last_roll")
            if (roll and roll.get("at") is not None and roll["at"] > since
                    and roll.get("read") in (None, *self._throw_reads)):
                return roll.get("source") or "a tap"
            try:
                self.session.submit(action, if_seq=view["seq"])
                return None
            except Stale:
                continue      # the table changed between the look and the read: look again
        raise Stale("the table kept changing while the camera's read waited: throw again")

    def _tell_entered(self, source: str) -> None:
        board = getattr(self.session, "refusals", None)
        if board is not None:
            how = ENTERED_BY.get(source, "by hand")
            board.post(f"the roll was entered {how} while the dice rolled: the camera's read of "
                       "the same throw is not used; throw again for the next roll",
                       source="camera", kind="ask", origin="dice tray")

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
