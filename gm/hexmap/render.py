"""Drawing a hex map and the companies' track on a matplotlib Figure (never pyplot); holds no rules.

Everything repeated per hex is one vectorised collection (hexes, hatching, rivers, track, town markers)
so a 40x30 map with six companies draws in well under a second. Drawing units: the hex corner radius
is 1; y grows downward (row 01 at the top), as in gm.hexmap.grid.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import numpy as np
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
import matplotlib.patheffects as pe

from gm.hexmap.glyphs import add_labels
from gm.hexmap.grid import SQRT3
from gm.hexmap.lattice import grid_centres, hexagon_vertices
from gm.hexmap.model import HexMap

TERRAIN_COLOURS = {".": "#f5f1df", "f": "#a9d18e", "s": "#cfe0c3", "m": "#d2ae85", "~": "#9fcbe9",
                   "l": "#b9def3"}
TERRAIN_LEGEND = {".": "plain", "f": "forest (+1 per half hex)", "s": "swamp (+2 per half hex)",
                  "m": "mountain (+2 per half hex)", "~": "sea", "l": "lake"}
SWAMP_HATCH, SWAMP_INK = "---", "#5f8f7c"
MOUNTAIN_INK = "#7a5230"
RIVER, WIDE_RIVER, BLOCKED = "#2a78b8", "#1b5690", "#a40000"
FERRY, FOREIGN, SPECIAL, START, HIGHLIGHT = "#17307a", "#6d5a8a", "#f2c200", "#111111", "#e0119d"
GRID_EDGE, HEX_NUMBER = "#9a9a9a", "#707070"
PALETTE = ["#1f63c6", "#d62728", "#2a9d3a", "#ef8a00", "#8e44ad", "#8c564b", "#17becf", "#e377c2"]
HEX_INCHES = (0.2, 0.42)  # corner radius of a hex on paper: small enough to fit, big enough to read


def draw_map(hexmap: HexMap, *, track: Mapping[str, Iterable[Sequence[str]]] | None = None,
             colours: Mapping[str, str] | None = None, names: Mapping[str, str] | None = None,
             title: str | None = None, highlight: Iterable[str] | None = None,
             hex_numbers: bool = True) -> Figure:
    """The map with terrain, rivers, towns, ferries, foreign countries and each company's track.

    ``track`` is {company: [[hexA, hexB], ...]} (links drawn centre to centre), ``colours`` a colour
    per company (a name or '#rrggbb'), ``names`` the company names shown in the legend.
    """
    grid = hexmap.grid
    labels = grid.labels()
    centres = grid_centres(grid)
    at = {label: centres[i] for i, label in enumerate(labels)}
    letters = np.array([hexmap.terrain.get(label, ".") for label in labels])
    radius_in = float(np.clip(15.0 / (1.5 * grid.columns + 0.5), *HEX_INCHES))
    s = radius_in / 0.25  # every size below is tuned at a quarter-inch hex and scaled with it
    pt = 1 / (radius_in * 72)  # one typographic point in drawing units (a hex's corner radius is 1)

    fig, ax = _figure(grid.columns, grid.rows, radius_in, title)
    on_map = letters != "x"
    polys = hexagon_vertices(centres[on_map])
    faces = [TERRAIN_COLOURS[c] for c in letters[on_map]]
    ax.add_collection(PolyCollection(polys, facecolors=faces, edgecolors=GRID_EDGE, linewidths=0.35 * s,
                                     zorder=1))
    swamp = letters == "s"
    if swamp.any():  # hatch colour follows the edge colour; width 0 keeps the outline from doubling
        marsh = centres[swamp] + np.array([0.0, 0.14])  # kept below the hex number
        ax.add_collection(PolyCollection(hexagon_vertices(marsh, 0.6), facecolors="none",
                                         edgecolors=SWAMP_INK, linewidths=0, hatch=SWAMP_HATCH, zorder=2))
    mountain = letters == "m"
    if mountain.any():
        peaks = centres[mountain] + np.array([0.0, 0.12])
        ax.scatter(peaks[:, 0], peaks[:, 1], s=(13 * s) ** 2, marker="^", c="#b8906a",
                   edgecolors=MOUNTAIN_INK, linewidths=0.6 * s, zorder=2)
    _draw_foreign(ax, hexmap, at, s, pt)
    _draw_sides(ax, hexmap, s)
    _draw_ferries(ax, hexmap, at, s, pt)
    companies, on_track = _draw_track(ax, grid, track or {}, colours or {}, at, s)
    if hex_numbers:
        _draw_hex_numbers(ax, labels, centres, letters, on_track, s, pt)
    _draw_towns(ax, hexmap, at, s, pt)
    _draw_specials_and_starts(ax, hexmap, at, s, pt)
    if highlight:
        spots = np.array([at[h] for h in highlight if h in at])
        if len(spots):
            ax.add_collection(PolyCollection(hexagon_vertices(spots, 0.95), facecolors="none",
                                             edgecolors=HIGHLIGHT, linewidths=2.6 * s, zorder=9))
    _legend(fig, hexmap, letters, companies, colours or {}, names or {}, s)
    return fig


def render_blank(path: str | os.PathLike, out_file: str | os.PathLike) -> Path:
    """`gm map render MAPFILE -o FILE`: the blank map with every hex number, as PNG or SVG."""
    from gm.hexmap.mapfile import load_map

    hexmap = load_map(path)
    fig = draw_map(hexmap, title=hexmap.name)
    return save_figure(fig, out_file)


def save_figure(fig: Figure, out_file: str | os.PathLike, *, dpi: int = 110) -> Path:
    """Write ``fig`` as PNG or SVG (by the file's extension) atomically: temporary file, then rename.

    A PNG is reduced to a 256-colour palette: a map has few colours, and the file is four times
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
                png_image(fig, dpi=dpi).save(handle, format="PNG", compress_level=6)
            else:
                fig.savefig(handle, format="svg", dpi=dpi)
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return out


def png_image(fig: Figure, *, dpi: int = 110):
    """The figure rasterised by Agg as a palette PIL image."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    fig.set_dpi(dpi)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    rgb = Image.fromarray(np.asarray(canvas.buffer_rgba())).convert("RGB")
    return rgb.quantize(256, method=Image.Quantize.FASTOCTREE)


# --- layout -------------------------------------------------------------------------------------
def _figure(columns: int, rows: int, radius_in: float, title: str | None):
    left, right, top, bottom = -1.1, 1.5 * (columns - 1) + 1.1, -SQRT3 / 2 - 0.12, SQRT3 * rows + 0.12
    map_w, map_h = (right - left) * radius_in, (bottom - top) * radius_in
    title_in, legend_in, pad = (0.45 if title else 0.12), 0.75, 0.15
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


def _halo(width: float) -> list:
    return [pe.withStroke(linewidth=width, foreground="white")]


# --- map features -----------------------------------------------------------------------------------
def _draw_sides(ax, hexmap: HexMap, s: float) -> None:
    grid = hexmap.grid
    for sides, colour, width, style, z in ((hexmap.rivers, RIVER, 2.2, "solid", 3),
                                           (hexmap.wide_rivers, WIDE_RIVER, 4.6, "solid", 3),
                                           (hexmap.impassable_sides, BLOCKED, 3.6, (0, (1.2, 0.9)), 4)):
        if sides:
            segments = [grid.side_segment(*side.split("/")) for side in sorted(sides)]
            ax.add_collection(LineCollection(segments, colors=colour, linewidths=width * s, linestyles=style,
                                             capstyle="round", zorder=z))


def _draw_foreign(ax, hexmap: HexMap, at: dict, s: float, pt: float) -> None:
    for country in hexmap.foreign:
        spots = np.array([at[h] for h in country.hexes])
        ax.add_collection(PolyCollection(hexagon_vertices(spots), facecolors=FOREIGN, alpha=0.22,
                                         edgecolors="none", zorder=2))
        ax.add_collection(PolyCollection(hexagon_vertices(spots, 0.97), facecolors="none", edgecolors=FOREIGN,
                                         linewidths=0, hatch="////", alpha=0.35, zorder=2))
        if country.entry_hexes:
            entry = np.array([at[h] for h in country.entry_hexes])
            ax.add_collection(PolyCollection(hexagon_vertices(entry, 0.9), facecolors="none", edgecolors=FOREIGN,
                                             linewidths=1.6 * s, linestyles=(0, (2, 1)), zorder=4))
        routes = [[at[h] for h in route] for route in country.permitted_routes]
        if routes:
            ax.add_collection(LineCollection(routes, colors=FOREIGN, linewidths=2.0 * s,
                                             linestyles=(0, (3, 1.5)), zorder=5))
        add_labels(ax, [f"{country.name}\n({country.fee_per_hex}k per hex)"], [spots.mean(axis=0)], 9 * s * pt,
                   colour=FOREIGN, halo=2.5 * s, zorder=8, weight="bold", style="italic")


def _draw_ferries(ax, hexmap: HexMap, at: dict, s: float, pt: float) -> None:
    texts, spots = [], []
    for ferry in hexmap.ferries:
        (x0, y0), (x1, y1) = at[ferry.ends[0]], at[ferry.ends[1]]
        ax.plot([x0, x1], [y0, y1], color=FERRY, linewidth=1.8 * s, linestyle=(0, (4, 2.5)), zorder=5)
        texts.append(f"{ferry.id}: {ferry.cost}k, use {ferry.use_fee}k")
        spots.append(((x0 + x1) / 2, (y0 + y1) / 2))
    add_labels(ax, texts, spots, 6.5 * s * pt, colour=FERRY, halo=2 * s, zorder=8, style="italic")


def _draw_hex_numbers(ax, labels: list[str], centres: np.ndarray, letters: np.ndarray, on_track: set[str],
                      s: float, pt: float) -> None:
    """Numbers above the track (players quote the hexes their track runs through), haloed only there."""
    names = np.array(labels)
    spots = centres + np.array([0.0, -0.6])
    tracked = np.isin(names, sorted(on_track))
    land, water = np.isin(letters, list(".fsm")), np.isin(letters, list("~l"))
    size = 4.8 * s * pt
    add_labels(ax, names[land & ~tracked], spots[land & ~tracked], size, colour=HEX_NUMBER, zorder=7.5)
    add_labels(ax, names[land & tracked], spots[land & tracked], size, colour="#333333", halo=2.0 * s, zorder=7.5)
    add_labels(ax, names[water], spots[water], size, colour="#3f74a0", zorder=7.5)


def _draw_towns(ax, hexmap: HexMap, at: dict, s: float, pt: float) -> None:
    towns = hexmap.town_list()
    if not towns:
        return
    spots = np.array([at[t.hex] for t in towns])
    sizes = [(9.5 * s if t.small else (15 * s if len(t.numbers) > 1 else 12.5 * s)) ** 2 for t in towns]
    ax.scatter(spots[:, 0], spots[:, 1], s=sizes, c="white", edgecolors="black", linewidths=1.2 * s, zorder=10)
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
        spots = np.array([at[h] for h in hexmap.start])
        ax.add_collection(PolyCollection(hexagon_vertices(spots, 0.88), facecolors="none", edgecolors=START,
                                         linewidths=2.2 * s, zorder=5.5))
    for special_id, special in hexmap.specials.items():
        spots = np.array([at[h] for h in special["hexes"]])
        ax.scatter(spots[:, 0] + 0.55, spots[:, 1] - 0.3, s=(11 * s) ** 2, marker="*", c=SPECIAL,
                   edgecolors="black", linewidths=0.7 * s, zorder=12)
        x, y = spots[np.argmin(spots[:, 1])]
        edge = 1.5 * (hexmap.grid.columns - 1)
        ha = "right" if x > edge - 3 else "left" if x < 3 else "center"
        x += {"right": 0.9, "left": -0.9, "center": 0}[ha]
        add_labels(ax, [f"{special_id}: {special['name']}"], [(x, y - 1.0)], 7.2 * s * pt, colour="#6b4f00",
                   halo=2.4 * s, zorder=12, ha=ha, va="baseline", weight="bold")


# --- track --------------------------------------------------------------------------------------------
def _draw_track(ax, grid, track: Mapping[str, Iterable[Sequence[str]]], colours: Mapping[str, str],
                at: dict, s: float) -> tuple[list[str], set[str]]:
    """Each company's links, centre to centre, shared links side by side; returns companies and hexes used."""
    companies = list(track)
    sharing: dict[tuple[str, str], list[str]] = {}
    for company in companies:
        for link in track[company]:
            a, b = _link(link, at)
            key = (a, b) if a < b else (b, a)
            if company not in sharing.setdefault(key, []):
                sharing[key].append(company)
    gap = 0.2  # a fifth of a hex between parallel lines: clear at every zoom the PNG is read at
    solid: dict[str, list] = {c: [] for c in companies}
    dashed: dict[str, list] = {c: [] for c in companies}
    for (a, b), owners in sharing.items():
        p, q = at[a], at[b]
        d = q - p
        normal = np.array([-d[1], d[0]]) / np.hypot(*d)
        for i, company in enumerate(owners):
            shift = normal * gap * (i - (len(owners) - 1) / 2)
            (solid if grid.adjacent(a, b) else dashed)[company].append([p + shift, q + shift])
    for i, company in enumerate(companies):
        colour = colours.get(company) or PALETTE[i % len(PALETTE)]
        for segments, style in ((solid[company], "solid"), (dashed[company], (0, (3, 2)))):
            if not segments:
                continue
            ax.add_collection(LineCollection(segments, colors="#202020", linewidths=3.9 * s, linestyles=style,
                                             capstyle="round", zorder=7))
            ax.add_collection(LineCollection(segments, colors=colour, linewidths=2.5 * s, linestyles=style,
                                             capstyle="round", zorder=7.1))
    return companies, {h for link in sharing for h in link}


def _link(link: Sequence[str], at: dict) -> tuple[str, str]:
    if len(link) != 2 or link[0] not in at or link[1] not in at:
        raise ValueError(f"track link {list(link)!r} is not two hexes of this map")
    return str(link[0]), str(link[1])


# --- legend ---------------------------------------------------------------------------------------------
def _legend(fig: Figure, hexmap: HexMap, letters: np.ndarray, companies: list[str],
            colours: Mapping[str, str], names: Mapping[str, str], s: float) -> None:
    present = set(letters.tolist())
    handles = [Patch(facecolor=TERRAIN_COLOURS[k], edgecolor=GRID_EDGE, label=v,
                     hatch=SWAMP_HATCH if k == "s" else None) for k, v in TERRAIN_LEGEND.items() if k in present]
    features = [(hexmap.rivers, Line2D([], [], color=RIVER, lw=2.2, label="river (+2)")),
                (hexmap.wide_rivers, Line2D([], [], color=WIDE_RIVER, lw=4.6, label="wide river (+3)")),
                (hexmap.impassable_sides, Line2D([], [], color=BLOCKED, lw=3.6, ls=(0, (1.2, 0.9)),
                                                 label="impassable")),
                (hexmap.ferries, Line2D([], [], color=FERRY, lw=1.8, ls=(0, (4, 2.5)), label="ferry site")),
                (hexmap.foreign, Patch(facecolor=FOREIGN, alpha=0.35, label="foreign country")),
                (any(f.permitted_routes for f in hexmap.foreign),
                 Line2D([], [], color=FOREIGN, lw=2, ls=(0, (3, 1.5)), label="permitted route")),
                (hexmap.start, Line2D([], [], marker="H", ls="none", mfc="none", mec=START, ms=12, mew=2,
                                      label="starting point")),
                (hexmap.specials, Line2D([], [], marker="*", ls="none", mfc=SPECIAL, mec="black", ms=11,
                                         label="special destination"))]
    handles += [h for shown, h in features if shown]
    for i, company in enumerate(companies):
        colour = colours.get(company) or PALETTE[i % len(PALETTE)]
        handles.append(Line2D([], [], color=colour, lw=3, label=names.get(company, company),
                              path_effects=[pe.Stroke(linewidth=4.6, foreground="#202020"), pe.Normal()]))
    width = fig.get_size_inches()[0]
    ncol = max(1, min(len(handles), int(width / 2.1)))
    fig.legend(handles=handles, loc="lower center", ncol=ncol, fontsize=8, frameon=False,
               bbox_to_anchor=(0.5, 0.0), handlelength=2.4, columnspacing=1.4)
