"""The one adapter around hexalattice: hex centres for a Grid, from its lattice geometry only.

hexalattice builds pointy-topped lattices in rows, every second row shifted right by half a hex.
Transposed, that is our flat-topped lattice in columns, every second column shifted down. Its
argument check calls exit() (status 0) on a bad argument, so everything is validated here first;
its plotting (do_plot=True) is never used: it crashes on current numpy. It imports pyplot, so this
module is imported only by the SVG figure (gm.hexmap.figure); PNGs take centres from Grid.center.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from gm.hexmap.grid import SQRT3, Grid

MAX_SIDE = 99


def _validated(columns: object, rows: object) -> tuple[int, int]:
    """Check the arguments hexalattice would otherwise answer with exit(): whole, positive, sane."""
    for name, value in (("columns", columns), ("rows", rows)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"lattice {name} must be a whole number, not {value!r}")
        if not 1 <= int(value) <= MAX_SIDE:
            raise ValueError(f"lattice {name} must be 1 to {MAX_SIDE}, not {value}")
    return int(columns), int(rows)


def lattice_centres(columns: int, rows: int, *, low_columns: str = "even") -> np.ndarray:
    """Centres of a columns x rows flat-topped lattice, shape (rows, columns, 2), in Grid.center units.

    Entry [row-1, col-1] is the centre of hex CCRR: x = 1.5 per column, y = sqrt(3) per row, y down.
    """
    columns, rows = _validated(columns, rows)
    if low_columns not in ("even", "odd"):
        raise ValueError(f"low_columns must be 'even' or 'odd', not {low_columns!r}")
    from hexalattice.hexalattice import create_hex_grid

    # hexalattice shifts its odd (0-based) rows; for odd-low columns one extra leading row, dropped after,
    # puts the shift on our odd-numbered columns instead.
    lead = 1 if low_columns == "odd" else 0
    flat, _ = create_hex_grid(nx=rows, ny=columns + lead, min_diam=SQRT3, n=0, align_to_origin=False,
                              face_color=None, edge_color=None, plotting_gap=0.0, crop_circ=0.0,
                              do_plot=False, rotate_deg=0.0, keep_x_sym=True)
    along, across = flat[:, 0], flat[:, 1]  # along a hexalattice row = down our column
    grid = np.empty((columns + lead, rows, 2))
    grid[..., 0] = across.reshape(columns + lead, rows)
    grid[..., 1] = along.reshape(columns + lead, rows)
    grid = grid[lead:]
    grid -= grid[0, 0] - np.array([0.0, 0.0 if low_columns == "even" else SQRT3 / 2])
    return grid.transpose(1, 0, 2).copy()


def grid_centres(grid: Grid) -> np.ndarray:
    """Centres of every hex of ``grid`` in ``grid.labels()`` order, shape (n, 2)."""
    return _centres(grid.columns, grid.rows, grid.low_columns).copy()


@lru_cache(maxsize=32)
def _centres(columns: int, rows: int, low_columns: str) -> np.ndarray:
    return lattice_centres(columns, rows, low_columns=low_columns).reshape(-1, 2)


def hexagon_vertices(centres: np.ndarray, radius: float = 1.0) -> np.ndarray:
    """The six corners of a flat-topped hex around each centre, shape (n, 6, 2), clockwise (y down)."""
    angles = np.radians(np.arange(6) * 60.0)
    ring = np.stack([np.cos(angles), np.sin(angles)], axis=1) * radius
    return centres[:, None, :] + ring[None, :, :]


def check_against(grid: Grid) -> float:
    """The largest gap between hexalattice's centres and Grid.center (for tests and the README)."""
    ours = np.array([grid.center(label) for label in grid.labels()])
    return float(np.max(np.hypot(*(grid_centres(grid) - ours).T))) if len(ours) else math.nan
