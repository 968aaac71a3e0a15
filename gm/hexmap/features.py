"""What a hex map shows, each kind of thing as few artists as possible: drawing only, no rules.

Every function adds its artists to a ``board`` (gm.hexmap.figure.Board), in hex units with y growing
downward. ``at`` maps a hex label to its centre; ``s`` scales sizes tuned at a quarter-inch hex and
``pt`` is one typographic point in hex units. The unchanging ones (terrain to hex numbers) go into
the map's kept layer (gm.hexmap.layers); the rest are drawn above the track every time.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Mapping, Sequence

import numpy as np
from matplotlib.collections import PolyCollection

from gm.hexmap import shapes, trackplan
from gm.hexmap.grid import SQRT3, Grid
from gm.hexmap.lattice import grid_centres
from gm.hexmap.model import HexMap
from gm.hexmap.placing import (COUNTRY_PT, FERRY_PT, LINE_SPACING, country_text, ferry_text, town_name_style,
                              town_radius)
from gm.hexmap.stamps import HexSides, add_labels
from gm.hexmap.style import (BLOCKED, CASING, FERRY, FOREIGN, GRID_EDGE, GRID_LINE_PT, HEX_NUMBER, LAKE_NUMBER,
                             MOUNTAIN, MOUNTAIN_INK, NUMBER_PT, RIVER, SPECIAL, START, SWAMP_HATCH, SWAMP_INK,
                             TERRAIN_COLOURS, WATER_NUMBER, WIDE_RIVER)
from gm.hexmap.trackplan import NUMBER_ABOVE  # one number for the PNG and the SVG


# --- the unchanging layer ------------------------------------------------------------------------------
def terrain(board, grid: Grid, centres: np.ndarray, letters: np.ndarray, s: float) -> None:
    """Every hex in its terrain's colour (one PolyCollection), then the hex sides over them."""
    on_map = letters != "x"
    faces = [TERRAIN_COLOURS.get(letter, "white") for letter in letters[on_map]]
    board.add_artist(PolyCollection(shapes.placed(shapes.HEXAGON, centres[on_map]), facecolors=faces,
                                    edgecolors="none", linewidths=0, zorder=1.1))
    board.add_artist(HexSides(centres[on_map], _open_sides(grid, letters.astype("S1").tobytes()), colour=GRID_EDGE,
                              width=GRID_LINE_PT * s, zorder=1.15))
    swamp = letters == "s"
    if swamp.any():  # hatching kept below the hex number
        board.add_artist(shapes.hatched(shapes.placed(shapes.HEXAGON, centres[swamp] + [0.0, 0.14], 0.6),
                                        SWAMP_INK, SWAMP_HATCH))
    mountain = letters == "m"
    if mountain.any():
        peaks = shapes.placed(shapes.TRIANGLE, centres[mountain] + [0.0, 0.16], 0.82)
        board.add_artist(shapes.filled(peaks, MOUNTAIN, edge=MOUNTAIN_INK, width=0.6 * s, zorder=2))


@lru_cache(maxsize=16)
def _open_sides(grid: Grid, letters: bytes) -> np.ndarray:
    """For each hex on the map, which of its lower sides (0, 1, 2: see HexSides) face no hex on the map."""
    kinds = np.frombuffer(letters, dtype="S1").astype(str)
    centres = grid_centres(grid)
    # hexes on a lattice of half rows: column index, and row index in half-hex steps
    on_map = kinds != "x"
    col = np.rint(centres[:, 0] / 1.5).astype(np.int64)
    half = np.rint(centres[:, 1] / (SQRT3 / 2)).astype(np.int64)
    present = np.zeros((col.max() + 3, half.max() + 4), bool)
    present[col[on_map] + 1, half[on_map]] = True
    across = [(1, 1), (0, 2), (-1, 1)]  # the hexes beyond sides 0, 1 and 2
    return np.stack([~present[col[on_map] + 1 + dc, half[on_map] + dh] for dc, dh in across], axis=1)


def foreign_lands(board, hexmap: HexMap, at: dict, s: float) -> None:
    """Each foreign country: tinted, its frontier with home land, its entry hexes, its permitted routes."""
    grid = hexmap.grid
    for country in hexmap.foreign:
        spots = np.array([at[h] for h in country.hexes])
        board.add_artist(shapes.filled(shapes.placed(shapes.HEXAGON, spots), FOREIGN, zorder=2, alpha=0.2))
        inside = set(country.hexes)
        frontier = [(h, n) for h in country.hexes for n in grid.neighbours(h)
                    if n not in inside and hexmap.buildable(n)]
        if frontier:
            board.add_artist(shapes.strokes(side_segments(frontier, at), FOREIGN, 2.4 * s,
                                            style=(0, (5, 1.5, 1, 1.5)), zorder=4, capstyle="butt"))
        if country.entry_hexes:
            entry = shapes.placed(shapes.HEXAGON, np.array([at[h] for h in country.entry_hexes]), 0.9)
            board.add_artist(shapes.outlined(entry, FOREIGN, 1.6 * s, zorder=4, style=(0, (2, 1))))
        routes = [[at[h] for h in route] for route in country.permitted_routes]
        if routes:
            board.add_artist(shapes.strokes(routes, FOREIGN, 2.0 * s, style=(0, (3, 1.5)), zorder=5, capstyle="butt"))


def rivers(board, hexmap: HexMap, at: dict, s: float) -> None:
    """Rivers, wide rivers and impassable sides, each drawn along the hex sides they follow."""
    for sides, colour, width, style, z in ((hexmap.rivers, RIVER, 2.2, "solid", 3),
                                           (hexmap.wide_rivers, WIDE_RIVER, 4.6, "solid", 3),
                                           (hexmap.impassable_sides, BLOCKED, 3.6, (0, (1.2, 0.9)), 4)):
        if sides:
            segments = side_segments([side.split("/") for side in sorted(sides)], at)
            board.add_artist(shapes.strokes(segments, colour, width * s, style=style, zorder=z))


def side_segments(pairs: Sequence[Sequence[str]], at: dict) -> np.ndarray:
    """The side between each pair of adjacent hexes, as its two end points: shape (n, 2, 2)."""
    p = np.array([at[a] for a, _ in pairs], float)
    q = np.array([at[b] for _, b in pairs], float)
    middle, step = (p + q) / 2, q - p
    half = np.stack([-step[:, 1], step[:, 0]], axis=1) / np.hypot(*step.T)[:, None] * 0.5  # half a side
    return np.stack([middle - half, middle + half], axis=1)


def ferry_sites(board, hexmap: HexMap, at: dict, s: float) -> None:
    if hexmap.ferries:
        lines = [[at[f.ends[0]], at[f.ends[1]]] for f in hexmap.ferries]
        board.add_artist(shapes.strokes(lines, FERRY, 1.8 * s, style=(0, (4, 2.5)), zorder=5, capstyle="butt"))


def starts(board, hexmap: HexMap, at: dict, s: float) -> None:
    if hexmap.start:
        rings = shapes.placed(shapes.HEXAGON, np.array([at[h] for h in hexmap.start]), 0.88)
        board.add_artist(shapes.outlined(rings, START, 2.2 * s, zorder=5.5))


def hex_numbers(board, grid: Grid, letters: np.ndarray, s: float, *, only: Iterable[str] | None = None) -> None:
    """Every hex's number (or ``only`` those, white-haloed: they are drawn again above the track)."""
    size = NUMBER_PT / (0.25 * 72)  # points at a quarter-inch hex, in hex radii
    names = np.array(grid.labels())
    spots = grid_centres(grid) + np.array([0.0, -NUMBER_ABOVE])
    chosen = np.ones(len(names), bool) if only is None else np.isin(names, sorted(only))
    halo = 0.0 if only is None else 2.0 * s
    for kinds, colour in ((".fsm", HEX_NUMBER), ("~", WATER_NUMBER), ("l", LAKE_NUMBER)):
        mine = chosen & np.isin(letters, list(kinds))
        if mine.any():
            add_labels(board, names[mine], spots[mine], size, colour=colour, halo=halo, zorder=7.5)


# --- above the track ----------------------------------------------------------------------------------------
def foreign_names(board, hexmap: HexMap, s: float, pt: float, places: dict) -> None:
    """Each foreign country's name where gm.hexmap.placing put it."""
    for country in hexmap.foreign:
        add_labels(board, [country_text(country)], [places[country.name]], COUNTRY_PT * s * pt, colour=FOREIGN,
                   halo=2.5 * s, zorder=8, va="top", weight="bold", style="italic", linespacing=LINE_SPACING)


def ferry_names(board, hexmap: HexMap, s: float, pt: float, places: dict) -> None:
    """Each ferry's name where gm.hexmap.placing put it."""
    if hexmap.ferries:
        add_labels(board, [ferry_text(f) for f in hexmap.ferries], [places[f.id] for f in hexmap.ferries],
                   FERRY_PT * s * pt, colour=FERRY, halo=2 * s, zorder=8, va="top", style="italic")


def towns(board, hexmap: HexMap, at: dict, s: float, pt: float, names: dict) -> None:
    """Town circles, their numbers, and their names where gm.hexmap.placing put them."""
    listed = hexmap.town_list()
    if not listed:
        return
    spots = np.array([at[t.hex] for t in listed])
    radii = np.array([town_radius(t) for t in listed])
    board.add_artist(shapes.filled(shapes.placed(shapes.CIRCLE, spots, radii), "white", edge="black",
                                   width=1.2 * s, zorder=10))
    for kind, size in (("small", 4.4), ("one", 5.8), ("many", 4.6)):
        chosen = [i for i, t in enumerate(listed) if _kind(t) == kind]
        add_labels(board, ["\n".join(str(n) for n in listed[i].numbers) for i in chosen], spots[chosen],
                   size * s * pt, zorder=11, weight="bold", linespacing=1.1)
    for town in listed:
        x, top, ha = names[town.hex]
        points, weight = town_name_style(town)
        add_labels(board, [town.name], [(x, top)], points * s * pt, halo=2.4 * s, zorder=11, va="top", ha=ha,
                   weight=weight)


def _kind(town) -> str:
    return "small" if town.small else "many" if len(town.numbers) > 1 else "one"


def specials(board, hexmap: HexMap, at: dict, s: float, pt: float, labels: dict) -> None:
    for special_id, special in hexmap.specials.items():
        spots = np.array([at[h] for h in special["hexes"]])
        stars = shapes.placed(shapes.STAR, spots + [0.55, -0.3], 0.3)
        board.add_artist(shapes.filled(stars, SPECIAL, edge="black", width=0.7 * s, zorder=12))
        x, baseline, ha = labels[special_id]
        add_labels(board, [f"{special_id}: {special['name']}"], [(x, baseline)], 7.2 * s * pt, colour="#6b4f00",
                   halo=2.4 * s, zorder=12, ha=ha, va="baseline", weight="bold")


# --- track ------------------------------------------------------------------------------------------------
def track(board, links: Mapping[str, Iterable[Sequence[str]]], paint: Mapping[str, str], at: dict,
          s: float) -> set[str]:
    """Each company's links as gm.hexmap.trackplan places them (the PNG's plan): all casings first,
    in two collections, then each company's colour in its own; links between hexes that are not
    neighbours (ferries) dashed. Returns the hexes whose numbers the track covers."""
    lines, covered = trackplan.plan(links, at)
    if not lines:
        return set()
    styles = (("solid", False), ((0, (3, 2)), True))
    for style, dashed in styles:  # a dark casing keeps pale colours (yellow) visible on pale land
        chosen = [(a, b) for _, a, b, far in lines if far == dashed]
        if chosen:
            board.add_artist(shapes.strokes(np.array(chosen, float), CASING, 3.9 * s, style=style, zorder=7))
    for company in links:
        for style, dashed in styles:
            mine = [(a, b) for owner, a, b, far in lines if owner == company and far == dashed]
            if mine:
                board.add_artist(shapes.strokes(np.array(mine, float), paint[company], 2.5 * s, style=style,
                                                zorder=7.1))
    return covered
