"""Figures to image bytes: 256-colour PNGs at the figure's own size, SVG and self-drawing figures as they are."""
from __future__ import annotations

import io

import numpy as np
from matplotlib.figure import Figure
from PIL import Image

from gm.store.pictures import figure_bytes


def _chart() -> Figure:
    fig = Figure(figsize=(4, 3))
    ax = fig.add_subplot()
    for n, colour in enumerate(["#1f63c6", "#d62728", "#2a9d3a", "#ef8a00"]):
        ax.plot(np.arange(10), np.arange(10) * (n + 1), color=colour, linewidth=2)
    ax.set_title("Capital by turn")
    return fig


def test_png_is_a_palette_picture_at_the_figure_s_resolution():
    fig = _chart()
    fig.gm_dpi = 90
    with Image.open(io.BytesIO(figure_bytes(fig, "png"))) as image:
        assert image.format == "PNG" and image.mode == "P" and image.size == (360, 270)
        pixels = np.asarray(image.convert("RGB")).reshape(-1, 3).astype(int)
    for colour in ([0x1F, 0x63, 0xC6], [0xD6, 0x27, 0x28], [0x2A, 0x9D, 0x3A], [0xEF, 0x8A, 0x00]):
        assert (np.abs(pixels - colour).sum(axis=1) < 30).sum() > 100, colour  # each line keeps its colour


def test_the_palette_picture_matches_full_colour_closely():
    fig = _chart()
    full = io.BytesIO()
    fig.savefig(full, format="png", dpi=100)
    ours = np.asarray(Image.open(io.BytesIO(figure_bytes(fig, "png", dpi=100))).convert("RGB")).astype(int)
    theirs = np.asarray(Image.open(full).convert("RGB")).astype(int)
    assert ours.shape == theirs.shape and np.abs(ours - theirs).mean() < 1.5


def test_svg_and_self_drawing_figures_use_their_own_savefig():
    assert figure_bytes(_chart(), "svg").lstrip().startswith(b"<?xml")

    class Board:
        gm_dpi = 72

        def savefig(self, target, format: str, dpi: int) -> None:  # noqa: A002 - as Figure.savefig
            target.write(f"{format}@{dpi}".encode())

    assert figure_bytes(Board(), "png") == b"png@72"
