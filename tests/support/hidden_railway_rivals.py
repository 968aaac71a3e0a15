"""What the secrets test may change in a Railway Rivals state: nothing is hidden."""
from __future__ import annotations

import random
from typing import Any


def perturb(state: dict[str, Any], viewer: str, rng: random.Random) -> dict[str, Any] | None:
    """None: Railway Rivals is open information (track, cash, dice and orders' results are public)."""
    return None
