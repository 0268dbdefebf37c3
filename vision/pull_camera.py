"""Invincible's pull areas watched by a camera: when a hero lays the cubes just pulled in their
marked pull area and the mat is still again (vision/settle.py, as dice settling in the tray), the
cubes are read by colour (vision/pull_area.py) and submitted as that hero's pull. The session
takes a read whose every cube is sure as the pull at once and keeps one with an unsure cube
waiting for the players' tap or the Confirm button (companion/dice_reads.py), as for dice.

Which hero a pull belongs to is where it lies: the areas are the table's seats in the order the
heroes were chosen at setup (``[camera] pull_areas``: one ``[x, y, width, height]`` a seat, in
the pull camera's frame). The cubes a hero has pulled stay in the area (it is their ready area)
while they are played or dropped, so an area is read only when it changed since it was last read
(by its own pixels, not the whole frame's motion), holds as many cubes as the hero's next pull
draws, and that hero has no ready cubes left: cubes being taken off one by one, or the same cubes
still lying there after they were played on the screen, are never a new pull.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from typing import Any

import cv2
import numpy as np

from companion.errors import CompanionError, DataFileError, IllegalAction
from vision.cubes import CubeCounter
from vision.pull_area import finish, lay, mat, read_pull
from vision.settle import SettleDetector
from vision.sources import FrameSource
from vision.watcher import CameraWatcher, WatchingCamera

log = logging.getLogger(__name__)
GAME = "invincible"
PHASE = "hero"                   # 'Heroes pull and play independently' in the Hero Phase
MAT = (480, 320)                 # the simulated mat: width, height
HAND_FRAMES = 4                  # frames with the hand over the area as cubes are laid
CHANGED_PIXEL = 30               # grey levels: a pixel of an area that changed since its last read
CHANGED_FRACTION = 0.01          # the share of an area's pixels that says its cubes were moved


def seat_areas(size: tuple[int, int] = MAT, seats: int = 4) -> list[tuple[int, int, int, int]]:
    """The simulated mat's pull areas: ``seats`` areas, two a row, inside the frame."""
    w, h = size
    rows = (seats + 1) // 2
    aw, ah = (w - 60) // 2, (h - 30 * (rows + 1)) // rows
    return [(20 + (i % 2) * (aw + 20), 25 + (i // 2) * (ah + 30), aw, ah) for i in range(seats)]


def checked_areas(areas, source: str = "config.toml") -> list[tuple[int, int, int, int]]:
    """The ``[camera] pull_areas`` setting: one ``[x, y, width, height]`` a seat."""
    ok = isinstance(areas, list) and 0 < len(areas) <= 8
    for area in areas if ok else ():
        ok = ok and (isinstance(area, (list, tuple)) and len(area) == 4
                     and all(isinstance(v, int) and not isinstance(v, bool) for v in area)
                     and area[0] >= 0 and area[1] >= 0 and area[2] >= 156 and area[3] >= 78)
    if not ok:
        raise DataFileError(f"{source}: camera.pull_areas: a list of 1 to 8 areas, one a hero's "
                            "seat in the order the heroes are chosen, each [x, y, width, height] "
                            "in whole pixels, at least 156 x 78")
    return [tuple(a) for a in areas]


class SimulatedPullMat(FrameSource):
    """The mat of pull areas seen from above, for simulation: a hero's hand lays cubes in an area
    (a few frames of the hand over it, then the cubes lying still), or takes them off."""

    name = "simulated pull mat"

    def __init__(self, size: tuple[int, int] = MAT, areas=None, seed: int = 0, fps: float = 15.0,
                 paint: dict[str, tuple[int, int, int]] | None = None):
        super().__init__()
        self.size = size
        self.paint = paint
        self.areas = list(areas or seat_areas(size))
        self.fps = fps
        self.seed = seed
        # Each lay draws from its own generator (the seed and the lay's number), the frames'
        # noise from another: a layout never depends on how many frames the camera thread
        # happened to read before the tap, so a simulated pull repeats from run to run.
        self._noise = np.random.default_rng((seed, 0))
        self._mat_lock = threading.Lock()
        self._bare = mat(size, self.areas)
        self._still = self._bare.copy()
        self._hand: tuple[int, int, int, int] | None = None
        self._hand_frames = 0
        self._last = 0.0
        self.lays = 0

    def lay(self, seat: int, cubes: list[str]) -> list[str]:
        """Cubes laid in seat ``seat``'s area (those lying there before are taken off first)."""
        if not 0 <= seat < len(self.areas):
            raise IllegalAction(f"the mat has {len(self.areas)} pull areas; there is no seat "
                                f"{seat + 1}")
        with self._mat_lock:         # only this area changes: the others' cubes lie as they lay
            x, y, w, h = self.areas[seat]
            self._still[y:y + h, x:x + w] = self._bare[y:y + h, x:x + w]
            self.lays += 1
            lay(self._still, np.random.default_rng((self.seed, 1, self.lays)),
                [str(c) for c in cubes], self.areas[seat], self.paint)
            self._hand, self._hand_frames = self.areas[seat], HAND_FRAMES
        return list(cubes)

    def clear(self, seat: int) -> None:
        self.lay(seat, [])

    def _read(self):
        if self.fps > 0:
            wait = self._last + 1.0 / self.fps - time.monotonic()
            if wait > 0:
                threading.Event().wait(wait)
            self._last = time.monotonic()
        with self._mat_lock:
            frame = self._still.copy()
            if self._hand_frames > 0:     # the hand over the area, a little further each frame
                self._hand_frames -= 1
                x, y, w, h = self._hand
                dx = int(self._hand_frames * w / (2 * HAND_FRAMES))
                cv2.ellipse(frame, (x + w // 2 + dx, y + h // 2), (w // 3, h // 2), 0, 0, 360,
                            (120, 150, 200), -1)
            return finish(frame, self._noise, noise=1.5)

    def _describe(self) -> str:
        return f"simulated pull mat, {len(self.areas)} areas, {self.lays} lays"

    def __repr__(self) -> str:
        return f"<SimulatedPullMat {len(self.areas)} areas, {self.lays} lays>"


class PullCamera(WatchingCamera):
    """Watches the pull areas for the session; acts as the watcher's reader (it reads nothing
    itself: each settled frame is looked at area by area in ``read_areas``)."""

    last_obstructed = False
    last_unread: tuple = ()

    def __init__(self, session, source: FrameSource, areas=None, *, counter: CubeCounter | None = None,
                 settle_s: float = 0.6, simulate: bool = False):
        self.session = session
        self.source = source
        self.areas = list(areas or getattr(source, "areas", None) or seat_areas())
        self.counter = counter or CubeCounter()
        self.simulate = simulate
        self.settle = SettleDetector(settle_s)
        self.reads = 0
        self.last_error: str | None = None
        self.seen: list[list[str] | None] = [None] * len(self.areas)
        self._reference: list[np.ndarray | None] = [None] * len(self.areas)
        self._lock = threading.Lock()
        self._rng = random.Random(0)          # simulated pulls repeat from run to run
        self._limit: int | None = None
        self._phase = (session.view().get("expect") or {}).get("phase")
        session.add_listener(self._on_view)
        self.watcher = CameraWatcher(source, self, self._on_settled, settle=self.settle,
                                     stop_at_end=False)

    # -- life ------------------------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        heroes = self._heroes(self.session.view())
        return {"source": repr(self.source), "running": self.watcher.running,
                "reads": self.reads, "can_lay": self.simulate and hasattr(self.source, "lay"),
                "seats": [{"seat": i + 1, "area": list(a),
                           "hero": heroes[i]["id"] if i < len(heroes) else None,
                           "cubes": self.seen[i]} for i, a in enumerate(self.areas)],
                "error": self.last_error or (str(self.watcher.error) if self.watcher.error else None)}

    # -- the watcher's reader --------------------------------------------------------------------

    def read(self, frame: np.ndarray) -> list:
        return []

    def look(self, frame: np.ndarray, now: float | None = None) -> list[dict[str, Any]]:
        """One frame as the watcher sees it (``now``: the frame's time, for a caller that feeds
        frames itself): the areas are read once the mat has settled."""
        if self.settle.update(frame, now):
            return self.read_areas(frame)
        return []

    def _on_settled(self, _reads, frame: np.ndarray) -> None:
        self.read_areas(frame)

    def _on_view(self, view: dict[str, Any]) -> None:
        phase = (view.get("expect") or {}).get("phase")
        if phase == PHASE and self._phase != PHASE and view.get("game") == GAME:
            self.settle.arm()     # cubes laid before the Hero Phase began are read as it begins
        self._phase = phase

    # -- reading the areas -----------------------------------------------------------------------

    def read_areas(self, frame: np.ndarray) -> list[dict[str, Any]]:
        """Each area that changed since it was last read, with the cubes it now holds; the pulls
        among them submitted. Returns what was done in each: ``pulled`` (the read's faces),
        ``waiting`` (unsure: a tap or Confirm), ``refused`` (the rules' reason) or ``kept`` (not a
        pull: why)."""
        with self._lock:
            view = self.session.view()
            if view.get("game") != GAME or (view.get("expect") or {}).get("phase") != PHASE:
                return []
            heroes = self._heroes(view)
            out = []
            for seat, area in enumerate(self.areas[:len(heroes)]):
                if not self._changed(seat, frame, area):
                    continue
                out.append(self._read_seat(seat, heroes[seat], frame, area))
            return out

    def _changed(self, seat: int, frame: np.ndarray, area) -> bool:
        x, y, w, h = area
        if frame.shape[0] < y + h or frame.shape[1] < x + w:
            self.last_error = (f"pull area {seat + 1} {tuple(area)} lies outside the camera's "
                               f"{frame.shape[1]} x {frame.shape[0]} frame: set camera.pull_areas")
            return False
        grey = cv2.GaussianBlur(cv2.cvtColor(frame[y:y + h, x:x + w], cv2.COLOR_BGR2GRAY), (5, 5), 0)
        before, self._reference[seat] = self._reference[seat], grey
        if before is None:
            return True
        moved = cv2.absdiff(grey, before) > CHANGED_PIXEL
        return np.count_nonzero(moved) > CHANGED_FRACTION * moved.size

    def _read_seat(self, seat: int, hero: dict[str, Any], frame: np.ndarray, area) -> dict[str, Any]:
        cubes = self.counter.cubes(frame, area)
        self.seen[seat] = sorted(c["face"] for c in cubes)
        done = {"seat": seat + 1, "hero": hero["id"], "cubes": self.seen[seat]}
        want = self._pull_size(hero)
        if not cubes:
            return {**done, "kept": "the area is empty"}
        if hero.get("ready"):
            return {**done, "kept": f"{hero['name']} still has ready cubes to play or drop"}
        if len(cubes) != want:
            return {**done, "kept": f"{len(cubes)} cube(s) lie there; a pull is {want}"}
        action = read_pull(frame, hero["id"], self.counter, area)
        try:
            view = self.session.submit(action)
        except CompanionError as exc:      # the rules' reason, on every screen
            self.last_error = str(exc)
            board = getattr(self.session, "refusals", None)
            if board is not None:
                board.post(str(exc), source="camera", origin=f"pull area {seat + 1}",
                           rule=getattr(exc, "rule", None))
            return {**done, "refused": str(exc)}
        self.reads += 1
        self.last_error = None
        read = view.get("dice_read") or {}
        return {**done, ("pulled" if read.get("confirmed") else "waiting"): read.get("faces")}

    # -- simulation ------------------------------------------------------------------------------

    def lay(self, hero: str | None = None, cubes: list[str] | None = None) -> dict[str, Any]:
        """Simulation: ``hero`` (the first who may pull, when None) lays ``cubes`` in their pull
        area: without them, cubes drawn from that hero's bag as a hand draws them."""
        if not hasattr(self.source, "lay"):
            raise IllegalAction("only the simulated pull mat can be laid from here")
        view = self.session.view()
        heroes = self._heroes(view)
        if not heroes:
            raise IllegalAction("no Invincible game is in progress: its heroes lay their pulls")
        if hero is None:
            hero = next((h["id"] for h in heroes if h["can_pull"] and not h["ready"]
                         and not h["done"]), heroes[0]["id"])
        seat = next((i for i, h in enumerate(heroes) if hero in (h["id"], h["name"])), None)
        if seat is None:
            raise IllegalAction(f"{str(hero)[:40]!r} is not a hero of this game "
                                f"({', '.join(h['id'] for h in heroes)})")
        if seat >= len(self.areas):
            raise IllegalAction(f"the mat has {len(self.areas)} pull areas, none for seat {seat + 1}")
        if cubes is None:
            bag = [c for c, n in sorted(heroes[seat]["bag"].items()) for _ in range(n)]
            cubes = self._rng.sample(bag, min(len(bag), self._pull_size(heroes[seat])))
        return {"hero": heroes[seat]["id"], "seat": seat + 1,
                "laid": self.source.lay(seat, cubes)}

    def _pull_size(self, hero: dict[str, Any]) -> int:
        """The cubes ``hero``'s next pull draws: 'Draw three random cubes from your bag' (the
        game's data), fewer when the bag holds fewer, as the engine's read of the area asks."""
        if self._limit is None:
            self._limit = int(self.session.catalog(GAME).components()["limits"]["pull"])
        limit = self._limit
        return min(limit, hero["bag_count"]) or limit

    @staticmethod
    def _heroes(view: dict[str, Any]) -> list[dict[str, Any]]:
        if view.get("game") != GAME:
            return []
        return list((view.get("state") or {}).get("heroes") or [])


def attach(session, section: dict[str, Any], simulate: bool) -> PullCamera:
    """The pull camera ``serve`` runs, from the (checked) ``[camera]`` section: the camera
    ``pull_source`` over the areas ``pull_areas``, else the simulated mat."""
    from vision.sources import open_source

    areas = checked_areas(section["pull_areas"]) if "pull_areas" in section else None
    source = (open_source(section["pull_source"]) if section.get("pull_source") is not None
              else SimulatedPullMat(areas=areas))
    return PullCamera(session, source, areas, simulate=simulate,
                      settle_s=float(section.get("settle_seconds", 0.6))).start()
