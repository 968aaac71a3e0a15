"""The map image and the capital chart. Drawing only: everything comes from the viewer's view.

Cities coloured by kind and sized by value; each player's buildings beside the city; this turn's
trains as coloured strokes along the lines; closed lines dashed; the front line ringed in war.
"""
from __future__ import annotations

import math
from typing import Any

from gm.games.base import player_colours, player_names
from .data import GameMap
from .layout import TAG_STEP

KIND_COLOURS = {"prussian": "#4d4d4d", "german": "#e8c547", "allied": "#7fb77e", "foreign": "#c9c9d6"}
PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e")
LETTER = {"station": "S", "factory": "F", "barracks": "B"}
# the view of a blank map (`gm map render`): no players, no turn
BLANK = {"players": [], "placements": {}, "closed_lines": [], "front_line": [], "annexed": [], "buildings": {},
         "turn": None, "war": None, "capital_history": {}}


def _xy(gmap: GameMap, city: str) -> tuple[float, float]:
    lon, lat = gmap.cities[city].at
    return lon * math.cos(math.radians(50.5)), lat  # degrees of longitude are shorter up north


def draw_map(gmap: GameMap, view: dict[str, Any], campaign_players: list[dict] | None = None):
    """``campaign_players`` ([{id, name, colour}]) give the names and colours people know each other by."""
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    players = view["players"]
    colour = player_colours(campaign_players, players, PLAYER_COLOURS)
    name = player_names(campaign_players, players)
    fig = Figure(figsize=(12, 8))
    ax = fig.add_axes((0.01, 0.02, 0.68, 0.94))
    chart = fig.add_axes((0.74, 0.55, 0.24, 0.38))
    ax.set_aspect("equal")
    ax.axis("off")
    xy = {c: _xy(gmap, c) for c in gmap.cities}
    closed = set(view.get("closed_lines", []))
    for key, line in gmap.lines.items():
        (x1, y1), (x2, y2) = xy[line.ends[0]], xy[line.ends[1]]
        ax.plot([x1, x2], [y1, y2], color="#999999" if key not in closed else "#cc3333",
                lw=1.0 + line.capacity, ls="--" if key in closed else "-", zorder=1)
    for n, p in enumerate(players):  # this turn's trains, each player a little to the side
        shift = (n - (len(players) - 1) / 2) * 0.05
        for a, b in view["placements"].get(p, []):
            (x1, y1), (x2, y2) = xy[a], xy[b]
            ax.plot([x1 + shift, x2 + shift], [y1 + shift, y2 + shift], color=colour[p], lw=2.2, zorder=2)
    front = set(view["front_line"])
    annexed = set(view["annexed"])
    for town, city in gmap.cities.items():
        x, y = xy[town]
        kind = "allied" if city.country in annexed else city.kind
        ax.scatter([x], [y], s=city.value * 4, color=KIND_COLOURS[kind], edgecolor="black",
                   linewidth=2.5 if town in front else 0.6, zorder=3)
    _names_and_tags(fig, ax, gmap, view, xy, colour)
    title = gmap.name if view["turn"] is None else f"{gmap.name}, after turn {view['turn']}"
    if view["war"]:
        title += f" (war against {view['war']['target']}: {view['war']['target_troops']} troops needed)"
    ax.set_title(title, fontsize=10)
    handles = [Line2D([], [], marker="o", ls="", color=c, label=k.capitalize()) for k, c in KIND_COLOURS.items()]
    handles += [Line2D([], [], color="#999999", lw=1.0 + n, label=f"line, capacity {n}") for n in (1, 2)]
    handles += [Line2D([], [], color=colour[p], lw=2.5, label=name[p]) for p in players]
    if players:
        handles.append(Line2D([], [], ls="", marker="s", mfc="#777777", mec="none",
                              label="S, F, B: station, factory,\nbarracks (owner's colour)"))
    if front:
        handles.append(Line2D([], [], marker="o", ls="", mfc="white", mec="black", mew=2.5, label="front line"))
    if closed:
        handles.append(Line2D([], [], color="#cc3333", ls="--", label="closed line"))
    ax.legend(handles=handles, loc="lower left", fontsize=7, frameon=False)
    if players:
        _capital_chart(chart, view, colour, name)
    else:
        chart.set_visible(False)
    return fig


def _names_and_tags(fig, ax, gmap: GameMap, view: dict[str, Any], xy: dict[str, tuple[float, float]],
                    colour: dict[str, str]) -> None:
    """City names and building tags where they cover no other name, tag, city or line (layout.py)."""
    from .layout import Layout, line_samples, text_size
    xs, ys = [p[0] for p in xy.values()], [p[1] for p in xy.values()]
    ax.set_xlim(min(xs) - 0.5, max(xs) + 0.5)
    ax.set_ylim(min(ys) - 0.5, max(ys) + 0.5)
    ax.apply_aspect()
    scale = 72 / fig.dpi
    at = {c: tuple(v * scale for v in ax.transData.transform(xy[c])) for c in gmap.cities}
    discs = {c: (at[c], math.sqrt(city.value * 4) / 2 + 1.5) for c, city in gmap.cities.items()}
    segments = [(at[line.ends[0]], at[line.ends[1]]) for line in gmap.lines.values()]
    layout = Layout(discs, line_samples(segments, list(discs.values())))
    biggest_first = sorted(gmap.cities, key=lambda c: (-gmap.cities[c].value, c))
    for town in biggest_first:
        marks = [(p, view["buildings"][p][town]) for p in view["players"] if town in view["buildings"][p]]
        if not marks:
            continue
        dx, dy = layout.place_tags(town, len(marks))
        for i, (p, kind) in enumerate(marks):
            ax.annotate(LETTER[kind], xy[town], xytext=(dx + TAG_STEP * i, dy), textcoords="offset points",
                        fontsize=7, fontweight="bold", color="white", ha="center", va="center", zorder=6,
                        bbox={"boxstyle": "square,pad=0.1", "fc": colour[p], "ec": "none"})
    for town in biggest_first:
        dx, dy = layout.place_name(town, *text_size(town, 6.5))
        ax.annotate(town, xy[town], xytext=(dx, dy), textcoords="offset points", ha="center", va="center",
                    fontsize=6.5, zorder=5, bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none",
                                                  "alpha": 0.8})


def _capital_chart(ax, view: dict[str, Any], colour: dict[str, str], name: dict[str, str]) -> None:
    ax.set_title("Capital (RM) by turn", fontsize=9)
    for p, values in view["capital_history"].items():
        ax.plot(range(1, len(values) + 1), values, color=colour[p], label=name[p], lw=1.5, marker="o", ms=3)
    from matplotlib.ticker import MaxNLocator
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.tick_params(labelsize=7)
    ax.set_xlabel("turn", fontsize=8)
    if any(view["capital_history"].values()):
        ax.legend(fontsize=7, frameon=False)
