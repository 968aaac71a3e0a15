"""Drawing a hex map and the companies' track; holds no rules.

``draw_map`` returns a MapPicture: as PNG it is painted with Pillow (gm.hexmap.raster), which
imports in a twentieth of matplotlib's time, so `gm map` and `gm resolve` never load matplotlib,
numpy or hexalattice for a map; as SVG it is a matplotlib Figure (gm.hexmap.figure), imported then.
Both lay the page out alike (same sizes, colours and places). Drawing units: a hex's corner radius
is 1; y grows downward (row 01 at the top), as in gm.hexmap.grid.
"""
from __future__ import annotations

import io
import json
import math
import os
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from gm.hexmap.model import HexMap
from gm.hexmap.style import (BLOCKED, CASING, DPI, FERRY, FOREIGN, GRID_EDGE, PALETTE, RIVER, SPECIAL, START,
                             SWAMP_HATCH, SWAMP_INK, TERRAIN_COLOURS, TERRAIN_LEGEND, WIDE_RIVER)

__all__ = ["draw_map", "render_blank", "save_figure", "MapPicture", "TERRAIN_COLOURS", "DPI"]


class MapPicture:
    """A map to be drawn: ``savefig`` like a matplotlib Figure (PNG painted with Pillow, any other
    format through ``figure()``), ``image()`` the PNG's picture, ``figure()`` the Figure."""

    def __init__(self, hexmap: HexMap, *, track: Mapping[str, list], paint: Mapping[str, str], entries: list[tuple],
                 title: str | None, highlight: list[str] | None, hex_numbers: bool):
        self.hexmap, self.track, self.paint, self.entries = hexmap, track, paint, entries
        self.title, self.highlight, self.hex_numbers = title, highlight, hex_numbers
        self.gm_dpi = DPI  # campaigns write the map at the size it was designed for

    def image(self):
        """The picture in full colour (a PIL RGB image); painted once when ``near`` is asked for too."""
        if self.__dict__.get("_image") is not None:
            return self._image
        from gm.hexmap.raster import paint
        return paint(self.hexmap, track=self.track, paint=self.paint, entries=self.entries, title=self.title,
                     highlight=self.highlight, hex_numbers=self.hex_numbers)

    def keep(self) -> "MapPicture":
        """Keep the painted picture for later calls (``savefig`` then ``near`` paint it once)."""
        if self.__dict__.get("_image") is None:
            self._image = self.image()
        return self

    def near(self, hexes) -> bytes:
        """The PNG of the map around ``hexes`` (a player's network), at the whole map's scale, with its
        title and key: what a report mail carries instead of the whole map (gm.hexmap.raster.near)."""
        from gm.hexmap.raster import near  # Pillow only when a map is painted
        from gm.store.pictures import palette, save_png  # (as savefig)
        part = near(self.image(), self.hexmap, hexes=list(hexes), title=self.title, entries=self.entries)
        out = io.BytesIO()
        save_png(palette(part), out, compress_level=6)
        return out.getvalue()

    def figure(self):
        """The same map as a matplotlib Figure (for SVG), drawn once."""
        if self.__dict__.get("_figure") is None:
            from gm.hexmap.figure import draw_figure
            self._figure = draw_figure(self.hexmap, track=self.track, paint=self.paint, entries=self.entries,
                                       title=self.title, highlight=self.highlight, hex_numbers=self.hex_numbers)
        return self._figure

    def __getattr__(self, name: str):
        """Anything else asked of the picture (``artists``, ``texts``...) is asked of its Figure, as when
        draw_map returned one (that imports matplotlib)."""
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.figure(), name)

    def savefig(self, target, format: str = "png", dpi: int | None = None) -> None:  # noqa: A002 - as Figure
        if format != "png":
            self.figure().savefig(target, format=format, dpi=dpi or self.gm_dpi)
            return
        if dpi not in (None, self.gm_dpi):
            raise ValueError(f"a map's PNG is drawn at {self.gm_dpi} dpi, not {dpi}")
        from PIL.PngImagePlugin import PngInfo

        from gm.store.pictures import palette, save_png
        notes = PngInfo()
        for key, value in self.notes().items():
            notes.add_text(key, value)
        reduced = palette(self.image())  # the full-colour picture is let go before the file is written
        save_png(reduced, target, compress_level=1, pnginfo=notes)

    def notes(self) -> dict[str, str]:
        """What the PNG tells gm.turn.forum, so its forum copy can be cut into parts where hex numbers stay
        readable: ``gm:fine-print`` the hex numbers' font size in pixels (none without numbers) and
        ``gm:map-box`` the hexes' box in pixels (left, top, right, bottom; no title, no key)."""
        from gm.hexmap.raster import page_for
        from gm.hexmap.style import NUMBER_PT

        page = page_for(self.hexmap, self.title, self.entries)
        (left, top), (right, bottom) = page.px((page.left, page.top)), page.px((page.right, page.bottom))
        box = [max(0, int(left)), max(0, int(top)), min(page.width, math.ceil(right)),
               min(page.height, math.ceil(bottom))]
        notes = {"gm:map-box": ",".join(str(v) for v in box)}
        if self.hex_numbers:
            notes["gm:fine-print"] = f"{page.pt(NUMBER_PT):.2f}"
        notes["gm:hotspots"] = hotspots_note(self.hexmap, page)
        return notes


def hotspots_note(hexmap: HexMap, page) -> str:
    """Where each hex of the map sits in the PNG, for pages that let a reader click a hex (the web
    door): JSON {"r": radius in pixels, "spots": {label: [x, y]}}, the hexes off the map left out."""
    grid = hexmap.grid
    spots = {}
    for label in grid.labels():
        if hexmap.terrain.get(label, "x") != "x":
            x, y = page.px(grid.center(label))
            spots[label] = [round(x, 1), round(y, 1)]
    return json.dumps({"r": round(page.scale * 0.86, 1), "spots": spots}, separators=(",", ":"))


def draw_map(hexmap: HexMap, *, track: Mapping[str, Iterable[Sequence[str]]] | None = None,
             colours: Mapping[str, str] | None = None, names: Mapping[str, str] | None = None,
             title: str | None = None, highlight: Iterable[str] | None = None,
             hex_numbers: bool = True) -> MapPicture:
    """The map with terrain, rivers, towns, ferries, foreign countries and each company's track.

    ``track`` is {company: [[hexA, hexB], ...]} (links drawn centre to centre), ``colours`` a colour
    per company (a name or '#rrggbb'), ``names`` the company names shown in the legend,
    ``highlight`` hexes to ring (a route, an error), ``hex_numbers`` False to leave them off.
    """
    track = {company: [list(link) for link in links] for company, links in (track or {}).items()}
    for links in track.values():
        for link in links:
            if len(link) != 2 or not all(hexmap.grid.contains(h) for h in link):
                raise ValueError(f"track link {list(link)!r} is not two hexes of this map")
    companies = list(track)
    paint = {c: (colours or {}).get(c) or PALETTE[i % len(PALETTE)] for i, c in enumerate(companies)}
    entries = legend_entries(hexmap, companies, paint, names or {})
    return MapPicture(hexmap, track=track, paint=paint, entries=entries, title=title,
                      highlight=list(highlight) if highlight else None, hex_numbers=hex_numbers)


def render_blank(path: str | os.PathLike, out_file: str | os.PathLike) -> Path:
    """`gm map render MAPFILE -o FILE`: the blank map with every hex number, as PNG or SVG."""
    from gm.hexmap.mapfile import load_map

    hexmap = load_map(path)
    return save_figure(draw_map(hexmap, title=hexmap.name), out_file)


def save_figure(picture, out_file: str | os.PathLike, *, dpi: int = DPI) -> Path:
    """Write ``picture`` (a MapPicture or a Figure) as PNG (256 colours, see gm.store.pictures) or SVG, by the
    file's extension, atomically (a temporary file renamed into place), readable like any file."""
    from gm.store.fileio import atomic_write
    from gm.store.pictures import figure_bytes

    out = Path(out_file)
    kind = out.suffix.lower().lstrip(".")
    if kind not in ("png", "svg"):
        raise ValueError(f"cannot write {out.name}: give a file ending in .png or .svg")
    atomic_write(out, figure_bytes(picture, kind, dpi=dpi))
    return out


def legend_entries(hexmap: HexMap, companies: list[str], paint: Mapping[str, str],
                   names: Mapping[str, str]) -> list[tuple]:
    """The key: (kind, label, style) for each terrain present, each feature the map has, each company."""
    present = {hexmap.terrain.get(label, "x") for label in hexmap.grid.labels()}
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
