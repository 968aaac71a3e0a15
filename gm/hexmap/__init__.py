"""Hex maps shared by the hex games: geometry (grid), map files (mapfile), least-cost paths (paths).

Drawing lives in gm.hexmap.render (helped by features, stamps, layers, legend, glyphs, shapes and
style) and the hexalattice adapter in gm.hexmap.lattice; they import matplotlib, so import them
only where a picture is wanted.
"""
from gm.hexmap.grid import Grid, make_label, parse_label

__all__ = ["Grid", "make_label", "parse_label"]
