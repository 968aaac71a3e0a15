"""What each viewer may see: the one place where hidden cards are filtered out.

Public: the display, every route, houses, carriages and tiles, the sizes of the deck, the
discard pile and every hand. A player also sees their own hand; the GM sees everything.
"""
from __future__ import annotations

import copy
from typing import Any

PUBLIC = ("map", "players", "display", "routes", "houses", "houses_left", "carriage", "tiles", "tiles_left",
          "to_move", "round", "end_triggered_by", "finished", "scores", "score_details", "winner")


def view(state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    out = {k: copy.deepcopy(state[k]) for k in PUBLIC}
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


def view_events(events: list[dict[str, Any]], viewer: str | None) -> list[dict[str, Any]]:
    """Events with a ``secret`` part show others only ``secret['text']`` (hiding ``secret['hide']``);
    ``secret: None`` means only the player concerned (and the GM) read the event."""
    out = []
    for event in events:
        if "secret" not in event:
            out.append(copy.deepcopy(event))
            continue
        mine = viewer is None or viewer == event.get("player")
        secret = event["secret"]
        if mine:
            out.append({k: copy.deepcopy(v) for k, v in event.items() if k != "secret"})
        elif secret is not None:
            hidden = set(secret.get("hide", ()))
            shown = {k: copy.deepcopy(v) for k, v in event.items() if k not in hidden and k != "secret"}
            shown["text"] = secret["text"]
            out.append(shown)
    return out
