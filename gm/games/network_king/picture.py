"""The board image as PNG without matplotlib: Pillow imports in a tenth of the time, which keeps
`gm resolve` of a Network King turn quick. The same layout (``render.layout``) as the matplotlib
drawing, which still makes every other format (SVG). Drawing only; the view says what to draw."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from gm.store.fonts import dejavu
from .render import PANEL_W, SCALE, Card, Layout, layout

SS = 2                      # drawn at twice the size, then reduced: smooth edges
PPU = SCALE * 100 * SS      # pixels per board unit (the matplotlib figure is drawn at 100 dpi)
PANEL, PANEL_EDGE, LAID_OFF, GREY_INK = "#f4f1ea", "#999999", "#dddddd", "#555555"


class BoardPicture:
    """What Game.render returns for Network King: saves itself like a matplotlib Figure."""

    def __init__(self, view: dict[str, Any], players: list[dict] | None = None):
        self.view, self.players = view, players
        self.gm_dpi = 100

    def figure(self):
        """The same picture as a matplotlib Figure (SVG, and tests that read its texts)."""
        from .render import draw_board
        return draw_board(self.view, self.players)

    def savefig(self, target, format: str = "png", dpi: int | None = None) -> None:  # noqa: A002 - as Figure
        if format != "png":
            self.figure().savefig(target, format=format, dpi=dpi or self.gm_dpi)
            return
        from gm.store.pictures import palette
        palette(draw_png(layout(self.view, self.players))).save(target, format="PNG", compress_level=1)


@lru_cache(maxsize=16)
def _font(points: float, bold: bool = False, italic: bool = False):
    return dejavu(round(points * 100 / 72 * SS), bold=bold, italic=italic)


def _px(plan: Layout, x: float, y: float) -> tuple[float, float]:
    """Board units (y upwards) to pixels (y downwards)."""
    return x * PPU, (plan.height - y) * PPU


def _text_block(draw, x: float, y: float, lines: list[str], font, fill: str, *, spacing: float,
                anchor_top: bool) -> None:
    """Centred lines whose block's top (or bottom) edge is at pixel row ``y``."""
    step = font.size * spacing
    top = y if anchor_top else y - step * len(lines)
    for i, line in enumerate(lines):
        draw.text((x, top + step * i + step / 2), line, fill=fill, font=font, anchor="mm")


def draw_png(plan: Layout):
    from PIL import Image, ImageDraw
    image = Image.new("RGB", (round(plan.width * PPU), round(plan.height * PPU)), "white")
    draw = ImageDraw.Draw(image)
    for studio in plan.studios:
        x0, y0 = _px(plan, studio.x0 - 0.02, plan.height - 0.06)  # matplotlib's box pads by 0.02
        x1, y1 = _px(plan, studio.x0 + PANEL_W + 0.02, 0.06)
        draw.rounded_rectangle((x0, y0, x1, y1), radius=0.02 * PPU, fill=PANEL, outline=PANEL_EDGE, width=SS)
        centre = (x0 + x1) / 2
        title = studio.name.split("\n")
        _text_block(draw, centre, 0.2 * PPU, title, _font(12, True, studio.unopened), "black",
                    spacing=1.3, anchor_top=True)
        below = _px(plan, 0, plan.height - 0.32 - 0.3 * len(title))[1]
        _text_block(draw, centre, below, [studio.held], _font(9.5), "#333333", spacing=1.2, anchor_top=True)
        _dashes(draw, [(x0 + 0.1 * PPU, _px(plan, 0, plan.middle)[1]), (x1 - 0.1 * PPU, _px(plan, 0, plan.middle)[1])],
                "#666666", SS, 4 * SS)
        for text, colour, y in studio.counts:
            draw.text((centre, _px(plan, 0, y)[1]), text, fill=colour, font=_font(10), anchor="mm")
    for card in plan.cards:
        _card(draw, plan, card)
    return image.resize((image.width // SS, image.height // SS), Image.LANCZOS)


def _card(draw, plan: Layout, card: Card) -> None:
    pad = 0.03  # as matplotlib's rounded box: the card's size plus a rounded margin
    x0, y0 = _px(plan, card.cx - card.w / 2 - pad, card.cy + card.h / 2 + pad)
    x1, y1 = _px(plan, card.cx + card.w / 2 + pad, card.cy - card.h / 2 - pad)
    width = round(2.5 * 100 / 72 * SS)
    radius = pad * PPU
    if card.laid_off:
        draw.rounded_rectangle((x0, y0, x1, y1), radius=radius, fill=LAID_OFF)
        corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
        _dashes(draw, corners, card.colour, width, 9 * SS)
    else:
        draw.rounded_rectangle((x0, y0, x1, y1), radius=radius, fill="white", outline=card.colour, width=width)
    ink = GREY_INK if card.laid_off else "black"
    *name, profession = card.lines
    cx, cy = _px(plan, card.cx, card.cy)
    _text_block(draw, cx, cy - 0.12 * PPU, name, _font(9.5, True), ink, spacing=1.17, anchor_top=False)
    below = [profession] + (["laid off"] if card.laid_off else [])
    _text_block(draw, cx, cy + 0.08 * PPU, below, _font(8.5, italic=card.laid_off), ink, spacing=1.3,
                anchor_top=True)


def _dashes(draw, points: list[tuple[float, float]], colour: str, width: int, dash: float) -> None:
    """A dashed polyline: dashes of ``dash`` pixels with equal gaps, restarting at each corner."""
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
        if not length:
            continue
        ux, uy = (bx - ax) / length, (by - ay) / length
        at = 0.0
        while at < length:
            end = min(at + dash, length)
            draw.line((ax + ux * at, ay + uy * at, ax + ux * end, ay + uy * end), fill=colour, width=width)
            at += 2 * dash

