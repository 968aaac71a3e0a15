"""Finding a side's network: a chain of its pieces from one goal to the other.

A network holds at least six pieces, starts with a piece in one goal and ends with a piece in the
other, has no other piece in either goal, uses no piece twice, links each piece to the next along
a row, column or diagonal through empty squares only, and changes direction at every piece.
"""
from __future__ import annotations

import random
import time

from .board import (DEAD_CORNERS, EMPTY, GOAL_SQUARES, GOALS, LETTER, OTHER, RAYS, SIDES, SIZE,
                    SQUARE_NAMES, group_with)

MIN_PIECES = 6


def links(cells: list[str], letter: str, square: int) -> list[tuple[int, int]]:
    """(direction, piece) for each friendly piece in sight of ``square``: the first piece along
    each of the eight lines, when it is one of ours (an enemy piece blocks the line)."""
    out = []
    for direction, ray in enumerate(RAYS[square]):
        for seen in ray:
            cell = cells[seen]
            if cell != EMPTY:
                if cell == letter:
                    out.append((direction, seen))
                break
    return out


def find_network(cells: list[str], side: str, *, shortest: bool = True) -> list[int] | None:
    """A network of ``side`` as squares from its first goal to its second, or None. With
    ``shortest`` the network has the fewest pieces (ties: the first found in square order)."""
    letter = LETTER[side]
    start_goal, end_goal = GOALS[side]
    starts = [s for s in sorted(start_goal) if cells[s] == letter]
    if not starts or not any(cells[s] == letter for s in end_goal):
        return None
    pieces = [s for s in range(SIZE) if cells[s] == letter]
    if len(pieces) < MIN_PIECES:
        return None
    # the links of each piece, goal pieces of the first goal never reached again
    graph = {s: [(d, t) for d, t in links(cells, letter, s) if t not in start_goal] for s in pieces}
    found = _search(graph, starts, end_goal, len(pieces))
    if found is None or not shortest or len(found) == MIN_PIECES:
        return found
    for limit in range(MIN_PIECES, len(found)):
        shorter = _search(graph, starts, end_goal, limit)
        if shorter is not None:
            return shorter
    return found


def _search(graph: dict[int, list[tuple[int, int]]], starts: list[int], end_goal: frozenset[int],
            limit: int) -> list[int] | None:
    """Depth-first search for a network of at most ``limit`` pieces."""
    path: list[int] = []

    def walk(square: int, came: int) -> bool:
        path.append(square)
        length = len(path)
        for direction, nxt in graph[square]:
            if direction == came or nxt in path:
                continue  # no straight pass through a piece; no piece twice
            if nxt in end_goal:
                if length + 1 >= MIN_PIECES:
                    path.append(nxt)
                    return True
                continue
            if length + 1 < limit and walk(nxt, direction):
                return True
        path.pop()
        return False

    for start in starts:
        if walk(start, -1):
            return path
    return None


def find_networks(cells: list[str]) -> dict[str, list[int] | None]:
    return {side: find_network(cells, side) for side in SIDES}


def named(network: list[int] | None) -> list[str] | None:
    return None if network is None else [SQUARE_NAMES[s] for s in network]


# ---- the benchmark: positions checked per second ------------------------------------------------
def random_position(rng: random.Random, pieces: int = 10) -> list[str]:
    """A random legal position with ``pieces`` of each side (goal and group rules kept)."""
    cells = [EMPTY] * SIZE
    for side in rng.sample(SIDES, 2):
        letter, banned = LETTER[side], DEAD_CORNERS | GOAL_SQUARES[OTHER[side]]
        free = [s for s in range(SIZE) if s not in banned]
        rng.shuffle(free)
        placed = 0
        for square in free:
            if placed == pieces:
                break
            if cells[square] == EMPTY and len(group_with(cells, letter, square)) <= 2:
                cells[square] = letter
                placed += 1
    return cells


def bench_detection(n: int = 10_000, *, seed: int = 1) -> dict[str, float]:
    """Check both sides of ``n`` random legal positions for networks; positions per second."""
    rng = random.Random(seed)
    positions = [random_position(rng, rng.randint(6, 10)) for _ in range(n)]
    started = time.perf_counter()
    found = 0
    for cells in positions:
        for side in SIDES:
            if find_network(cells, side) is not None:
                found += 1
    seconds = time.perf_counter() - started
    return {"positions": n, "networks": found, "seconds": seconds, "per_second": n / seconds if seconds else 0.0}
