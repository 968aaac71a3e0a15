"""Where the map's city names and building tags go so that none covers another, a city or a line.

Plain geometry in points (1/72 inch), no drawing: a greedy placement, biggest cities first. Each
name and each row of tags tries a few spots round its city and takes the one that overlaps least
(other boxes, city discs, line samples), with a small preference for the usual spot.
"""
from __future__ import annotations

import math

Box = tuple[float, float, float, float]  # x0, y0, x1, y1
Point = tuple[float, float]

TAG_STEP = 8.5   # points between the centres of two building tags
TAG_SIZE = (8.0, 9.0)


def text_size(text: str, fontsize: float) -> tuple[float, float]:
    """About how wide and high ``text`` is in points (DejaVu Sans: ~0.6 em a character)."""
    return 0.6 * fontsize * len(text) + 3.0, fontsize + 3.0


def _box(cx: float, cy: float, w: float, h: float) -> Box:
    return cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def line_samples(segments: list[tuple[Point, Point]], discs: list[tuple[Point, float]],
                 step: float = 3.0) -> list[Point]:
    """Points along the lines, outside the city discs they join (where a name must not sit)."""
    out = []
    for (x1, y1), (x2, y2) in segments:
        n = max(1, int(math.hypot(x2 - x1, y2 - y1) / step))
        out += [(x1 + (x2 - x1) * k / n, y1 + (y2 - y1) * k / n) for k in range(1, n)]
    return [p for p in out if not any(math.hypot(p[0] - c[0], p[1] - c[1]) < r for c, r in discs)]


class Layout:
    """Boxes taken so far, the line samples, and the spot chosen for each name and tag row."""

    def __init__(self, discs: dict[str, tuple[Point, float]], samples: list[Point]):
        self.discs = discs
        self.samples = samples
        self.taken: list[Box] = [_box(c[0], c[1], 2 * r, 2 * r) for c, r in discs.values()]

    def _cost(self, box: Box, own: Box | None) -> float:
        area = (box[2] - box[0]) * (box[3] - box[1])
        covered = sum(_overlap(box, t) for t in self.taken if t != own)
        crossed = sum(1 for x, y in self.samples if box[0] <= x <= box[2] and box[1] <= y <= box[3])
        return 150 * covered / area + 1.0 * crossed  # a covered name is worse than a line under a name

    def place(self, city: str, w: float, h: float, spots: list[tuple[float, float, float]]) -> tuple[float, float]:
        """The offset (from the city's centre to the box's centre) of the cheapest spot."""
        (x, y), r = self.discs[city]
        own = _box(x, y, 2 * r, 2 * r)
        best = min(spots, key=lambda s: self._cost(_box(x + s[0], y + s[1], w, h), own) + s[2])
        self.taken.append(_box(x + best[0], y + best[1], w, h))
        return best[0], best[1]

    def place_tags(self, city: str, count: int) -> tuple[float, float]:
        """Offset of the first tag's centre; the others follow TAG_STEP to the right."""
        r = self.discs[city][1]
        w, h = TAG_STEP * (count - 1) + TAG_SIZE[0], TAG_SIZE[1]
        spots = [(r + 1 + w / 2, 4, 0.0), (-(r + 1 + w / 2), 4, 0.6), (0, r + 1 + h / 2, 0.8),
                 (r + 1 + w / 2, -4, 1.0), (-(r + 1 + w / 2), -4, 1.2), (0, -(r + 1 + h / 2), 2.0)]
        dx, dy = self.place(city, w, h, spots)
        return dx - w / 2 + TAG_SIZE[0] / 2, dy

    def place_name(self, city: str, w: float, h: float) -> tuple[float, float]:
        r = self.discs[city][1] + 1
        d = r * 0.75
        spots = [(0, -(r + h / 2), 0.0), (0, r + h / 2, 0.8), (r + w / 2, 0, 1.0), (-(r + w / 2), 0, 1.0),
                 (d + w / 2, -(d + h / 2), 1.4), (-(d + w / 2), -(d + h / 2), 1.4),
                 (d + w / 2, d + h / 2, 1.6), (-(d + w / 2), d + h / 2, 1.6)]
        return self.place(city, w, h, spots)
