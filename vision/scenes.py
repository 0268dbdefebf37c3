"""Named kinds of rendered scene, for the benchmark and the tuning of the reader's thresholds
(each from its own seeds: the benchmark's never reach training or tuning).

Each is a `RenderOptions` for a 1 to 9 dice scene; `plain` is the renderer's default scene.
"""

from __future__ import annotations

from dataclasses import replace

from vision.render import RenderOptions

_BASE = RenderOptions()

CONDITIONS: dict[str, RenderOptions] = {
    "plain": _BASE,
    "packed edge to edge": replace(_BASE, packed=0.8, touching=0.5),
    "dim light": replace(_BASE, light=(0.3, 0.45), noise=6.0),
    "motion blur": replace(_BASE, motion=9.0),
    "noise": replace(_BASE, noise=12.0),
    "jpeg q30": replace(_BASE, jpeg=(30, 30)),
    "320x240": replace(_BASE, size=(320, 240), die_px=(20.0, 28.0), blur=0.5),
    "1280x720": replace(_BASE, size=(1280, 720), die_px=(60.0, 84.0), blur=1.4),
    "tilted camera": replace(_BASE, perspective=0.12, oblique=0.6, side_faces=0.8),
}
