"""Moves written by the machine (self-play, conformance playouts, the `bot` NMR policy): a legal
move that a player would not be ashamed of, cheaply. In this order it
1. completes its own network when one move does;
2. stops the opponent completing one next move: takes the square their winning move needs or
   cuts a link of their chain (the first of a few moves tried that leaves them no winning move);
3. never lifts a piece that opens the opponent's network (a move completing only theirs);
4. otherwise plays at random, preferring squares that see a friendly piece (networks are chains).
No rules are decided here: every candidate comes from ``play.legal_orders``.
"""
from __future__ import annotations

import random
from typing import Any

from .board import LETTER, OTHER, SQUARE_OF, count, from_rows, to_rows
from .networks import find_network, links
from .play import _played, legal_orders

BLOCK_TRIES = 30  # moves tried for a block when the opponent threatens to win (bounds the cost)


def _wins(cells: list[str], side: str, order: dict) -> bool:
    return find_network(_played(cells, side, order), side, shortest=False) is not None


def _threats(state: dict[str, Any], cells: list[str], side: str) -> set[str]:
    """Squares the opponent would complete a network on if it were their move on ``cells``."""
    other = OTHER[side]
    if sum(1 for c in cells if c == LETTER[other]) < 5:
        return set()  # six pieces make the shortest network: no threat yet
    shadow = dict(state, board=to_rows(cells), to_move=other,
                  placed={s: count(cells, s) for s in (side, other)})
    return {o["to"] for o in legal_orders(shadow, other) if _wins(cells, other, o)}


def _block(state: dict[str, Any], cells: list[str], side: str, pool: list[dict]) -> dict | None:
    """A move after which the opponent has no winning move (the first of a few tried), if any:
    it takes the square they need, or cuts a link of their chain."""
    for order in pool[:BLOCK_TRIES]:
        if not _threats(state, _played(cells, side, order), side):
            return order
    return None


def _sees_friend(cells: list[str], side: str, order: dict) -> bool:
    after = _played(cells, side, order)
    return bool(links(after, LETTER[side], SQUARE_OF[order["to"]]))


def choose(state: dict[str, Any], side: str, rng: random.Random) -> dict:
    """The bot's move for ``side`` (whose turn it is); raises StopIteration with no legal move."""
    cells = from_rows(state["board"])
    candidates = list(legal_orders(state, side, rng))
    if not candidates:
        raise StopIteration(f"{side} has no legal move")
    for order in candidates:
        if _wins(cells, side, order):
            return order
    safe = [o for o in candidates if find_network(_played(cells, side, o), OTHER[side], shortest=False) is None]
    pool = safe or candidates
    threats = _threats(state, cells, side)
    if threats:
        direct = [o for o in pool if o["to"] in threats]
        block = _block(state, cells, side, direct + [o for o in pool if o["to"] not in threats])
        if block:
            return block
    linked = [o for o in pool if _sees_friend(cells, side, o)]
    if linked and rng.random() < 0.7:
        return linked[0]
    return pool[0]


def position_rng(state: dict[str, Any]) -> random.Random:
    """A generator seeded by the position, so the bot's NMR move replays the same."""
    return random.Random("/".join(state["board"]) + state["to_move"] + str(state["ply"]))

