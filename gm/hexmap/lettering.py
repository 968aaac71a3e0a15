"""Text on a Pillow image without matplotlib: DejaVu Sans (the face matplotlib draws with), smooth.

Text is drawn at twice the size and reduced, so letters keep their outlines' shapes and weights (at
full size FreeType's hinting narrows small digits) and sit to half a pixel. A map's hex numbers are
many copies of few characters: each character is drawn once per style and phase, then pasted
(``stamped=True``); names are drawn whole. Every mask is kept for the process. A halo (the white
outline that keeps a label readable over track) is the text's mask spread by a box blur and
strengthened, pasted first. Sizes are pixels.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from gm.store.fonts import font_file
from gm.hexmap.canvas import _masks, kept_mask, paste, rgb

TEXT_SUPER = 2  # text is drawn at twice the size: phases of half a pixel

CAP = 0.73  # height of digits and capitals, as a fraction of the font size (DejaVu Sans)
ALIGN = {"left": 0.0, "center": 0.5, "right": 1.0}


@lru_cache(maxsize=64)
def font(weight: str, style: str, size: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = font_file(weight, style)
    if path is None:
        return ImageFont.load_default(size)
    return ImageFont.truetype(path, size)


def advance(text: str, size: float, weight: str = "normal", style: str = "normal") -> float:
    """The width of ``text`` at ``size`` pixels, unhinted and unkerned, as the labels are set."""
    return sum(_unit_advance(c, weight, style) for c in text) * size


@lru_cache(maxsize=4096)
def _unit_advance(char: str, weight: str, style: str) -> float:
    return font(weight, style, 400.0).getlength(char) / 400.0


class Lettering:
    """Labels on ``image``: positions in pixels (y down), ``size`` the font size in pixels."""

    def __init__(self, image: Image.Image):
        self.image = image

    def labels(self, texts: Sequence[str], positions: Sequence[tuple[float, float]], size: float, *,
               colour="black", halo: float = 0.0, ha: str = "center", va: str = "center",
               weight: str = "normal", style: str = "normal", linespacing: float = 1.05,
               stamped: bool = False) -> None:
        """Each text at its (x, y): ``ha`` left|center|right, ``va`` top|center|baseline about the
        first line's box as in gm.hexmap.glyphs; ``halo`` the white outline's width in pixels."""
        if size < 1:
            return
        lines = []
        for text, (x, y) in zip(texts, positions):
            parts = str(text).split("\n")
            block = (len(parts) - 1) * linespacing * size
            offset = {"top": CAP * size, "center": CAP * size / 2 - block / 2, "baseline": 0.0}[va]
            for n, part in enumerate(parts):
                if part:
                    left = x - ALIGN[ha] * advance(part, size, weight, style)
                    lines.append((part, left, y + offset + n * linespacing * size))
        passes = ([(halo, (255, 255, 255))] if halo > 0 else []) + [(0.0, rgb(colour))]
        for stroke, ink in passes:
            for part, left, baseline in lines:
                if stamped:
                    self._stamp(part, left, baseline, size, weight, style, stroke, ink)
                else:
                    self._whole(part, left, baseline, size, weight, style, stroke, ink)

    def _stamp(self, text: str, left: float, baseline: float, size: float, weight: str, style: str,
               halo: float, ink) -> None:
        row = math.floor(baseline + 0.5)
        pen = left
        size, halo = round(size, 2), round(halo, 2)
        for char in text:
            steps = math.floor(pen * TEXT_SUPER + 0.5)
            paste(self.image, _text_mask(char, weight, style, size, halo, steps % TEXT_SUPER),
                  steps // TEXT_SUPER, row, ink)
            pen += _unit_advance(char, weight, style) * size

    def _whole(self, text: str, left: float, baseline: float, size: float, weight: str, style: str,
               halo: float, ink) -> None:
        steps = math.floor(left * TEXT_SUPER + 0.5)
        kept = _text_mask(text, weight, style, round(size, 2), round(halo, 2), steps % TEXT_SUPER)
        paste(self.image, kept, steps // TEXT_SUPER, math.floor(baseline + 0.5), ink)


_STRONGER = [min(255, v * 2) for v in range(256)]
_PAD = 5  # room for a halo around the ink, in pixels


def _text_mask(text: str, weight: str, style: str, size: float, halo: float, phase: int):
    """The kept mask of ``text`` about its pen position's pixel on the baseline (see canvas.kept_mask);
    with ``halo`` > 0, the halo's mask instead: the text spread about halo / 2 pixels each way. Kept
    with the shapes' masks (and so on disk, gm.hexmap.maskstore)."""
    key = ("text", text, weight, style, size, halo, phase)
    kept = _masks.get(key)
    if kept is not None:
        return kept
    small, left, top = _rendered(text, weight, style, size, _PAD, phase)
    if small is None:
        kept = (None, 0, 0, 0, 0)
    else:
        if halo > 0:  # a pixel's worth of every neighbour's ink, softened by the rest of halo / 2
            small = small.filter(ImageFilter.MaxFilter(3)).filter(ImageFilter.BoxBlur(max(halo / 2 - 1, 0.3)))
            small = small.point(_STRONGER)
        kept = kept_mask(small, left, top)
    _masks[key] = kept
    return kept


@lru_cache(maxsize=1024)
def _rendered(text: str, weight: str, style: str, size: float, pad: int, phase: int):
    """``text`` drawn at TEXT_SUPER times the size and reduced: (L image, left, top) with ``pad``
    pixels of room around the ink."""
    if not text.strip():
        return None, 0, 0
    face = font(weight, style, size * TEXT_SUPER)
    x0, y0, x1, y1 = face.getbbox(text, anchor="ls")
    left, top = math.floor(x0 / TEXT_SUPER) - pad, math.floor(y0 / TEXT_SUPER) - pad
    right, bottom = math.ceil(x1 / TEXT_SUPER) + pad, math.ceil(y1 / TEXT_SUPER) + pad
    big = Image.new("L", ((right - left) * TEXT_SUPER, (bottom - top) * TEXT_SUPER), 0)
    ImageDraw.Draw(big).text((phase - left * TEXT_SUPER, -top * TEXT_SUPER), text, font=face, fill=255, anchor="ls")
    return big.reduce(TEXT_SUPER), left, top
