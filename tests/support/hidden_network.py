"""Network's hidden information for the secrets tests: there is none. Both players and the public
see the whole board, the history and the repetition count, so ``perturb`` has nothing to change."""
from __future__ import annotations

import random
from typing import Any


def perturb(state: dict[str, Any], viewer: str, rng: random.Random) -> dict[str, Any] | None:
    """None: nothing in a Network state is hidden from any viewer."""
    return None
