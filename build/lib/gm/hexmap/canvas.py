"""Antialiased drawing on a Pillow image without matplotlib: shapes and lines stamped from small masks.

Pillow draws hard-edged shapes. Here each shape (a hex's sides, a track link, a town's circle) is
drawn once at four times the size into a small mask, reduced to full size (every pixel then holds
its coverage, in sixteenths), and that mask is pasted in the shape's colour wherever the shape
appears. A mask is made for each quarter-pixel position the shape takes (its phase), so copies sit
where they belong to a quarter of a pixel, and is kept for the rest of the process: a map's
thousand hex sides or track links cost a thousand pastes and a handful of masks. Sizes are in
pixels, y growing downward. Imports Pillow only.
"""
from __future__ import annotations

import math
from typing import Iterable, Sequence

from PIL import Image, ImageDraw

SUPER = 4  # masks are drawn at four times the size: a quarter-pixel phase is one pixel there
Point = tuple[float, float]
_masks: dict[tuple, tuple[Image.Image | None, int, int]] = {}


def rgb(colour: str | Sequence[float]) -> tuple[int, int, int]:
    """'#rrggbb', a few names, or (r, g, b) in 0..1 -> (r, g, b) bytes."""
    if isinstance(colour, str):
        named = {"white": "#ffffff", "black": "#000000", "blue": "#0000ff", "red": "#ff0000",
                 "green": "#008000", "yellow": "#ffff00", "purple": "#800080", "brown": "#a52a2a",
                 "orange": "#ffa500", "grey": "#808080", "gray": "#808080", "none": "#ffffff"}
        value = named.get(colour.lower(), colour)
        if not (value.startswith("#") and len(value) in (4, 7)):
            from PIL import ImageColor
            return ImageColor.getrgb(value)[:3]
        if len(value) == 4:
            value = "#" + "".join(c * 2 for c in value[1:])
        return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)
    return tuple(round(float(c) * 255) for c in colour[:3])  # type: ignore[return-value]


def _phase(value: float, steps: int = SUPER) -> tuple[int, int]:
    """A coordinate as (whole pixel, phase): the phase in SUPER-ths of a pixel, a multiple of
    SUPER / ``steps`` (``steps`` = 2: half pixels, four times fewer masks than quarters each way)."""
    parts = math.floor(value * steps + 0.5)
    return parts // steps, parts % steps * (SUPER // steps)


def mask(key: tuple, factory, phase: tuple[int, int]):
    """The kept mask of a shape at a quarter-pixel ``phase``, made on first need: ``factory()`` gives
    (draw, extent), where ``draw(pen, scale, dx, dy)`` draws the shape at SUPER times the size on an
    ImageDraw with the shape's origin at (dx, dy), and ``extent`` is its box (x0, y0, x1, y1) in pixels
    about the origin. Returns (mask's core image or None when nothing shows, left, top, right,
    bottom) about the origin's whole pixel: see kept_mask."""
    full = key + phase
    kept = _masks.get(full)
    if kept is not None:
        return kept
    draw, (x0, y0, x1, y1) = factory()
    left, top = math.floor(x0) - 1, math.floor(y0) - 1
    width, height = math.ceil(x1) + 2 - left, math.ceil(y1) + 2 - top
    big = Image.new("L", (width * SUPER, height * SUPER), 0)
    draw(ImageDraw.Draw(big), SUPER, (phase[0] - left * SUPER), (phase[1] - top * SUPER))
    kept = kept_mask(big.reduce(SUPER), left, top)
    _masks[full] = kept
    return kept


def kept_mask(small: Image.Image, left: int, top: int) -> tuple:
    """A mask cropped to its ink, as (image or None, left, top, right, bottom) for ``paste``."""
    box = small.getbbox()
    if box is None:
        return (None, 0, 0, 0, 0)
    cropped = small.crop(box)
    cropped.load()
    return (cropped, left + box[0], top + box[1], left + box[2], top + box[3])


def paste(image: Image.Image, kept, x: int, y: int, colour) -> None:
    """``colour`` (r, g, b) through the kept mask, its origin at pixel (x, y); straight to Pillow's
    core, as a map pastes thousands of small masks."""
    picture, left, top, right, bottom = kept
    if picture is not None:
        image.im.paste(colour, (x + left, y + top, x + right, y + bottom), picture.im)


# --- shapes ------------------------------------------------------------------------------------------
def polyline_drawer(points: Sequence[Point], width: float, *, closed: bool = False, fill: bool = False,
                    cap: str = "round"):
    """A drawer (see ``mask``) for a line through ``points`` (pixels about the origin), ``width``
    pixels wide (0: no line), round-joined; ``fill`` fills the polygon too."""
    def draw(pen: ImageDraw.ImageDraw, scale: int, dx: float, dy: float) -> None:
        at = [(x * scale + dx, y * scale + dy) for x, y in points]
        if fill:
            pen.polygon(at, fill=255)
        w = round(width * scale)
        if w <= 0:
            return
        path = at + [at[0]] if closed else at
        pen.line(path, fill=255, width=w, joint="curve")
        if cap == "round" and not closed:
            r = w / 2
            for x, y in (path[0], path[-1]):
                pen.ellipse((x - r, y - r, x + r, y + r), fill=255)
    return draw


def extent_of(points: Iterable[Point], width: float = 0.0) -> tuple[float, float, float, float]:
    xs, ys = zip(*points)
    pad = width / 2 + 1
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad


def shape_mask(name: tuple, points: Sequence[Point], *, width: float = 0.0, closed: bool = True,
               fill: bool = False, cap: str = "round", dash: tuple | None = None, x: float = 0.0, y: float = 0.0,
               steps: int = SUPER):
    """(mask, whole x, whole y) for ``points`` about a point at (x, y): the mask to paste at the whole
    pixel returned. ``name`` says what the points are (with their size), for keeping the mask."""
    (wx, px), (wy, py) = _phase(x, steps), _phase(y, steps)
    key = ("shape", name, round(width, 2), closed, fill, cap, dash)

    def factory():
        if dash and not fill:
            path = list(points) + [points[0]] if closed else list(points)
            drawers = [polyline_drawer(piece, width, cap="butt") for piece in dashes(path, dash)]

            def draw(pen, scale, dx, dy):
                for one in drawers:
                    one(pen, scale, dx, dy)
            return draw, extent_of(points, width)
        return polyline_drawer(points, width, closed=closed, fill=fill, cap=cap), extent_of(points, width)
    return mask(key, factory, (px, py)), wx, wy


def dashes(points: Sequence[Point], pattern: Sequence[float]) -> list[list[Point]]:
    """The dashes of a line through ``points`` with ``pattern`` (on, off, on, off...) in pixels."""
    out: list[list[Point]] = []
    k, left, on = 0, pattern[0], True
    current: list[Point] = [points[0]]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length = math.hypot(x1 - x0, y1 - y0)
        done = 0.0
        while length - done > 1e-9:
            step = min(left, length - done)
            done += step
            left -= step
            t = done / length
            here = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
            if on:
                current.append(here)
            if left <= 1e-9:
                if on and len(current) > 1:
                    out.append(current)
                on = not on
                k = (k + 1) % len(pattern)
                left = pattern[k]
                current = [here]
    if on and len(current) > 1:
        out.append(current)
    return out


class Ink:
    """Lines and shapes of one colour and width on one image: each call pastes one kept mask."""

    def __init__(self, image: Image.Image, colour, width: float = 0.0, *, alpha: float = 1.0,
                 dash: Sequence[float] | None = None, cap: str = "round", steps: int = 2):
        self.image, self.colour, self.width = image, rgb(colour), float(width)
        self.alpha, self.dash, self.cap = alpha, tuple(dash) if dash else None, cap
        self.steps = steps  # positions to half a pixel; SUPER: to a quarter (hex sides, which meet)

    def line(self, a: Point, b: Point) -> None:
        """A straight line from a to b, its ends to a quarter pixel: its mask is kept by direction,
        length and phase (drawn from its upper end: a line and its reverse share a mask)."""
        if self.dash is None and (b[1], b[0]) < (a[1], a[0]):
            a, b = b, a
        (wx, px), (wy, py) = _phase(a[0], self.steps), _phase(a[1], self.steps)
        vector = (round((b[0] - a[0]) * SUPER) / SUPER, round((b[1] - a[1]) * SUPER) / SUPER)
        key = ("line", vector, round(self.width, 2), self.dash, self.cap)
        kept = _masks.get(key + (px, py)) or mask(
            key, lambda: (self._line_drawer(vector), extent_of([(0, 0), vector], self.width)), (px, py))
        if self.alpha < 1 and kept[0] is not None:
            kept = _faded(kept, self.alpha)
        paste(self.image, kept, wx, wy, self.colour)

    def _line_drawer(self, vector: Point):
        if self.dash:  # dashes end square, as matplotlib's do: round ends would close the gaps
            pieces = dashes([(0.0, 0.0), vector], self.dash)
            drawers = [polyline_drawer(piece, self.width, cap="butt") for piece in pieces]
        else:
            drawers = [polyline_drawer([(0.0, 0.0), vector], self.width, cap=self.cap)]

        def draw(pen, scale, dx, dy):
            for d in drawers:
                d(pen, scale, dx, dy)
        return draw

    def polyline(self, points: Sequence[Point]) -> None:
        for a, b in zip(points, points[1:]):
            self.line(a, b)

    def shape(self, name: tuple, points: Sequence[Point], at: Point, *, fill: bool, closed: bool = True) -> None:
        """``points`` (about (0, 0)) placed at ``at``: filled, or outlined ``width`` wide."""
        kept, wx, wy = shape_mask(name, points, width=0.0 if fill else self.width, closed=closed,
                                  fill=fill, cap=self.cap, dash=self.dash, x=at[0], y=at[1], steps=self.steps)
        if self.alpha < 1 and kept[0] is not None:
            kept = _faded(kept, self.alpha)
        paste(self.image, kept, wx, wy, self.colour)


_faded_masks: dict[tuple, tuple] = {}


def _faded(kept: tuple, alpha: float) -> tuple:
    key = (id(kept[0]), alpha)  # kept masks live as long as the process: an id stays theirs
    if key not in _faded_masks:
        faded = kept[0].point([round(v * alpha) for v in range(256)])
        faded.load()
        _faded_masks[key] = (faded,) + kept[1:]
    return _faded_masks[key]


def forget() -> None:
    """Drop every kept mask (tests)."""
    _masks.clear()
    _faded_masks.clear()
