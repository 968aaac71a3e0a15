"""Many copies of one shape as a single artist: hexes, circles, triangles and stars placed with numpy.

Each function returns an artist ready for ``ax.add_artist`` or ``add_collection(..., autolim=False)``:
one compound path or collection per style, never one artist per hex.
"""
from __future__ import annotations

import numpy as np
from matplotlib.collections import PolyCollection
from matplotlib.patches import PathPatch
from matplotlib.path import Path


def ring(corners: int, radius: float = 1.0, start_deg: float = 0.0) -> np.ndarray:
    """A regular polygon's corners around (0, 0), y down (clockwise on screen)."""
    angles = np.radians(start_deg + np.arange(corners) * 360.0 / corners)
    return np.stack([np.cos(angles), np.sin(angles)], axis=1) * radius


HEXAGON = ring(6)
CIRCLE = ring(28)
TRIANGLE = np.array([[0.0, -0.9], [0.95, 0.75], [-0.95, 0.75]]) / 2.1
STAR = np.array([(np.cos(a) * r, np.sin(a) * r) for a, r in
                 zip(np.radians(np.arange(10) * 36 - 90), [1.0, 0.42] * 5)])


def placed(shape: np.ndarray, centres: np.ndarray, scale: float | np.ndarray = 1.0) -> np.ndarray:
    """``shape`` copied to every centre, shape (n, k, 2); ``scale`` one number or one per centre."""
    scale = np.asarray(scale, float).reshape(-1, 1, 1) if np.ndim(scale) else scale
    return np.asarray(centres, float)[:, None, :] + shape[None, :, :] * scale


def compound(polygons: np.ndarray, closed: bool = True) -> Path:
    """One Path of many polygons (n, k, 2): fills and strokes in a single Agg call."""
    n, k, _ = polygons.shape
    verts = np.concatenate([polygons, polygons[:, :1]], axis=1).reshape(-1, 2)
    one = [Path.MOVETO] + [Path.LINETO] * (k - 1) + [Path.CLOSEPOLY if closed else Path.LINETO]
    return Path(verts, np.tile(np.array(one, dtype=Path.code_type), n))


def filled(polygons: np.ndarray, colour, *, edge="none", width: float = 0.0, zorder: float = 1,
           antialiased: bool = True, alpha: float | None = None) -> PathPatch:
    return PathPatch(compound(polygons), facecolor=colour, edgecolor=edge, linewidth=width, zorder=zorder,
                     antialiased=antialiased, alpha=alpha)


def outlined(polygons: np.ndarray, colour, width: float, *, zorder: float = 1, style="solid") -> PathPatch:
    return PathPatch(compound(polygons), facecolor="none", edgecolor=colour, linewidth=width, zorder=zorder,
                     linestyle=style, joinstyle="round")


def hatched(polygons: np.ndarray, ink: str, hatch: str, *, zorder: float = 2) -> PolyCollection:
    """Hatching only (no fill, no outline); the hatch takes the edge colour."""
    return PolyCollection(polygons, facecolors="none", edgecolors=ink, linewidths=0, hatch=hatch, zorder=zorder)


def strokes(lines, colour, width: float, *, style="solid", zorder: float = 1, capstyle: str = "round") -> PathPatch:
    """Many lines (an (n, k, 2) array, or a list of (k, 2) point lists) as one stroked path: one artist
    and one Path, where a LineCollection would make a Path for every line."""
    lines = [np.asarray(line, float) for line in lines]
    verts = np.concatenate(lines) if lines else np.zeros((0, 2))
    codes = np.full(len(verts), Path.LINETO, Path.code_type)
    codes[np.cumsum([0] + [len(line) for line in lines[:-1]])] = Path.MOVETO
    return PathPatch(Path(verts, codes), facecolor="none", edgecolor=colour, linewidth=width, linestyle=style,
                     capstyle=capstyle, joinstyle="round", zorder=zorder)


def lines_of(patch: PathPatch) -> list[np.ndarray]:
    """The lines of a ``strokes`` patch, each as its points (for tests and callers)."""
    path = patch.get_path()
    starts = np.flatnonzero(path.codes == Path.MOVETO).tolist() + [len(path.vertices)]
    return [path.vertices[a:b] for a, b in zip(starts, starts[1:])]
