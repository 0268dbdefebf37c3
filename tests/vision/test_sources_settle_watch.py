"""Frame sources, the motion check, the settle detector and the background watcher."""

import queue
import threading
import time

import cv2
import numpy as np
import pytest

from tests.vision.conftest import blank_frame
from vision.errors import CameraError
from vision.classical.reader import ClassicalReader as Reader
from vision.render import render_roll
from vision.settle import MotionDetector, SettleDetector
from vision.simulated_tray import SimulatedTray
from vision.sources import FolderSource, FrameSource, SyntheticSource, open_source
from vision.watcher import CameraWatcher


def test_synthetic_source_interface():
    src = SyntheticSource("d6", n=3, seed=1, moving_frames=2, still_frames=3, rolls=2)
    assert "open" in repr(src)
    frames = []
    with src:
        while (f := src.read()) is not None:
            frames.append(f)
    assert len(frames) == 10 and frames[0].shape == (480, 640, 3)
    assert "closed" in repr(src) and src.closed
    src.close()  # twice is fine
    with pytest.raises(CameraError):
        src.read()


def test_folder_source_replays_images(tmp_path):
    rng = np.random.default_rng(0)
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i}.png"), render_roll(rng, "d6", 1)[0])
    with open_source(str(tmp_path)) as src:
        assert isinstance(src, FolderSource)
        got = [src.read() for _ in range(4)]
    assert [g is None for g in got] == [False, False, False, True]


def test_open_source_errors_name_the_camera(tmp_path):
    with pytest.raises(CameraError, match="nothing"):
        open_source(str(tmp_path / "nothing"))
    with pytest.raises(CameraError):
        FolderSource(tmp_path)  # empty folder


def test_motion_check_sees_motion_and_stillness():
    rng = np.random.default_rng(2)
    a = render_roll(rng, "d6", 4)[0]
    b = render_roll(rng, "d6", 4)[0]
    md = MotionDetector()
    md.update(a)
    noisy = np.clip(a + rng.normal(0, 2, a.shape), 0, 255).astype(np.uint8)
    assert md.update(noisy) < 0.004
    assert md.update(b) > 0.02


def test_settle_fires_once_after_the_still_time():
    frame = blank_frame()
    other = blank_frame((200, 30, 30))
    s = SettleDetector(settle_s=0.5)
    t = 100.0
    assert not s.update(frame, now=t)  # first frame: no reference yet (counts as motion)
    assert not s.update(frame, now=t + 0.1)
    assert not s.update(frame, now=t + 0.4)
    assert s.update(frame, now=t + 0.7)
    assert not s.update(frame, now=t + 1.5)  # once per roll
    assert not s.update(other, now=t + 2.0)  # a new roll moves
    assert not s.update(other, now=t + 2.1)
    assert s.update(other, now=t + 2.7)


def test_settle_waits_while_obstructed():
    frame = blank_frame()
    s = SettleDetector(settle_s=0.2)
    s.update(frame, now=0.0)
    assert not s.update(frame, now=1.0, obstructed=True)
    assert not s.update(frame, now=1.1)
    assert s.update(frame, now=1.35)


def test_watcher_reports_each_settled_roll_once():
    src = SyntheticSource("d6", n=4, seed=3, moving_frames=3, still_frames=8, rolls=3)
    events: queue.Queue = queue.Queue()
    settle = SettleDetector(settle_s=0.0)
    watcher = CameraWatcher(src, Reader("d6"), lambda reads, frame: events.put(reads), settle)
    with watcher:
        assert watcher.wait_done(timeout=60)
    rolls = [events.get_nowait() for _ in range(events.qsize())]
    assert len(rolls) == 3
    assert all(len(r) >= 3 for r in rolls)
    assert "stopped" in repr(watcher)


def test_watcher_read_now_reads_at_once():
    src = SyntheticSource("d6", n=2, seed=4, moving_frames=1000, still_frames=1, fps=60)
    got = threading.Event()
    watcher = CameraWatcher(src, Reader("d6"), lambda reads, frame: got.set(),
                            SettleDetector(settle_s=10.0))
    with watcher:
        watcher.latest_frame(timeout=5)
        assert not got.wait(0.3)  # the dice never settle
        watcher.read_now()
        assert got.wait(10)
    src.close()


def test_watcher_survives_a_failing_callback():
    src = SyntheticSource("d6", n=2, seed=5, moving_frames=2, still_frames=4, rolls=2)
    calls = []

    def bad(reads, frame):
        calls.append(1)
        raise RuntimeError("listener bug")

    w = CameraWatcher(src, Reader("d6"), bad, SettleDetector(settle_s=0.0))
    with w:
        assert w.wait_done(timeout=60)
    assert len(calls) == 2 and w.error is None


class _Frames(FrameSource):
    """A scripted source: the given frames in order, then the end."""

    def __init__(self, frames):
        super().__init__()
        self.frames = list(frames)

    def _read(self):
        return self.frames.pop(0) if self.frames else None


def test_watcher_waits_for_the_hand_to_leave():
    from vision.render import RenderOptions, render_scene

    opt = RenderOptions(perspective=0.0, touching=0.0)
    hand, _ = render_scene(np.random.default_rng(30), ["2", "5"], RenderOptions(
        perspective=0.0, touching=0.0, hand=True))
    clear, _ = render_scene(np.random.default_rng(31), ["3", "4"], opt)
    rolls = []
    w = CameraWatcher(_Frames([hand] * 6 + [clear] * 6), Reader("d6"),
                      lambda reads, frame: rolls.append(sorted(d.face for d in reads)),
                      SettleDetector(settle_s=0.0), hand_patience_s=60)
    with w:
        assert w.wait_done(timeout=60)
    assert rolls == [["3", "4"]]


def test_odd_frames_from_a_camera_are_reported_and_the_watcher_goes_on(caplog):
    """A camera's driver (or a replayed file) may hand over anything: a frame of 0 x 0, two
    channels, float pixels. Each stopped the watcher's thread for the rest of the session (the
    settle check divided by zero, or OpenCV raised); now each is a problem the dashboard shows,
    and the frames after it are read."""
    from vision.render import RenderOptions, render_scene

    clear, _ = render_scene(np.random.default_rng(31), ["3", "4"],
                            RenderOptions(perspective=0.0, touching=0.0))
    odd = [np.zeros((0, 0, 3), np.uint8), np.zeros((0, 640, 3), np.uint8),
           np.zeros((480, 640, 2), np.uint8), np.zeros((480, 640, 5), np.uint8),
           clear.astype(np.float64), clear.astype(np.int8), np.zeros(640, np.uint8),
           np.zeros((2, 48, 64, 3), np.uint8), "a frame"]
    rolls = []
    w = CameraWatcher(_Frames(odd + [clear] * 4), Reader("d6"),
                      lambda reads, frame: rolls.append(sorted(d.face for d in reads)),
                      SettleDetector(settle_s=0.0))
    with w:
        assert w.wait_done(timeout=60)
    assert rolls == [["3", "4"]]
    told = [r.getMessage() for r in caplog.records if "cannot use" in r.getMessage()]
    assert any("0 x 0 pixels" in t for t in told) and any("float64" in t for t in told), told


@pytest.mark.parametrize("make", [
    lambda: SyntheticSource("d6", n=2, seed=4, fps=25),
    lambda: SimulatedTray(fps=25)])
def test_a_simulated_camera_keeps_its_frame_rate(make):
    """Like a real camera, a simulated one gives a frame when the next is due, not at once:
    six frames at 25 fps take at least five frame times (a dashboard polling it in a loop
    would otherwise spin a core)."""
    src = make()
    start = time.monotonic()
    for _ in range(6):
        assert src.read() is not None
    assert time.monotonic() - start >= 5 / 25 * 0.95
    src.close()


def test_a_read_over_dice_still_moving_is_unsure_and_the_settled_read_follows():
    """Read dice pressed while the dice roll, the camera behind (its patience ran out): the
    frame of dice still moving was read as sure and taken as one player's roll, then the same
    throw, settled, was read again as the next player's (found by a physical-table audit). The
    moving read is now nothing sure (it waits for a tap; the session replaces a waiting read with
    the next read), and the settled read is the sure one."""
    from vision.render import RenderOptions, render_scene

    opt = RenderOptions(perspective=0.0, touching=0.0)
    rolling = [render_scene(np.random.default_rng(40 + i), ["2", "5"], opt)[0] for i in range(4)]
    still, _ = render_scene(np.random.default_rng(50), ["2", "5"], opt)
    reads = []
    w = CameraWatcher(_Frames(rolling + [still] * 8), Reader("d6"),
                      lambda got, frame: reads.append(got), SettleDetector(settle_s=0.0),
                      ask_patience_s=0.0)
    w.read_now()                                  # pressed as they roll
    with w:
        assert w.wait_done(timeout=60)
    assert len(reads) == 2, reads
    moving, settled = reads
    assert moving and all(r.confidence == 0.0 and not r.confirmed for r in moving), moving
    assert sorted(r.face for r in settled) == ["2", "5"] and all(r.confidence > 0 for r in settled)
