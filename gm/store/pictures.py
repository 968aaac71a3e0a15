"""Figures to image files: every board, map and chart the reports show goes through here.

A PNG is rasterised by Agg and reduced to a 256-colour palette: boards, maps and charts are flat
colours and their antialiased edges, so nothing visible is lost, and the file is about three
times smaller (it goes by e-mail, often to phones) and quicker to write than full colour. The
palette is chosen from every fourth pixel each way (a sixteenth of the work: every colour of these
pictures comes in areas or lines wider than that), then each pixel takes its nearest palette
colour; the lightest compression (level 1) writes in half the time of level 6 for a file an eighth
larger.
Other formats (SVG), and figures that draw themselves (maps and boards painted with Pillow, which
use ``palette`` too), use the figure's own ``savefig``.
Imports matplotlib and Pillow only when called.
"""
from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

from gm.store.errors import UsageError
from gm.store.fileio import atomic_write

DPI = 100  # unless the figure says otherwise with a ``gm_dpi`` attribute


def figure_bytes(figure: Any, fmt: str, *, dpi: int | None = None) -> bytes:
    """``figure`` (a matplotlib Figure, or anything with a Figure-like ``savefig``) as ``fmt`` bytes."""
    dpi = dpi or getattr(figure, "gm_dpi", DPI)
    buffer = io.BytesIO()
    if fmt == "png" and _is_matplotlib(figure):
        save_png(palette_png(figure, dpi=dpi), buffer, compress_level=1)
    else:
        figure.savefig(buffer, format=fmt, dpi=dpi)
    return buffer.getvalue()


def save_png(image, target, **params: Any) -> None:
    """``image.save(target, format="PNG", **params)`` without loading Pillow's other file formats
    first: a save naming its format makes Pillow load BMP, GIF, JPEG and PPM too (7-10 ms of every
    process that writes a picture). Only the PNG writer is loaded, and Pillow told that its first
    formats are in; any other format is still loaded when a file needs it (Pillow's full plug-in
    search runs whenever the registered ones do not recognise a file)."""
    from PIL import Image, PngImagePlugin  # noqa: F401 - registers the PNG writer

    if Image._initialized < 1:  # Pillow's own mark that preinit() has run
        Image._initialized = 1
    image.save(target, format="PNG", **params)


def palette_png(figure, *, dpi: int):
    """The figure rasterised by Agg, as a palette PIL image (save it as PNG)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    figure.set_dpi(dpi)
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    rgba = canvas.buffer_rgba()  # read in place: no copy of the canvas before the one in RGB
    width, height = canvas.get_width_height()
    full = Image.frombuffer("RGBA", (width, height), rgba, "raw", "RGBA", 0, 1).convert("RGB")
    del rgba, canvas
    return palette(full)


def palette(rgb, colours: int = 256):
    """A full-colour PIL image reduced to ``colours`` colours chosen from every fourth pixel each way."""
    from PIL import Image

    width, height = rgb.size
    sample = rgb.resize((max(width // 4, 1), max(height // 4, 1)), Image.Resampling.NEAREST)
    chosen = sample.quantize(colours, method=Image.Quantize.FASTOCTREE)
    return rgb.quantize(palette=chosen, dither=Image.Dither.NONE)


def _is_matplotlib(figure: Any) -> bool:
    """Whether ``figure`` is a matplotlib Figure, without importing matplotlib (a second of start-up)
    for the games that draw with Pillow: a Figure exists only once matplotlib is loaded."""
    module = sys.modules.get("matplotlib.figure")
    return module is not None and isinstance(figure, module.Figure)


def save(figure: Any, out: str) -> None:
    """Write ``figure`` to ``out`` as PNG or SVG (by its ending), atomically."""
    fmt = Path(out).suffix.lower().lstrip(".")
    if fmt not in ("png", "svg"):
        raise UsageError(f"{out}: the image must end in .png or .svg")
    atomic_write(out, figure_bytes(figure, fmt))
