"""Whether track may run between two neighbouring hexes, and what it costs in pips.

A link runs from one hex centre to the next, so it crosses half of each hex: 1 pip for the step,
plus each half hex's terrain (forest +1, swamp and mountain +2), plus the river crossed between
them (river +2, wide river +3). Forest to forest is therefore 1 + 1 + 1 = 3 pips.
"""
from __future__ import annotations

from gm.hexmap.model import TERRAIN_NAMES, HexMap

HALF_HEX_PIPS = {".": 0, "f": 1, "s": 2, "m": 2}
RIVER_PIPS = {"river": 2, "wide": 3}
UNBUILDABLE_WORDS = {"~": "sea", "l": "a lake", "x": "off the map"}

_route_links: dict[int, tuple[HexMap, frozenset[tuple[str, str]]]] = {}
_link_tables: dict[int, tuple[HexMap, dict[str, dict[str, int]]]] = {}


def link_key(a: str, b: str) -> tuple[str, str]:
    """The same link whichever way it was built."""
    return (a, b) if a < b else (b, a)


def link_pips(hexmap: HexMap, a: str, b: str) -> int:
    """Pips to build from a to b (both buildable neighbours)."""
    crossing = hexmap.river_crossing(a, b)
    return (1 + HALF_HEX_PIPS.get(hexmap.terrain[a], 0) + HALF_HEX_PIPS.get(hexmap.terrain[b], 0)
            + (RIVER_PIPS[crossing] if crossing else 0))


def pips_breakdown(hexmap: HexMap, a: str, b: str) -> str:
    """'1 + forest 1 + river 2' — how link_pips adds up, for messages."""
    parts = ["1"]
    for label in (a, b):
        extra = HALF_HEX_PIPS.get(hexmap.terrain[label], 0)
        if extra:
            parts.append(f"{TERRAIN_NAMES[hexmap.terrain[label]]} {extra}")
    crossing = hexmap.river_crossing(a, b)
    if crossing:
        parts.append(f"{'wide river' if crossing == 'wide' else 'river'} {RIVER_PIPS[crossing]}")
    return " + ".join(parts)


def permitted_route_links(hexmap: HexMap) -> frozenset[tuple[str, str]]:
    """Every link of every foreign permitted route (cached per loaded map)."""
    cached = _route_links.get(id(hexmap))
    if cached is None or cached[0] is not hexmap:
        links = frozenset(link_key(a, b) for country in hexmap.foreign for route in country.permitted_routes
                          for a, b in zip(route, route[1:]))
        cached = _route_links[id(hexmap)] = (hexmap, links)
    return cached[1]


def place_name(hexmap: HexMap, label: str) -> str:
    """'2523' or 'Helm's Deep (2524)': a town's hex by the name the player most likely wrote."""
    town = hexmap.town_at.get(label)
    return f"{town.name} ({label})" if town else label


def hex_problem(hexmap: HexMap, label: str) -> str | None:
    """Why no track may stand in ``label``, or None."""
    if not hexmap.grid.contains(label):
        return f"{label} is off the {hexmap.grid.columns}x{hexmap.grid.rows} map"
    if not hexmap.buildable(label):
        return (f"{place_name(hexmap, label)} is {UNBUILDABLE_WORDS.get(hexmap.terrain[label], 'not land')}: "
                f"no track can be built there")
    return None


def foreign_problem(hexmap: HexMap, a: str, b: str) -> str | None:
    """Why a link a-b breaks the foreign-country rules, or None."""
    fa, fb = hexmap.foreign_at(a), hexmap.foreign_at(b)
    if fa is None and fb is None:
        return None
    if link_key(a, b) in permitted_route_links(hexmap):
        return None
    if fa is not None and fb is not None:
        link = f"{place_name(hexmap, a)}-{place_name(hexmap, b)}"
        if fa is fb:
            return f"{link} runs inside {fa.name}: only its permitted routes may be built there"
        return f"{link} runs from {fa.name} into {fb.name}: no permitted route does that"
    country, inside = (fb, b) if fb is not None else (fa, a)
    if country.entry_hexes and inside not in country.entry_hexes:
        return (f"{place_name(hexmap, inside)} is in {country.name} but not one of its entry hexes "
                f"({', '.join(country.entry_hexes)})")
    return None


def link_problem(hexmap: HexMap, a: str, b: str) -> str | None:
    """Why track cannot run from a to b (terrain, sides, foreign rules), or None when it can."""
    problem = hex_problem(hexmap, b) or hex_problem(hexmap, a)
    if problem:
        return problem
    if not hexmap.grid.adjacent(a, b):
        return f"{place_name(hexmap, b)} is not next to {place_name(hexmap, a)}"
    if hexmap.blocked_side(a, b):
        return f"the side {hexmap.grid.side(a, b)} is impassable (an estuary)"
    return foreign_problem(hexmap, a, b)


def link_table(hexmap: HexMap) -> dict[str, dict[str, int]]:
    """{hex: {neighbour: pips}} for every link track may take on this map (cached per loaded map)."""
    cached = _link_tables.get(id(hexmap))
    if cached is None or cached[0] is not hexmap:
        table: dict[str, dict[str, int]] = {}
        for a in hexmap.grid.labels():
            if hexmap.buildable(a):
                table[a] = {b: link_pips(hexmap, a, b) for b in hexmap.grid.neighbours(a)
                            if link_problem(hexmap, a, b) is None}
        cached = _link_tables[id(hexmap)] = (hexmap, table)
    return cached[1]
