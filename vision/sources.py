"""Frame sources behind one interface: ``read() -> frame | None``, ``close()``, context manager.

    with open_source("synthetic") as src:      # or 0, "/dev/video0", "picamera", a folder,
        frame = src.read()                     # a video file


A source is chosen by argument (like gpiozero's ``pin_factory=``): nothing falls back
silently. A missing picamera2 is an error naming the package, never a quiet switch to USB.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np

from vision.errors import BadImage, CameraError
from vision.images import read_image

IMAGE_EXT = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}
VIDEO_EXT = {".mp4", ".avi", ".mkv", ".mov", ".webm", ".mjpg", ".mjpeg"}


class FrameSource:
    """Base: subclasses implement ``_read`` and ``_close``."""

    name = "source"

    def __init__(self):
        self._closed = False
        self._lock = threading.Lock()
        self._due = 0.0  # when a paced source's next frame is due (``_pace``)

    @property
    def closed(self) -> bool:
        return self._closed

    def read(self) -> np.ndarray | None:
        """The next BGR frame, or None when the source has no more (end of replay)."""
        if self._closed:
            raise CameraError(f"{self!r} is closed")
        with self._lock:
            return self._read()

    def close(self) -> None:
        """Release the device; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        with self._lock:
            self._close()

    def _read(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def _pace(self, fps: float) -> None:
        """A simulated camera's frame rate: wait until the next frame is due (none at 0 fps)."""
        if fps <= 0:
            return
        wait = self._due - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self._due = time.monotonic() + 1.0 / fps

    def _close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _describe(self) -> str:
        return ""

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        extra = self._describe()
        return f"<{type(self).__name__}{' ' + extra if extra else ''} {state}>"


class OpenCVCamera(FrameSource):
    """A USB camera (index or device path) or a video file, through OpenCV."""

    def __init__(self, device: int | str = 0, size: tuple[int, int] | None = (640, 480)):
        super().__init__()
        self.device = device
        self._cap = cv2.VideoCapture(device)
        try:
            if not self._cap.isOpened():
                raise CameraError(f"camera {device!r} cannot be opened")
            if size and isinstance(device, int):
                self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
                self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        except Exception:
            self._cap.release()
            self._closed = True
            raise

    def _read(self):
        ok, frame = self._cap.read()
        return frame if ok else None

    def _close(self):
        self._cap.release()

    def _describe(self):
        return f"device={self.device!r}"


class VideoFileSource(OpenCVCamera):
    """Replay of a recorded video file; ``read()`` returns None at its end."""

    def __init__(self, path: str | Path):
        if not Path(path).is_file():
            raise CameraError(f"{path}: no such video file")
        super().__init__(str(path), size=None)


class PiCamera(FrameSource):
    """The Raspberry Pi camera through picamera2 (imported only here)."""

    def __init__(self, size: tuple[int, int] = (640, 480)):
        super().__init__()
        try:
            from picamera2 import Picamera2  # noqa: PLC0415 - only where present
        except ImportError as e:
            raise CameraError("the Pi camera needs picamera2 (apt install python3-picamera2)") from e
        self._cam = Picamera2()
        try:
            cfg = self._cam.create_video_configuration(main={"size": size, "format": "RGB888"})
            self._cam.configure(cfg)
            self._cam.start()
        except Exception:
            self._cam.close()
            self._closed = True
            raise

    def _read(self):
        # picamera2's "RGB888" is laid out B, G, R in memory: what OpenCV calls BGR.
        return self._cam.capture_array("main")

    def _close(self):
        self._cam.stop()
        self._cam.close()


class FolderSource(FrameSource):
    """Replay of a folder of images in name order; ``loop`` starts again at the end."""

    def __init__(self, folder: str | Path, loop: bool = False):
        super().__init__()
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise CameraError(f"{folder}: no such folder")
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_EXT)
        if not self.files:
            raise CameraError(f"{folder}: no images in it")
        self.loop = loop
        self._i = 0

    def _read(self):
        if self._i >= len(self.files):
            if not self.loop:
                return None
            self._i = 0
        path = self.files[self._i]
        self._i += 1
        try:
            return read_image(path)
        except BadImage as exc:
            raise CameraError(str(exc)) from None

    def _describe(self):
        return f"folder={str(self.folder)!r} {self._i}/{len(self.files)}"


class SyntheticSource(FrameSource):
    """Rendered dice rolls: a few frames of tumbling dice, then a settled scene held still.

    Each roll shows ``n`` dice of ``set_name`` (random count 1..9 when ``n`` is None).
    ``faces`` of the current roll are in ``self.truth``. ``fps`` > 0 paces ``read()`` like a
    camera; 0 returns frames as fast as asked (tests).
    """

    def __init__(self, set_name: str = "d6", n: int | None = None, seed: int = 0,
                 moving_frames: int = 6, still_frames: int = 30, fps: float = 0.0,
                 size: tuple[int, int] = (640, 480), rolls: int | None = None):
        super().__init__()
        from vision.render import RenderOptions, render_roll  # noqa: PLC0415

        self._render_roll = render_roll
        self._opt = RenderOptions(size=size)
        self.set_name = set_name
        self.n = n
        self.rng = np.random.default_rng(seed)
        self.moving_frames = moving_frames
        self.still_frames = still_frames
        self.fps = fps
        self.rolls_left = rolls
        self.truth: list[str] = []
        self.rolls = 0
        self._still: np.ndarray | None = None
        self._phase = 0

    def _new_roll(self):
        n = self.n or int(self.rng.integers(1, 10))
        frame, faces, _ = self._render_roll(self.rng, self.set_name, n, self._opt)
        self._still, self.truth = frame, faces
        self.rolls += 1

    def _read(self):
        self._pace(self.fps)
        cycle = self.moving_frames + self.still_frames
        if self._phase % cycle == 0:
            if self.rolls_left is not None:
                if self.rolls_left <= 0:
                    return None
                self.rolls_left -= 1
            self._new_roll()
        k = self._phase % cycle
        self._phase += 1
        if k < self.moving_frames:
            # tumbling: the settled scene shifted and smeared, different every frame
            dx, dy = self.rng.integers(-25, 26, 2)
            M = np.float32([[1, 0, dx], [0, 1, dy]])
            moved = cv2.warpAffine(self._still, M, self._still.shape[1::-1],
                                   borderMode=cv2.BORDER_REFLECT)
            return cv2.blur(moved, (9, 1))
        noise = self.rng.normal(0, 1.5, self._still.shape)
        return np.clip(self._still + noise, 0, 255).astype(np.uint8)

    def _describe(self):
        return f"set={self.set_name!r} rolls={self.rolls}"


def is_device(spec: str | int | None) -> bool:
    """Whether a camera argument names a camera (an index, a device, the Pi camera): what a
    simulation stands a simulated tray in for, where a folder or a video plays as it is."""
    return (isinstance(spec, int) or spec == "picamera"
            or isinstance(spec, str) and (spec.isdigit() or spec.startswith("/dev/")))


def open_source(spec: str | int | None, **kwargs) -> FrameSource:
    """A source from a camera argument: an index ("0"), a device or video path, a folder of
    images, "picamera" or "synthetic" (optionally "synthetic:SET")."""
    if spec is None:
        spec = 0
    if isinstance(spec, int) or (isinstance(spec, str) and spec.isdigit()):
        return OpenCVCamera(int(spec))
    if spec == "picamera":
        return PiCamera()
    if spec == "synthetic" or spec.startswith("synthetic:"):
        set_name = spec.split(":", 1)[1] if ":" in spec else kwargs.pop("set_name", "d6")
        return SyntheticSource(set_name, **kwargs)
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path)
    if path.suffix.lower() in VIDEO_EXT:
        return VideoFileSource(path)
    if str(spec).startswith("/dev/"):
        return OpenCVCamera(str(spec))
    raise CameraError(f"camera {spec!r}: not an index, device, folder, video, 'picamera' "
                      "or 'synthetic'")
