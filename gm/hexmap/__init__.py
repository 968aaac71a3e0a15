"""Hex maps shared by the hex games: geometry (grid), map files (mapfile), least-cost paths (paths).

Drawing lives in gm.hexmap.render and the hexalattice adapter in gm.hexmap.lattice; both import
matplotlib, so import them only where a picture is wanted.
"""
from gm.hexmap.grid import Grid, make_label, parse_label

__all__ = ["Grid", "make_label", "parse_label"]
