"""Image and taught-set files from outside that lie or are damaged: refused before decoding,
with the file named; the camera watcher survives a damaged set and the dashboard says why.
Each test reproduces a finding of issue 18."""

import json
import shutil
import struct
import subprocess
import sys
import time
import zlib

import cv2
import numpy as np
import pytest

from companion.games import Catalog
from companion.journal import Journal
from companion.session import Session
from vision import images
from vision.cli import run
from vision.errors import BadImage, DamagedSet
from vision.reader import make_reader as Reader  # the default recognizer
from vision.simulated_tray import SimulatedTray
from vision.table_camera import TableCamera
from web import create_app


def png(width: int, height: int, idat: bytes) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)     # 8-bit grey
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def zero_rows(width: int, height: int) -> bytes:
    """The compressed rows of an all-black grey image, made a row at a time."""
    z = zlib.compressobj(9)
    row = b"\x00" * (width + 1)
    return b"".join(z.compress(row) for _ in range(height)) + z.flush()


def test_a_header_claiming_60000_by_60000_is_refused_by_name(tmp_path, capsys):
    """Issue 18: "a PNG whose header claims 60000x60000 gives an uncaught cv2.error"."""
    path = tmp_path / "huge.png"
    path.write_bytes(png(60000, 60000, zlib.compress(b"\x00" * 100)))
    with pytest.raises(BadImage, match="huge.png: 60000 x 60000 is 3600 MP"):
        images.read_image(path)
    assert run(["read", "--data", str(tmp_path), str(path)]) == 2
    err = capsys.readouterr().err
    assert "huge.png" in err and "make it smaller" in err and "Traceback" not in err


def test_a_small_file_of_144_megapixels_is_refused_without_decoding_it(tmp_path):
    """Issue 18: "a 140 KB PNG of 12000x12000 takes 894 MB". Measured in a fresh process: its
    peak memory stays near what importing OpenCV costs."""
    path = tmp_path / "bomb.png"
    path.write_bytes(png(12000, 12000, zero_rows(12000, 12000)))
    assert path.stat().st_size < 200_000
    # VmHWM: the process's own peak (ru_maxrss can carry a large forking parent's)
    code = ("from vision.cli import run\n"
            f"rc = run(['read', '--data', {str(tmp_path)!r}, {str(path)!r}])\n"
            "hwm = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')]\n"
            "print(rc, int(hwm[0]) // 1024)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    rc, peak_mb = map(int, proc.stdout.split())
    assert rc == 2 and "12000 x 12000 is 144 MP" in proc.stderr
    assert peak_mb < 300, f"{peak_mb} MB: the image was decoded"


def test_a_large_jpeg_is_read_at_a_fraction_of_its_size(tmp_path):
    photo = np.full((3000, 4000, 3), 90, np.uint8)
    cv2.circle(photo, (2000, 1500), 400, (250, 250, 250), -1)
    path = tmp_path / "phone.jpg"
    cv2.imwrite(str(path), photo)
    assert images.read_image(path, max_pixels=4_000_000).shape == (1500, 2000, 3)
    assert images.read_image(path).shape == (3000, 4000, 3)
    truncated = tmp_path / "cut.jpg"
    truncated.write_bytes(path.read_bytes()[:600])
    with pytest.raises(BadImage, match="cut.jpg"):
        images.read_image(truncated)


@pytest.fixture(scope="module")
def taught_default(tmp_path_factory):
    """The Incredibles stand-ins taught once for the default recognizer (its own model files)."""
    from vision.reader import teach
    from vision.render import write_teaching_photos

    data = tmp_path_factory.mktemp("data-default")
    write_teaching_photos("incredibles", data.parent / "teach-default", per_face=6, seed=500)
    teach("incredibles", data.parent / "teach-default", data)
    return data


@pytest.fixture
def damaged_data(taught_default, tmp_path):
    """A data folder with a copy of the taught Incredibles set, to damage."""
    data = tmp_path / "data"
    shutil.copytree(taught_default, data)
    return data


@pytest.mark.parametrize("damage, words", [
    ("{", "model.json: cannot be read"),
    ("[]", "model.json: not a JSON object but list"),
    ("", "model.json: empty"),
    ('{"name": "incredibles", "faces": ["1", "2"], "reject": NaN}', "finite 'reject'"),
    ('{"name": "incredibles", "faces": ["1", "2"], "reject": 0.6, "near": {"1": "far"}}',
     "'near' is not a table"),
    ('{"name": "incredibles", "faces": ["1", "2"], "reject": 0.6, "near": {"7": 0.9}}',
     "'near' is not a table"),
    ("npz", "model.npz: cannot be used"),
])
def test_a_damaged_set_file_is_named_with_how_to_mend_it(damaged_data, capsys, damage, words):
    """Issue 18: a taught set's `model.json` that is `{`, `[]` or empty gave a traceback."""
    folder = damaged_data / "dice" / "sets" / "incredibles"
    if damage == "npz":
        (folder / "model.npz").write_bytes(b"PK\x03\x04 not really a zip")
    else:
        (folder / "model.json").write_text(damage)
    with pytest.raises(DamagedSet, match=words) as err:
        Reader("incredibles", damaged_data)
    assert "companion dice teach incredibles" in str(err.value)
    assert run(["read", "--set", "incredibles", "--data", str(damaged_data), __file__]) == 2
    out = capsys.readouterr().err
    assert words.split(":")[0] in out and "Traceback" not in out


def test_the_camera_watcher_survives_a_damaged_set_and_the_dashboard_says_which_file(
        damaged_data, taught, tmp_path):
    """Issue 18: in the service a damaged set "kills the camera watcher with a message that
    names no file". Now it keeps watching, the dashboard's devices panel shows the file, and
    once the set is mended a throw is read."""
    folder = damaged_data / "dice" / "sets" / "incredibles"
    good = (folder / "model.json").read_text()
    (folder / "model.json").write_text("{")
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = Session(journal, Catalog())
        view = session.start("incredibles", {"players": ["dash"], "starting_problems": ["A", "B", "C"]},
                             seed=3)
        camera = TableCamera(session, SimulatedTray(seed=5, fps=30), damaged_data, settle_s=0.2)
        camera.retry_set_s = 0.2
        camera.start()
        try:
            camera.throw(["3"])
            deadline = time.monotonic() + 20
            while "model.json" not in (camera.status()["error"] or "") and time.monotonic() < deadline:
                time.sleep(0.05)
            status = create_app(session, extras={"camera": camera}).test_client().get("/api/hardware")
            cam = status.get_json()["camera"]
            assert cam["running"] and "model.json: cannot be read" in cam["error"]
            assert str(folder / "model.json") in cam["error"]
            (folder / "model.json").write_text(good)                # mended
            camera.throw(["2"])
            while session.seq == view["seq"] and time.monotonic() < deadline:
                time.sleep(0.05)
            assert session.view()["dice_read"]["faces"] == ["2"]
            assert camera.status()["error"] is None and camera.watcher.running
        finally:
            camera.close()
