"""Examples for forms and error messages, made of hexes that are on the player's own map."""
from __future__ import annotations

from gm.hexmap.model import HexMap

from .company import starting_points


def straight_line(hexmap: HexMap, start: str | None = None) -> tuple[str, str, str] | None:
    """(start, next, the hex after it on the same straight line), all land hexes track may enter:
    from ``start``, else from the map's first starting point; None on a map with no such line."""
    starts = [start] if start else starting_points(hexmap)
    for here in starts:
        if not hexmap.grid.contains(here):
            continue
        q, r = hexmap.grid.to_axial(here)
        for there in hexmap.grid.neighbours(here):
            tq, tr = hexmap.grid.to_axial(there)
            far = hexmap.grid.from_axial(2 * tq - q, 2 * tr - r)
            if far and hexmap.buildable(there) and hexmap.buildable(far):
                return here, there, far
    return None


def round_example(hexmap: HexMap, start: str | None = None) -> str:
    """'round 1: (0506) 0507 0508' on this map (with 'total N' when it helps to say so)."""
    line = straight_line(hexmap, start)
    if line is None:
        return "round 1: (START) HEX HEX"
    return f"round 1: ({line[0]}) {line[1]} {line[2]}"


def segment_example(hexmap: HexMap, start: str | None = None) -> str:
    """'(0506) 0507 0508' on this map."""
    return round_example(hexmap, start).split(": ", 1)[1]
