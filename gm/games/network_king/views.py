"""What each viewer may see. Hidden information is filtered here and nowhere else.

The GM (viewer None) sees everything. A player sees the board, their own hand (numbered as
orders may name it), the names in their own deck sorted by name (Business draws any card of
one's deck, so its owner must know what is in it; its order stays hidden), and only the sizes of
the opponent's hand and of both decks. The public sees the board and the sizes.
"""
from __future__ import annotations

import copy
from typing import Any

from .board import side_vowels
from .cards import card_name, card_professions, card_title

State = dict[str, Any]
# keys only the GM sees: the cards themselves, and what the cards' titles are
GM_ONLY = ("hands", "decks", "title_professions", "professions_file")


def _board(state: State) -> list[dict]:
    studios = copy.deepcopy(state["studios"])
    for studio in studios:
        studio["vowels"] = {p: side_vowels(studio, p) for p in state["players"]}
    return studios


def view(state: State, viewer: str | None) -> State:
    out = {k: copy.deepcopy(v) for k, v in state.items() if k not in GM_ONLY and k != "studios"}
    out["studios"] = _board(state)
    out["hand_sizes"] = {p: len(state["hands"].get(p, [])) for p in state["players"]}
    out["deck_sizes"] = {p: (len(state["decks"][p]) if state["decks"].get(p) is not None else None)
                         for p in state["players"]}
    if viewer is None:
        for key in GM_ONLY:
            if key in state:
                out[key] = copy.deepcopy(state[key])
        return out
    if viewer in state["players"]:
        known = state["title_professions"]
        out["hand"] = [{"number": i + 1, "card": card_name(c), "title": card_title(c),
                        "professions": card_professions(c, known)}
                       for i, c in enumerate(state["hands"].get(viewer, []))]
        deck = state["decks"].get(viewer) or []
        out["deck_cards"] = sorted(({"card": card_name(c), "title": card_title(c)} for c in deck),
                                   key=lambda c: (c["card"].casefold(), c["title"].casefold()))
    return out


def view_events(events: list[dict], viewer: str | None) -> list[dict]:
    """Events marked ``only: PLAYER`` (what that player drew or put away) are theirs and the GM's."""
    if viewer is None:
        return list(events)
    return [e for e in events if e.get("only") in (None, viewer)]
