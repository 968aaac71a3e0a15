"""Railway Rivals' standings for the website, from the public view of the last turn."""
from __future__ import annotations

from typing import Any

from gm.games.base import standings_ids, standings_player


def standings(view: dict[str, Any], players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ids = standings_ids(view, players)
    cash = view.get("cash") or {}
    won = view.get("races_won") or {}
    entered = view.get("races_entered") or {}
    towns = view.get("towns_reached") or {}
    reached = {p: sum(1 for who in towns.values() if p in (who or [])) for p in ids}
    order = sorted(ids, key=lambda p: (-(cash.get(p) or 0), -(won.get(p) or 0)))
    companies = view.get("companies") or {}
    names = {p["id"]: p["name"] for p in players}

    def company(p: str) -> str:
        name = (companies.get(p) or {}).get("name") or ""
        return name if name != names.get(p) else ""

    rows = [[standings_player(p, company(p)), cash.get(p, ""), won.get(p, 0), entered.get(p, 0), reached[p]]
            for p in order]
    chart = {"title": "Cash after each turn", "x_label": "turn", "y_label": "cash",
             "values": _by_player(view.get("cash_history"), ids)}
    return [{"title": "Companies", "head": ["Company", "Cash", "Races won", "Races entered", "Towns reached"],
             "rows": rows, "chart": chart}]


def _by_player(history: Any, ids: list[str]) -> dict[str, list[Any]]:
    """The cash history (a list of {player: cash}, one a turn) as each player's values in turn."""
    if isinstance(history, dict):
        return {p: list(history.get(p) or []) for p in ids}
    return {p: [row.get(p) if isinstance(row, dict) else None for row in history or []] for p in ids}
