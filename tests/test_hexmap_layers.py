"""The speed-ups of the SVG figure (and its raster) must not change the picture: the kept layer, stamped
labels and sides."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import PathPatch
from matplotlib.transforms import Affine2D

from gm.hexmap import layers
from gm.hexmap.features import _open_sides
from gm.hexmap.lattice import grid_centres
from gm.games.railway_rivals.hexmaps import load_map
from gm.hexmap.render import draw_map, save_figure
from gm.hexmap.stamps import HexSides, Labels, _blend, _runs
from gm.hexmap.style import GRID_EDGE, HEX_NUMBER, TERRAIN_COLOURS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from bench_hexmap import plausible_track  # noqa: E402


def _raster(fig: Figure, dpi: int = 110) -> np.ndarray:
    fig.set_dpi(dpi)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba()).copy()


@pytest.mark.parametrize("name", ["scotland", "tutorial"])
def test_the_kept_layer_gives_the_same_pixels_as_drawing_afresh(monkeypatch, name):
    hexmap = load_map(name)
    track = plausible_track(hexmap)
    builds = []
    real = layers.StaticLayer.artists
    monkeypatch.setattr(layers.StaticLayer, "artists", lambda self: builds.append(1) or real(self))
    layers.forget()
    fresh = _raster(draw_map(hexmap, track=track, title="one").figure())
    again = _raster(draw_map(hexmap, track=track, title="one").figure())
    assert len(builds) == 1  # the second drawing copied the kept layer
    assert np.array_equal(fresh, again)
    # other track, other title and a longer key: still the same layer, and the same picture as afresh
    fewer = {c: links[:3] for c, links in list(track.items())[:4]}
    names = {c: f"The {c} and Northern Counties Railway" for c in fewer}
    kept = _raster(draw_map(hexmap, track=fewer, names=names, title="two").figure())
    layers.forget()
    afresh = _raster(draw_map(hexmap, track=fewer, names=names, title="two").figure())
    assert len(builds) == 2 and np.array_equal(kept, afresh)


def test_svg_holds_the_unchanging_layer_as_vectors(tmp_path):
    hexmap = load_map("tutorial")
    svg = save_figure(draw_map(hexmap, track={"blue": [["0506", "0507"]]}), tmp_path / "map.svg").read_text()
    # drawn as vectors, not pasted in as pixels: terrain fills, hex sides, the hex numbers' glyphs
    assert "<image" not in svg
    for colour in (TERRAIN_COLOURS["."], TERRAIN_COLOURS["l"], GRID_EDGE, HEX_NUMBER):
        assert colour in svg, colour


def _ink(canvas: np.ndarray) -> np.ndarray:
    """How dark each pixel is (0 on white)."""
    return 255 - canvas[..., :3].astype(float).mean(axis=2)


def _compare(artist_png, patches) -> tuple[float, float]:
    """(shift of the ink's centre in pixels, difference of total ink) between the stamped artist and
    Agg filling the same outlines."""
    figures = []
    for artists in ([artist_png], patches):
        fig = Figure(figsize=(3, 2), facecolor="white")
        for a in artists:
            fig.add_artist(a)
        figures.append(_ink(_raster(fig, dpi=100)))
    stamped, filled = figures
    rows, cols = np.indices(stamped.shape)

    def centre(ink):
        return np.array([(rows * ink).sum(), (cols * ink).sum()]) / ink.sum()
    return float(np.hypot(*(centre(stamped) - centre(filled)))), abs(stamped.sum() - filled.sum()) / filled.sum()


def test_stamped_labels_sit_where_their_outlines_would():
    inches = Affine2D().scale(1, -1).translate(0, 2)  # inches, y down from the top
    for halo in (0.0, 2.0):
        def labels(halo: float = halo):
            made = Labels(["0101", "Inverness", "2522\n17"], [(0.6, 0.5), (1.5, 1.0), (2.4, 1.4)], 0.12,
                          colour="black", halo=halo, weight="bold" if halo else "normal")
            made.set_transform(inches + Figure().dpi_scale_trans)
            return made
        shift, amount = _compare(labels(), labels()._outlines())
        assert shift < 0.35 and amount < 0.06, (halo, shift, amount)


def test_stamped_hex_sides_match_the_stroked_sides():
    hexmap = load_map("tutorial")
    letters = np.array([hexmap.terrain[h] for h in hexmap.grid.labels()])
    centres = grid_centres(hexmap.grid)[letters != "x"]
    lower = _open_sides(hexmap.grid, letters.astype("S1").tobytes())
    scale = Affine2D().scale(0.09, -0.09).translate(0.2, 1.9)

    def sides():
        made = HexSides(centres, lower, colour="black", width=0.8)
        made.set_transform(scale + Figure().dpi_scale_trans)
        return made
    stroked = PathPatch(sides()._path(), facecolor="none", edgecolor="black", linewidth=0.8, capstyle="round")
    stroked.set_transform(scale + Figure().dpi_scale_trans)
    shift, amount = _compare(sides(), [stroked])
    assert shift < 0.3 and amount < 0.08, (shift, amount)


def test_each_hex_draws_its_upper_sides_and_the_lower_ones_asked_for():
    assert _runs(0) == [(3, 4, 5, 0)]
    assert _runs(0b111) == [(0, 1, 2, 3, 4, 5, 0)]
    assert _runs(0b001) == [(3, 4, 5, 0, 1)]
    assert _runs(0b100) == [(2, 3, 4, 5, 0)]
    assert _runs(0b101) == [(2, 3, 4, 5, 0, 1)]


def test_blending_over_a_transparent_canvas_keeps_straight_alpha():
    canvas = np.zeros((2, 2, 4), np.uint8)
    canvas[0, 0] = (255, 255, 255, 255)
    _blend(canvas, np.array([0, 1]), np.array([128, 256], np.uint32), (1.0, 0.0, 0.0, 1.0))
    assert tuple(canvas[0, 1]) == (255, 0, 0, 255)  # full ink on nothing: the colour itself
    assert canvas[0, 0][0] == 255 and all(127 <= v <= 128 for v in canvas[0, 0][1:3]) and canvas[0, 0][3] == 255
    opaque = np.full((1, 3, 4), 255, np.uint8)  # the quick way over an opaque canvas gives the same
    _blend(opaque, np.array([0, 1, 2]), np.array([0, 128, 256], np.uint32), (0.0, 0.0, 1.0, 1.0))
    assert opaque[0, :, 2].tolist() == [255, 255, 255] and opaque[0, :, 0].tolist() == [255, 127, 0]
