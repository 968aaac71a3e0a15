"""The map picture as PNG without matplotlib (Pillow imports in a tenth of the time), in two layers:
a public base drawn once per position and shared by every viewer (roads; cities, names, houses,
the public side panel, title and legend), and one cheap overlay per viewer (the routes, the
viewer's own drawn thick, and their hand). render.py draws the same picture with matplotlib for
SVG and `gm map render`. Drawing only; the view says what to draw."""
from __future__ import annotations

import functools
import hashlib
import json
import math
from typing import Any

from ...fonts import dejavu
from ..base import player_colours, player_names
from .maps import GameMap
from .render import FREE_CITY, PLAYER_COLOURS, _xy, panel_lines

S = 2                           # drawn at twice the size, then reduced: smooth edges
WIDTH, HEIGHT = 1100 * S, 850 * S
PT = 100 / 72 * S               # pixels per point (the matplotlib picture is 100 dpi)
MAP_BOX = (0.01, 0.13, 0.72, 0.81)  # figure fractions, as render.py's axes
ROAD = "#9a8f7a"


class MapPicture:
    """What Game.render returns: saves itself like a matplotlib Figure (PNG by Pillow, SVG by render.py)."""

    def __init__(self, gmap: GameMap, view: dict[str, Any], viewer: str | None, players: list[dict] | None):
        self.gmap, self.view, self.viewer, self.players = gmap, view, viewer, players
        self.gm_dpi = 100

    def figure(self):
        """The same picture as a matplotlib Figure (SVG files; tests that read its texts)."""
        from .render import draw
        return draw(self.gmap, self.view, self.viewer, self.players)

    def savefig(self, target, format: str = "png", dpi: int | None = None) -> None:  # noqa: A002 - as Figure
        if format != "png":
            self.figure().savefig(target, format=format, dpi=dpi or 100)
            return
        from PIL import Image
        image = draw_png(self.gmap, self.view, self.viewer, self.players)
        # flat colours: a 256-colour palette loses nothing visible and the file is half the size
        image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
            target, format="PNG", compress_level=1)


@functools.lru_cache(maxsize=8)
def _font(size: float, bold: bool = False):
    return dejavu(round(size * PT), bold=bold)


def _rgba(colour: str, alpha: float = 1.0) -> tuple[int, int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16), round(alpha * 255))


class _Frame:
    """Map coordinates (lon, lat) to pixels: equal aspect, centred in MAP_BOX, 5% margins."""

    def __init__(self, gmap: GameMap):
        self.xy = {c: _xy(gmap, c) for c in gmap.cities}
        xs, ys = [p[0] for p in self.xy.values()], [p[1] for p in self.xy.values()]
        dx, dy = max(xs) - min(xs), max(ys) - min(ys)
        self.x0, self.y0 = min(xs) - 0.05 * dx, min(ys) - 0.05 * dy
        left, bottom, w, h = (MAP_BOX[0] * WIDTH, MAP_BOX[1] * HEIGHT, MAP_BOX[2] * WIDTH, MAP_BOX[3] * HEIGHT)
        self.k = min(w / (1.1 * dx), h / (1.1 * dy))
        self.left = left + (w - 1.1 * dx * self.k) / 2
        self.top = HEIGHT - bottom - (h - 1.1 * dy * self.k) / 2

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return self.left + (x - self.x0) * self.k, self.top - (y - self.y0) * self.k

    def city(self, name: str, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float]:
        x, y = self.xy[name]
        return self(x + dx, y + dy)


def _key(gmap: GameMap, view: dict[str, Any], players: list[dict] | None) -> str:
    """What the base layer depends on: the public part of the view, the players, the map."""
    public = {k: v for k, v in view.items() if k not in ("hands", "deck", "discard")}
    return hashlib.sha256(json.dumps([gmap.title, public, players], sort_keys=True, default=str).encode()).hexdigest()


_BASES: dict[str, tuple[Any, Any]] = {}  # key -> (roads layer, top layer): the last few positions
_KEEP = 4


def draw_png(gmap: GameMap, view: dict[str, Any], viewer: str | None, players: list[dict] | None):
    """The viewer's picture: the shared base with the viewer's overlay, reduced to its size."""
    key = _key(gmap, view, players)
    if key not in _BASES:
        while len(_BASES) >= _KEEP:
            del _BASES[next(iter(_BASES))]
        _BASES[key] = (_roads(gmap), _top(gmap, view, players))
    roads, top = _BASES[key]
    image = roads.copy()
    _routes(image, gmap, view, viewer, players)
    image.alpha_composite(top)
    _hand(image, gmap, view, viewer, players)
    return image.convert("RGB").reduce(S)


def _roads(gmap: GameMap):
    from PIL import Image, ImageDraw
    image = Image.new("RGBA", (WIDTH, HEIGHT), "white")
    draw, at = ImageDraw.Draw(image), _Frame(gmap)
    for a, b in gmap.roads():
        draw.line([at.city(a), at.city(b)], fill=ROAD, width=round(1.6 * PT))
    return image


def _top(gmap: GameMap, view: dict[str, Any], players: list[dict] | None):
    """Everything public drawn above the routes, on a transparent layer: drawn once per position."""
    from PIL import Image, ImageDraw
    ids = view["players"]
    colour, name = player_colours(players, ids, PLAYER_COLOURS), player_names(players, ids)
    image = Image.new("RGBA", (WIDTH, HEIGHT), (255, 255, 255, 0))
    draw, at = ImageDraw.Draw(image), _Frame(gmap)
    for city, c in gmap.cities.items():
        x, y = at.city(city)
        r = math.sqrt(260) / 2 * PT
        if c.area is None:
            draw.rectangle((x - r, y - r, x + r, y + r), fill=FREE_CITY, outline="black", width=round(2.5 * PT))
        else:
            draw.ellipse((x - r, y - r, x + r, y + r), fill=gmap.areas[c.area]["rgb"], outline="black",
                         width=round(PT))
        label = _font(8)
        box = draw.textbbox((x, y + 15 * PT), city, font=label, anchor="mt")
        pad = 0.12 * 8 * PT
        draw.rounded_rectangle((box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad), radius=pad,
                               fill=(255, 255, 255, 217))
        draw.text((x, y + 15 * PT), city, fill="black", font=label, anchor="mt")
    for i, p in enumerate(ids):
        dx = 0.13 * (i - (len(ids) - 1) / 2)
        for city in view["houses"][p]:
            _triangle(draw, at.city(city, dx, 0.14), math.sqrt(120) * PT, colour[p])
    now = ("game over" if view["finished"] else
           f"round {view['round']}, {name.get(view['to_move'], view['to_move'])} to move")
    draw.text((0.01 * WIDTH, 0.015 * HEIGHT), f"{gmap.title}: {now}", fill="black", font=_font(13, True))
    _text_lines(draw, panel_lines(gmap, view, colour, name), 0)
    _legend(draw, gmap, ids, colour, name)
    return image


def _routes(image, gmap: GameMap, view: dict[str, Any], viewer: str | None, players: list[dict] | None) -> None:
    """Every route, the viewer's thick and solid, the others dashed; one-card routes ringed."""
    from PIL import Image, ImageDraw
    ids = view["players"]
    colour = player_colours(players, ids, PLAYER_COLOURS)
    layer = Image.new("RGBA", image.size, (255, 255, 255, 0))
    draw, at = ImageDraw.Draw(layer), _Frame(gmap)
    order = sorted(range(len(ids)), key=lambda i: ids[i] != viewer)  # the viewer's below the others
    for i in order:
        p, route = ids[i], view["routes"][ids[i]]
        mine = p == viewer
        if len(route) == 1:
            x, y = at.city(route[0])
            r = math.sqrt(520 + 260 * i) / 2 * PT
            draw.ellipse((x - r, y - r, x + r, y + r), outline=colour[p], width=round((4 if mine else 2.5) * PT))
            continue
        if len(route) < 2:
            continue
        shift = 0.03 * (i - (len(ids) - 1) / 2)
        points = [at.city(c, shift, shift) for c in route]
        if mine:
            width = round(6 * PT)
            draw.line(points, fill=_rgba(colour[p], 0.8), width=width, joint="curve")
            for x, y in (points[0], points[-1]):
                draw.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=_rgba(colour[p], 0.8))
        else:
            for a, b in zip(points, points[1:]):
                _dashed(draw, a, b, _rgba(colour[p], 0.7), round(2 * PT), 7.4 * PT, 3.2 * PT)
    image.alpha_composite(layer)


def _hand(image, gmap: GameMap, view: dict[str, Any], viewer: str | None, players: list[dict] | None) -> None:
    """The viewer's hand below the public panel, and the legend's line for their own route."""
    from PIL import ImageDraw
    if viewer not in view["hands"] or viewer not in view["players"]:
        return
    draw = ImageDraw.Draw(image)
    colour = player_colours(players, view["players"], PLAYER_COLOURS)
    name = player_names(players, view["players"])
    public = panel_lines(gmap, view, colour, name)
    mine = panel_lines(gmap, view, colour, name, view["hands"][viewer])
    _text_lines(draw, mine[len(public):], len(public))  # the hand comes last in the panel
    x, y = _legend_slot(len(_legend_entries(gmap, view["players"], colour, name)))
    draw.line([(x, y), (x + 20 * PT, y)], fill=colour[viewer], width=round(4 * PT))
    draw.text((x + 26 * PT, y), "your route: the thick line", fill="black", font=_font(8), anchor="lm")


def _text_lines(draw, lines: list[tuple[str, str]], first: int) -> None:
    x, top, step = 0.74 * WIDTH, 0.04 * HEIGHT, 1.55 * 8 * PT
    for n, (text, colour) in enumerate(lines, start=first):
        if text:
            draw.text((x, top + n * step), text, fill=colour, font=_font(8))


def _legend_entries(gmap: GameMap, ids: list[str], colour: dict[str, str], name: dict[str, str]) -> list[tuple]:
    entries: list[tuple] = [("patch", a["rgb"], f"{n} ({a['colour']})") for n, a in gmap.areas.items()]
    if any(c.area is None for c in gmap.cities.values()):
        entries.append(("free", FREE_CITY, "free city (no area)"))
    for p in ids:
        entries += [("line", colour[p], f"{name[p]}'s route"), ("house", colour[p], f"{name[p]}'s houses")]
    if ids:
        entries.append(("ring", "#555555", "ring: a route of one card"))
    return entries


def _legend_slot(n: int, total: int | None = None) -> tuple[float, float]:
    """Where legend entry ``n`` goes: four columns, filled column by column, in the foot."""
    rows = math.ceil((total if total is not None else n + 1) / 4)
    rows = max(rows, 4)
    column, row = n // rows, n % rows
    return 0.09 * WIDTH + column * 0.215 * WIDTH, 0.905 * HEIGHT + row * 0.021 * HEIGHT


def _legend(draw, gmap: GameMap, ids: list[str], colour: dict[str, str], name: dict[str, str]) -> None:
    entries = _legend_entries(gmap, ids, colour, name)
    for n, (kind, fill, label) in enumerate(entries):
        x, y = _legend_slot(n, len(entries) + 1)
        h = 7 * PT
        if kind in ("patch", "free"):
            draw.rectangle((x, y - h / 2, x + 20 * PT, y + h / 2), fill=fill, outline="black",
                           width=round((2 if kind == "free" else 1) * PT))
        elif kind == "line":
            _dashed(draw, (x, y), (x + 20 * PT, y), fill, round(2 * PT), 7.4 * PT, 3.2 * PT)
        elif kind == "house":
            _triangle(draw, (x + 10 * PT, y), 10 * PT, fill)
        else:
            r = 6.5 * PT
            draw.ellipse((x + 10 * PT - r, y - r, x + 10 * PT + r, y + r), outline=fill, width=round(2.5 * PT))
        draw.text((x + 26 * PT, y), label, fill="black", font=_font(8), anchor="lm")


def _triangle(draw, centre: tuple[float, float], size: float, fill: str) -> None:
    x, y = centre
    h = size * 0.9
    draw.polygon([(x, y - h / 2), (x - size / 2, y + h / 2), (x + size / 2, y + h / 2)], fill=fill,
                 outline="black", width=max(1, round(0.8 * PT)))


def _dashed(draw, a, b, fill, width: int, on: float, off: float) -> None:
    (x1, y1), (x2, y2) = a, b
    length = math.hypot(x2 - x1, y2 - y1)
    if length == 0:
        return
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    t = 0.0
    while t < length:
        end = min(t + on, length)
        draw.line([(x1 + ux * t, y1 + uy * t), (x1 + ux * end, y1 + uy * end)], fill=fill, width=width)
        t = end + off
