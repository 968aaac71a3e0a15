"""Network's standings for the website, from the public view of the last move."""
from __future__ import annotations

from typing import Any

from gm.games.base import standings_player


def standings(view: dict[str, Any], players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    sides = view.get("sides") or {}
    placed = view.get("placed") or {}
    networks = view.get("networks") or {}
    to_move = view.get("to_move")
    winner = view.get("winner")
    rows = []
    for side, pid in sides.items():
        line = networks.get(side)
        state = ("won" if winner == side else "to move" if to_move == side and not winner else "")
        rows.append([standings_player(pid), side, placed.get(side, 0), " ".join(line) if line else "none yet", state])
    return [{"title": f"Position after move {view.get('ply', 0)}",
             "head": ["Player", "Side", "Pieces placed", "Network", ""], "rows": rows, "chart": None}]
