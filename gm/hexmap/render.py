"""Drawing a hex map and the companies' track on a matplotlib Figure (never pyplot); holds no rules.

Everything repeated per hex is one artist (hex faces per terrain, the grid, hex numbers, rivers, each
company's track, town markers), so a 36x46 map with six companies draws and saves in about half a
second. Drawing units: a hex's corner radius is 1; y grows downward (row 01 at the top), as in
gm.hexmap.grid. Sizes in points are scaled with the hex's size on paper.
"""
from __future__ import annotations

import os
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure

from gm.hexmap import legend, shapes
from gm.hexmap.glyphs import add_labels, add_path, labels_path
from gm.hexmap.grid import SQRT3, Grid
from gm.hexmap.lattice import grid_centres
from gm.hexmap.model import HexMap

TERRAIN_COLOURS = {".": "#f5f1df", "f": "#a9d18e", "s": "#cfe0c3", "m": "#d2ae85", "~": "#a4cbea",
                   "l": "#74c2c9"}
TERRAIN_LEGEND = {".": "plain", "f": "forest (+1 per half hex)", "s": "swamp (+2 per half hex)",
                  "m": "mountain (+2 per half hex)", "~": "sea", "l": "lake"}
SWAMP_HATCH, SWAMP_INK = "---", "#5f8f7c"
MOUNTAIN, MOUNTAIN_INK = "#b8906a", "#7a5230"
RIVER, WIDE_RIVER, BLOCKED = "#2a78b8", "#1b5690", "#a40000"
FERRY, FOREIGN, SPECIAL, START, HIGHLIGHT = "#17307a", "#6d5a8a", "#f2c200", "#111111", "#e0119d"
GRID_EDGE, HEX_NUMBER, WATER_NUMBER, CASING = "#9a9a9a", "#6e6e6e", "#3f74a0", "#202020"
PALETTE = ["#1f63c6", "#d62728", "#2a9d3a", "#ef8a00", "#8e44ad", "#8c564b", "#17becf", "#e377c2"]
HEX_INCHES = (0.2, 0.42)   # corner radius of a hex on paper: small enough to fit, big enough to read
NUMBER_PT = 4.8            # hex numbers, at a quarter-inch hex
GRID_LINE_PT = 0.75        # the hex grid's lines
TRACK_GAP = 0.2            # between parallel tracks, in hex radii: clear at the size the PNG is read
DPI = 110


def draw_map(hexmap: HexMap, *, track: Mapping[str, Iterable[Sequence[str]]] | None = None,
             colours: Mapping[str, str] | None = None, names: Mapping[str, str] | None = None,
             title: str | None = None, highlight: Iterable[str] | None = None,
             hex_numbers: bool = True) -> Figure:
    """The map with terrain, rivers, towns, ferries, foreign countries and each company's track.

    ``track`` is {company: [[hexA, hexB], ...]} (links drawn centre to centre), ``colours`` a colour
    per company (a name or '#rrggbb'), ``names`` the company names shown in the legend,
    ``highlight`` hexes to ring (a route, an error), ``hex_numbers`` False to leave them off.
    """
    grid = hexmap.grid
    labels = grid.labels()
    centres = grid_centres(grid)
    at = {label: centres[i] for i, label in enumerate(labels)}
    letters = np.array([hexmap.terrain.get(label, "x") for label in labels])
    radius_in = float(np.clip(15.0 / (1.5 * grid.columns + 0.5), *HEX_INCHES))
    s = radius_in / 0.25       # every size in points below is tuned at a quarter-inch hex
    pt = 1 / (radius_in * 72)  # one typographic point in drawing units

    companies = list(track or {})
    paint = {c: (colours or {}).get(c) or PALETTE[i % len(PALETTE)] for i, c in enumerate(companies)}
    entries = _legend_entries(hexmap, letters, companies, paint, names or {})
    fig, ax = _figure(grid, radius_in, title, entries)
    _draw_terrain(ax, centres, letters, s, pt)
    _draw_foreign(ax, hexmap, at, s, pt)
    _draw_sides(ax, hexmap, s)
    _draw_ferries(ax, hexmap, at, s, pt)
    on_track = _draw_track(ax, grid, track or {}, paint, at, s)
    if hex_numbers:
        _draw_hex_numbers(ax, grid, letters, on_track, s)
    _draw_towns(ax, hexmap, at, s, pt)
    _draw_specials_and_starts(ax, hexmap, at, s, pt)
    spots = np.array([at[h] for h in (highlight or ()) if h in at])
    if len(spots):
        ax.add_artist(shapes.outlined(shapes.placed(shapes.HEXAGON, spots, 0.95), HIGHLIGHT, 2.6 * s, zorder=9))
    legend.draw(fig, entries)
    return fig


def render_blank(path: str | os.PathLike, out_file: str | os.PathLike) -> Path:
    """`gm map render MAPFILE -o FILE`: the blank map with every hex number, as PNG or SVG."""
    from gm.hexmap.mapfile import load_map

    hexmap = load_map(path)
    return save_figure(draw_map(hexmap, title=hexmap.name), out_file)


def save_figure(fig: Figure, out_file: str | os.PathLike, *, dpi: int = DPI) -> Path:
    """Write ``fig`` as PNG or SVG (by the file's extension) atomically: temporary file, then rename.

    A PNG is reduced to a 256-colour palette: a map has few colours, and the file is three times
    smaller (it goes by e-mail) and quicker to write than full colour.
    """
    out = Path(out_file)
    kind = out.suffix.lower().lstrip(".")
    if kind not in ("png", "svg"):
        raise ValueError(f"cannot write {out.name}: give a file ending in .png or .svg")
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=f".{kind}", dir=out.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            if kind == "png":
                png_image(fig, dpi=dpi).save(handle, format="PNG", compress_level=4)
            else:
                fig.savefig(handle, format="svg", dpi=dpi)
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return out


def png_image(fig: Figure, *, dpi: int = DPI):
    """The figure rasterised by Agg, as a palette PIL image."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    fig.set_dpi(dpi)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    rgb = Image.fromarray(np.asarray(canvas.buffer_rgba())).convert("RGB")
    return rgb.quantize(256, method=Image.Quantize.FASTOCTREE)


# --- layout -------------------------------------------------------------------------------------------
def _figure(grid: Grid, radius_in: float, title: str | None, entries: list[tuple]):
    left, right = -1.1, 1.5 * (grid.columns - 1) + 1.1
    top, bottom = -SQRT3 / 2 - 0.12, SQRT3 * grid.rows + 0.12
    map_w, map_h = (right - left) * radius_in, (bottom - top) * radius_in
    pad = 0.15
    title_in, legend_in = (0.45 if title else 0.12), legend.height_needed(entries, map_w + 2 * pad)
    fig = Figure(figsize=(map_w + 2 * pad, map_h + title_in + legend_in), facecolor="white")
    width, height = fig.get_size_inches()
    ax = fig.add_axes((pad / width, legend_in / height, map_w / width, map_h / height))
    ax.set_xlim(left, right)
    ax.set_ylim(bottom, top)  # row 01 at the top
    ax.set_aspect("equal", adjustable="box")
    ax.set_axis_off()
    if title:
        fig.text(0.5, 1 - 0.25 / height, title, ha="center", va="center", fontsize=14, fontweight="bold")
    return fig, ax


def _add(ax, collection) -> None:
    ax.add_collection(collection, autolim=False)  # the limits are fixed; fitting them is wasted time


# --- terrain and map features ----------------------------------------------------------------------------
def _draw_terrain(ax, centres: np.ndarray, letters: np.ndarray, s: float, pt: float) -> None:
    # the grid lines are the gaps between slightly shrunk faces over grey: filling is far cheaper than
    # stroking 1,600 outlines; the grey needs no antialiasing (only its gaps show)
    on_map = letters != "x"
    ax.add_artist(shapes.filled(shapes.placed(shapes.HEXAGON, centres[on_map]), GRID_EDGE, zorder=1,
                                antialiased=False))
    face = 1 - GRID_LINE_PT * pt / SQRT3  # the gap between two faces is GRID_LINE_PT wide
    for letter, colour in TERRAIN_COLOURS.items():
        chosen = letters == letter
        if chosen.any():
            ax.add_artist(shapes.filled(shapes.placed(shapes.HEXAGON, centres[chosen], face), colour, zorder=1.1))
    swamp = letters == "s"
    if swamp.any():  # hatching kept below the hex number
        _add(ax, shapes.hatched(shapes.placed(shapes.HEXAGON, centres[swamp] + [0.0, 0.14], 0.6), SWAMP_INK,
                                SWAMP_HATCH))
    mountain = letters == "m"
    if mountain.any():
        peaks = shapes.placed(shapes.TRIANGLE, centres[mountain] + [0.0, 0.16], 0.82)
        ax.add_artist(shapes.filled(peaks, MOUNTAIN, edge=MOUNTAIN_INK, width=0.6 * s, zorder=2))


def _draw_sides(ax, hexmap: HexMap, s: float) -> None:
    grid = hexmap.grid
    for sides, colour, width, style, z in ((hexmap.rivers, RIVER, 2.2, "solid", 3),
                                           (hexmap.wide_rivers, WIDE_RIVER, 4.6, "solid", 3),
                                           (hexmap.impassable_sides, BLOCKED, 3.6, (0, (1.2, 0.9)), 4)):
        if sides:
            segments = [grid.side_segment(*side.split("/")) for side in sorted(sides)]
            _add(ax, LineCollection(segments, colors=colour, linewidths=width * s, linestyles=style,
                                    capstyle="round", zorder=z))


def _draw_foreign(ax, hexmap: HexMap, at: dict, s: float, pt: float) -> None:
    grid = hexmap.grid
    for country in hexmap.foreign:
        spots = np.array([at[h] for h in country.hexes])
        ax.add_artist(shapes.filled(shapes.placed(shapes.HEXAGON, spots), FOREIGN, zorder=2, alpha=0.2))
        # the frontier: every side between the country and a home land hex
        inside = set(country.hexes)
        frontier = [grid.side_segment(h, n) for h in country.hexes for n in grid.neighbours(h)
                    if n not in inside and hexmap.buildable(n)]
        if frontier:
            _add(ax, LineCollection(frontier, colors=FOREIGN, linewidths=2.4 * s, linestyles=(0, (5, 1.5, 1, 1.5)),
                                    zorder=4))
        if country.entry_hexes:
            entry = shapes.placed(shapes.HEXAGON, np.array([at[h] for h in country.entry_hexes]), 0.9)
            ax.add_artist(shapes.outlined(entry, FOREIGN, 1.6 * s, zorder=4, style=(0, (2, 1))))
        routes = [[at[h] for h in route] for route in country.permitted_routes]
        if routes:
            _add(ax, LineCollection(routes, colors=FOREIGN, linewidths=2.0 * s, linestyles=(0, (3, 1.5)), zorder=5))
        add_labels(ax, [f"{country.name}\n({country.fee_per_hex}k per hex)"], [spots.mean(axis=0)], 9 * s * pt,
                   colour=FOREIGN, halo=2.5 * s, zorder=8, weight="bold", style="italic")


def _draw_ferries(ax, hexmap: HexMap, at: dict, s: float, pt: float) -> None:
    if not hexmap.ferries:
        return
    lines = [[at[f.ends[0]], at[f.ends[1]]] for f in hexmap.ferries]
    _add(ax, LineCollection(lines, colors=FERRY, linewidths=1.8 * s, linestyles=(0, (4, 2.5)), zorder=5))
    spots = []
    for (x0, y0), (x1, y1) in lines:  # beside the line, on its upper side, clear of the ends' town names
        normal = np.array([y0 - y1, x1 - x0]) / max(np.hypot(x1 - x0, y1 - y0), 1e-9)
        normal = -normal if normal[1] > 0 else normal
        spots.append(((x0 + x1) / 2, (y0 + y1) / 2) + normal * 0.4)
    add_labels(ax, [f"{f.id}: {f.cost}k, use {f.use_fee}k" for f in hexmap.ferries], spots, 6.5 * s * pt,
               colour=FERRY, halo=2 * s, zorder=8, style="italic")


@lru_cache(maxsize=16)
def _number_paths(grid: Grid, letters: bytes, size: float) -> tuple:
    """Glyph paths of the hex numbers on land and on water (the same for every turn of a campaign)."""
    kinds = np.frombuffer(letters, dtype="S1").astype(str)
    names = np.array(grid.labels())
    spots = grid_centres(grid) + np.array([0.0, -0.6])
    land, water = np.isin(kinds, list(".fsm")), np.isin(kinds, list("~l"))
    return labels_path(names[land], spots[land], size), labels_path(names[water], spots[water], size)


def _draw_hex_numbers(ax, grid: Grid, letters: np.ndarray, on_track: set[str], s: float) -> None:
    """Numbers above the track (players quote the hexes their track runs through), haloed there only."""
    size = NUMBER_PT / (0.25 * 72)  # points at a quarter-inch hex, in hex radii
    land, water = _number_paths(grid, letters.astype("S1").tobytes(), size)
    halo = None
    if on_track:
        tracked = sorted(on_track)
        index = {h: i for i, h in enumerate(grid.labels())}
        halo = labels_path(tracked, grid_centres(grid)[[index[h] for h in tracked]] + [0.0, -0.6], size)
    if land is not None:
        add_path(ax, land, colour=HEX_NUMBER, halo=2.0 * s if halo is not None else 0, halo_path=halo, zorder=7.5)
    if water is not None:
        add_path(ax, water, colour=WATER_NUMBER, zorder=7.5)


def _draw_towns(ax, hexmap: HexMap, at: dict, s: float, pt: float) -> None:
    towns = hexmap.town_list()
    if not towns:
        return
    spots = np.array([at[t.hex] for t in towns])
    radii = np.array([0.27 if t.small else 0.42 if len(t.numbers) > 1 else 0.35 for t in towns])
    ax.add_artist(shapes.filled(shapes.placed(shapes.CIRCLE, spots, radii), "white", edge="black",
                                width=1.2 * s, zorder=10))
    for kind, size in (("small", 4.4), ("one", 5.8), ("many", 4.6)):
        chosen = [i for i, t in enumerate(towns) if _kind(t) == kind]
        add_labels(ax, ["\n".join(str(n) for n in towns[i].numbers) for i in chosen], spots[chosen],
                   size * s * pt, zorder=11, weight="bold", linespacing=1.1)
    below = spots + np.array([[0.0, 0.5 if len(t.numbers) > 1 else 0.42] for t in towns])
    for small, size, weight in ((False, 7.6, "bold"), (True, 6.6, "normal")):
        chosen = [i for i, t in enumerate(towns) if t.small == small]
        add_labels(ax, [towns[i].name for i in chosen], below[chosen], size * s * pt, halo=2.4 * s, zorder=11,
                   va="top", weight=weight)


def _kind(town) -> str:
    return "small" if town.small else "many" if len(town.numbers) > 1 else "one"


def _draw_specials_and_starts(ax, hexmap: HexMap, at: dict, s: float, pt: float) -> None:
    if hexmap.start:
        rings = shapes.placed(shapes.HEXAGON, np.array([at[h] for h in hexmap.start]), 0.88)
        ax.add_artist(shapes.outlined(rings, START, 2.2 * s, zorder=5.5))
    for special_id, special in hexmap.specials.items():
        spots = np.array([at[h] for h in special["hexes"]])
        stars = shapes.placed(shapes.STAR, spots + [0.55, -0.3], 0.3)
        ax.add_artist(shapes.filled(stars, SPECIAL, edge="black", width=0.7 * s, zorder=12))
        x, y = spots[np.argmin(spots[:, 1])]
        edge = 1.5 * (hexmap.grid.columns - 1)
        ha = "right" if x > edge - 3 else "left" if x < 3 else "center"
        x += {"right": 0.9, "left": -0.9, "center": 0}[ha]
        add_labels(ax, [f"{special_id}: {special['name']}"], [(x, y - 1.0)], 7.2 * s * pt, colour="#6b4f00",
                   halo=2.4 * s, zorder=12, ha=ha, va="baseline", weight="bold")


# --- track ------------------------------------------------------------------------------------------------
def _draw_track(ax, grid: Grid, track: Mapping[str, Iterable[Sequence[str]]], paint: Mapping[str, str],
                at: dict, s: float) -> set[str]:
    """Each company's links, centre to centre, shared links side by side; returns the hexes track uses."""
    companies = list(track)
    sharing: dict[tuple[str, str], list[str]] = {}
    for company in companies:
        for link in track[company]:
            a, b = _link(link, at)
            key = (a, b) if a < b else (b, a)
            if company not in sharing.setdefault(key, []):
                sharing[key].append(company)
    solid: dict[str, list] = {c: [] for c in companies}
    dashed: dict[str, list] = {c: [] for c in companies}  # ferries and other non-adjacent links
    for (a, b), owners in sharing.items():
        p, q = at[a], at[b]
        d = q - p
        normal = np.array([-d[1], d[0]]) / np.hypot(*d)
        for i, company in enumerate(owners):
            shift = normal * TRACK_GAP * (i - (len(owners) - 1) / 2)
            (solid if grid.adjacent(a, b) else dashed)[company].append([p + shift, q + shift])
    casing = [(segs, style) for c in companies for segs, style in ((solid[c], "solid"), (dashed[c], (0, (3, 2))))
              if segs]
    for segments, style in casing:  # a dark casing keeps pale colours (yellow) visible on pale land
        _add(ax, LineCollection(segments, colors=CASING, linewidths=3.9 * s, linestyles=style, capstyle="round",
                                zorder=7))
    for company in companies:
        for segments, style in ((solid[company], "solid"), (dashed[company], (0, (3, 2)))):
            if segments:
                _add(ax, LineCollection(segments, colors=paint[company], linewidths=2.5 * s, linestyles=style,
                                        capstyle="round", zorder=7.1))
    return {h for link in sharing for h in link}


def _link(link: Sequence[str], at: dict) -> tuple[str, str]:
    if len(link) != 2 or link[0] not in at or link[1] not in at:
        raise ValueError(f"track link {list(link)!r} is not two hexes of this map")
    return str(link[0]), str(link[1])


# --- legend -----------------------------------------------------------------------------------------------
def _legend_entries(hexmap: HexMap, letters: np.ndarray, companies: list[str], paint: Mapping[str, str],
                    names: Mapping[str, str]) -> list[tuple]:
    present = set(letters.tolist())
    entries: list[tuple] = [("patch", label, {"colour": TERRAIN_COLOURS[k], "hatch": SWAMP_HATCH if k == "s" else None,
                                              "edge": SWAMP_INK if k == "s" else GRID_EDGE})
                            for k, label in TERRAIN_LEGEND.items() if k in present]
    features = [
        (hexmap.rivers, ("line", "river (+2)", {"colour": RIVER, "width": 2.2})),
        (hexmap.wide_rivers, ("line", "wide river (+3)", {"colour": WIDE_RIVER, "width": 4.6})),
        (hexmap.impassable_sides, ("line", "impassable", {"colour": BLOCKED, "width": 3.2, "style": (0, (1.2, 0.9))})),
        (hexmap.ferries, ("line", "ferry site", {"colour": FERRY, "width": 1.8, "style": (0, (4, 2.5))})),
        (hexmap.foreign, ("patch", "foreign country", {"colour": FOREIGN, "alpha": 0.3, "edge": FOREIGN})),
        (hexmap.foreign, ("line", "frontier", {"colour": FOREIGN, "width": 2.4, "style": (0, (5, 1.5, 1, 1.5))})),
        (any(f.permitted_routes for f in hexmap.foreign),
         ("line", "permitted route", {"colour": FOREIGN, "width": 2.0, "style": (0, (3, 1.5))})),
        (hexmap.start, ("hex", "starting point", {"colour": START})),
        (hexmap.specials, ("star", "special destination", {"colour": SPECIAL})),
    ]
    entries += [entry for shown, entry in features if shown]
    entries += [("line", names.get(c, c), {"colour": paint[c], "width": 3.0, "casing": CASING}) for c in companies]
    return entries
