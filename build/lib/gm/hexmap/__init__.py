"""Hex maps shared by the hex games: geometry (grid), map files (mapfile), least-cost paths (paths).

Drawing starts at gm.hexmap.render: PNGs are painted with Pillow (raster, canvas, lettering,
rasterkey, with trackplan and placing shared by both kinds of file, what never changes kept by
basecache and maskstore); SVGs are a matplotlib Figure (figure, helped by features, stamps,
layers, legend, glyphs and shapes) with hex centres from the hexalattice adapter gm.hexmap.lattice.
Import the drawing modules only where a picture is wanted.
"""
from gm.hexmap.grid import Grid, make_label, parse_label

__all__ = ["Grid", "make_label", "parse_label"]
