"""`companion serve` answers before the adapters attach, loads the camera stack only when a camera
is configured or simulated, stops on a bad adapter section as it always did, and stops cleanly."""

import json
import re
import signal
import subprocess
import sys
import time
import urllib.request

CAMERA_STACK = ("cv2", "numpy", "vision", "gpiozero", "serial", "hardware")


def imported(stderr: str) -> set[str]:
    """Top-level packages named by `python -X importtime`."""
    names = set()
    for line in stderr.splitlines():
        if line.startswith("import time:") and "imported package" not in line:
            names.add(line.rsplit("|", 1)[1].strip().split(".")[0])
    return names


def test_without_a_camera_serve_never_loads_the_camera_stack(tmp_path):
    log = tmp_path / "imports.txt"    # a file, not a pipe: the list must never block the server
    with log.open("w") as err:
        proc = subprocess.Popen([sys.executable, "-X", "importtime", "-m", "companion", "serve",
                                 "--port", "0", "--data", str(tmp_path / "data")],
                                stdout=subprocess.PIPE, stderr=err, text=True)
        try:
            port = re.search(r":(\d+)/", proc.stdout.readline()).group(1)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:   # "starting" empties once the adapters are looked at
                health = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health",
                                                           timeout=20).read())
                if not health["starting"]:
                    break
                time.sleep(0.02)
            assert health["starting"] == [] and health["streams"] == 0
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.communicate(timeout=20)
    assert proc.returncode == 0 and "Traceback" not in log.read_text()
    names = imported(log.read_text())
    assert {"flask", "waitress", "companion", "web"} <= names      # the probe sees imports at all
    assert not names & set(CAMERA_STACK), names & set(CAMERA_STACK)


def test_with_the_simulated_camera_it_attaches_after_the_dashboard_answers(server_factory):
    server = server_factory("--simulate")          # the fixture waits until nothing is starting
    status, hardware = server.get("/api/hardware")
    assert status == 200 and hardware["starting"] == [] and hardware["camera"] is not None
    assert hardware["status"] is not None and hardware["can_throw"]
    assert hardware["pulls"]["can_lay"] and hardware["pulls"]["running"]   # Invincible's pull mat


def test_a_bad_camera_section_stops_the_service_naming_the_key(tmp_path):
    (tmp_path / "config.toml").write_text('[camera]\nsource = "synthetic"\nthreshold = 7\n')
    proc = subprocess.run([sys.executable, "-m", "companion", "serve", "--port", "0", "--data",
                           str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "camera.threshold" in proc.stderr and "Traceback" not in proc.stderr
    assert "dashboard at http://" in proc.stdout      # it had answered first, then stopped


def test_sigterm_with_streams_open_stops_cleanly_and_ends_every_stream(server):
    import socket
    streams = []
    for _ in range(5):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        streams.append(sock)
    for sock in streams:
        assert b"event: state" in sock.recv(65536)
    server.proc.send_signal(signal.SIGTERM)
    _out, err = server.proc.communicate(timeout=20)
    assert server.proc.returncode == 0 and "Traceback" not in err
    for sock in streams:
        while sock.recv(65536):     # to the end: a stream left open would time out here
            pass
        sock.close()


def test_sigterm_while_the_camera_still_attaches_waits_for_it_and_stops_cleanly(tmp_path):
    """Under pi-check (arm64 in qemu, where OpenCV takes seconds to import) a stop that came
    while the adapters were attaching ended in 'terminate called without an active exception',
    exit 134: the process left under a C++ import half done. The stop now lets the attaching
    thread finish, and what it attached is closed again."""
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--simulate", "--port",
                             "0", "--data", str(tmp_path / "data")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "dashboard at http://" in proc.stdout.readline()
    finally:
        proc.send_signal(signal.SIGTERM)        # at once: the camera stack is still importing
        _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and "Traceback" not in err and "terminate called" not in err, err
    assert "the camera attached as the service stopped: closed again" in err, err
