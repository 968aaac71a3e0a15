"""The map's unchanging layer, drawn once and then copied: terrain, hex sides, rivers, hex numbers...

A campaign map is drawn again every turn, and most of it never changes: only the track, the towns
above it, the key and the title do. ``StaticLayer`` is one artist standing for all the unchanging
artists beneath the track. In a PNG it draws them the first time and keeps the pixels of the map's
area; later drawings of the same map at the same size copy those pixels back (a memory copy instead
of tracing 1,600 hexes). Vector files (SVG) always get the artists themselves.

The kept pixels are only reused when nothing differs: the key names the map's content and every
size, and the map area's position to the sub-pixel. Everything drawn above the layer is drawn as
usual, so the picture is the same either way (tests compare the two).
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Callable, Hashable

import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import RendererAgg

KEPT = 2  # layers kept at once (one map, perhaps at two sizes); each is the map area's RGBA pixels
_kept: OrderedDict[tuple, np.ndarray] = OrderedDict()


class StaticLayer(Artist):
    """Stands for the artists ``build()`` returns, which must draw only inside ``box`` (x0, y0, x1, y1 in
    the artist's units) and only over the plain figure background; ``key`` names what they draw."""

    def __init__(self, key: Hashable, build: Callable[[], list], box: tuple[float, float, float, float],
                 zorder: float = 1):
        super().__init__()
        self.key, self.build, self.box = key, build, box
        self.set_zorder(zorder)
        self._artists: list | None = None

    def artists(self) -> list:
        """The artists themselves, built on first need (tests and vector back ends)."""
        if self._artists is None:
            self._artists = sorted(self.build(), key=lambda a: a.get_zorder())
            for artist in self._artists:
                artist.set_figure(self.get_figure())
        return self._artists

    def draw(self, renderer) -> None:
        if not self.get_visible():
            return
        if not isinstance(renderer, RendererAgg):
            for artist in self.artists():
                artist.draw(renderer)
            return
        canvas = np.asarray(renderer.buffer_rgba())
        (x0, y0), (x1, y1) = self.get_transform().transform([self.box[:2], self.box[2:]])
        left, right = sorted((round(x0, 6), round(x1, 6)))
        top, bottom = sorted((round(renderer.height - y0, 6), round(renderer.height - y1, 6)))  # rows: downward
        rows = _pixels(top, bottom)
        cols = _pixels(left, right)
        if rows.start < 0 or cols.start < 0 or rows.stop > canvas.shape[0] or cols.stop > canvas.shape[1]:
            for artist in self.artists():  # partly off the canvas: nothing worth keeping
                artist.draw(renderer)
            return
        # what the pixels depend on: the artists, the scale, the area's size and its place within a pixel
        key = (self.key, renderer.dpi, rows.stop - rows.start, cols.stop - cols.start, round(left % 1, 4),
               round(top % 1, 4), canvas[rows.start, cols.start].tobytes())
        kept = _kept.get(key)
        if kept is not None:
            _kept.move_to_end(key)
            canvas[rows, cols] = kept
            return
        for artist in self.artists():
            artist.draw(renderer)
        _kept[key] = canvas[rows, cols].copy()
        while len(_kept) > KEPT:
            _kept.popitem(last=False)


def _pixels(start: float, stop: float) -> slice:
    """The whole pixels covering start..stop, counted from the start so that equal lengths at the same
    place within a pixel always give the same count."""
    first = int(np.floor(start))
    return slice(first, first + int(np.ceil(start - first + (stop - start) - 1e-6)))


def forget() -> None:
    """Drop every kept layer (tests)."""
    _kept.clear()
