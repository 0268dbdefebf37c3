"""`companion doctor`'s camera checks on real frames: arriving, in focus, without glare."""

import cv2

from companion.cli import main as companion
from vision.checks import camera_checks
from vision.simulated_tray import SimulatedTray
from vision.sources import open_source


def tray_with(faces, blur=0, glare=False):
    tray = SimulatedTray(fps=0)
    tray.throw(faces)
    for _ in range(10):          # past the tumbling frames
        tray.read()
    frame = tray.read()
    if blur:
        frame = cv2.GaussianBlur(frame, (0, 0), blur)
    if glare:
        frame[:200, :300] = 255
    return frame


def folder_of(tmp_path, frame):
    cv2.imwrite(str(tmp_path / "frame.png"), frame)
    return tmp_path


def status(findings, check):
    return next(f["status"] for f in findings if f["check"] == check)


def test_a_sharp_tray_with_dice_passes(tmp_path):
    found = camera_checks(open_source, str(folder_of(tmp_path, tray_with(["1", "alarm", "wild"]))))
    assert [f["status"] for f in found] == ["ok", "ok", "ok"], found


def test_a_blurred_picture_warns_about_focus(tmp_path):
    found = camera_checks(open_source, str(folder_of(tmp_path, tray_with(["1", "2"], blur=4))))
    assert status(found, "camera focus") == "warn" and status(found, "camera glare") == "ok"


def test_glare_is_named(tmp_path):
    found = camera_checks(open_source, str(folder_of(tmp_path, tray_with(["1", "2"], glare=True))))
    assert status(found, "camera glare") == "warn"


def test_a_missing_camera_fails_with_a_fix(tmp_path):
    found = camera_checks(open_source, str(tmp_path / "no-such-video.mp4"))
    assert found[0]["status"] == "fail" and found[0]["fix"]


def test_doctor_simulate_checks_the_simulated_camera(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    assert companion(["--data", str(tmp_path), "doctor", "--simulate"]) == 0
    out = capsys.readouterr().out
    assert "OK    camera frames" in out and "0 failed" in out
