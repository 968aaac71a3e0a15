"""Where each company's track goes on the map: links centre to centre, shared links side by side.

Pure geometry in hex units (y down), shared by the PNG painter (gm.hexmap.raster) and the SVG
figure (gm.hexmap.features), so both put every line in the same place.
"""
from __future__ import annotations

import math
from typing import Iterable, Mapping, Sequence

from gm.hexmap.grid import SQRT3
from gm.hexmap.style import TRACK_GAP

NUMBER_ABOVE = 0.6  # a hex number sits this far above its hex's centre, clear of the track through it

Point = tuple[float, float]


def link_ends(link: Sequence[str], at: Mapping[str, Point]) -> tuple[str, str]:
    if len(link) != 2 or link[0] not in at or link[1] not in at:
        raise ValueError(f"track link {list(link)!r} is not two hexes of this map")
    return str(link[0]), str(link[1])


def plan(links: Mapping[str, Iterable[Sequence[str]]], at: Mapping[str, Point]
         ) -> tuple[list[tuple[str, Point, Point, bool]], set[str]]:
    """([(company, start, end, dashed)], hexes whose numbers the track covers). Each company's lines
    in the order the companies come; a link shared by n companies gives n parallel lines TRACK_GAP
    apart, centred on the link; links between hexes that are not neighbours (ferries) are dashed."""
    sharing: dict[tuple[str, str], list[str]] = {}
    for company in links:
        for link in links[company]:
            a, b = link_ends(link, at)
            owners = sharing.setdefault((a, b) if a < b else (b, a), [])
            if company not in owners:
                owners.append(company)
    lines = []
    far_links = []
    for (a, b), owners in sharing.items():
        (x0, y0), (x1, y1) = at[a], at[b]
        length = math.hypot(x1 - x0, y1 - y0)
        nx, ny = -(y1 - y0) / length, (x1 - x0) / length
        far = abs(length - SQRT3) > 1e-6  # neighbours' centres are sqrt(3) apart
        if far:
            far_links.append(((x0, y0), (x1, y1)))
        for n, company in enumerate(owners):
            shift = (n - (len(owners) - 1) / 2) * TRACK_GAP
            lines.append((company, (x0 + nx * shift, y0 + ny * shift), (x1 + nx * shift, y1 + ny * shift), far))
    order = {company: i for i, company in enumerate(links)}
    lines.sort(key=lambda line: order[line[0]])
    covered = {h for pair in sharing for h in pair}
    if far_links:  # a ferry crosses water hexes: their numbers go above it too
        covered |= _crossed(far_links, at)
    return lines, covered


def _crossed(far_links: list[tuple[Point, Point]], at: Mapping[str, Point]) -> set[str]:
    numbers = [(label, x, y - NUMBER_ABOVE) for label, (x, y) in at.items()]
    found = set()
    for (x0, y0), (x1, y1) in far_links:
        steps = 4 * int(math.hypot(x1 - x0, y1 - y0)) + 2
        points = [(x0 + (x1 - x0) * k / (steps - 1), y0 + (y1 - y0) * k / (steps - 1)) for k in range(steps)]
        lo_x, hi_x = min(x0, x1) - 0.6, max(x0, x1) + 0.6
        for label, nx, ny in numbers:
            if lo_x < nx < hi_x and any(abs(px - nx) < 0.6 and abs(py - ny) < 0.35 for px, py in points):
                found.add(label)
    return found
