"""Verifiable dice, exactly as DESIGN.md fixes them.

seed_t = HMAC-SHA256(master, "turn:<t>"); commitment = SHA-256(seed_t);
roll:  h = SHA-256(seed || 0x00 || label || 0x00 || str(k)); first byte b < 256 - 256 % n
       gives 1 + b % n; when no byte qualifies, h = SHA-256(h) and go on.
shuffle: Fisher-Yates from the last position down, swap i with roll(i + 1) - 1, one label.

Games whose shuffles must stay hidden (decks) roll with ``secret=True``: those rolls use
seed'_t = HMAC-SHA256(master, "secret-turn:<t>"), committed like seed_t but revealed only when
the game is over (a seed revealed each turn would let players recompute a hidden deck).
"""
from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Sequence
from typing import Any


def new_master_secret() -> bytes:
    return os.urandom(32)


def turn_seed(master: bytes, turn: int, *, secret: bool = False) -> bytes:
    msg = f"{'secret-turn' if secret else 'turn'}:{turn}".encode()
    return hmac.new(master, msg, hashlib.sha256).digest()


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def roll_value(seed: bytes, label: str, index: int, sides: int) -> int:
    """The value of roll number ``index`` (0-based) under ``label`` with ``sides`` sides."""
    if not 1 <= sides <= 256:  # one byte per try: more than 256 sides could never come up
        raise ValueError(f"a die has 1 to 256 sides, not {sides}")
    h = hashlib.sha256(seed + b"\x00" + label.encode("utf-8") + b"\x00" + str(index).encode()).digest()
    limit = 256 - (256 % sides)
    while True:
        for b in h:
            if b < limit:
                return 1 + (b % sides)
        h = hashlib.sha256(h).digest()


class Dice:
    """The dice of one turn. Every roll is logged; ``fixed`` values (rules cases) are used first."""

    def __init__(self, seed: bytes, *, secret_seed: bytes | None = None, fixed: Sequence[int] = ()):
        self.seed = seed
        self.secret_seed = secret_seed if secret_seed is not None else hashlib.sha256(b"secret" + seed).digest()
        # a list passed in is shared (a rules case's dice run on across set-up and turns)
        self.fixed = fixed if isinstance(fixed, list) else list(fixed)
        self.log: list[dict[str, Any]] = []
        self._counts: dict[tuple[bool, str], int] = {}

    def roll(self, label: str, sides: int = 6, *, secret: bool = False) -> int:
        key = (secret, label)
        index = self._counts.get(key, 0)
        self._counts[key] = index + 1
        if self.fixed:
            value = int(self.fixed.pop(0))
            if not 1 <= value <= sides:
                raise ValueError(f"fixed die {value} does not fit a {sides}-sided roll for {label!r}")
        else:
            value = roll_value(self.secret_seed if secret else self.seed, label, index, sides)
        entry: dict[str, Any] = {"label": label, "index": index, "sides": sides, "value": value}
        if secret:
            entry["secret"] = True
        self.log.append(entry)
        return value

    def shuffle(self, label: str, items: Sequence[Any], *, secret: bool = False) -> list[Any]:
        """A new list: Fisher-Yates from the last position down, all rolls under ``label``."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.roll(label, i + 1, secret=secret) - 1
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, label: str, items: Sequence[Any], *, secret: bool = False) -> Any:
        return items[self.roll(label, len(items), secret=secret) - 1]


def verify_log(seed: bytes, log: list[dict[str, Any]], *, secret_seed: bytes | None = None) -> list[str]:
    """Problems found recomputing ``log`` (empty when every roll checks)."""
    problems = []
    for n, entry in enumerate(log):
        use = secret_seed if entry.get("secret") else seed
        if use is None:
            continue
        expected = roll_value(use, entry["label"], int(entry["index"]), int(entry["sides"]))
        if expected != entry["value"]:
            problems.append(f"roll {n} ({entry['label']!r} #{entry['index']}, d{entry['sides']}): "
                            f"logged {entry['value']}, the seed gives {expected}")
    return problems


ROLL_KEYS = ("label", "index", "sides", "value")  # what a dice log and the public record keep of a roll
