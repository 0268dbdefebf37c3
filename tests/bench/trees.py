"""What the benchmarks that measure this tree against the code before it share: that code
unpacked from a git ref, and a real `companion serve` of either tree in a child process.
"""

from __future__ import annotations

import http.client
import io
import json
import re
import os
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CONFIG = "[server]\nstreams_per_address = 250\n"


def unpack(ref: str) -> tempfile.TemporaryDirectory | None:
    """The code at ``ref``, unpacked beside the run (None where the repository lacks it)."""
    try:
        tar = subprocess.run(["git", "-C", str(REPO), "archive", ref, "companion", "web",
                              "hardware", "vision"], capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    tmp = tempfile.TemporaryDirectory()
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        archive.extractall(tmp.name, filter="data")
    return tmp


class Serve:
    """`companion serve` of a tree (None: this one) in a child process, on a fresh data folder."""

    def __init__(self, cwd: Path | None = None, *args: str, imports: bool = False,
                 config: str = CONFIG):
        self.data = tempfile.TemporaryDirectory()
        Path(self.data.name, "config.toml").write_text(config)
        env = {**os.environ}
        if cwd is not None:
            env["PYTHONPATH"] = str(cwd)
        self.imported: list[float] = []      # when each module's import was reported
        flags = ["-X", "importtime"] if imports else []
        self.started = time.perf_counter()
        self.proc = subprocess.Popen([sys.executable, *flags, "-m", "companion", "serve", "--port", "0",
                                      "--data", self.data.name, *args], cwd=cwd or REPO, env=env,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE if imports else subprocess.DEVNULL, text=True)
        if imports:
            threading.Thread(target=self._count_imports, daemon=True).start()
        self.port = int(re.search(r":(\d+)/", self.proc.stdout.readline()).group(1))
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def _count_imports(self) -> None:
        for line in self.proc.stderr:
            if line.startswith("import time:") and "imported package" not in line:
                self.imported.append(time.perf_counter())

    def request(self, method: str, path: str, body=None):
        self.conn.request(method, path, json.dumps(body) if body is not None else None,
                          {"Content-Type": "application/json"})
        res = self.conn.getresponse()
        out = json.loads(res.read())
        if res.status >= 300:
            raise RuntimeError(f"{path}: {res.status} {out}")
        return out

    def cpu(self) -> float:
        import psutil  # a test extra; only the benchmarks need it
        times = psutil.Process(self.proc.pid).cpu_times()
        return times.user + times.system

    def close(self) -> None:
        self.conn.close()
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        self.data.cleanup()
