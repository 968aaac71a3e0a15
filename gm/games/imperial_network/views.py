"""What each viewer may see, as an allow-list: the one place where hidden cards are filtered out.

Hidden from players: the order of the Network deck and of the War deck (only their sizes are
shown). Everything else is public: the market, every purchase (so the kinds of unused cards in a
player's hand, which others may buy at double), the discard piles, the war cards drawn.
"""
from __future__ import annotations

import copy
from typing import Any

from gm.games.base import State
from .cards import Cards
from .data import GameMap
from .rules import capital, closed_lines, forward_order

PUBLIC = ("map", "options", "players", "seats", "first", "snake", "turn", "cash", "trains_owned", "buildings",
          "permits", "hand", "market", "discard", "dealt", "event", "war", "war_queue", "war_discard", "annexed",
          "open_cities", "peace_since", "placements", "train_steps", "income", "winners", "ended_by", "last_turn",
          "capital_history", "setup_log")
GM_ONLY = ("deck", "war_deck")


def view(state: State, gmap: GameMap, cards: Cards, viewer: str | None) -> dict[str, Any]:
    out = {k: copy.deepcopy(state[k]) for k in PUBLIC if k in state}
    out["deck_size"] = len(state["deck"])
    out["war_deck_size"] = len(state["war_deck"])
    out["hand_sizes"] = {p: len(h) for p, h in state["hand"].items()}
    if viewer is None:
        out.update({k: copy.deepcopy(state[k]) for k in GM_ONLY})
    out["phase"] = ("finished" if state["winners"] is not None else "last turn" if state["last_turn"]
                    else "war" if state["war"] else "peace")
    out["troops_per_barracks"] = cards.troops_per_barracks
    out["capital"] = {p: capital(state, cards, p) for p in state["players"]}
    out["forward_order"] = forward_order(state)
    out["front_line"] = gmap.front_line(state["war"]["target"]) if state["war"] else []
    out["event_info"] = cards.info(state["event"]["card"]) if state["event"] else None
    out["closed_lines"] = sorted(closed_lines(state, gmap, cards))
    out["market_info"] = [{"card": c, **cards.info(c)} for c in state["market"]]
    return out
