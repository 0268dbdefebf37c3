"""The training data's caches (vision/training/data.py, stage2.py) are keyed by what the data
is made from, so `make train-vision` after a change never trains on the data of before."""

from vision.training import data


def test_the_cache_follows_the_recipe_the_labels_and_the_first_stage(tmp_path):
    """The same recipe gives the same cache; other labels, or another first-stage detector
    (whose peaks are the second stage's hard negatives), give another."""
    root = tmp_path / "dice-real"
    root.mkdir()
    (root / "labels.json").write_text('{"a.jpg": {"faces": ["1"]}}')
    cache = tmp_path / "cache"
    first = data.cache_path(cache, 0, 3000, root)
    assert data.cache_path(cache, 0, 3000, root) == first
    assert data.cache_path(cache, 1, 3000, root) != first
    (root / "labels.json").write_text('{"a.jpg": {"faces": ["2"]}}')
    assert data.cache_path(cache, 0, 3000, root) != first
    detector = tmp_path / "detector.onnx"
    detector.write_bytes(b"one")
    one = data.recipe(root, detector)
    detector.write_bytes(b"two")
    assert data.recipe(root, detector) != one
    assert one != data.recipe(root)
