"""Camera checks for `companion doctor`: do frames arrive, is the tray in focus, is there glare."""

from __future__ import annotations

import time
from typing import Any

import cv2
import numpy as np

from vision.errors import VisionError

FRAMES = 5
SHARP_ENOUGH = 10.0     # variance of the Laplacian: about 30 for rendered dice in focus, 2 when blurred
GLARE_FRACTION = 0.02   # share of blown-out pixels above which reflections hide pips


def camera_checks(open_source, spec: Any, timeout: float = 5.0) -> list[dict[str, str]]:
    """Open the camera, read a few frames and judge them; one finding per check."""
    try:
        source = open_source(spec)
    except (VisionError, OSError) as exc:
        return [{"check": "camera", "status": "fail", "detail": str(exc),
                 "fix": "check [camera] source in the config, the cable, and `ls /dev/video*`"}]
    frames = []
    started = time.monotonic()
    try:
        while len(frames) < FRAMES and time.monotonic() - started < timeout:
            frame = source.read()
            if frame is not None:
                frames.append(frame)
    except (VisionError, OSError) as exc:
        return [{"check": "camera frames", "status": "fail", "detail": str(exc),
                 "fix": "the camera opened but gives no pictures: reconnect it"}]
    finally:
        source.close()
    if not frames:
        return [{"check": "camera frames", "status": "fail",
                 "detail": f"no frame from {source!r} in {timeout:.0f} s",
                 "fix": "the camera opened but gives no pictures: reconnect it"}]
    out = [{"check": "camera frames", "status": "ok",
            "detail": f"{len(frames)} frames of {frames[0].shape[1]}x{frames[0].shape[0]}"}]
    gray = cv2.cvtColor(frames[-1], cv2.COLOR_BGR2GRAY) if frames[-1].ndim == 3 else frames[-1]
    sharp = float(cv2.Laplacian(gray, cv2.CV_64F).var())
    out.append({"check": "camera focus", "status": "ok" if sharp >= SHARP_ENOUGH else "warn",
                "detail": f"sharpness {sharp:.0f} (at least {SHARP_ENOUGH:.0f} reads well)",
                "fix": "with dice in the tray, turn the lens ring until their edges are crisp; clean the lens"})
    glare = float(np.mean(gray >= 250))
    out.append({"check": "camera glare", "status": "ok" if glare <= GLARE_FRACTION else "warn",
                "detail": f"{glare:.1%} of the picture is blown out",
                "fix": "move the lamp to the side or diffuse it: reflections look like pips"})
    return out
