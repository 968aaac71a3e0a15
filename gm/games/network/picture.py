"""The board image without matplotlib for PNG: Pillow imports in a tenth of the time, which keeps
`gm resolve` of a Network turn under a second. Other formats (SVG) are drawn by render.py.
Drawing only; the view says what to draw."""
from __future__ import annotations

from typing import Any

from gm.store.fonts import dejavu
from .board import COLUMNS, DEAD_CORNERS, GOAL_SQUARES, SQUARE_OF, TITLE
from .render import BOARD_DARK, BOARD_LIGHT, GOAL_SHADE, LAST_MOVE, NETWORK, PIECE, _caption

SCALE = 2                 # drawn at twice the size, then reduced: smooth edges
CELL = 60 * SCALE
LEFT, TOP = 60 * SCALE, 96 * SCALE
WIDTH, HEIGHT = 600 * SCALE, 640 * SCALE


class BoardPicture:
    """What Game.render returns for Network: saves itself like a matplotlib Figure."""

    def __init__(self, view: dict[str, Any], names: dict[str, str] | None = None):
        self.view = view
        self.names = names or {}
        self.gm_dpi = 100

    def savefig(self, target, format: str = "png", dpi: int | None = None) -> None:  # noqa: A002 - as Figure
        if format != "png":
            from .render import draw_board
            draw_board(self.view, names=self.names).savefig(target, format=format, dpi=dpi or self.gm_dpi)
            return
        draw_png(self.view, self.names).save(target, format="PNG", optimize=False)


def _font(size: int, bold: bool = False):
    return dejavu(round(size * 100 / 72 * SCALE), bold=bold)  # points at 100 dpi


def _box(index: int, inset: float = 0) -> tuple[float, float, float, float]:
    column, row = index % 8, index // 8
    x0, y0 = LEFT + column * CELL, TOP + (7 - row) * CELL
    return x0 + inset, y0 + inset, x0 + CELL - inset, y0 + CELL - inset


def _centre(square: str) -> tuple[float, float]:
    x0, y0, x1, y1 = _box(SQUARE_OF[square])
    return (x0 + x1) / 2, (y0 + y1) / 2


def _blend(base: str, over: str, alpha: float) -> tuple[int, int, int]:
    a = [int(base[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(over[i:i + 2], 16) for i in (1, 3, 5)]
    return tuple(round(x * (1 - alpha) + y * alpha) for x, y in zip(a, b))


def draw_png(view: dict[str, Any], names: dict[str, str] | None = None):
    from PIL import Image, ImageDraw
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(image)
    goal_owner = {s: side for side, squares in GOAL_SQUARES.items() for s in squares}
    for index in range(64):
        column, row = index % 8, index // 8
        colour: Any = BOARD_DARK if (column + row) % 2 == 0 else BOARD_LIGHT
        if index in goal_owner:
            colour = _blend(colour, *GOAL_SHADE[goal_owner[index]])
        box = _box(index)
        draw.rectangle(box, fill=colour, outline="#7d7663", width=SCALE)
        if index in DEAD_CORNERS:  # no one may stand here: hatched
            image.paste(_hatch(), (int(box[0]), int(box[1])))
            draw.rectangle(box, outline="#7d7663", width=SCALE)
    draw.rectangle((LEFT, TOP, LEFT + 8 * CELL, TOP + 8 * CELL), outline="#3d3a30", width=2 * SCALE)
    label = _font(11)
    for i in range(8):
        x = LEFT + i * CELL + CELL / 2
        y = TOP + (7 - i) * CELL + CELL / 2
        for ly in (TOP - 18 * SCALE, TOP + 8 * CELL + 18 * SCALE):
            draw.text((x, ly), COLUMNS[i], fill="#333333", font=label, anchor="mm")
        for lx in (LEFT - 18 * SCALE, LEFT + 8 * CELL + 18 * SCALE):
            draw.text((lx, y), str(i + 1), fill="#333333", font=label, anchor="mm")

    last = view.get("last_move") or None
    if last:
        draw.rectangle(_box(SQUARE_OF[last["to"]], 1), outline=LAST_MOVE, width=4 * SCALE)
        if last.get("from"):
            _dashed_box(draw, _box(SQUARE_OF[last["from"]], 3 * SCALE))
            _arrow(draw, _centre(last["from"]), _centre(last["to"]))

    winner = view.get("winner")
    network = (view.get("networks") or {}).get(winner) if winner in TITLE else None
    points = [_centre(s) for s in network] if network else []
    if points:  # under the pieces, as the rings and numbers go over them
        draw.line(points, fill=NETWORK, width=5 * SCALE, joint="curve")
    radius = 0.36 * CELL
    for i, text in enumerate(view["board"]):
        for column, cell in enumerate(text):
            if cell in PIECE:
                face, edge = PIECE[cell]
                x, y = _centre(f"{COLUMNS[column]}{8 - i}")
                draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=face, outline=edge,
                             width=2 * SCALE)

    ring, number = 0.42 * CELL, _font(9, bold=True)
    for n, (x, y) in enumerate(points, start=1):
        draw.ellipse((x - ring, y - ring, x + ring, y + ring), outline=NETWORK, width=3 * SCALE)
        draw.text((x, y), str(n), fill=NETWORK, font=number, anchor="mm")

    draw.text((WIDTH / 2, 24 * SCALE), _caption(view, names), fill="black", font=_font(13), anchor="mm")
    draw.text((WIDTH / 2, 50 * SCALE), "Dark's goals: columns a and h    Light's goals: rows 1 and 8",
              fill="#555555", font=_font(9), anchor="mm")
    return image.resize((WIDTH // SCALE, HEIGHT // SCALE), Image.LANCZOS)


def _hatch():
    """One dead-corner square: dark, cross-hatched (drawn on its own tile, so nothing spills)."""
    from PIL import Image, ImageDraw
    tile = Image.new("RGB", (CELL + 1, CELL + 1), "#4a473f")
    draw = ImageDraw.Draw(tile)
    for k in range(-CELL, CELL * 2, 12 * SCALE):
        draw.line((k, 0, k + CELL, CELL), fill="#9a958a", width=SCALE)
        draw.line((k, CELL, k + CELL, 0), fill="#9a958a", width=SCALE)
    return tile


def _dashed_box(draw, box) -> None:
    x0, y0, x1, y1 = box
    step = 8 * SCALE
    for x in range(int(x0), int(x1), 2 * step):
        draw.line((x, y0, min(x + step, x1), y0), fill=LAST_MOVE, width=2 * SCALE)
        draw.line((x, y1, min(x + step, x1), y1), fill=LAST_MOVE, width=2 * SCALE)
    for y in range(int(y0), int(y1), 2 * step):
        draw.line((x0, y, x0, min(y + step, y1)), fill=LAST_MOVE, width=2 * SCALE)
        draw.line((x1, y, x1, min(y + step, y1)), fill=LAST_MOVE, width=2 * SCALE)


def _arrow(draw, start, end) -> None:
    import math
    (fx, fy), (tx, ty) = start, end
    angle = math.atan2(ty - fy, tx - fx)
    shrink = 0.3 * CELL  # stop short of the target piece
    ex, ey = tx - shrink * math.cos(angle), ty - shrink * math.sin(angle)
    sx, sy = fx + 0.1 * CELL * math.cos(angle), fy + 0.1 * CELL * math.sin(angle)
    draw.line((sx, sy, ex, ey), fill=LAST_MOVE, width=3 * SCALE)
    head = 12 * SCALE
    left = (ex - head * math.cos(angle - 0.45), ey - head * math.sin(angle - 0.45))
    right = (ex - head * math.cos(angle + 0.45), ey - head * math.sin(angle + 0.45))
    draw.polygon([(ex, ey), left, right], fill=LAST_MOVE)
