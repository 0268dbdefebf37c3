"""The pip reader's parts: the batched layout fit, the early stop of the threshold search,
and the doubts about a two (rendered scenes and hand-made pip sets)."""

import cv2
import numpy as np
import pytest

from vision import pips
from vision.finder import find_dice
from vision.render import render_roll


def _turned(lay: np.ndarray, angle: float, scale: float, at: complex) -> np.ndarray:
    z = (lay[:, 0] + 1j * lay[:, 1]) * scale * np.exp(1j * angle) + at
    return z


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_a_standard_layout_fits_in_any_turn_and_size(n):
    lay = pips.LAYOUTS[n][-1]
    z = np.stack([_turned(lay, a, s, 40 + 30j) for a, s in [(0.0, 14), (0.4, 10), (1.1, 19)]])
    err, scale = pips.layout_errors(z)
    assert np.all(err < 1e-6), err
    # the scale is the corner pip's offset from the centre, in pixels
    assert np.allclose(scale, [14, 10, 19])


def test_sets_fitted_together_score_as_each_alone():
    rng = np.random.default_rng(4)
    z = np.stack([_turned(pips.LAYOUTS[4][0], rng.uniform(0, 3), 12, 40 + 40j)
                  + rng.normal(0, 2.5, 4) + 1j * rng.normal(0, 2.5, 4) for _ in range(6)])
    err, scale = pips.layout_errors(z)
    for k in range(len(z)):
        e1, s1 = pips.layout_errors(z[k:k + 1])
        assert err[k] == pytest.approx(e1[0]) and scale[k] == pytest.approx(s1[0])
    assert err.max() > 0.02  # the noise shows
    # a five's pips are not a four
    five = _turned(pips.LAYOUTS[5][0], 0.3, 12, 40 + 40j)
    assert pips.layout_errors(five[None, :4])[0][0] > 0.3


def test_a_two_along_the_edge_is_doubted_and_a_diagonal_two_is_not():
    centre = np.array([40.0, 40.0])
    diagonal = np.array([[[28, 28, 50, 150], [52, 52, 50, 150]]], float)
    along_edge = np.array([[[28, 28, 50, 150], [52, 28, 50, 150]]], float)
    _, s_diag, odd_diag = pips._score_sets(diagonal, centre, 2, False, edge_angle=0.0)
    _, s_edge, odd_edge = pips._score_sets(along_edge, centre, 2, False, edge_angle=0.0)
    assert odd_diag[0] == 0 and odd_edge[0] == pytest.approx(pips.DIAG_W)
    # turned with the die, the same pips are a diagonal again
    _, _, odd_turned = pips._score_sets(along_edge, centre, 2, False, edge_angle=45.0)
    assert odd_turned[0] == 0


def _reads(seed, scenes, pick):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(scenes):
        img, faces, _ = render_roll(rng, "d6", 1 + i % 9)
        if i in pick:
            # as the bench stores them
            img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 95])[1], 1)
            out.append((sorted(faces), sorted(str(pips.read_pips(img, c).count)
                                               for c in find_dice(img).dice)))
    return out


def test_rendered_fours_in_shade_are_read_as_fours():
    """Scenes where a four's pips next to a shaded side were read as a two: once because a
    clean four found by a later threshold had already been scored as a five minus a stray
    blob, and twice because two pips along one edge passed for a two's diagonal."""
    for faces, read in _reads(3000, 68, {4, 26, 67}):
        assert read == faces


def test_the_threshold_search_stops_early_on_clean_layouts(monkeypatch):
    """The bench's frames (nine dice, seed 7) need few thresholds per die: the search
    stops on a clean first threshold or on two that agree (measured 2.5 a die on these
    ten frames; 3.2 before those stops)."""
    calls = []
    real = pips._pips_at
    monkeypatch.setattr(pips, "_pips_at", lambda *a, **k: calls.append(1) or real(*a, **k))
    rng = np.random.default_rng(7)
    dice = 0
    for _ in range(10):
        img, faces, _ = render_roll(rng, "d6", 9)
        for cand in find_dice(img).dice:
            pips.read_pips(img, cand)
            dice += 1
    assert dice >= 80
    assert len(calls) / dice < 2.8, len(calls) / dice
