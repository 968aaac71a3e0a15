"""Thurn und Taxis' hidden information, for the secrets tests: other players' hands, the deck (its
order and contents) and the discard pile (its contents: a discarded card is named only in the
report of the turn it was discarded)."""
from __future__ import annotations

import copy
import random
from typing import Any


def perturb(state: dict[str, Any], viewer: str, rng: random.Random) -> dict[str, Any] | None:
    """A copy of ``state`` in which only what ``viewer`` (a player id or "public") may not see is
    changed: the cards of other hands, the deck and the discard pile are dealt out again among
    them, every pile keeping its size. None when nothing hidden can change."""
    hidden_places = [("hands", p) for p in state["players"] if p != viewer] + [("deck", None), ("discard", None)]

    def pile(new: dict[str, Any], place: tuple[str, str | None]) -> list[str]:
        key, player = place
        return new[key][player] if player is not None else new[key]

    cards = [c for place in hidden_places for c in pile(state, place)]
    for _ in range(20):
        new = copy.deepcopy(state)
        dealt = list(cards)
        rng.shuffle(dealt)
        for place in hidden_places:
            n = len(pile(state, place))
            pile(new, place)[:], dealt = dealt[:n], dealt[n:]
        if new != state:
            return new
    return None
