"""Thurn und Taxis' standings for the website, from the public view of the last turn."""
from __future__ import annotations

from typing import Any

from gm.games.base import standings_ids, standings_player


def standings(view: dict[str, Any], players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ids = standings_ids(view, players)
    scores = view.get("scores") or {}
    left = view.get("houses_left") or {}
    houses = view.get("houses") or {}
    tiles = view.get("tiles") or {}
    hand = view.get("hand_sizes") or {}

    def tile_points(p: str) -> int:
        return sum(t.get("points", 0) if isinstance(t, dict) else t if isinstance(t, int) else 0
                   for t in tiles.get(p) or [])

    routes = view.get("routes") or {}
    head = ["Player", "Houses placed", "Houses left", "Bonus tiles", "Route being built", "Cards in hand"]
    if scores:
        head.insert(1, "Score")
    order = sorted(ids, key=lambda p: -(scores.get(p) or 0)) if scores else ids
    rows = []
    for p in order:
        route = " – ".join(map(str, routes.get(p) or [])) or "none"
        row = [standings_player(p), len(houses.get(p) or []), left.get(p, ""), tile_points(p), route,
               hand.get(p, "")]
        if scores:
            row.insert(1, scores.get(p, ""))
        rows.append(row)
    return [{"title": "Scores" if scores else "Postal network so far", "head": head, "rows": rows, "chart": None}]
