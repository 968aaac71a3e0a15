"""Many short labels as one artist: a map's thousand hex numbers without a thousand Text objects.

matplotlib lays out and rasterises each Text on its own (milliseconds apiece); a map of 1,200 hex
numbers then takes seconds. Here each character's outline is made once and copied into place with
numpy, so all the labels of one style are one Path. ``stamps.add_labels`` puts them on a map as one
gm.hexmap.stamps.Labels artist: stamped from masks in a PNG, these outlines in an SVG. No kerning:
labels are short.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import numpy as np
from matplotlib.font_manager import FontProperties
from matplotlib.path import Path
from matplotlib.textpath import TextPath, TextToPath

_measure = TextToPath()
CAP = 0.73  # height of digits and capitals, as a fraction of the font size (DejaVu Sans)


@lru_cache(maxsize=4096)
def _glyph(char: str, weight: str, style: str) -> tuple[np.ndarray, np.ndarray, float]:
    """Outline (vertices at size 1, y up), path codes and advance width of one character."""
    prop = FontProperties(family="DejaVu Sans", weight=weight, style=style, size=1)
    advance = _measure.get_text_width_height_descent(char, prop, ismath=False)[0]
    if char.isspace():
        return np.zeros((0, 2)), np.zeros(0, dtype=Path.code_type), advance
    path = TextPath((0, 0), char, size=1, prop=prop)
    return np.asarray(path.vertices, float), np.asarray(path.codes, Path.code_type), advance


def labels_path(texts: Sequence[str], positions: np.ndarray, size: float, *, ha: str = "center",
                va: str = "center", weight: str = "normal", style: str = "normal",
                linespacing: float = 1.05) -> Path | None:
    """One Path holding every text at its (x, y) position, in data units with y growing downward.

    ``size`` is the font size in data units; ``ha`` left|center|right, ``va`` top|center|baseline.
    """
    # where each character goes: a short loop over characters, then one numpy copy per distinct glyph
    origins: dict[str, list[tuple[float, float]]] = {}
    for text, (x, y) in zip(texts, np.asarray(positions, float).reshape(-1, 2)):
        lines = str(text).split("\n")
        block = (len(lines) - 1) * linespacing * size
        for n, line in enumerate(lines):
            advances = [_glyph(c, weight, style)[2] for c in line]
            left = x - {"left": 0.0, "center": 0.5, "right": 1.0}[ha] * sum(advances) * size
            top_offset = {"top": CAP * size, "center": CAP * size / 2 - block / 2, "baseline": 0.0}[va]
            baseline = y + top_offset + n * linespacing * size
            for char, advance in zip(line, advances):
                origins.setdefault(char, []).append((left, baseline))
                left += advance * size
    verts: list[np.ndarray] = []
    codes: list[np.ndarray] = []
    for char, spots in origins.items():
        g_verts, g_codes, _ = _glyph(char, weight, style)
        if not len(g_verts):
            continue
        shape = g_verts * np.array([size, -size])  # y flipped: the map's y grows downward
        verts.append((np.asarray(spots)[:, None, :] + shape[None, :, :]).reshape(-1, 2))
        codes.append(np.tile(g_codes, len(spots)))
    if not verts:
        return None
    return Path(np.concatenate(verts), np.concatenate(codes))
