"""What each viewer may see: hidden decks and other players' unused cards are filtered here only."""
from __future__ import annotations

import copy
from typing import Any

from .cards import Cards
from .data import GameMap
from .rules import capital, closed_lines, forward_order

HIDDEN = ("deck", "discard", "war_deck", "war_discard", "hand")


def view(state: dict[str, Any], gmap: GameMap, cards: Cards, viewer: str | None) -> dict[str, Any]:
    out = {k: copy.deepcopy(v) for k, v in state.items() if k not in HIDDEN}
    out["deck_size"] = len(state["deck"])
    out["war_deck_size"] = len(state["war_deck"])
    out["hand_sizes"] = {p: len(h) for p, h in state["hand"].items()}
    if viewer is None:
        for key in HIDDEN:
            out[key] = copy.deepcopy(state[key])
    else:
        out["hand"] = {viewer: list(state["hand"][viewer])} if viewer in state["hand"] else {}
    out["phase"] = ("finished" if state["winner"] is not None else "last turn" if state["last_turn"]
                    else "war" if state["war"] else "peace")
    out["troops_per_barracks"] = cards.troops_per_barracks
    out["capital"] = {p: capital(state, cards, p) for p in state["players"]}
    out["forward_order"] = forward_order(state)
    out["front_line"] = gmap.front_line(state["war"]["target"]) if state["war"] else []
    out["event_info"] = cards.info(state["event"]["card"]) if state["event"] else None
    out["closed_lines"] = sorted(closed_lines(state, gmap, cards))
    out["market_info"] = [{"card": c, **cards.info(c)} for c in state["market"]]
    return out
