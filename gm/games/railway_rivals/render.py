"""The map image of a turn: every company's track in its colour. Drawing only — no rules here."""
from __future__ import annotations

from typing import Any

from gm.hexmap.model import HexMap

from .palette import COLOURS, FOREIGN_COLOUR


def draw(view: dict[str, Any], hexmap: HexMap, events: list[dict[str, Any]] | None = None, *,
         players: list[dict[str, Any]] | None = None):
    from gm.hexmap.render import draw_map  # matplotlib is imported only when a map is drawn

    companies = view["companies"]
    track = {p: list(view["track"][p]) for p in view["players"] if view["track"].get(p)}
    for ferry in hexmap.ferries:  # a built ferry is its owner's: drawn in the owner's colour over the site's line
        owner = (view.get("ferries") or {}).get(ferry.id)
        if owner in companies:
            track.setdefault(owner, []).append(list(ferry.ends))
    colours = {p: COLOURS.get(companies[p]["colour"], companies[p]["colour"]) for p in view["players"]}
    names = {p: companies[p]["name"] for p in view["players"]}
    for country, links in view.get("foreign_track", {}).items():
        key = f"foreign:{country}"
        track[key], colours[key], names[key] = links, FOREIGN_COLOUR, f"{country} (foreign)"
    title = _title(view)
    for p in view["players"]:  # this turn's new track: the company's colour, paler, its own key entry
        new = view.get("built", {}).get(p) or []
        if new:
            fresh = {tuple(sorted(link)) for link in new}
            track[p] = [link for link in track.get(p, []) if tuple(sorted(link)) not in fresh]
            key = f"new:{p}"
            track[key], colours[key], names[key] = new, _paler(colours[p]), f"{names[p]}: built this turn"
    # where a segment had to stop this turn, so players can find it on the map
    stops = [_stop_hex(seg["stopped"]) for e in events or [] if e.get("kind") == "build"
             for seg in e["segments"] if seg["stopped"]]
    stops = [h for h in stops if h]
    return draw_map(hexmap, track=track, colours=colours, names=names, title=title, highlight=stops or None,
                    hex_numbers=True)


def _title(view: dict[str, Any]) -> str:
    """The map's title names the turn its report names: '... after build turn 6 of 6'."""
    last = view.get("last_turn")
    if last == "set-up":
        return f"{view['map_name']}: set-up"
    if last:
        return f"{view['map_name']}: after {'the ' if last.startswith('expansion') else ''}{last}"
    if view["stage"] == "build":  # a state written before last_turn was kept
        done = view["build_turn"] - 1
        return f"{view['map_name']}: after build turn {done}" if done else f"{view['map_name']}: set-up"
    return f"{view['map_name']}: the final network" if view["stage"] == "over" else view["map_name"]


def _paler(colour: str) -> str:
    """A colour mixed halfway with white ('#rrggbb' in, '#rrggbb' out)."""
    if not (colour.startswith("#") and len(colour) == 7):
        return colour
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{(c + 255) // 2:02x}" for c in rgb)


def _stop_hex(stop: dict[str, Any]) -> str | None:
    """The hex to mark: the one a build could not reach, or where a ferry or leap could not be taken."""
    return stop.get("from") if stop["kind"] in ("ferry", "leap") else stop["hex"]
