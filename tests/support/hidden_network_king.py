"""Network King's hidden information, changed for the secrets tests: ``perturb(state, viewer, rng)``
returns a copy of ``state`` in which only what ``viewer`` (a player id or "public") may not see is
different, or None when nothing is hidden from that viewer.

Hidden from a player: the opponent's hand (its size is public), the opponent's deck (its size is
public), the order of both decks once play starts (a player sees their own deck only sorted by name), and
the title table (GM only; it is built from both players' cards). Hidden from the public: both hands
and both decks. The board, whose turn it is, the passes and the standings are public.

The changes: the opponent's hand and deck are dealt again from the same cards, and some of them are
replaced by invented cards (new names, titles from those the game already knows, or titles the
profession table accepts); the viewer's own deck is shuffled; the title table learns the new titles.
"""
from __future__ import annotations

import copy
import random
from typing import Any

from gm.games.network_king.cards import ProfessionTable, card_name, card_title, make_card

SYLLABLES = ("zo", "ra", "vek", "mi", "tul", "sen", "ko", "bri", "dax", "lu", "fen", "qua", "hel")
SPARE_TITLES = ("Programmer", "Writer", "Illustrator", "Composer", "Producer", "")


def _name(rng: random.Random, taken: set[str]) -> str:
    while True:
        name = " ".join("".join(rng.choice(SYLLABLES) for _ in range(3)).capitalize() for _ in range(2))
        if name not in taken:
            taken.add(name)
            return name


def _titles(state: dict[str, Any]) -> list[str]:
    """Titles an invented card may carry: those the game knows, else ones its table accepts."""
    known = sorted(state.get("title_professions") or {})
    if known:
        return known + [""]
    table = ProfessionTable.load(state.get("professions_file"))
    fitting = []
    for title in SPARE_TITLES:
        try:
            table.professions(title)
        except ValueError:
            continue
        fitting.append(title)
    return fitting or [""]


def _redeal(state: dict[str, Any], player: str, rng: random.Random, taken: set[str]) -> None:
    """The player's hand and deck dealt again from their cards, some replaced by invented ones."""
    hand, deck = state["hands"][player], state["decks"][player]
    cards = list(hand) + list(deck or [])
    if not cards:
        return
    titles = _titles(state)
    for i in range(len(cards)):
        if rng.random() < 0.5:
            cards[i] = make_card(_name(rng, taken), rng.choice(titles))
    rng.shuffle(cards)
    state["hands"][player] = cards[:len(hand)]
    if deck is not None:
        state["decks"][player] = cards[len(hand):]


def _learn_titles(state: dict[str, Any]) -> None:
    """The title table (GM only) covers every title now in a hand or a deck."""
    if state.get("starting_player") is None:
        return  # the table is built when play starts
    table = ProfessionTable.load(state.get("professions_file"))
    known = state["title_professions"]
    for player in state["players"]:
        for card in state["hands"][player] + (state["decks"][player] or []):
            title = card_title(card)
            if title not in known and card_name(card) != "No Name" and title != "No Profession":
                known[title] = table.professions(title)


def perturb(state: dict[str, Any], viewer: str, rng: random.Random) -> dict[str, Any] | None:
    new = copy.deepcopy(state)
    taken = {card_name(c) for p in state["players"]
             for c in state["hands"][p] + (state["decks"][p] or [])}
    others = [p for p in state["players"] if p != viewer]
    for player in others:
        _redeal(new, player, rng, taken)
    if viewer in state["players"] and new["decks"].get(viewer) and state.get("starting_player"):
        # its order once shuffled (the viewer sees their deck sorted by name); before play starts
        # the deck is the list the viewer wrote, and its order decides their opening hand
        rng.shuffle(new["decks"][viewer])
    _learn_titles(new)
    return None if new == state else new
