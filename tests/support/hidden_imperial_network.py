"""Imperial Network's hidden information, for the secrets tests: the order of the Network deck and
of the War deck. Everything else is public (docs/rules/imperial-network.md): the market, every
purchase and so every unused card in a hand, the discard piles, the war cards drawn."""
from __future__ import annotations

import copy
import random
from typing import Any


def perturb(state: dict[str, Any], viewer: str, rng: random.Random) -> dict[str, Any] | None:
    """A copy of ``state`` with the two decks reordered (the same for every viewer: no player sees
    them); None when neither deck can be put in another order."""
    for _ in range(20):
        new = copy.deepcopy(state)
        rng.shuffle(new["deck"])
        rng.shuffle(new["war_deck"])
        if new != state:
            return new
    return None
