"""What each viewer may see. Hidden information is filtered here and nowhere else.

Views are allow-lists: each viewer gets the keys named for them, and a key added to the state
stays hidden until it is named here.

The GM (viewer None) sees everything. A player sees the board, their own hand (numbered as
orders may name it, with the professions each card fits), the names in their own deck sorted by
name (Business draws any card of one's deck, so its owner must know what is in it; its order
stays hidden), and only the sizes of the opponent's hand and of both decks. The public sees the
board and the sizes. The title table (``title_professions``) is built from both decks, so it
would tell a player the titles in the opponent's hand and deck: only the GM sees it.
"""
from __future__ import annotations

import copy

from gm.games.base import State
from .board import side_vowels
from .cards import card_name, card_professions, card_title

# the state's keys every viewer sees as they are
PUBLIC_KEYS = ("players", "starter", "starting_player", "to_move", "skip_next", "studio_owner", "winner")
# and those the GM alone sees: the cards themselves, and what the cards' titles are
GM_KEYS = ("hands", "decks", "title_professions", "professions_file")


def _board(state: State) -> list[dict]:
    studios = copy.deepcopy(state["studios"])
    for studio in studios:
        studio["vowels"] = {p: side_vowels(studio, p) for p in state["players"]}
    return studios


def view(state: State, viewer: str | None) -> State:
    out = {key: copy.deepcopy(state[key]) for key in PUBLIC_KEYS if key in state}
    out["studios"] = _board(state)
    out["hand_sizes"] = {p: len(state["hands"].get(p, [])) for p in state["players"]}
    out["deck_sizes"] = {p: (len(state["decks"][p]) if state["decks"].get(p) is not None else None)
                         for p in state["players"]}
    if viewer is None:
        out.update({key: copy.deepcopy(state[key]) for key in GM_KEYS if key in state})
    elif viewer in state["players"]:
        out.update(own_cards(state, viewer))
    return out


def own_cards(state: State, player: str) -> State:
    """What a player knows of their own cards: the hand in order, the deck by name."""
    known = state["title_professions"]
    deck = state["decks"].get(player) or []
    return {
        "hand": [{"number": i + 1, "card": card_name(c), "title": card_title(c),
                  "professions": card_professions(c, known)}
                 for i, c in enumerate(state["hands"].get(player, []))],
        "deck_cards": sorted(({"card": card_name(c), "title": card_title(c)} for c in deck),
                             key=lambda c: (c["card"].casefold(), c["title"].casefold())),
    }
