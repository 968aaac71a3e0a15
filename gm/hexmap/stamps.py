"""Labels stamped into the Agg canvas: a map's 1,600 hex numbers without 1,600 glyph outlines to fill.

Filling glyph outlines costs Agg as much for the thousandth copy of a "2" as for the first, and a hex
map is mostly small numbers. Here each character is rasterised once per size and quarter-pixel offset
into a coverage mask, and all the labels of one style are blended into the canvas with a few numpy
operations per character position. The halo (a white outline that keeps labels readable over track)
is the same outline stroked wider. Vector back ends (SVG) get the glyph outlines of gm.hexmap.glyphs,
drawn from the same layout, so both kinds of file look alike.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.colors import to_rgba
from matplotlib.patches import PathPatch
from matplotlib.path import Path
from matplotlib.transforms import IdentityTransform

from gm.hexmap.glyphs import CAP, _glyph, labels_path

PHASES = 4  # a character's left edge is placed to a quarter of a pixel
FAINT = 8   # coverage (of 255) below which a pixel is left alone: a thirtieth of the ink never shows
ALIGN = {"left": 0.0, "center": 0.5, "right": 1.0}


class Labels(Artist):
    """Many short texts in one style: ``positions`` and ``size`` in the artist's units, y growing downward.

    ``halo`` is the width in points of a white outline drawn beneath (0 for none). ``ha`` is
    left|center|right and ``va`` top|center|baseline, both about each text's (x, y), as in glyphs.labels_path.
    """

    def __init__(self, texts: Sequence[str], positions, size: float, *, colour="black", halo: float = 0.0,
                 ha: str = "center", va: str = "center", weight: str = "normal", style: str = "normal",
                 linespacing: float = 1.05, zorder: float = 6):
        super().__init__()
        if ha not in ALIGN or va not in ("top", "center", "baseline"):
            raise ValueError(f"unknown alignment ha={ha!r} va={va!r}")
        self.texts = [str(t) for t in texts]
        self.positions = np.asarray(positions, float).reshape(-1, 2)
        self.size, self.colour, self.halo = float(size), colour, float(halo)
        self.ha, self.va, self.weight, self.style, self.linespacing = ha, va, weight, style, linespacing
        self.set_zorder(zorder)

    def draw(self, renderer) -> None:
        if not self.get_visible() or not self.texts:
            return
        if isinstance(renderer, RendererAgg):
            self._stamp(renderer)
        else:
            for patch in self._outlines():
                patch.draw(renderer)

    # --- vector back ends: the glyph outlines --------------------------------------------------------
    def _outlines(self) -> list[PathPatch]:
        path = labels_path(self.texts, self.positions, self.size, ha=self.ha, va=self.va, weight=self.weight,
                           style=self.style, linespacing=self.linespacing)
        if path is None:
            return []
        patches = []
        if self.halo:
            patches.append(PathPatch(path, facecolor="white", edgecolor="white", linewidth=self.halo,
                                     joinstyle="round"))
        patches.append(PathPatch(path, facecolor=self.colour, edgecolor="none", linewidth=0))
        for patch in patches:
            Artist.update_from(patch, self)  # transform, clipping, alpha
            patch.set_figure(self.get_figure())
        return patches

    # --- Agg: coverage masks blended into the canvas ----------------------------------------------------
    def _stamp(self, renderer: RendererAgg) -> None:
        transform = self.get_transform()
        spots = transform.transform(self.positions)
        a, b = transform.transform([[0.0, 0.0], [0.0, self.size]])
        px = float(np.hypot(*(b - a)))  # the font size in pixels
        if px < 1:
            return
        canvas = np.asarray(renderer.buffer_rgba())
        lines, x, baseline = self._lines(spots[:, 0], renderer.height - spots[:, 1], px)
        codes = _codes(lines)
        table = {code: _glyph(chr(code), self.weight, self.style)[2] for code in np.unique(codes) if code}
        keys = np.array(sorted(table), dtype=codes.dtype)
        advances = np.where(codes > 0, np.array([table[k] for k in keys])[np.searchsorted(keys, codes)], 0.0) \
            if len(keys) else np.zeros(codes.shape)
        widths = advances.sum(axis=1) * px
        pen = (x - ALIGN[self.ha] * widths)[:, None] + (np.cumsum(advances, axis=1) - advances) * px
        quarter = np.floor(pen * PHASES + 0.5).astype(np.int64)
        column, phase = quarter // PHASES, quarter % PHASES
        row = np.floor(baseline + 0.5).astype(np.int64)
        rgba = to_rgba(self.colour, self.get_alpha())
        halo_px = self.halo * renderer.dpi / 72
        passes = ([(halo_px, (1.0, 1.0, 1.0, rgba[3]))] if halo_px > 0 else []) + [(0.0, rgba)]
        for stroke, colour in passes:
            keys = codes.astype(np.int64) * PHASES + phase
            unique, inverse = np.unique(keys, return_inverse=True)
            masks = _char_stack(self.weight, self.style, round(px, 2), round(stroke, 2), tuple(unique.tolist()))
            index = masks.place[inverse.reshape(codes.shape)]  # for every character, its mask's number
            # every second character at once: glyphs two apart never touch (their halos may, at a narrow
            # letter between: then both are white and either coverage will do)
            for first in (0, 1):
                every = index[:, first::2]
                chosen = every >= 0
                if chosen.any():
                    rows = np.broadcast_to(row[:, None], chosen.shape)[chosen]
                    masks.paint(canvas, every[chosen], rows, column[:, first::2][chosen], colour)

    def _lines(self, x: np.ndarray, y: np.ndarray, px: float) -> tuple[list[str], np.ndarray, np.ndarray]:
        """Each line of every text, with its x and baseline row (rows grow downward)."""
        if not any("\n" in t for t in self.texts):
            offset = {"top": CAP * px, "center": CAP * px / 2, "baseline": 0.0}[self.va]
            return self.texts, x, y + offset
        lines, xs, rows = [], [], []
        for text, x0, y0 in zip(self.texts, x, y):
            parts = text.split("\n")
            block = (len(parts) - 1) * self.linespacing * px
            offset = {"top": CAP * px, "center": CAP * px / 2 - block / 2, "baseline": 0.0}[self.va]
            for n, part in enumerate(parts):
                lines.append(part)
                xs.append(x0)
                rows.append(y0 + offset + n * self.linespacing * px)
        return lines, np.array(xs), np.array(rows)


class HexSides(Artist):
    """The lines between hexes, ``width`` points wide: every hex draws its three upper sides, and the
    lower ones listed in ``lower`` (n, 3) (sides towards no hex: the map's edge), so no side is drawn twice.

    Sides are numbered from the hex's right-hand corner clockwise: 0 lower right, 1 bottom, 2 lower left,
    3 upper left, 4 top, 5 upper right. In a PNG each hex is stamped from a mask made once per
    quarter-pixel position; other back ends get the sides as one stroked path.
    """

    def __init__(self, centres: np.ndarray, lower: np.ndarray, *, colour, width: float, zorder: float = 1.2):
        super().__init__()
        self.centres = np.asarray(centres, float).reshape(-1, 2)
        self.lower = np.asarray(lower, bool).reshape(-1, 3)
        self.colour, self.width = colour, float(width)
        self.set_zorder(zorder)

    def draw(self, renderer) -> None:
        if not self.get_visible() or not len(self.centres):
            return
        if not isinstance(renderer, RendererAgg):
            patch = PathPatch(self._path(), facecolor="none", edgecolor=self.colour, linewidth=self.width,
                              capstyle="round")
            Artist.update_from(patch, self)
            patch.set_figure(self.get_figure())
            patch.draw(renderer)
            return
        transform = self.get_transform()
        spots = transform.transform(self.centres)
        x, y = spots[:, 0], renderer.height - spots[:, 1]  # y: rows, growing downward
        corner = transform.transform(self.centres[:1] + CORNERS) - spots[:1]
        corner[:, 1] *= -1
        qx, qy = np.floor(x * PHASES + 0.5).astype(np.int64), np.floor(y * PHASES + 0.5).astype(np.int64)
        bits = self.lower @ np.array([1, 2, 4])
        keys = (bits * PHASES + qy % PHASES) * PHASES + qx % PHASES
        unique, inverse = np.unique(keys, return_inverse=True)
        width_px = round(self.width * renderer.dpi / 72, 2)
        ring = tuple(np.round(corner, 3).ravel().tolist())
        stack = _Stack([_sides_mask(ring, int(k // PHASES // PHASES), int(k // PHASES % PHASES), int(k % PHASES),
                                    width_px) for k in unique])
        which = stack.place[inverse]
        drawn = which >= 0
        stack.paint(np.asarray(renderer.buffer_rgba()), which[drawn], (qy // PHASES)[drawn], (qx // PHASES)[drawn],
                    to_rgba(self.colour, self.get_alpha()))

    def _path(self) -> Path:
        """Every drawn side as a line of the vector path."""
        verts, codes = [], []
        for centre, lower in zip(self.centres, self.lower):
            for run in _runs(int(lower @ np.array([1, 2, 4]))):
                verts.append(centre + CORNERS[list(run)])
                codes.append([Path.MOVETO] + [Path.LINETO] * (len(run) - 1))
        return Path(np.concatenate(verts), np.concatenate(codes).astype(Path.code_type))


CORNERS = np.stack([np.cos(np.radians(np.arange(6) * 60.0)), np.sin(np.radians(np.arange(6) * 60.0))], axis=1)


def _runs(bits: int) -> list[tuple[int, ...]]:
    """The corners to join for the upper sides and the lower sides in ``bits`` (1, 2, 4: sides 0, 1, 2)."""
    sides = [k for k in range(3) if bits >> k & 1] + [3, 4, 5]
    runs: list[list[int]] = []
    for side in sides:
        if runs and runs[-1][-1] == side:
            runs[-1].append((side + 1) % 6)
        else:
            runs.append([side, (side + 1) % 6])
    if len(runs) > 1 and runs[-1][-1] == runs[0][0]:  # around the corner where side 5 meets side 0
        runs[0] = runs.pop()[:-1] + runs[0]
    return [tuple(r) for r in runs]


@lru_cache(maxsize=1024)
def _sides_mask(ring: tuple, bits: int, phase_y: int, phase_x: int, width: float):
    """The pixels of one hex's sides (see HexSides), its centre at the given quarter-pixel offsets."""
    corners = np.array(ring).reshape(6, 2) + [phase_x / PHASES, phase_y / PHASES]
    verts, codes = [], []
    for run in _runs(bits):
        verts.append(corners[list(run)])
        codes += [Path.MOVETO] + [Path.LINETO] * (len(run) - 1)
    verts = np.concatenate(verts)
    return _coverage(verts[:, 0], verts[:, 1], np.array(codes, Path.code_type), width, fill=False)


def _codes(lines: list[str]) -> np.ndarray:
    """Code points of the lines, one row each, padded with 0."""
    longest = max((len(line) for line in lines), default=0)
    if not longest:
        return np.zeros((len(lines), 0), np.uint32)
    return np.array(lines, dtype=f"<U{longest}").view(np.uint32).reshape(len(lines), longest)


class _Stack:
    """Masks (each the inked pixels' rows, columns and weight 0..256, or None), for numpy to place."""

    def __init__(self, masks: Sequence[tuple | None]):
        self.masks = [m for m in masks if m is not None and len(m[2])]
        kept = [i for i, m in enumerate(masks) if m is not None and len(m[2])]
        self.place = np.full(len(masks), -1, np.int64)  # each given mask's number here (-1: nothing drawn)
        self.place[kept] = np.arange(len(kept))
        self.count = np.array([len(m[2]) for m in self.masks], np.int64)
        self.start = np.cumsum(self.count) - self.count
        self.box = np.array([(m[0].min(), m[0].max(), m[1].min(), m[1].max()) for m in self.masks],
                            np.int64).reshape(-1, 4)
        self._joined: tuple | None = None

    def paint(self, canvas: np.ndarray, which: np.ndarray, top: np.ndarray, left: np.ndarray, colour) -> None:
        """Blend ``colour`` into ``canvas`` through the masks ``which`` (numbers here) placed at (top, left).

        Places must not overlap, or only where the coverage is faint. Many copies of few masks (hex sides,
        digits) go a mask at a time: each copy's pixels are the mask's plus the copy's offset in the
        flattened canvas. Few copies of many masks (names) go all at once, the masks laid end to end.
        """
        height, width = canvas.shape[:2]
        box = self.box[which]
        whole = (top + box[:, 0] >= 0) & (top + box[:, 1] < height) & (left + box[:, 2] >= 0) & \
            (left + box[:, 3] < width)
        at_parts, ink_parts = [], []
        if whole.all():
            kinds, inverse = np.unique(which, return_inverse=True)
            if len(which) >= 8 * len(kinds):
                order = np.argsort(inverse, kind="stable")
                spans = np.searchsorted(inverse[order], np.arange(len(kinds) + 1))
                for n, k in enumerate(kinds.tolist()):
                    group = order[spans[n]:spans[n + 1]]
                    rows, cols, ink = self.masks[k]
                    at = (top[group] * width + left[group])[:, None] + (rows * width + cols)[None, :]
                    at_parts.append(at.ravel())
                    ink_parts.append(np.broadcast_to(ink, at.shape).ravel())
                _blend(canvas, np.concatenate(at_parts), np.concatenate(ink_parts), colour)
                return
        rows, cols, ink = self._pixels(which, top, left)  # with the copies over the canvas's edge
        on = (rows >= 0) & (rows < height) & (cols >= 0) & (cols < width)
        if on.any():
            _blend(canvas, (rows * width + cols)[on], ink[on], colour)

    def _pixels(self, which: np.ndarray, top: np.ndarray, left: np.ndarray):
        """Canvas rows, columns and coverage of every pixel of every copy, the masks laid end to end."""
        if self._joined is None:
            self._joined = tuple(np.concatenate([m[i] for m in self.masks]) for i in range(3))
        rows, cols, ink = self._joined
        counts = self.count[which]
        copy = np.repeat(np.arange(len(which)), counts)
        first = np.cumsum(counts) - counts
        at = np.arange(counts.sum()) - first[copy] + self.start[which][copy]
        return top[copy] + rows[at], left[copy] + cols[at], ink[at]


@lru_cache(maxsize=256)
def _char_stack(weight: str, style: str, px: float, stroke: float, keys: tuple[int, ...]) -> _Stack:
    """The masks of the characters ``keys`` (code point * PHASES + phase) in one style and size: the
    same labels drawn again (every turn's town names) find them ready."""
    return _Stack([_mask(chr(key // PHASES), weight, style, px, key % PHASES, stroke) if key // PHASES else None
                   for key in keys])


@lru_cache(maxsize=8192)
def _mask(char: str, weight: str, style: str, px: float, phase: int, stroke: float):
    """The inked pixels of one character: rows from the baseline, columns from the pen's pixel, coverage
    0..1; the outline sits ``phase`` quarter pixels right of the pen's pixel. None where nothing shows."""
    verts, codes, _ = _glyph(char, weight, style)
    if not len(verts):
        return None
    return _coverage(verts[:, 0] * px + phase / PHASES, -verts[:, 1] * px, codes, stroke, fill=True)


def _coverage(x: np.ndarray, y: np.ndarray, codes, stroke: float, *, fill: bool):
    """Rasterise a path given in pixels (y growing downward) with Agg: the rows, columns (whole pixels
    from the origin) and coverage of every touched pixel. ``stroke`` is the outline's width in pixels."""
    margin = stroke / 2 + 1
    left, top = int(np.floor(x.min() - margin)), int(np.floor(y.min() - margin))
    width = int(np.ceil(x.max() + margin)) - left + 1
    height = int(np.ceil(y.max() + margin)) - top + 1
    renderer = RendererAgg(width, height, 72)  # at 72 dpi a point is a pixel
    gc = renderer.new_gc()
    gc.set_antialiased(True)
    gc.set_linewidth(stroke)
    gc.set_joinstyle("round")
    gc.set_capstyle("round")
    gc.set_foreground((0, 0, 0, 1))
    outline = Path(np.column_stack([x - left, height - (y - top)]), codes)
    renderer.draw_path(gc, outline, IdentityTransform(), (0, 0, 0, 1) if fill else None)
    coverage = np.asarray(renderer.buffer_rgba())[..., 3]
    rows, cols = np.nonzero(coverage >= FAINT)
    weight = (coverage[rows, cols].astype(np.uint32) * 256 + 127) // 255  # 0..256, for _blend
    return (rows + top).astype(np.int64), (cols + left).astype(np.int64), weight


def _blend(canvas: np.ndarray, at: np.ndarray, weight: np.ndarray, colour) -> None:
    """Paint ``colour`` over ``canvas`` (rows x columns x RGBA bytes, straight alpha) at the flat pixel
    numbers ``at`` with coverage ``weight`` (0..256). A pixel listed twice takes one of its coverages."""
    flat = canvas.view(np.uint32).reshape(-1)  # a pixel as one number: numpy moves those quickly
    under = flat[at]
    paint = np.array([round(c * 255) for c in colour[:3]] + [255], np.uint8).view(np.uint32)[0]
    if colour[3] < 1:
        weight = (weight * round(colour[3] * 256) + 128) >> 8
    opaque = under >= 0xFF000000 if np.little_endian else (under & 0xFF) == 0xFF
    if opaque.all():  # an opaque canvas (the usual white figure): two bytes at a time, each in a 16-bit lane
        keep = 256 - weight
        low = ((paint & 0x00FF00FF) * weight + (under & 0x00FF00FF) * keep) >> 8 & 0x00FF00FF
        high = ((paint >> 8 & 0x00FF00FF) * weight + (under >> 8 & 0x00FF00FF) * keep) & 0xFF00FF00
        flat[at] = low | high
        return
    rgba = under.view(np.uint8).reshape(-1, 4).astype(np.float32) / 255
    ink = (weight.astype(np.float32) / 256)[:, None]
    keep = rgba[:, 3:] * (1 - ink)
    alpha = ink + keep
    mixed = np.empty_like(rgba)
    mixed[:, :3] = (np.array(colour[:3], np.float32) * ink + rgba[:, :3] * keep) / np.maximum(alpha, 1e-6)
    mixed[:, 3:] = alpha
    flat[at] = (mixed * 255 + 0.5).astype(np.uint8).view(np.uint32).reshape(-1)


def add_labels(container, texts: Sequence[str], positions, size: float, *, colour: str = "black",
               halo: float = 0.0, zorder: float = 6, transform=None, **layout) -> None:
    """Draw labels as one artist (white halo beneath when ``halo`` > 0, in points).

    ``container`` is an Axes (data units) or a Figure with ``transform`` (e.g. inches, y down). PNGs get
    the labels stamped from cached character masks (gm.hexmap.stamps); SVGs get the glyph outlines.
    """
    if not len(texts):
        return
    labels = Labels(texts, positions, size, colour=colour, halo=halo, zorder=zorder, **layout)
    if transform is not None:
        labels.set_transform(transform)
    # add_artist, not add_patch: the axes limits are fixed, and fitting them to glyph curves is slow
    container.add_artist(labels)
