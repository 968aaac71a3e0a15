"""Where a label goes so that it covers no track and no town: the first free place of a few.

Pure geometry in pixels (y down). A label is a box; what it must not cover are track lines (each a
segment with its half width) and town circles, and the labels placed before it. Each label tries
its places in order (below its town first, as the map has always put it) and takes the first that
covers nothing, else the one that covers least.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from gm.hexmap.grid import SQRT3

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


def town_radius(town) -> float:
    return 0.27 if town.small else 0.42 if len(town.numbers) > 1 else 0.35


def town_name_style(town) -> tuple[float, str]:
    """(size in points at a quarter-inch hex, weight)."""
    return (6.6, "normal") if town.small else (7.6, "bold")


def label_places(hexmap, lines: list, *, s: float, pt: float) -> tuple[dict, dict]:
    """Where each town's name and each special's label go: ({town hex: (x, top, ha)}, {special id:
    (x, baseline, ha)}). ``lines`` are gm.hexmap.trackplan's; ``s`` scales sizes in points tuned at a
    quarter-inch hex and ``pt`` is a point in hex units. Each name goes below its town unless track,
    a town or an earlier label is there: then above, right or left, whichever is free first."""
    from gm.hexmap.lettering import advance

    listed = hexmap.town_list()
    centre = {t.hex: hexmap.grid.center(t.hex) for t in listed}
    clear = Obstacles(lines=[(a, b, 3.9 * s * pt / 2) for _, a, b, _ in lines],
                      circles=[(centre[t.hex], town_radius(t)) for t in listed],
                      bounds=(-1.1, -1.0, 1.5 * (hexmap.grid.columns - 1) + 1.1, SQRT3 * hexmap.grid.rows + 0.12))
    room = 2.4 * s * pt / 2
    names = {}
    for town in listed:
        x, y = centre[town.hex]
        points, weight = town_name_style(town)
        size = points * s * pt
        width, height = advance(town.name, size, weight), 0.97 * size
        below = 0.5 if len(town.numbers) > 1 else 0.42
        beside = town_radius(town) + room + 0.05
        places = [(x, y + below, "center"), (x, y - below - height, "center"),
                  (x + beside, y - height / 2, "left"), (x - beside, y - height / 2, "right")]
        boxes = [(px - ALIGN[ha] * width - room, top - room, px + (1 - ALIGN[ha]) * width + room, top + height + room)
                 for px, top, ha in places]
        names[town.hex] = places[choose(boxes, clear)]
    specials = {}
    edge = 1.5 * (hexmap.grid.columns - 1)
    for special_id, special in hexmap.specials.items():
        x, y = min((hexmap.grid.center(h) for h in special["hexes"]), key=lambda p: p[1])
        ha = "right" if x > edge - 3 else "left" if x < 3 else "center"
        x += {"right": 0.9, "left": -0.9, "center": 0}[ha]
        size = 7.2 * s * pt
        width = advance(f"{special_id}: {special['name']}", size, "bold")
        baselines = [y - 1.0, y + 1.0 + 0.73 * size]  # above its hex (as always), else below
        boxes = [(x - ALIGN[ha] * width - room, b - 0.73 * size - room, x + (1 - ALIGN[ha]) * width + room,
                  b + 0.24 * size + room) for b in baselines]
        specials[special_id] = (x, baselines[choose(boxes, clear)], ha)
    return names, specials
