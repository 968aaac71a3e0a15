"""The map image of a turn: every company's track in its colour. Drawing only — no rules here."""
from __future__ import annotations

from typing import Any

from gm.hexmap.model import HexMap

from .palette import COLOURS, FOREIGN_COLOUR


def draw(view: dict[str, Any], hexmap: HexMap, events: list[dict[str, Any]] | None = None, *,
         players: list[dict[str, Any]] | None = None):
    from gm.hexmap.render import draw_map  # matplotlib is imported only when a map is drawn

    companies = view["companies"]
    track = {p: view["track"][p] for p in view["players"] if view["track"].get(p)}
    colours = {p: COLOURS.get(companies[p]["colour"], companies[p]["colour"]) for p in view["players"]}
    names = {p: companies[p]["name"] for p in view["players"]}
    for country, links in view.get("foreign_track", {}).items():
        key = f"foreign:{country}"
        track[key], colours[key], names[key] = links, FOREIGN_COLOUR, f"{country} (foreign)"
    if view["stage"] == "build":
        done = view["build_turn"] - 1
        title = (f"{view['map_name']}: after build turn {done}" if done else f"{view['map_name']}: set-up")
    elif view["stage"] == "operate":
        now = (f"expansion after race round {view['race_round']}" if view.get("operate_phase") == "expansion"
               else f"race round {view['race_round']}")
        title = f"{view['map_name']}: {now}"
    else:
        title = f"{view['map_name']}: the final network"
    # where a segment had to stop this turn, so players can find it on the map
    stops = [_stop_hex(seg["stopped"]) for e in events or [] if e.get("kind") == "build"
             for seg in e["segments"] if seg["stopped"]]
    stops = [h for h in stops if h]
    return draw_map(hexmap, track=track, colours=colours, names=names, title=title, highlight=stops or None,
                    hex_numbers=True)


def _stop_hex(stop: dict[str, Any]) -> str | None:
    """The hex to mark: the one a build could not reach, or where a ferry or leap could not be taken."""
    return stop.get("from") if stop["kind"] in ("ferry", "leap") else stop["hex"]
