"""Fixtures shared by every suite."""

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def shared_dir() -> Path | None:
    """The shared folder beside the clone (real photos, rulebooks), or None where it is absent.

    CI sets COMPANION_REQUIRE_SHARED=1, which turns the skip of a test needing it into a failure.
    """
    path = Path(os.environ.get("COMPANION_SHARED", REPO.parent / "shared"))
    return path if path.is_dir() else None


@pytest.fixture
def shared() -> Path:
    path = shared_dir()
    if path is None:
        message = "../shared is absent (a user's clone): real photos and rulebooks unavailable"
        if os.environ.get("COMPANION_REQUIRE_SHARED") == "1":
            pytest.fail(message + "; COMPANION_REQUIRE_SHARED=1 requires it")
        pytest.skip(message)
    return path


# -- a real companion server over real HTTP ------------------------------------------------------

import json
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request


class Server:
    """`companion serve` in a child process on a free port, spoken to over real HTTP."""

    def __init__(self, data: Path, *args: str, env: dict | None = None):
        self.data = data
        cmd = [sys.executable, "-m", "companion", "serve", "--port", "0", "--data", str(data), *args]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env={**os.environ, **(env or {})})
        line = self.proc.stdout.readline()
        match = re.search(r"http://[^/]+:(\d+)/", line)
        if not match:
            self.proc.kill()
            raise RuntimeError(f"server did not start: {line!r} {self.proc.stderr.read()}")
        self.port = int(match.group(1))
        self.url = f"http://127.0.0.1:{self.port}"
        self.wait_ready()

    def wait_ready(self, timeout: float = 60.0) -> dict:
        """Until the adapters (camera, buttons) have attached: the dashboard answers before."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                status, health = self.get("/api/health")
            except OSError:
                status, health = None, None
            if status == 200 and not health.get("starting"):
                return health
            time.sleep(0.02)
        raise RuntimeError(f"server not ready (exit {self.proc.poll()})")

    def request(self, method: str, path: str, body=None, raw: bytes | None = None,
                headers: dict | None = None):
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(req, timeout=30) as res:
                return res.status, json.loads(res.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    def get(self, path: str):
        return self.request("GET", path)

    def post(self, path: str, body=None, **kw):
        return self.request("POST", path, body, **kw)

    def act(self, type_: str, player=None, **data):
        body = {"type": type_, "data": data}
        if player:
            body["player"] = player
        return self.post("/api/actions", body)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self._close_pipes()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._close_pipes()
        return self.proc.returncode

    def _close_pipes(self) -> None:
        for pipe in (self.proc.stdout, self.proc.stderr):
            if pipe:
                pipe.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.call_failed = report.failed
    return report


@pytest.fixture
def server_factory(tmp_path, request):
    started: list[Server] = []

    def start(*args: str, data: Path | None = None, env: dict | None = None) -> Server:
        server = Server(data or tmp_path / "data", *args, env=env)
        started.append(server)
        return server

    yield start
    for server in started:
        if getattr(request.node, "call_failed", False) and server.proc.poll() is None:
            # the setup page draws a fresh seed: name it, so the failing table can be dealt again
            try:
                games = server.get("/api/history")[1]["games"]
                print("games on the failing server:",
                      [(g["game"], g["seed"], g["options"]) for g in games])
            except (OSError, KeyError, TypeError) as err:
                print("games on the failing server: unreadable,", err)
        server.stop()


@pytest.fixture
def server(server_factory) -> Server:
    return server_factory()


# -- a real headless Chromium ----------------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"
# An ordinary browser's autoplay rule (sound only after a tap), not the kiosk's.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--autoplay-policy=document-user-activation-required"]


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright, one per test module. Skips (with the reason) only
    where it is absent and COMPANION_REQUIRE_SHARED is not "1"; CI sets it and installs chromium."""
    missing = None
    if not Path(CHROMIUM).exists():
        missing = f"{CHROMIUM} is not installed (apt-get install chromium)"
    else:
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            missing = "playwright is not installed (pip install -e '.[test]')"
    if missing:
        if os.environ.get("COMPANION_REQUIRE_SHARED") == "1":
            pytest.fail(missing + "; COMPANION_REQUIRE_SHARED=1 requires the browser tests to run")
        pytest.skip(missing)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
