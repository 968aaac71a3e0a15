"""Map pictures keep their look: the PNG against kept golden pictures and against the SVG's Figure (the
renderer the PNG replaced), each within a tolerance; the unchanging layer kept on disk gives the same
bytes as painting afresh. Regenerate the golden pictures with GM_REGEN_GOLDEN=1 (then look at them)."""
from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from gm.hexmap import basecache, maskstore
from gm.games.railway_rivals.hexmaps import load_map
from gm.hexmap.render import draw_map
from gm.store.pictures import figure_bytes, palette_png

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from bench_hexmap import COMPANIES, plausible_track  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden"
COLOURS = dict(zip(COMPANIES, ["#1f63c6", "#d62728", "#2a9d3a", "#ef8a00", "#8e44ad", "#8c564b"]))
# (map, crop box or None): Scotland's middle and its key keep the golden file small
PICTURES = {"tutorial": None, "scotland": [(300, 1100, 1100, 1900), (0, 2400, 1689, 2564)]}


@pytest.fixture(autouse=True)
def _no_kept_layers(monkeypatch, tmp_path):
    monkeypatch.setenv("GM_CACHE_DIR", str(tmp_path / "cache"))
    basecache.forget()


def _picture(name: str):
    hexmap = load_map(name)
    return draw_map(hexmap, track=plausible_track(hexmap), colours=COLOURS, title=hexmap.name,
                    names={c: f"{c.title()} Railway" for c in COMPANIES}, highlight=[hexmap.grid.labels()[40]])


def _pixels(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("RGB")).astype(int)


def _crops(image: Image.Image, name: str) -> Image.Image:
    """The parts of a palette picture kept as golden, one above the other, in its palette."""
    boxes = PICTURES[name]
    if boxes is None:
        return image
    parts = [image.crop(box) for box in boxes]
    white = image.getpixel((0, 0))  # the page's corner: white
    out = Image.new("P", (max(p.width for p in parts), sum(p.height for p in parts)), white)
    out.putpalette(image.getpalette())
    y = 0
    for part in parts:
        out.paste(part, (0, y))
        y += part.height
    return out


def _difference(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """(mean difference per channel, share of pixels off by more than 40 in some channel)."""
    assert a.shape == b.shape
    return float(np.abs(a - b).mean()), float((np.abs(a - b).max(axis=2) > 40).mean())


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_the_png_matches_its_golden_picture(name):
    png = Image.open(io.BytesIO(figure_bytes(_picture(name), "png")))
    assert png.mode == "P"
    ours = _crops(png, name)
    golden = GOLDEN / f"{name}.png"
    if os.environ.get("GM_REGEN_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        ours.save(golden, optimize=True)
    mean, off = _difference(_pixels(ours), _pixels(Image.open(golden)))
    assert mean < 1.5 and off < 0.01, (mean, off)


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_the_png_looks_like_the_svg_figure(name):
    picture = _picture(name)
    ours = _pixels(picture.image())
    theirs = _pixels(palette_png(picture.figure(), dpi=picture.gm_dpi))
    mean, off = _difference(ours, theirs)
    assert mean < 4 and off < 0.04, (mean, off)  # antialiasing and glyph edges differ, nothing more
    # at a quarter of the size (a pixel or so of difference in an edge forgiven) nearly nothing differs
    small = [_pixels(Image.fromarray(p.astype(np.uint8)).reduce(4)) for p in (ours, theirs)]
    assert _difference(*small)[1] < 0.01


def test_the_layer_and_masks_kept_on_disk_give_the_same_bytes_as_painting_afresh(tmp_path, monkeypatch):
    maskstore.forget()
    fresh = figure_bytes(_picture("tutorial"), "png")
    kept = list((tmp_path / "cache").glob("layer-*.bin")) + list((tmp_path / "cache").glob("masks-*.bin"))
    assert len(kept) == 2
    basecache.forget()  # a later process: reads the layer and the masks from disk
    maskstore.forget()
    assert figure_bytes(_picture("tutorial"), "png") == fresh
    for damaged in kept:  # damaged files are painted afresh
        damaged.write_bytes(b"not a picture")
    basecache.forget()
    maskstore.forget()
    assert figure_bytes(_picture("tutorial"), "png") == fresh
    monkeypatch.setenv("GM_CACHE_DIR", "off")
    basecache.forget()
    for old in (tmp_path / "cache").iterdir():
        old.unlink()
    assert figure_bytes(_picture("tutorial"), "png") == fresh
    assert list((tmp_path / "cache").iterdir()) == []
