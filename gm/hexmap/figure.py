"""The map as a matplotlib Figure (never pyplot): for SVG files, and for tests that look at its artists.

PNGs are painted by gm.hexmap.raster without matplotlib; both lay the page out alike. Everything
repeated per hex is one artist (gm.hexmap.features), the glyphs of the hex numbers are stamped from
cached masks (gm.hexmap.stamps), and the part of the map that never changes is drawn once and then
copied (gm.hexmap.layers). Drawing units: a hex's corner radius is 1; y grows downward (row 01 at
the top), as in gm.hexmap.grid. Sizes in points are scaled with the hex's size on paper.
"""
from __future__ import annotations

import hashlib
import math
from typing import Iterable, Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.transforms import Affine2D

from gm.hexmap import features, legend, shapes, trackplan
from gm.hexmap.grid import SQRT3, Grid
from gm.hexmap.lattice import grid_centres
from gm.hexmap.layers import StaticLayer
from gm.hexmap.model import HexMap
from gm.hexmap.placing import label_places
from gm.hexmap.style import DPI, HEX_INCHES, HIGHLIGHT


def draw_figure(hexmap: HexMap, *, track: Mapping[str, Iterable[Sequence[str]]], paint: Mapping[str, str],
                entries: list[tuple], title: str | None = None, highlight: Iterable[str] | None = None,
                hex_numbers: bool = True) -> Figure:
    """The map with terrain, rivers, towns, ferries, foreign countries and each company's track (see
    gm.hexmap.render.draw_map), as a Figure."""
    grid = hexmap.grid
    labels = grid.labels()
    centres = grid_centres(grid)
    at = {label: centres[i] for i, label in enumerate(labels)}
    letters = np.array([hexmap.terrain.get(label, "x") for label in labels])
    radius_in = float(np.clip(15.0 / (1.5 * grid.columns + 0.5), *HEX_INCHES))
    s = radius_in / 0.25       # every size in points below is tuned at a quarter-inch hex
    pt = 1 / (radius_in * 72)  # one typographic point in drawing units
    fig, board, box = _figure(grid, radius_in, title, entries)
    def unchanging() -> list:
        base = Board(fig, board.transform, keep=True)
        features.terrain(base, grid, centres, letters, s)
        features.foreign_lands(base, hexmap, at, s)
        features.rivers(base, hexmap, at, s)
        features.ferry_sites(base, hexmap, at, s)
        features.starts(base, hexmap, at, s)
        if hex_numbers:
            features.hex_numbers(base, grid, letters, s)
        return base.kept

    board.add_artist(StaticLayer((_fingerprint(hexmap, letters), radius_in, hex_numbers), unchanging, box))
    covered = features.track(board, track or {}, paint, at, s)
    if hex_numbers and covered:
        features.hex_numbers(board, grid, letters, s, only=covered)
    lines, _ = trackplan.plan(track or {}, {label: grid.center(label) for label in labels})
    places = label_places(hexmap, lines, s=s, pt=pt)
    features.foreign_names(board, hexmap, s, pt, places.countries)
    features.ferry_names(board, hexmap, s, pt, places.ferries)
    features.towns(board, hexmap, at, s, pt, places.towns)
    features.specials(board, hexmap, at, s, pt, places.specials)
    spots = np.array([at[h] for h in (highlight or ()) if h in at])
    if len(spots):
        board.add_artist(shapes.outlined(shapes.placed(shapes.HEXAGON, spots, 0.95), HIGHLIGHT, 2.6 * s, zorder=9))
    legend.draw(fig, entries)
    fig.gm_dpi = DPI  # campaigns write the map at the size it was designed for
    return fig




# --- layout -------------------------------------------------------------------------------------------
class Board:
    """Where the map's artists go: straight onto the figure, in hex units with y growing downward, or
    (``keep``) into the list ``kept`` for the map's unchanging layer.

    An Axes would give the same coordinates, but creating its ticks and spines (never shown here) and
    clipping every artist to it took a sixth of the drawing time.
    """

    def __init__(self, fig: Figure, transform, *, keep: bool = False):
        self.figure, self.transform = fig, transform
        self.kept: list | None = [] if keep else None

    def add_artist(self, artist):
        if not artist.is_transform_set():
            artist.set_transform(self.transform)
        if self.kept is None:
            self.figure.add_artist(artist)
        else:
            self.kept.append(artist)
        return artist


def _figure(grid: Grid, radius_in: float, title: str | None, entries: list[tuple]):
    """The figure, its board, and the map's box (left, top, right, bottom) in hex units."""
    left, right = -1.1, 1.5 * (grid.columns - 1) + 1.1
    top, bottom = -SQRT3 / 2 - 0.12, SQRT3 * grid.rows + 0.12
    map_w, map_h = (right - left) * radius_in, (bottom - top) * radius_in
    pad = 0.15
    title_in, legend_in = (0.45 if title else 0.12), legend.height_needed(entries, map_w + 2 * pad)
    legend_in = math.ceil(legend_in * DPI) / DPI  # whole pixels: the map sits alike whatever the key holds
    fig = Figure(figsize=(map_w + 2 * pad, map_h + title_in + legend_in), facecolor="white")
    width, height = fig.get_size_inches()
    # hex units to inches from the figure's lower left (row 01 at the top), then to pixels
    inches = Affine2D().translate(-left, -bottom).scale(radius_in, -radius_in).translate(pad, legend_in)
    if title:
        fig.text(0.5, 1 - 0.25 / height, title, ha="center", va="center", fontsize=14, fontweight="bold")
    return fig, Board(fig, inches + fig.dpi_scale_trans), (left, top, right, bottom)


def _fingerprint(hexmap: HexMap, letters: np.ndarray) -> str:
    """What the map's unchanging layer shows, as a short digest (two maps drawn alike share it)."""
    parts = (hexmap.grid, letters.astype("S1").tobytes(), sorted(hexmap.rivers), sorted(hexmap.wide_rivers),
             sorted(hexmap.impassable_sides), hexmap.foreign, hexmap.ferries, hexmap.start)
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:20]
