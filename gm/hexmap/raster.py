"""The map as a PNG, painted with Pillow: no matplotlib, no numpy, no hexalattice to import.

Same layout, colours and sizes as the SVG figure (gm.hexmap.render): the page is laid out in inches
and drawn at DPI; every size in points is scaled with the hex's size on paper (``s``). Hexes are
filled hard-edged (their edges lie under the antialiased hex sides); everything else is stamped from
antialiased masks (gm.hexmap.canvas) and lettered with DejaVu Sans (gm.hexmap.lettering).
Drawing only: the caller says what to draw.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, replace
from typing import Iterable, Mapping, Sequence

from PIL import Image, ImageDraw

from gm.hexmap import basecache, maskstore, rasterkey, trackplan
from gm.hexmap.canvas import SUPER, Ink, rgb
from gm.hexmap.grid import DIRECTIONS, SQRT3
from gm.hexmap.lettering import Lettering, font_file
from gm.hexmap.placing import (COUNTRY_PT, FERRY_PT, LINE_SPACING, country_text, ferry_text, label_places,
                              town_name_style, town_radius)
from gm.hexmap.model import HexMap
from gm.hexmap.style import (BLOCKED, CASING, DPI, FERRY, FOREIGN, GRID_EDGE, GRID_LINE_PT, HEX_INCHES, HEX_NUMBER,
                             HIGHLIGHT, LAKE_NUMBER, MOUNTAIN, MOUNTAIN_INK, NUMBER_PT, RIVER, SPECIAL, START,
                             SWAMP_INK, TERRAIN_COLOURS, WATER_NUMBER, WIDE_RIVER)

CORNERS = [(math.cos(math.radians(60 * k)), math.sin(math.radians(60 * k))) for k in range(6)]
CIRCLE = [(math.cos(math.radians(k * 360 / 28)), math.sin(math.radians(k * 360 / 28))) for k in range(28)]
TRIANGLE = [(0.0, -0.9 / 2.1), (0.95 / 2.1, 0.75 / 2.1), (-0.95 / 2.1, 0.75 / 2.1)]
STAR = [(math.cos(math.radians(k * 36 - 90)) * r, math.sin(math.radians(k * 36 - 90)) * r)
        for k, r in zip(range(10), [1.0, 0.42] * 5)]
LOWER_SIDES = (2, 3, 4)  # the neighbours (gm.hexmap.grid.DIRECTIONS) beyond sides 0, 1 and 2


@dataclass
class Page:
    """Where things go: ``scale`` pixels per hex unit; left, top, right, bottom: the map's box in hex units."""

    width: int
    height: int
    scale: float
    left: float
    top: float
    right: float
    bottom: float
    origin: tuple[float, float]  # the map's corner in pixels
    s: float                     # sizes tuned at a quarter-inch hex, scaled to this one
    lift: float = 0.0            # the page's fraction of a pixel, lost at its top

    def px(self, point: tuple[float, float]) -> tuple[float, float]:
        return (self.origin[0] + (point[0] - self.left) * self.scale,
                self.origin[1] + (point[1] - self.top) * self.scale)

    def pt(self, points: float) -> float:
        """A size in points, tuned at a quarter-inch hex, in pixels on this map."""
        return points * self.s * DPI / 72


def page_for(hexmap: HexMap, title: str | None, entries: list[tuple]) -> Page:
    grid = hexmap.grid
    radius_in = min(max(15.0 / (1.5 * grid.columns + 0.5), HEX_INCHES[0]), HEX_INCHES[1])
    left, right = -1.1, 1.5 * (grid.columns - 1) + 1.1
    top, bottom = -SQRT3 / 2 - 0.12, SQRT3 * grid.rows + 0.12
    pad = 0.15
    map_w, map_h = (right - left) * radius_in, (bottom - top) * radius_in
    title_in = 0.45 if title else 0.12
    legend_in = math.ceil(rasterkey.height_needed(entries, map_w + 2 * pad) * DPI) / DPI
    width_in, height_in = map_w + 2 * pad, map_h + title_in + legend_in
    lift = height_in * DPI - int(height_in * DPI)  # as Agg: the page's whole pixels count from its bottom
    return Page(int(width_in * DPI), int(height_in * DPI), radius_in * DPI, left, top, right, bottom,
                (pad * DPI, title_in * DPI - lift), radius_in / 0.25, lift)


def paint(hexmap: HexMap, *, track: Mapping[str, Iterable[Sequence[str]]], paint: Mapping[str, str],
          entries: list[tuple], title: str | None, highlight: Iterable[str] | None,
          hex_numbers: bool) -> Image.Image:
    """The whole picture, in full colour (RGB)."""
    page = page_for(hexmap, title, entries)
    layer, corner = unchanging(hexmap, page, hex_numbers)
    masks = (fingerprint(hexmap), round(page.scale, 6))
    known = maskstore.load(masks)
    image = Image.new("RGB", (page.width, page.height), "white")
    for top in range(0, layer.height, 256):  # in strips: no second full-colour copy of the map in memory
        image.paste(layer.crop((0, top, layer.width, min(top + 256, layer.height))).convert("RGB"),
                    (corner[0], corner[1] + top))
    grid = hexmap.grid
    centres = {label: grid.center(label) for label in grid.labels()}
    at = {label: page.px(centre) for label, centre in centres.items()}
    on_map = [label for label in grid.labels() if hexmap.terrain.get(label, "x") != "x"]
    letters = Lettering(image)
    lines, covered = trackplan.plan(track, centres)
    track_lines(image, page, lines, paint)
    if hex_numbers and covered:
        numbers(letters, page, hexmap, at, [h for h in on_map if h in covered], halo=page.pt(2.0))
    places = label_places(hexmap, lines, s=page.s, pt=DPI / 72 / page.scale)
    names_of_places(letters, page, hexmap, places)
    if highlight:
        ring = Ink(image, HIGHLIGHT, page.pt(2.6))
        for label in highlight:
            if label in at:
                ring.shape(("hex", 0.95 * page.scale), _scaled(CORNERS, 0.95 * page.scale), at[label], fill=False)
    towns(image, letters, page, hexmap, at, places.towns)
    specials(image, letters, page, hexmap, at, places.specials)
    rasterkey.draw(image, letters, entries)
    if title:
        letters.labels([title], [(page.width / 2, 0.25 * DPI - page.lift)], 14 * DPI / 72, weight="bold")
    maskstore.save(masks, known)
    return image


def unchanging(hexmap: HexMap, page: Page, hex_numbers: bool) -> tuple[Image.Image, tuple[int, int]]:
    """The layer beneath the track, in 256 colours (gm.hexmap.basecache keeps it), and where its corner goes."""
    (ox, oy), (x1, y1) = page.origin, page.px((page.right, page.bottom))
    corner = (math.floor(ox), math.floor(oy))
    size = (min(math.ceil(x1), page.width) - corner[0], min(math.ceil(y1), page.height) - corner[1])
    local = replace(page, width=size[0], height=size[1], origin=(ox - corner[0], oy - corner[1]))

    def paint_layer() -> Image.Image:
        image = Image.new("RGB", size, "white")
        at = {label: local.px(hexmap.grid.center(label)) for label in hexmap.grid.labels()}
        on_map = [label for label in hexmap.grid.labels() if hexmap.terrain.get(label, "x") != "x"]
        terrain(image, local, hexmap, at, on_map)
        foreign_tint(image, local, hexmap, at)
        sides_of_hexes(image, local, hexmap, at)
        foreign_lands(image, local, hexmap, at)
        ferry_sites_and_starts(image, local, hexmap, at)
        if hex_numbers:
            numbers(Lettering(image), local, hexmap, at, on_map)
        return image
    key = (fingerprint(hexmap), hex_numbers, round(local.origin[0], 4), round(local.origin[1], 4),
           round(page.scale, 6), font_file("normal", "normal"))
    return basecache.layer(key, size, paint_layer), corner


def fingerprint(hexmap: HexMap) -> str:
    """What the unchanging layer shows, as a short digest (two maps drawn alike share it)."""
    labels = hexmap.grid.labels()
    parts = (hexmap.grid, "".join(hexmap.terrain.get(h, "x") for h in labels), sorted(hexmap.rivers),
             sorted(hexmap.wide_rivers), sorted(hexmap.impassable_sides), hexmap.foreign, hexmap.ferries,
             hexmap.start)
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:24]


def _scaled(points, factor: float, shift: tuple[float, float] = (0.0, 0.0)) -> list[tuple[float, float]]:
    return [(x * factor + shift[0], y * factor + shift[1]) for x, y in points]


# --- beneath the track --------------------------------------------------------------------------------
def terrain(image: Image.Image, page: Page, hexmap: HexMap, at: dict, on_map: list[str]) -> None:
    """Hexes filled hard-edged (the sides cover their edges), then swamp hatching and mountains."""
    pen = ImageDraw.Draw(image)
    corners = _scaled(CORNERS, page.scale * 1.02)
    inks = {k: pen._getink(rgb(v))[0] for k, v in TERRAIN_COLOURS.items()}  # noqa: SLF001 - Pillow's own colour
    white = pen._getink((255, 255, 255))[0]  # noqa: SLF001
    fill = pen.draw.draw_polygon  # Pillow's core: 1,600 hexes without its per-call checks
    for label in on_map:
        x, y = at[label]
        fill([(x + cx, y + cy) for cx, cy in corners], inks.get(hexmap.terrain[label], white), 1)
    hatch = Ink(image, SWAMP_INK, 1.0 * DPI / 72 * 0.85, cap="butt")
    spacing = DPI / 18  # matplotlib's '---' hatch: eighteen lines an inch
    small = 0.6 * page.scale
    peaks = Ink(image, MOUNTAIN)
    peak_edges = Ink(image, MOUNTAIN_INK, page.pt(0.6))
    triangle = _scaled(TRIANGLE, 0.82 * page.scale)
    for label in on_map:
        kind = hexmap.terrain[label]
        x, y = at[label]
        if kind == "s":
            cy = y + 0.14 * page.scale
            for k in range(-4, 5):
                row = cy + k * spacing
                half = _hexagon_half_width(row - cy, small)
                if half > 1:
                    hatch.line((x - half, row), (x + half, row))
        elif kind == "m":
            spot = (x, y + 0.16 * page.scale)
            peaks.shape(("triangle", page.scale), triangle, spot, fill=True)
            peak_edges.shape(("triangle", page.scale), triangle, spot, fill=False)


def _hexagon_half_width(dy: float, radius: float) -> float:
    """Half the width of a flat-topped hexagon of corner radius ``radius`` at ``dy`` from its centre."""
    height = radius * SQRT3 / 2
    if abs(dy) >= height:
        return 0.0
    return radius - abs(dy) / SQRT3


def sides_of_hexes(image: Image.Image, page: Page, hexmap: HexMap, at: dict) -> None:
    """Each hex draws its three upper sides, and a lower side only where no hex of the map lies
    beyond it: every side once."""
    grid = hexmap.grid
    ink = Ink(image, GRID_EDGE, page.pt(GRID_LINE_PT), steps=SUPER)
    corners = _scaled(CORNERS, page.scale)
    upper = [corners[3], corners[4], corners[5], corners[0]]
    for label in grid.labels():
        if hexmap.terrain.get(label, "x") == "x":
            continue
        x, y = at[label]
        ink.shape(("upper sides", page.scale), upper, (x, y), fill=False, closed=False)
        q, r = grid.to_axial(label)
        for side, direction in enumerate(LOWER_SIDES):
            dq, dr = DIRECTIONS[direction]
            beyond = grid.from_axial(q + dq, r + dr)
            if beyond is None or hexmap.terrain.get(beyond, "x") == "x":
                ink.line((x + corners[side][0], y + corners[side][1]),
                         (x + corners[side + 1][0], y + corners[side + 1][1]))


def _side(at: dict, a: str, b: str, page: Page) -> tuple[tuple[float, float], tuple[float, float]]:
    (x0, y0), (x1, y1) = at[a], at[b]
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    length = math.hypot(x1 - x0, y1 - y0)
    hx, hy = -(y1 - y0) / length * page.scale / 2, (x1 - x0) / length * page.scale / 2
    return (mx - hx, my - hy), (mx + hx, my + hy)


def foreign_tint(image: Image.Image, page: Page, hexmap: HexMap, at: dict) -> None:
    hexagon = _scaled(CORNERS, page.scale * 1.01)
    tint = Ink(image, FOREIGN, alpha=0.2)
    for country in hexmap.foreign:
        for label in country.hexes:
            tint.shape(("hex fill", page.scale), hexagon, at[label], fill=True)


def foreign_lands(image: Image.Image, page: Page, hexmap: HexMap, at: dict) -> None:
    """Above the hex sides: rivers, then each foreign country's frontier, entry hexes and permitted routes."""
    for sides, colour, width, dash in ((hexmap.rivers, RIVER, 2.2, None), (hexmap.wide_rivers, WIDE_RIVER, 4.6, None),
                                       (hexmap.impassable_sides, BLOCKED, 3.6, (1.2, 0.9))):
        w = page.pt(width)
        ink = Ink(image, colour, w, dash=[d * w for d in dash] if dash else None)
        for side in sorted(sides):
            ink.line(*_side(at, *side.split("/"), page))
    grid = hexmap.grid
    for country in hexmap.foreign:
        inside = set(country.hexes)
        w = page.pt(2.4)
        frontier = Ink(image, FOREIGN, w, dash=[d * w for d in (5, 1.5, 1, 1.5)], cap="butt")
        for h in country.hexes:
            for n in grid.neighbours(h):
                if n not in inside and hexmap.buildable(n):
                    frontier.line(*_side(at, h, n, page))
        w = page.pt(1.6)
        entry = Ink(image, FOREIGN, w, dash=[2 * w, 1 * w])
        ring = _scaled(CORNERS + CORNERS[:1], 0.9 * page.scale)
        for h in country.entry_hexes:
            entry.shape(("hex", 0.9 * page.scale), ring, at[h], fill=False, closed=False)
        w = page.pt(2.0)
        routes = Ink(image, FOREIGN, w, dash=[3 * w, 1.5 * w], cap="butt")
        for route in country.permitted_routes:
            routes.polyline([at[h] for h in route])


def ferry_sites_and_starts(image: Image.Image, page: Page, hexmap: HexMap, at: dict) -> None:
    w = page.pt(1.8)
    ferries = Ink(image, FERRY, w, dash=[4 * w, 2.5 * w], cap="butt")
    for ferry in hexmap.ferries:
        ferries.line(at[ferry.ends[0]], at[ferry.ends[1]])
    ring = Ink(image, START, page.pt(2.2))
    for label in hexmap.start:
        if label in at:
            ring.shape(("hex", 0.88 * page.scale), _scaled(CORNERS, 0.88 * page.scale), at[label], fill=False)


def numbers(letters: Lettering, page: Page, hexmap: HexMap, at: dict, labels: list[str], *, halo: float = 0.0) -> None:
    """Hex numbers above each hex's centre (with a white halo where they are drawn over track)."""
    size = page.pt(NUMBER_PT)
    above = trackplan.NUMBER_ABOVE * page.scale
    for kinds, colour in ((".fsm", HEX_NUMBER), ("~", WATER_NUMBER), ("l", LAKE_NUMBER)):
        chosen = [h for h in labels if hexmap.terrain[h] in kinds]
        letters.labels(chosen, [(at[h][0], at[h][1] - above) for h in chosen], size, colour=colour, halo=halo,
                       stamped=True)


# --- the track and above it -------------------------------------------------------------------------------
def track_lines(image: Image.Image, page: Page, lines: list, paint: Mapping[str, str]) -> None:
    """All casings first (a dark edge keeps pale colours visible on pale land), then each colour."""
    casing_w, colour_w = page.pt(3.9), page.pt(2.5)
    casing = {False: Ink(image, CASING, casing_w),
              True: Ink(image, CASING, casing_w, dash=[3 * casing_w, 2 * casing_w])}
    for _, a, b, dashed in lines:
        casing[dashed].line(page.px(a), page.px(b))
    inks: dict[tuple[str, bool], Ink] = {}
    for company, a, b, dashed in lines:
        key = (company, dashed)
        if key not in inks:
            inks[key] = Ink(image, paint[company], colour_w, dash=[3 * colour_w, 2 * colour_w] if dashed else None)
        inks[key].line(page.px(a), page.px(b))


def names_of_places(letters: Lettering, page: Page, hexmap: HexMap, places) -> None:
    """Each foreign country's and each ferry's name where gm.hexmap.placing put it."""
    for country in hexmap.foreign:
        x, top = places.countries[country.name]
        letters.labels([country_text(country)], [page.px((x, top))], page.pt(COUNTRY_PT), colour=FOREIGN,
                       halo=page.pt(2.5), va="top", weight="bold", style="italic", linespacing=LINE_SPACING)
    for ferry in hexmap.ferries:
        x, top = places.ferries[ferry.id]
        letters.labels([ferry_text(ferry)], [page.px((x, top))], page.pt(FERRY_PT), colour=FERRY, halo=page.pt(2),
                       va="top", style="italic")


def towns(image: Image.Image, letters: Lettering, page: Page, hexmap: HexMap, at: dict, names: dict) -> None:
    """Town circles, their numbers, and their names where gm.hexmap.placing put them."""
    listed = hexmap.town_list()
    white, edge = Ink(image, "white"), Ink(image, "black", page.pt(1.2))
    for town in listed:
        radius = town_radius(town) * page.scale
        circle = _scaled(CIRCLE, radius)
        white.shape(("circle", radius), circle, at[town.hex], fill=True)
        edge.shape(("circle", radius), circle, at[town.hex], fill=False)
    for town in listed:
        size, spacing = (4.4, 1.05) if town.small else (4.6, 1.1) if len(town.numbers) > 1 else (5.8, 1.05)
        letters.labels(["\n".join(str(n) for n in town.numbers)], [at[town.hex]], page.pt(size), weight="bold",
                       linespacing=1.1 if len(town.numbers) > 1 else spacing, stamped=True)
    for town in listed:
        x, top, ha = names[town.hex]
        points, weight = town_name_style(town)
        letters.labels([town.name], [page.px((x, top))], page.pt(points), halo=page.pt(2.4), va="top", ha=ha,
                       weight=weight)


def specials(image: Image.Image, letters: Lettering, page: Page, hexmap: HexMap, at: dict, labels: dict) -> None:
    fill, edge = Ink(image, SPECIAL), Ink(image, "black", page.pt(0.7))
    star = _scaled(STAR, 0.3 * page.scale)
    for special_id, special in hexmap.specials.items():
        for x, y in (at[h] for h in special["hexes"]):
            spot = (x + 0.55 * page.scale, y - 0.3 * page.scale)
            fill.shape(("star", page.scale), star, spot, fill=True)
            edge.shape(("star", page.scale), star, spot, fill=False)
        x, baseline, ha = labels[special_id]
        letters.labels([f"{special_id}: {special['name']}"], [page.px((x, baseline))], page.pt(7.2), colour="#6b4f00",
                       halo=page.pt(2.4), ha=ha, va="baseline", weight="bold")


NEAR_MARGIN = 2.0  # hexes of the map shown beyond the outermost hex of interest


def near_box(hexmap: HexMap, page: Page, hexes: Iterable[str]) -> tuple[int, int, int, int] | None:
    """The pixels (left, top, right, bottom) of the map around ``hexes``: NEAR_MARGIN hexes beyond
    the outermost, within the map; None for no hex of this map."""
    points = [page.px(hexmap.grid.center(h)) for h in hexes if hexmap.grid.contains(h)]
    if not points:
        return None
    (map_left, map_top), (map_right, map_bottom) = page.px((page.left, page.top)), page.px((page.right, page.bottom))
    reach = (NEAR_MARGIN * 1.5 + 1) * page.scale
    return (max(math.floor(map_left), math.floor(min(x for x, _ in points) - reach)),
            max(math.floor(map_top), math.floor(min(y for _, y in points) - reach)),
            min(math.ceil(map_right), math.ceil(max(x for x, _ in points) + reach)),
            min(math.ceil(map_bottom), math.ceil(max(y for _, y in points) + reach)))


def near(image: Image.Image, hexmap: HexMap, *, hexes: Iterable[str], title: str | None,
         entries: list[tuple]) -> Image.Image:
    """The part of the painted map ``image`` around ``hexes`` (NEAR_MARGIN hexes each way, within the
    map), at the same scale: hex numbers as legible as on the whole map, in a picture a fraction of
    its size. The title goes above it and the key below, laid out again for its width."""
    box = near_box(hexmap, page_for(hexmap, title, entries), hexes)
    if box is None:
        return image
    crop = image.crop(box)
    width = max(crop.width, int(4 * DPI))  # room for the key's longest entries
    title_px = round((0.45 if title else 0.12) * DPI)
    key_px = math.ceil(rasterkey.height_needed(entries, width / DPI) * DPI)
    out = Image.new("RGB", (width, title_px + crop.height + key_px), "white")
    out.paste(crop, ((width - crop.width) // 2, title_px))
    letters = Lettering(out)
    rasterkey.draw(out, letters, entries)
    if title:
        letters.labels([title], [(width / 2, 0.25 * DPI)], 14 * DPI / 72, weight="bold")
    return out
