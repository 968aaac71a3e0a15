"""The map picture as PNG without matplotlib (Pillow imports in a tenth of the time), in two layers:
a public base drawn once per position and shared by every viewer (roads; cities, names, houses,
the public side panel, title and legend), composed and reduced once, and one cheap overlay per
viewer (the routes, the viewer's own drawn thick, and their hand), composed only in the boxes it
touches (draw_png). render.py draws the same picture with matplotlib for
SVG and `gm map render`. Drawing only; the view says what to draw."""
from __future__ import annotations

import functools
import hashlib
import json
import math
from typing import Any

from gm.store.fonts import dejavu
from gm.games.base import player_colours, player_names
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
        key = _png_key(self.gmap, self.view, self.viewer, self.players)
        if key not in _PNGS:  # the GM's and the public picture are one and the same
            while len(_PNGS) >= 2 * _KEEP:
                del _PNGS[next(iter(_PNGS))]
            _PNGS[key] = _png_bytes(draw_png(self.gmap, self.view, self.viewer, self.players))
        if hasattr(target, "write"):
            target.write(_PNGS[key])
        else:
            with open(target, "wb") as file:
                file.write(_PNGS[key])


def _png_bytes(image) -> bytes:
    import io

    from PIL import Image
    buffer = io.BytesIO()
    # flat colours: a 256-colour palette loses nothing visible and the file is half the size
    from gm.store.pictures import save_png
    save_png(image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE), buffer,
             compress_level=1)
    return buffer.getvalue()


def _png_key(gmap: GameMap, view: dict[str, Any], viewer: str | None, players: list[dict] | None) -> tuple:
    """All a viewer's picture depends on: the public base, and the viewer's own route and hand."""
    own = viewer in view["players"]
    hand = view["hands"].get(viewer) if own else None
    return _key(gmap, view, players), viewer if own else None, json.dumps(hand, sort_keys=True, default=str)


@functools.lru_cache(maxsize=8)
def _font(size: float, bold: bool = False):
    return dejavu(round(size * PT), bold=bold)


def _rgba(colour: str, alpha: float = 1.0) -> tuple[int, int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16), round(alpha * 255))


class _Frame:
    """Map coordinates (lon, lat) to pixels: equal aspect, centred in MAP_BOX, 5% margins."""

    def __init__(self, gmap: GameMap, origin: tuple[int, int] = (0, 0)):
        self.ox, self.oy = origin  # the corner of the region drawn on: whole pixels, so exact
        self.xy = {c: _xy(gmap, c) for c in gmap.cities}
        xs, ys = [p[0] for p in self.xy.values()], [p[1] for p in self.xy.values()]
        dx, dy = max(xs) - min(xs), max(ys) - min(ys)
        self.x0, self.y0 = min(xs) - 0.05 * dx, min(ys) - 0.05 * dy
        left, bottom, w, h = (MAP_BOX[0] * WIDTH, MAP_BOX[1] * HEIGHT, MAP_BOX[2] * WIDTH, MAP_BOX[3] * HEIGHT)
        self.k = min(w / (1.1 * dx), h / (1.1 * dy))
        self.left = left + (w - 1.1 * dx * self.k) / 2
        self.top = HEIGHT - bottom - (h - 1.1 * dy * self.k) / 2

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return self.left + (x - self.x0) * self.k - self.ox, self.top - (y - self.y0) * self.k - self.oy

    def city(self, name: str, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float]:
        x, y = self.xy[name]
        return self(x + dx, y + dy)


def _key(gmap: GameMap, view: dict[str, Any], players: list[dict] | None) -> str:
    """What the base layer depends on: the public part of the view, the players, the map."""
    public = {k: v for k, v in view.items() if k not in ("hands", "deck", "discard")}
    return hashlib.sha256(json.dumps([gmap.title, public, players], sort_keys=True, default=str).encode()).hexdigest()


_PNGS: dict[tuple, bytes] = {}  # the files of the last few pictures drawn
_BASES: dict[str, tuple[Any, Any, Any]] = {}  # key -> (roads, top, both reduced): the last few positions
_KEEP = 4
_BAND, _OVERLAP = 512, 32  # full-size rows composed at once, and drawn beyond each side (even)


def draw_png(gmap: GameMap, view: dict[str, Any], viewer: str | None, players: list[dict] | None):
    """The viewer's picture: the shared base, reduced once, with the viewer's overlay painted over it
    only where the overlay falls (the routes, the hand), each such box composed at full size and
    reduced alone: the same pixels as composing the whole picture, for a fraction of the work."""
    roads, top, small = _base(gmap, view, players)
    image = small.copy()
    for box in _boxes(gmap, view, viewer, players):
        _compose(image, roads, top, box, lambda region, origin: _routes(region, gmap, view, viewer, players,
                                                                      origin=origin),
                 lambda region, origin: _hand(region, gmap, view, viewer, players, origin=origin))
    return image


def _compose(image, roads, top, box: tuple[int, int, int, int], below=None, above=None) -> None:
    """Paint ``box`` of the full-size picture (roads, ``below``, top, ``above``) reduced into ``image``,
    a band of rows at a time: a few megabytes at once, not the whole picture's sixty. Each band is
    drawn with _OVERLAP rows more each side and only its own rows kept: Pillow fills a shape cut
    by the edge of what it draws on a little differently near that edge."""
    left, upper, right, lower = box
    for y in range(upper, lower, _BAND):
        end = min(y + _BAND, lower)
        band = (left, max(0, y - _OVERLAP), right, min(HEIGHT, end + _OVERLAP))
        region = roads.crop(band)
        if below:
            below(region, band[:2])
        region.alpha_composite(top.crop(band))
        if above:
            above(region, band[:2])
        reduced = region.convert("RGB").reduce(S)
        skip = (y - band[1]) // S
        image.paste(reduced.crop((0, skip, reduced.width, skip + (end - y) // S)), (left // S, y // S))


def _base(gmap: GameMap, view: dict[str, Any], players: list[dict] | None):
    key = _key(gmap, view, players)
    if key not in _BASES:
        from PIL import Image
        while len(_BASES) >= _KEEP:
            del _BASES[next(iter(_BASES))]
        roads, top = _roads(gmap), _top(gmap, view, players)
        small = Image.new("RGB", (WIDTH // S, HEIGHT // S))
        _compose(small, roads, top, (0, 0, WIDTH, HEIGHT))
        _BASES[key] = (roads, top, small)
    return _BASES[key]


def _boxes(gmap: GameMap, view: dict[str, Any], viewer: str | None,
           players: list[dict] | None) -> list[tuple[int, int, int, int]]:
    """Boxes (full size, even corners) covering every pixel the viewer's overlay may touch."""
    at, ids, margin = _Frame(gmap), view["players"], 30 * PT  # wider than any ring, line or cap
    points = [at.city(c, dx, dx) for i, p in enumerate(ids) for c in view["routes"][p]
              for dx in (0.03 * (i - (len(ids) - 1) / 2),)]
    boxes = []
    if points:
        xs, ys = [x for x, _ in points], [y for _, y in points]
        boxes.append((min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin))
    if viewer in view["hands"] and viewer in ids:
        first, last = _hand_lines(gmap, view, viewer, players)
        x, top, step = _PANEL
        boxes.append((x - 4 * PT, top + (first - 1) * step, WIDTH, top + (last + 1) * step))
        x, y = _legend_slot(len(_legend_entries(gmap, ids, {p: "" for p in ids}, {p: "" for p in ids})))
        boxes.append((x - 4 * PT, y - 12 * PT, WIDTH, y + 12 * PT))
    return [_even(box) for box in boxes]


def _even(box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    left, top, right, bottom = box
    left, top = max(0, int(left) // S * S), max(0, int(top) // S * S)
    right, bottom = min(WIDTH, -(-math.ceil(right) // S) * S), min(HEIGHT, -(-math.ceil(bottom) // S) * S)
    return left, top, right, bottom


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


def _routes(image, gmap: GameMap, view: dict[str, Any], viewer: str | None, players: list[dict] | None, *,
            origin: tuple[int, int] = (0, 0)) -> None:
    """Every route, the viewer's thick and solid, the others dashed; one-card routes ringed."""
    from PIL import Image, ImageDraw
    ids = view["players"]
    colour = player_colours(players, ids, PLAYER_COLOURS)
    layer = Image.new("RGBA", image.size, (255, 255, 255, 0))
    draw, at = ImageDraw.Draw(layer), _Frame(gmap, origin)
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


def _hand_lines(gmap: GameMap, view: dict[str, Any], viewer: str, players: list[dict] | None) -> tuple[int, int]:
    """The panel's lines of the viewer's hand: (first, end) line numbers (the hand comes last)."""
    colour = player_colours(players, view["players"], PLAYER_COLOURS)
    name = player_names(players, view["players"])
    return (len(panel_lines(gmap, view, colour, name)),
            len(panel_lines(gmap, view, colour, name, view["hands"][viewer])))


def _hand(image, gmap: GameMap, view: dict[str, Any], viewer: str | None, players: list[dict] | None, *,
          origin: tuple[int, int] = (0, 0)) -> None:
    """The viewer's hand below the public panel, and the legend's line for their own route."""
    from PIL import ImageDraw
    if viewer not in view["hands"] or viewer not in view["players"]:
        return
    draw = ImageDraw.Draw(image)
    colour = player_colours(players, view["players"], PLAYER_COLOURS)
    name = player_names(players, view["players"])
    public = panel_lines(gmap, view, colour, name)
    mine = panel_lines(gmap, view, colour, name, view["hands"][viewer])
    _text_lines(draw, mine[len(public):], len(public), origin)  # the hand comes last in the panel
    x, y = _legend_slot(len(_legend_entries(gmap, view["players"], colour, name)))
    x, y = x - origin[0], y - origin[1]
    draw.line([(x, y), (x + 20 * PT, y)], fill=colour[viewer], width=round(4 * PT))
    draw.text((x + 26 * PT, y), "your route: the thick line", fill="black", font=_font(8), anchor="lm")


_PANEL = (0.74 * WIDTH, 0.04 * HEIGHT, 1.55 * 8 * PT)  # the side panel's left, top and line step


def _text_lines(draw, lines: list[tuple[str, str]], first: int, origin: tuple[int, int] = (0, 0)) -> None:
    x, top, step = _PANEL
    for n, (text, colour) in enumerate(lines, start=first):
        if text:
            draw.text((x - origin[0], top + n * step - origin[1]), text, fill=colour, font=_font(8))


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
