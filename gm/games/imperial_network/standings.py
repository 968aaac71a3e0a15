"""Imperial Network's standings for the website, from the public view of the last turn."""
from __future__ import annotations

from typing import Any

from gm.games.base import standings_ids, standings_player


def standings(view: dict[str, Any], players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ids = standings_ids(view, players)
    capital = view.get("capital") or {}
    cash = view.get("cash") or {}
    trains = view.get("trains_owned") or {}
    buildings = view.get("buildings") or {}
    order = sorted(ids, key=lambda p: -(capital.get(p) or 0))
    rows = [[standings_player(p), capital.get(p, ""), cash.get(p, ""), trains.get(p, ""),
             len(buildings.get(p) or {})] for p in order]
    history = view.get("capital_history") or {}
    chart = {"title": "Capital after each turn", "x_label": "turn", "y_label": "capital", "x_start": 1,
             "values": {p: list(history.get(p) or []) for p in ids}}
    return [{"title": "Nations", "head": ["Player", "Capital", "Cash", "Trains", "Buildings"],
             "rows": rows, "chart": chart}]
