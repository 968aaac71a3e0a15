"""The map image: cities in their area colours, roads, houses, routes; the viewer's route stands out.

Drawing only: everything shown comes from the viewer's view (``views.view``).
"""
from __future__ import annotations

import math
from typing import Any

from gm.games.base import player_colours, player_names
from .maps import GameMap

PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd")
FREE_CITY = "#ffffff"
LINE_STEP = 1.55 * 8 / 72 / (0.84 * 8.5)  # the side panel's line spacing in axes units (8 pt text)


def _xy(gmap: GameMap, city: str) -> tuple[float, float]:
    lats = [c.at[1] for c in gmap.cities.values()]
    squeeze = math.cos(math.radians(sum(lats) / len(lats)))  # degrees of longitude are shorter up north
    lon, lat = gmap.cities[city].at
    return lon * squeeze, lat


def draw(gmap: GameMap, view: dict[str, Any] | None, viewer: str | None, campaign_players: list[dict] | None = None):
    """``campaign_players`` ([{id, name, colour}]) give the names and colours people know each other by.
    With no ``view``, the blank map (`gm map render`): cities, areas and roads only."""
    blank = view is None
    view = view or {"players": [], "routes": {}, "houses": {}}
    from matplotlib.figure import Figure

    players = view["players"]
    colour = player_colours(campaign_players, players, PLAYER_COLOURS)
    name = player_names(campaign_players, players)
    fig = Figure(figsize=(11, 8.5))
    fig.gm_dpi = 100
    ax = fig.add_axes((0.01, 0.13, 0.72, 0.81))
    side = fig.add_axes((0.74, 0.12, 0.25, 0.84))
    foot = fig.add_axes((0.01, 0.0, 0.98, 0.11))
    for a in (side, foot):
        a.axis("off")
    ax.set_aspect("equal")
    ax.axis("off")
    xy = {c: _xy(gmap, c) for c in gmap.cities}
    for a, b in gmap.roads():
        ax.plot(*zip(xy[a], xy[b]), color="#9a8f7a", lw=1.6, zorder=1)
    _draw_routes(ax, xy, view, viewer, colour)
    _draw_cities(ax, gmap, xy)
    _draw_houses(ax, xy, view, colour)
    if blank:
        title = gmap.title  # map 2's title says it is a reconstruction
    else:
        now = ("game over" if view["finished"] else
               f"round {view['round']}, {name.get(view['to_move'], view['to_move'])} to move")
        title = f"{gmap.title}: {now}"
        _side_panel(side, gmap, view, viewer, colour, name)
    fig.text(0.01, 0.985, title, fontsize=13, weight="bold", va="top", ha="left")
    handles = _legend_handles(gmap, players, viewer, colour, name)
    foot.legend(handles=handles, loc="center", ncol=4, fontsize=8, frameon=False)
    return fig


def _draw_routes(ax, xy: dict[str, tuple[float, float]], view: dict[str, Any], viewer: str | None,
                 colour: dict[str, str]) -> None:
    """Each player's route, side by side; the viewer's bold; a one-card route as a ring."""
    players = view["players"]
    for i, p in enumerate(players):
        route = view["routes"][p]
        mine = p == viewer
        if len(route) == 1:  # a one-card route: a ring round its city, one size per player
            ax.scatter([xy[route[0]][0]], [xy[route[0]][1]], s=520 + 260 * i, facecolors="none",
                       edgecolors=colour[p], linewidths=4 if mine else 2.5, zorder=3)
            continue
        if len(route) < 2:
            continue
        shift = 0.03 * (i - (len(players) - 1) / 2)
        pts = [(x + shift, y + shift) for x, y in (xy[c] for c in route)]
        ax.plot(*zip(*pts), color=colour[p], lw=6 if mine else 2, alpha=0.8 if mine else 0.7,
                ls="-" if mine else "--", zorder=2 if mine else 3, solid_capstyle="round")


def _draw_cities(ax, gmap: GameMap, xy: dict[str, tuple[float, float]]) -> None:
    """The cities in their area colours (free cities as white squares), each with its name."""
    for free in (False, True):  # one scatter per marker shape: drawing is much faster batched
        names = [n for n, c in gmap.cities.items() if (c.area is None) == free]
        if names:
            fills = [FREE_CITY if free else gmap.areas[gmap.cities[n].area]["rgb"] for n in names]
            ax.scatter([xy[n][0] for n in names], [xy[n][1] for n in names], s=260, c=fills, edgecolors="black",
                       linewidths=2.5 if free else 1, marker="s" if free else "o", zorder=4)
    for city in gmap.cities:  # on a white ground: no road runs through a name
        ax.annotate(city, xy[city], xytext=(0, -15), textcoords="offset points", ha="center", va="top",
                    fontsize=8, zorder=6, bbox={"boxstyle": "round,pad=0.12", "fc": "white", "ec": "none",
                                                "alpha": 0.85})


def _draw_houses(ax, xy: dict[str, tuple[float, float]], view: dict[str, Any], colour: dict[str, str]) -> None:
    """Each player's houses as triangles above the cities, side by side."""
    players = view["players"]
    for i, p in enumerate(players):
        houses = view["houses"][p]
        if houses:
            dx = 0.13 * (i - (len(players) - 1) / 2)
            ax.scatter([xy[c][0] + dx for c in houses], [xy[c][1] + 0.14 for c in houses], s=120,
                       c=colour[p], marker="^", edgecolors="black", linewidths=0.8, zorder=5)


def _legend_handles(gmap: GameMap, players: list[str], viewer: str | None, colour: dict[str, str],
                    name: dict[str, str]) -> list:
    """The legend in words: areas, free cities, each player's route and houses, the one-card ring."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    handles = [Patch(facecolor=a["rgb"], edgecolor="black", label=f"{n} ({a['colour']})")
               for n, a in gmap.areas.items()]
    if any(c.area is None for c in gmap.cities.values()):
        handles.append(Line2D([], [], marker="s", ls="", markerfacecolor=FREE_CITY, markeredgecolor="black",
                              markeredgewidth=2, label="free city (no area)"))
    for p in players:
        yours = " (yours)" if p == viewer else ""
        handles.append(Line2D([], [], color=colour[p], lw=4 if yours else 2, ls="-" if yours else "--",
                              label=f"{name[p]}'s route{yours}"))
        handles.append(Line2D([], [], marker="^", ls="", markersize=10, markerfacecolor=colour[p],
                              markeredgecolor="black", label=f"{name[p]}'s houses"))
    if players:
        handles.append(Line2D([], [], marker="o", ls="", markersize=13, markerfacecolor="none",
                              markeredgecolor="#555555", markeredgewidth=2.5, label="ring: a route of one card"))
    return handles


def panel_lines(gmap: GameMap, view: dict[str, Any], colour: dict[str, str], name: dict[str, str],
                hand: list[str] | None = None) -> list[tuple[str, str]]:
    """The side panel's lines (text, colour): the display, the players, the viewer's ``hand`` (None:
    no hand shown), the tiles left."""
    shown = view["display"]
    lines: list[tuple[str, str]] = [("Display:", "black")]
    lines += [("  " + ", ".join(shown[i:i + 3]), "black") for i in range(0, len(shown), 3)] or [("  empty", "black")]
    lines += [(f"Deck {view['deck_size']}, discard pile {view['discard_size']}", "black"), ("", "black")]
    for p in view["players"]:
        points = sum(t["points"] for t in view["tiles"][p])
        carriage = view["carriage"][p] or "-"
        lines.append((f"{name[p]}: carriage {carriage}, tiles {points} pts,", colour[p]))
        lines.append((f"   houses left {view['houses_left'][p]}, hand {view['hand_sizes'][p]}", colour[p]))
        if view.get("scores"):
            lines.append((f"   final score {view['scores'][p]}", colour[p]))
    left = [(f"  {k}: {', '.join(map(str, v))}", "black") for k, v in view["tiles_left"].items() if v]
    lines += [("", "black"), ("Tiles left (next copy first):", "black")] + (left or [("  none", "black")])
    if gmap.reconstruction:
        lines += [("", "black"), ("Map 2 is a reconstruction,", "#a00000"), ("not the published board.", "#a00000")]
    if hand is not None:  # last: the public lines above are the same for every viewer
        lines += [("", "black"), ("Your hand:", "black")]
        lines += [("  " + ", ".join(hand[i:i + 3]), "black") for i in range(0, len(hand), 3)] or [("  empty", "black")]
    return lines


def _side_panel(ax, gmap: GameMap, view: dict[str, Any], viewer: str | None, colour: dict[str, str],
                name: dict[str, str]) -> None:
    hand = view["hands"][viewer] if viewer in view["hands"] else None
    lines = panel_lines(gmap, view, colour, name, hand)
    # consecutive lines of one colour share a text object (fewer texts, faster drawing)
    start = 0
    while start < len(lines):
        end = start
        while end < len(lines) and lines[end][1] == lines[start][1]:
            end += 1
        ax.text(0, 1 - start * LINE_STEP, "\n".join(t for t, _ in lines[start:end]), color=lines[start][1],
                fontsize=8, va="top", ha="left", linespacing=1.55, transform=ax.transAxes)
        start = end
