"""Screenshots of the dashboard for the docs: ``python -m web.screenshots [OUT_DIR]``.

Starts a real ``companion serve`` on a scratch data folder, plays a few steps of a fixed
Incredibles game (so the pictures show a drawn card, a roll and a running timer), and saves the
table view at 800x480 and 1920x1080 and the phone view, using Debian's Chromium via Playwright.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
SHOTS = [("table-800x480.png", "/table", 800, 480, False),
         ("table-1920x1080.png", "/table", 1920, 1080, False),
         ("phone.png", "/play", 412, 915, True)]


def _post(base: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.loads(res.read())


def stage(base: str) -> None:
    """A two-player game a few steps in: a card drawn, a problem fixed, a timer running."""
    _post(base, "/api/session", {"game": "incredibles", "seed": 5,
                                 "players": [{"hero": "dash", "name": "Ana"}, "violet"],
                                 "starting_problems": ["A", "B", "C"],
                                 "deck": ["frozone-defense"]})
    for body in [{"type": "roll", "player": "dash", "data": {"face": "3"}},
                 {"type": "move", "player": "dash", "data": {"to": "A"}},
                 {"type": "fix", "player": "dash", "data": {"power": "strength"}},
                 {"type": "roll", "player": "violet", "data": {"face": "alarm"}},
                 {"type": "timer.start", "data": {"name": "turn", "seconds": 300, "label": "Turn"}}]:
        _post(base, "/api/actions", body)


def take(browser, base: str, out: Path) -> list[Path]:
    """Stage the game on the server at ``base`` and save the pictures with ``browser``."""
    out.mkdir(parents=True, exist_ok=True)
    stage(base)
    saved = []
    for name, path, width, height, full in SHOTS:
        page = browser.new_page(viewport={"width": width, "height": height}, device_scale_factor=1)
        page.goto(base + path)
        page.wait_for_selector("body[data-rendered]", timeout=10_000)
        page.wait_for_function("!document.getElementById('qr') || "
                               "document.getElementById('qr').naturalWidth > 0", timeout=10_000)
        page.wait_for_timeout(300)  # the timer's first tick
        page.screenshot(path=str(out / name), full_page=full)
        saved.append(out / name)
        page.close()
    return saved


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright  # a test extra; only this script needs it

    out = Path(argv[0]) if argv else OUT
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", "0",
                                 "--data", tmp], stdout=subprocess.PIPE, text=True)
        try:
            port = re.search(r":(\d+)/", proc.stdout.readline()).group(1)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for path in take(browser, f"http://127.0.0.1:{port}", out):
                    print(path)
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
