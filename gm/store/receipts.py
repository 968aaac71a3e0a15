"""Receipts: the SHA-256 of a player's orders in canonical form, so nobody can claim they changed.

Canonical form: the frame's game lines (comments, blank lines, headers, quoted lines and any
signature dropped; each line stripped of surrounding space) joined by "\\n", no final newline.
"""
from __future__ import annotations

import hashlib

from gm.store.orders import read_frame


def canonical_orders(text: str) -> str:
    return "\n".join(line.text for line in read_frame(text, skip_preamble=True).lines)


def receipt(text: str) -> str:
    return hashlib.sha256(canonical_orders(text).encode("utf-8")).hexdigest()


def turn_receipts(stored_orders: dict[str, str]) -> dict[str, str]:
    """Every player's receipt for a turn's stored orders ({player: text} as Campaign.stored_orders
    gives it), for the turn report: each player can check the GM applied what they sent."""
    return {player: receipt(text) for player, text in sorted(stored_orders.items())}
