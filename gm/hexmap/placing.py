"""Where a label goes so that it covers no track and no town: the first free place of a few.

Pure geometry (y down). A label is a box; what it must not cover are track lines (each a segment
with its half width) and town circles, and the labels placed before it. Each label tries its places
in order (a town's name below its town first, as the map has always put it) and takes the first that
covers nothing, else the one that covers least. Town names go first (clear of ferry lines too),
then specials' labels, then ferries' and foreign countries' names, which also keep clear of
permitted routes and the specials' stars.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

from gm.hexmap.grid import SQRT3

CAP = 0.73  # height of digits and capitals, as a fraction of the font size (DejaVu Sans)

Box = tuple[float, float, float, float]  # left, top, right, bottom
Point = tuple[float, float]


@dataclass
class Obstacles:
    lines: list[tuple[Point, Point, float]] = field(default_factory=list)  # (a, b, half width)
    circles: list[tuple[Point, float]] = field(default_factory=list)       # (centre, radius)
    boxes: list[Box] = field(default_factory=list)
    bounds: Box | None = None  # a label reaching out of these counts as covering one thing

    def covered(self, box: Box) -> int:
        """How many things ``box`` covers."""
        left, top, right, bottom = box
        count = 0
        if self.bounds and (left < self.bounds[0] or top < self.bounds[1] or right > self.bounds[2]
                            or bottom > self.bounds[3]):
            count += 1
        for a, b, half in self.lines:
            if (max(a[0], b[0]) + half < left or min(a[0], b[0]) - half > right
                    or max(a[1], b[1]) + half < top or min(a[1], b[1]) - half > bottom):
                continue  # far from the box: most of the map's track
            if _segment_meets_box(a, b, (left - half, top - half, right + half, bottom + half)):
                count += 1
        for (x, y), r in self.circles:
            nearest_x, nearest_y = min(max(x, left), right), min(max(y, top), bottom)
            if (nearest_x - x) ** 2 + (nearest_y - y) ** 2 < r * r:
                count += 1
        for other in self.boxes:
            if left < other[2] and other[0] < right and top < other[3] and other[1] < bottom:
                count += 1
        return count


def choose(places: list[Box], obstacles: Obstacles) -> int:
    """The index of the first place covering nothing, else of the one covering least (the first of
    those); the chosen box joins the obstacles, so later labels keep clear of it."""
    scores = []
    for n, box in enumerate(places):
        score = obstacles.covered(box)
        if score == 0:
            obstacles.boxes.append(box)
            return n
        scores.append(score)
    best = min(range(len(places)), key=lambda n: (scores[n], n))
    obstacles.boxes.append(places[best])
    return best


def _segment_meets_box(a: Point, b: Point, box: Box) -> bool:
    """Whether the segment a-b passes through ``box`` (Liang-Barsky clipping)."""
    (x0, y0), (x1, y1) = a, b
    left, top, right, bottom = box
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for p, q in ((-dx, x0 - left), (dx, right - x0), (-dy, y0 - top), (dy, bottom - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


# --- the map's labels, in hex units (y down), for the PNG and the SVG alike ----------------------------
ALIGN = {"center": 0.5, "left": 0.0, "right": 1.0}
FERRY_PT, COUNTRY_PT, SPECIAL_PT = 6.5, 9.0, 7.2  # at a quarter-inch hex
LINE_SPACING = 1.05
DESCENT = 0.24  # below the baseline, as a fraction of the font size (DejaVu Sans)


class Places(NamedTuple):
    """Where each label goes, in hex units: ``towns`` {town hex: (x, top, ha)}, ``specials``
    {special id: (x, baseline, ha)}, ``ferries`` {ferry id: (x, top)} and ``countries`` {country name:
    (x, top)}, the last two centred on x, their first line's capitals from ``top`` down."""

    towns: dict
    specials: dict
    ferries: dict
    countries: dict


def town_radius(town) -> float:
    return 0.27 if town.small else 0.42 if len(town.numbers) > 1 else 0.35


def town_name_style(town) -> tuple[float, str]:
    """(size in points at a quarter-inch hex, weight)."""
    return (6.6, "normal") if town.small else (7.6, "bold")


def ferry_text(ferry) -> str:
    terms = [f"{ferry.cost}k" if ferry.cost is not None else "", f"use {ferry.use_fee}k" if ferry.use_fee is not None
             else ""]
    terms = [t for t in terms if t]
    return f"{ferry.id}: {', '.join(terms)}" if terms else ferry.id


def country_text(country) -> str:
    fee = country.fee_per_hex
    return f"{country.name}\n({fee}k per hex)" if fee is not None else country.name


def label_places(hexmap, lines: list, *, s: float, pt: float) -> Places:
    """Where each town's name, each special's label, each ferry's and each foreign country's name go.
    ``lines`` are gm.hexmap.trackplan's; ``s`` scales sizes in points tuned at a quarter-inch hex and
    ``pt`` is a point in hex units. Each town name goes below its town unless track, a town or an
    earlier label is there: then above, right or left, whichever is free first. Ferry names go beside
    their line's middle, countries' names over their middle hexes, each on the first free place."""
    listed = hexmap.town_list()
    clear = Obstacles(lines=[(a, b, 3.9 * s * pt / 2) for _, a, b, _ in lines],
                      circles=[(hexmap.grid.center(t.hex), town_radius(t)) for t in listed],
                      bounds=(-1.1, -1.0, 1.5 * (hexmap.grid.columns - 1) + 1.1, SQRT3 * hexmap.grid.rows + 0.12))
    room = 2.4 * s * pt / 2
    at = hexmap.grid.center  # town names keep clear of ferry lines, built or not
    clear.lines += [(at(f.ends[0]), at(f.ends[1]), 1.8 * s * pt / 2) for f in hexmap.ferries]
    towns = _town_names(hexmap, listed, clear, s * pt, room)
    specials = _special_labels(hexmap, clear, s * pt, room)
    _map_features(hexmap, clear, s * pt)
    ferries = {ferry.id: _ferry_place(hexmap, ferry, clear, s * pt, room) for ferry in hexmap.ferries}
    countries = {country.name: _country_place(hexmap, country, clear, s * pt, room) for country in hexmap.foreign}
    return Places(towns, specials, ferries, countries)


def _town_names(hexmap, listed: list, clear: Obstacles, unit: float, room: float) -> dict:
    from gm.hexmap.lettering import advance

    names = {}
    for town in listed:
        x, y = hexmap.grid.center(town.hex)
        points, weight = town_name_style(town)
        size = points * unit
        width, height = advance(town.name, size, weight), 0.97 * size
        below = 0.5 if len(town.numbers) > 1 else 0.42
        beside = town_radius(town) + room + 0.05
        places = [(x, y + below, "center"), (x, y - below - height, "center"),
                  (x + beside, y - height / 2, "left"), (x - beside, y - height / 2, "right")]
        boxes = [(px - ALIGN[ha] * width - room, top - room, px + (1 - ALIGN[ha]) * width + room, top + height + room)
                 for px, top, ha in places]
        names[town.hex] = places[choose(boxes, clear)]
    return names


def _special_labels(hexmap, clear: Obstacles, unit: float, room: float) -> dict:
    from gm.hexmap.lettering import advance

    specials = {}
    edge = 1.5 * (hexmap.grid.columns - 1)
    for special_id, special in hexmap.specials.items():
        x, y = min((hexmap.grid.center(h) for h in special["hexes"]), key=lambda p: p[1])
        ha = "right" if x > edge - 3 else "left" if x < 3 else "center"
        x += {"right": 0.9, "left": -0.9, "center": 0}[ha]
        size = SPECIAL_PT * unit
        width = advance(f"{special_id}: {special['name']}", size, "bold")
        baselines = [y - 1.0, y + 1.0 + 0.73 * size]  # above its hex (as always), else below
        boxes = [(x - ALIGN[ha] * width - room, b - 0.73 * size - room, x + (1 - ALIGN[ha]) * width + room,
                  b + 0.24 * size + room) for b in baselines]
        specials[special_id] = (x, baselines[choose(boxes, clear)], ha)
    return specials


def _map_features(hexmap, clear: Obstacles, unit: float) -> None:
    """What the later labels (ferries, countries) keep clear of besides track, towns, names and ferry
    lines: the permitted routes, the specials' stars."""
    at = hexmap.grid.center
    clear.lines += [(at(a), at(b), 2.0 * unit / 2) for country in hexmap.foreign
                    for route in country.permitted_routes for a, b in zip(route, route[1:])]
    clear.circles += [((at(h)[0] + 0.55, at(h)[1] - 0.3), 0.3) for special in hexmap.specials.values()
                      for h in special["hexes"]]


def _text_box(text: str, size: float, weight: str, style: str) -> tuple[float, float]:
    """(width, height) of ``text``'s lines as the labels set them, capitals' top to the last descent."""
    from gm.hexmap.lettering import advance

    parts = text.split("\n")
    width = max(advance(part, size, weight, style) for part in parts)
    return width, (CAP + DESCENT + (len(parts) - 1) * LINE_SPACING) * size


def _ferry_place(hexmap, ferry, clear: Obstacles, unit: float, room: float) -> tuple[float, float]:
    """Beside the ferry's line: at its middle on the upper side first, then the lower; then nearer
    either end; a little away from the line, then further."""
    (x0, y0), (x1, y1) = hexmap.grid.center(ferry.ends[0]), hexmap.grid.center(ferry.ends[1])
    length = max(math.hypot(x1 - x0, y1 - y0), 1e-9)
    nx, ny = (y0 - y1) / length, (x1 - x0) / length
    if ny > 0 or (ny == 0 and nx < 0):
        nx, ny = -nx, -ny  # the upper side (the right-hand side of a line going up) first
    width, height = _text_box(ferry_text(ferry), FERRY_PT * unit, "normal", "italic")
    reach = abs(nx) * (width / 2 + room) + abs(ny) * (height / 2 + room)  # the box's half extent across the line
    places = []
    for gap in (0.2, 0.5, 0.9):
        for t in (0.5, 0.35, 0.65, 0.2, 0.8, 0.0, 1.0):
            for side in (1, -1):
                cx = x0 + (x1 - x0) * t + side * nx * (reach + gap)
                cy = y0 + (y1 - y0) * t + side * ny * (reach + gap)
                places.append((cx, cy - height / 2))
    along = abs(ny) * (width / 2 + room) + abs(nx) * (height / 2 + room)  # half extent along the line
    for (x, y), away in (((x0, y0), -1), ((x1, y1), 1)):  # last: beyond either end, on the line's course
        dx, dy = (x1 - x0) / length * away, (y1 - y0) / length * away
        places.append((x + dx * (along + 0.6), y + dy * (along + 0.6) - height / 2))
    return _first_free(places, width, height, clear, room)


def _country_place(hexmap, country, clear: Obstacles, unit: float, room: float) -> tuple[float, float]:
    """Over the country's hexes, the middle ones first; else beside them (on a neighbouring hex)."""
    at = hexmap.grid.center
    inside = list(dict.fromkeys(country.hexes))
    middle = (sum(at(h)[0] for h in inside) / len(inside), sum(at(h)[1] for h in inside) / len(inside))
    around = sorted({n for h in inside for n in hexmap.grid.neighbours(h)} - set(inside))

    def nearest(hexes):
        return sorted(hexes, key=lambda h: ((at(h)[0] - middle[0]) ** 2 + (at(h)[1] - middle[1]) ** 2, h))
    width, height = _text_box(country_text(country), COUNTRY_PT * unit, "bold", "italic")
    spots = [middle] + [at(h) for h in nearest(inside)] + [at(h) for h in nearest(around)]
    return _first_free([(x, y - height / 2) for x, y in spots], width, height, clear, room)


def _first_free(places: list[tuple[float, float]], width: float, height: float, clear: Obstacles,
                room: float) -> tuple[float, float]:
    """Of labels centred on x with their top at y, the first place covering nothing (see choose)."""
    boxes = [(x - width / 2 - room, top - room, x + width / 2 + room, top + height + room) for x, top in places]
    return places[choose(boxes, clear)]
