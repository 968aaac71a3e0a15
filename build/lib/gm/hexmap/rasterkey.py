"""The map's key in the PNG: the entries of gm.hexmap.legend, laid out the same way, painted with Pillow.

Entries are (kind, label, style) with kind patch|line|hex|star; sizes here are inches and points
(the key does not scale with the hexes).
"""
from __future__ import annotations

import math

from PIL import Image, ImageDraw

from gm.hexmap import keylayout
from gm.hexmap.canvas import Ink, rgb
from gm.hexmap.keylayout import FONT_PT, GAP_IN, HANDLE_IN, MARGIN_IN, ROW_IN
from gm.hexmap.lettering import Lettering, advance
from gm.hexmap.style import DPI

BOTTOM_IN = 0.05     # below the last row


def label_width(text: str) -> float:
    """Inches."""
    return advance(text, FONT_PT) / 72


def layout(entries: list[tuple], width_in: float) -> list[list[tuple[float, tuple]]]:
    return keylayout.layout(entries, width_in, label_width)


def height_needed(entries: list[tuple], figure_width_in: float) -> float:
    return keylayout.height_needed(entries, figure_width_in, label_width)


def draw(image: Image.Image, letters: Lettering, entries: list[tuple]) -> None:
    """The key across the picture's width, its last row BOTTOM_IN above the lower edge."""
    if not entries:
        return
    width_in = image.width / DPI
    rows = layout(entries, width_in - 2 * MARGIN_IN)
    top = image.height - (BOTTOM_IN + len(rows) * ROW_IN) * DPI
    texts, spots = [], []
    for r, row in enumerate(rows):
        y = top + (r + 0.5) * ROW_IN * DPI
        for x_in, entry in row:
            x = (MARGIN_IN + x_in) * DPI
            _handle(image, entry, x, y)
            texts.append(entry[1])
            spots.append((x + (HANDLE_IN + GAP_IN) * DPI, y))
    for text, spot in zip(texts, spots):
        letters.labels([text], [spot], FONT_PT * DPI / 72, ha="left", va="center")


def _pt(points: float) -> float:
    return points * DPI / 72


def _handle(image: Image.Image, entry: tuple, x: float, y: float) -> None:
    kind, _, style = entry
    inch = DPI
    if kind == "patch":
        _patch(image, style, (x + 0.03 * inch, y - 0.075 * inch, x + (HANDLE_IN - 0.03) * inch, y + 0.075 * inch))
    elif kind == "line":
        a, b = (x + 0.03 * inch, y), (x + (HANDLE_IN - 0.03) * inch, y)
        width = _pt(style["width"])
        if style.get("casing"):
            Ink(image, style["casing"], _pt(style["width"] + 1.6)).line(a, b)
        dash = style.get("style")
        pattern = [d * width for d in dash[1]] if isinstance(dash, tuple) else None
        Ink(image, style["colour"], width, dash=pattern).line(a, b)
    elif kind == "hex":
        r = 0.085 * inch
        ring = [(math.cos(math.radians(60 * k)) * r, math.sin(math.radians(60 * k)) * r) for k in range(6)]
        Ink(image, style["colour"], _pt(1.8)).shape(("key hex", r), ring, (x + HANDLE_IN / 2 * inch, y), fill=False)
    elif kind == "star":
        r = 0.09 * inch
        star = [(math.cos(math.radians(k * 36 - 90)) * r * f, math.sin(math.radians(k * 36 - 90)) * r * f)
                for k, f in zip(range(10), [1.0, 0.42] * 5)]
        at = (x + HANDLE_IN / 2 * inch, y)
        Ink(image, style["colour"]).shape(("key star", r), star, at, fill=True)
        Ink(image, "black", _pt(0.7)).shape(("key star", r), star, at, fill=False)
    else:
        raise ValueError(f"unknown legend entry kind {kind!r}")


def _patch(image: Image.Image, style: dict, box: tuple[float, float, float, float]) -> None:
    """A swatch: the colour (faded by ``alpha``), its hatching, its edge."""
    alpha = style.get("alpha") or 1.0
    x0, y0, x1, y1 = (round(v) for v in box)
    face = rgb(style["colour"])
    under = image.getpixel(((x0 + x1) // 2, (y0 + y1) // 2))
    fill = tuple(round(f * alpha + u * (1 - alpha)) for f, u in zip(face, under))
    pen = ImageDraw.Draw(image)
    pen.rectangle((x0, y0, x1, y1), fill=fill)
    edge = rgb(style.get("edge") or "#8a8a8a")
    if style.get("hatch"):
        spacing = DPI / 18
        row = y0 + spacing / 2
        while row < y1:
            Ink(image, edge, 0.7 * DPI / 72, cap="butt").line((x0, row), (x1, row))
            row += spacing
    edge = tuple(round(e * alpha + u * (1 - alpha)) for e, u in zip(edge, under))
    pen.rectangle((x0, y0, x1, y1), outline=edge, width=max(1, round(_pt(0.6))))
