"""The photo log with corrections fed back to teaching, and counting coloured cubes."""

import cv2
import numpy as np

from tests.vision.conftest import blank_frame
from vision.cubes import DEFAULT_COLOURS, CubeCounter
from vision.photolog import PhotoLog
from vision.classical.reader import ClassicalReader as Reader
from vision.render import RenderOptions, render_scene, write_teaching_photos
from vision.classical.sets import sets_dir, teach


def test_photo_log_keeps_frame_and_correction_and_teaches_it(tmp_path):
    write_teaching_photos("xmen", tmp_path / "photos", per_face=3, seed=7)
    data = tmp_path / "data"
    teach("xmen", tmp_path / "photos", data)
    rng = np.random.default_rng(8)
    frame, boxes = render_scene(rng, ["marvel", "blank"], RenderOptions(touching=0.0),
                                pips=False)
    reads = Reader("xmen", data).read(frame)
    log = PhotoLog(data, "classical")  # the reads and the set are the classical recognizer's
    entry = log.add(frame, "xmen", reads)
    assert (data / "dice" / "photolog" / f"{entry}.jpg").is_file()
    assert log.get(entry)["corrected"] is None
    truth = []
    for d in reads:  # players confirm what is really there
        cx = d.box[0] + d.box[2] / 2
        truth.append("marvel" if abs(cx - (boxes[0][0] + boxes[0][2] / 2)) < 20 else "blank")
    log.correct(entry, truth)
    assert log.get(entry)["corrected"] == truth
    before = sum(1 for _ in (sets_dir(data) / "xmen" / "photos").rglob("*.*"))
    assert log.add_to_teaching(entry) == len(reads)
    after = sum(1 for _ in (sets_dir(data) / "xmen" / "photos").rglob("*.*"))
    assert after == before + len(reads)
    assert sorted(d.face for d in Reader("xmen", data).read(frame)) == sorted(truth)


def test_an_entry_read_while_a_correction_is_written_is_read_whole(tmp_path):
    """The table camera's thread records a correction while the screen reads the entry: a
    reader sees the entry before or after, never a file half written."""
    import threading

    from vision.reader import DieRead

    log = PhotoLog(tmp_path, "classical")
    entry = log.add(np.zeros((60, 80, 3), np.uint8), "d6",
                    [DieRead(str(f), 0.5, (4 * f, 4, 8, 8), False) for f in range(1, 7)])
    done = threading.Event()

    def correct():
        for k in range(400):
            log.correct(entry, [str(1 + (k + f) % 6) for f in range(6)])
        done.set()

    writer = threading.Thread(target=correct)
    writer.start()
    seen = 0
    while not done.is_set():
        assert len(log.get(entry)["reads"]) == 6
        seen += 1
    writer.join()
    assert seen > 0 and log.entries() == [entry]


def test_cubes_are_counted_by_colour():
    frame = blank_frame((200, 200, 200))
    want = {"yellow": 2, "orange": 1, "blue": 3, "purple": 1, "black": 2, "red": 1}
    x = 40
    for name, n in want.items():
        for k in range(n):
            y = 60 + k * 90
            cv2.rectangle(frame, (x, y), (x + 30, y + 30), DEFAULT_COLOURS[name], -1)
        x += 95
    counts = CubeCounter().count(frame)
    assert counts == want
    left = CubeCounter().count(frame, region=(0, 0, 230, 480))  # the first two columns
    assert left["yellow"] == 2 and left["orange"] == 1 and left["blue"] == 0
