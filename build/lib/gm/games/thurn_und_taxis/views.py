"""What each viewer may see: the one place where hidden cards are filtered out (an allow-list).

Public: the display, every route, houses, carriages and tiles, the sizes of the deck, the
discard pile and every hand. A player also sees their own hand; the GM sees everything.
Events say who may read them themselves (``to``: a deck draw names the card to its player only).
"""
from __future__ import annotations

import copy
from typing import Any

PUBLIC = ("map", "players", "display", "routes", "houses", "houses_left", "carriage", "tiles", "tiles_left",
          "to_move", "round", "end_triggered_by", "finished", "scores", "score_details")


def winners(state: dict[str, Any]) -> list[str] | None:
    """Who won (None while the game goes on); state files from before shared wins held one ``winner``."""
    if not state.get("finished"):
        return None
    if "winners" in state:
        return list(state["winners"])
    old = state.get("winner")
    return [old] if old else [p for p in state["players"] if state["scores"][p] == max(state["scores"].values())]


def view(state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    out = {k: copy.deepcopy(state[k]) for k in PUBLIC}
    out["winners"] = winners(state)
    out["deck_size"] = len(state["deck"])
    out["discard_size"] = len(state["discard"])
    out["hand_sizes"] = {p: len(h) for p, h in state["hands"].items()}
    if viewer is None:
        out["hands"] = copy.deepcopy(state["hands"])
        out["deck"] = list(state["deck"])
        out["discard"] = list(state["discard"])
    elif viewer in state["hands"]:
        out["hands"] = {viewer: list(state["hands"][viewer])}
    else:
        out["hands"] = {}
    return out
