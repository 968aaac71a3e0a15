"""The map's key, laid out by hand under the map: matplotlib's own legend spends a quarter second on text.

Entries are plain tuples (kind, label, style) with kind patch|line|hex|star. Everything is drawn on the
figure itself in inches (y downward from the key's top), labels as glyph paths like the hex numbers.
"""
from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.transforms import Affine2D

from gm.hexmap import keylayout, shapes
from gm.hexmap.glyphs import _glyph
from gm.hexmap.stamps import add_labels
from gm.hexmap.keylayout import FONT_PT, GAP_IN, HANDLE_IN, MARGIN_IN, ROW_IN


def label_width(text: str) -> float:
    return sum(_glyph(c, "normal", "normal")[2] for c in text) * FONT_PT / 72


def layout(entries: list[tuple], width_in: float) -> list[list[tuple[float, tuple]]]:
    return keylayout.layout(entries, width_in, label_width)


def height_needed(entries: list[tuple], figure_width_in: float) -> float:
    return keylayout.height_needed(entries, figure_width_in, label_width)


def draw(fig: Figure, entries: list[tuple], bottom_in: float = 0.05) -> None:
    """Draw the key across the figure's width, its last row ``bottom_in`` above the lower edge."""
    if not entries:
        return
    width_in, _ = fig.get_size_inches()
    rows = layout(entries, width_in - 2 * MARGIN_IN)
    top_in = bottom_in + len(rows) * ROW_IN
    inches = Affine2D().scale(1, -1).translate(MARGIN_IN, top_in) + fig.dpi_scale_trans  # y down from the top
    texts, spots = [], []
    for r, row in enumerate(rows):
        y = (r + 0.5) * ROW_IN
        for x, entry in row:
            for artist in _handle(entry, x, y):
                artist.set_transform(inches)
                fig.add_artist(artist)
            texts.append(entry[1])
            spots.append((x + HANDLE_IN + GAP_IN, y))
    add_labels(fig, texts, np.array(spots), FONT_PT / 72, ha="left", va="center", zorder=5, transform=inches)


def _handle(entry: tuple, x: float, y: float) -> list:
    kind, _, style = entry
    mid = np.array([[x + HANDLE_IN / 2, y]])
    if kind == "patch":
        return [Rectangle((x + 0.03, y - 0.075), HANDLE_IN - 0.06, 0.15, facecolor=style["colour"],
                          edgecolor=style.get("edge", "#8a8a8a"), linewidth=0.6, hatch=style.get("hatch"),
                          alpha=style.get("alpha"))]
    if kind == "line":
        segment = [[(x + 0.03, y), (x + HANDLE_IN - 0.03, y)]]
        lines = [shapes.strokes(segment, style["colour"], style["width"], style=style.get("style", "solid"))]
        if style.get("casing"):
            lines.insert(0, shapes.strokes(segment, style["casing"], style["width"] + 1.6))
        return lines
    if kind == "hex":
        return [shapes.outlined(shapes.placed(shapes.HEXAGON, mid, 0.085), style["colour"], 1.8)]
    if kind == "star":
        return [shapes.filled(shapes.placed(shapes.STAR, mid, 0.09), style["colour"], edge="black", width=0.7)]
    raise ValueError(f"unknown legend entry kind {kind!r}")
