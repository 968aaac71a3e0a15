"""Drawing the Network board from a view (no rules here): goals shaded in their owner's colour,
dead corners marked, coordinates on the edges, pieces, the last move, the winning network."""
from __future__ import annotations

from typing import Any

from .board import COLUMNS, DEAD_CORNERS, GOAL_SQUARES, SQUARE_OF, TITLE

BOARD_LIGHT, BOARD_DARK = "#c9c2a8", "#b7af93"
GOAL_SHADE = {"dark": ("#3b4150", 0.55), "light": ("#fbf6e4", 0.75)}
PIECE = {"D": ("#1f232b", "#000000"), "L": ("#faf7ef", "#333333")}
LAST_MOVE, NETWORK = "#e8710a", "#d62728"


def _centre(square: str) -> tuple[float, float]:
    index = SQUARE_OF[square]
    return index % 8 + 0.5, index // 8 + 0.5


def draw_board(view: dict[str, Any], *, size: float = 6.0, names: dict[str, str] | None = None):
    """A matplotlib Figure of the board in ``view`` (the game's state as one viewer sees it);
    ``names`` (side -> the player's name) put people in the caption as the reports name them."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle, FancyArrowPatch, Rectangle

    figure = Figure(figsize=(size, size * 1.08))
    figure.gm_dpi = 100
    axes = figure.add_axes((0.04, 0.03, 0.92, 0.87))
    axes.set_xlim(-0.6, 8.6)
    axes.set_ylim(-0.6, 8.6)
    axes.set_aspect("equal")
    axes.axis("off")
    _squares(axes, Rectangle)
    for i in range(8):
        for y in (-0.3, 8.3):
            axes.text(i + 0.5, y, COLUMNS[i], ha="center", va="center", fontsize=11, color="#333")
        for x in (-0.3, 8.3):
            axes.text(x, i + 0.5, str(i + 1), ha="center", va="center", fontsize=11, color="#333")
    _last_move(axes, view.get("last_move") or None, Rectangle, FancyArrowPatch)
    _pieces_and_network(axes, view, Circle)
    figure.suptitle(_caption(view, names), y=0.975, fontsize=13)
    figure.text(0.5, 0.918, "Dark's goals: columns a and h    Light's goals: rows 1 and 8",
                ha="center", fontsize=9, color="#555")
    return figure


def _squares(axes, Rectangle) -> None:  # noqa: N803 - the matplotlib class, imported by the caller
    add = axes.add_artist  # not add_patch: the limits are fixed, so skip its costly bounds update
    goal_owner = {s: side for side, squares in GOAL_SQUARES.items() for s in squares}
    for index in range(64):
        column, row = index % 8, index // 8
        base = BOARD_DARK if (column + row) % 2 == 0 else BOARD_LIGHT
        add(Rectangle((column, row), 1, 1, facecolor=base, edgecolor="#7d7663", lw=0.6, zorder=1))
        if index in goal_owner:
            colour, alpha = GOAL_SHADE[goal_owner[index]]
            add(Rectangle((column, row), 1, 1, facecolor=colour, alpha=alpha, lw=0, zorder=2))
        if index in DEAD_CORNERS:  # no one may stand here
            add(Rectangle((column, row), 1, 1, facecolor="#4a473f", edgecolor="#9a958a",
                                     hatch="xx", lw=0, zorder=2))
    add(Rectangle((0, 0), 8, 8, fill=False, edgecolor="#3d3a30", lw=1.6, zorder=3))


def _last_move(axes, last, Rectangle, FancyArrowPatch) -> None:  # noqa: N803 - matplotlib classes
    add = axes.add_artist
    if last:
        tx, ty = _centre(last["to"])
        add(Rectangle((tx - 0.5, ty - 0.5), 1, 1, fill=False, edgecolor=LAST_MOVE, lw=3.2, zorder=4))
        if last.get("from"):
            fx, fy = _centre(last["from"])
            add(Rectangle((fx - 0.46, fy - 0.46), 0.92, 0.92, fill=False, edgecolor=LAST_MOVE,
                                     lw=1.8, ls="--", zorder=4))
            add(FancyArrowPatch((fx, fy), (tx, ty), arrowstyle="-|>", mutation_scale=16,
                                           color=LAST_MOVE, lw=2, shrinkA=4, shrinkB=16, zorder=4))


def _pieces_and_network(axes, view: dict[str, Any], Circle) -> None:  # noqa: N803 - matplotlib class
    add = axes.add_artist
    for i, text in enumerate(view["board"]):
        row = 7 - i
        for column, cell in enumerate(text):
            if cell in PIECE:
                face, edge = PIECE[cell]
                add(Circle((column + 0.5, row + 0.5), 0.36, facecolor=face, edgecolor=edge,
                                      lw=1.4, zorder=5))

    winner = view.get("winner")
    network = (view.get("networks") or {}).get(winner) if winner in TITLE else None
    if network:
        xs, ys = zip(*(_centre(s) for s in network))
        axes.plot(xs, ys, color=NETWORK, lw=3.5, alpha=0.85, solid_capstyle="round", zorder=4.5)
        for n, (x, y) in enumerate(zip(xs, ys), start=1):
            add(Circle((x, y), 0.42, fill=False, edgecolor=NETWORK, lw=2.4, zorder=6))
            axes.text(x, y, str(n), ha="center", va="center", fontsize=9, fontweight="bold",
                      color=NETWORK, zorder=7)


def _caption(view: dict[str, Any], names: dict[str, str] | None = None) -> str:
    winner, moves = view.get("winner"), len(view.get("history") or [])
    last = view.get("last_move")
    played = (f"after {last['side'].title()}'s {_written(last)}" if last
              else f"after {moves} moves" if moves else "start")

    def who(side: str) -> str:
        name = (names or {}).get(side)
        return f"{side.title()} ({name})" if name else side.title()
    if winner == "draw":
        return f"Network: drawn ({view.get('end') or 'draw'}, {played})"
    if winner:
        return f"Network: {who(winner)} wins ({played})"
    return f"Network: {who(str(view['to_move']))} to move ({played})"


def _written(last: dict[str, Any]) -> str:
    return last["to"] if last.get("kind") == "place" else f"{last['from']}-{last['to']}"
