"""The cash-over-time chart of a game: each company's cash after set-up and after every turn.
Drawing only — the figures come from the state's `cash_history`."""
from __future__ import annotations

from typing import Any

from .palette import COLOURS


def cash_chart(view: dict[str, Any], *, width: float = 8.0, height: float = 4.5):
    """A matplotlib Figure (never pyplot) of cash by turn, one line per company; None without history."""
    history = view.get("cash_history") or []
    if len(history) < 2:
        return None
    from matplotlib.figure import Figure  # matplotlib only when a chart is drawn
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(width, height), dpi=100)
    axes = figure.add_subplot(1, 1, 1)
    turns = list(range(len(history)))
    build_turns = view.get("build_turns", 0)
    for p in view["players"]:
        company = view["companies"][p]
        axes.plot(turns, [row.get(p, 0) for row in history], label=company["name"],
                  color=COLOURS.get(company["colour"], company["colour"]), linewidth=2)
    if 0 < build_turns < len(history) - 1:
        axes.axvline(build_turns, color="#999999", linestyle="--", linewidth=1)
        axes.annotate("races begin", (build_turns, axes.get_ylim()[1]), xytext=(4, -12),
                      textcoords="offset points", fontsize=8, color="#666666")
    axes.axhline(0, color="#cccccc", linewidth=1)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("turn")
    axes.set_ylabel("cash (thousands)")
    axes.set_title(f"{view.get('map_name', '')}: cash over the game")
    axes.legend(loc="upper left", fontsize=8)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    return figure
