"""Network King's standings for the website, from the public view of the last move."""
from __future__ import annotations

from typing import Any

from gm.games.base import standings_ids, standings_player


def standings(view: dict[str, Any], players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ids = standings_ids(view, players)
    owner = view.get("studio_owner") or {}
    hand = view.get("hand_sizes") or {}
    deck = view.get("deck_sizes") or {}
    to_move = view.get("to_move")
    rows = []
    for p in ids:
        owned = sorted(name for name, who in owner.items() if who == p)  # an unopened studio counts too
        rows.append([standings_player(p), len(owned), ", ".join(owned) or "none", hand.get(p, ""), deck.get(p, ""),
                     "to move" if to_move == p else ""])
    return [{"title": "Studios", "head": ["Player", "Studios", "Which", "Hand", "Deck", ""], "rows": rows,
             "chart": None}]
