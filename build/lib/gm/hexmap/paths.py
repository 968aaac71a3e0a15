"""Least-cost paths over hexes (Dijkstra, or A* when given a heuristic), deterministic on ties."""
from __future__ import annotations

import heapq
from typing import Callable, Hashable, Iterable

Neighbours = Callable[[str], Iterable[str]]
Cost = Callable[[str, str], "float | int | None"]


def cheapest_path(start: str, goal: str, neighbours: Neighbours, cost: Cost, *,
                  heuristic: Callable[[str], float] | None = None,
                  limit: float | None = None) -> tuple[float, list[str]] | None:
    """The cheapest way from start to goal as (total, [start, ..., goal]), or None if there is none.

    ``neighbours(label)`` yields the labels reachable in one step; ``cost(a, b)`` is the price of the
    step (a number >= 0) or None when it cannot be taken. ``heuristic(label)`` must never overestimate
    the remaining cost (A*); ``limit`` drops paths dearer than it. Ties go to the path whose labels
    sort first, so the answer never depends on set or dict ordering.
    """
    return cheapest_path_from([start], [goal], neighbours, cost, heuristic=heuristic, limit=limit)


def cheapest_path_from(starts: Iterable[str], goals: Iterable[str], neighbours: Neighbours, cost: Cost, *,
                       heuristic: Callable[[str], float] | None = None,
                       limit: float | None = None) -> tuple[float, list[str]] | None:
    """Multi-source, multi-goal variant: the cheapest path from any start to any goal (all cost 0 to leave)."""
    goal_set = set(goals)
    h = heuristic or (lambda _label: 0)
    best: dict[str, float] = {}
    came_from: dict[str, str | None] = {}
    queue: list[tuple[float, float, tuple[str, ...]]] = []
    for s in sorted(set(starts)):
        best[s] = 0
        came_from[s] = None
        heapq.heappush(queue, (h(s), 0, (s,)))
    done: set[str] = set()
    while queue:
        _, total, trail = heapq.heappop(queue)
        here = trail[-1]
        if here in done:
            continue
        done.add(here)
        if here in goal_set:
            return total, list(trail)
        for there in neighbours(here):
            if there in done:
                continue
            step = cost(here, there)
            if step is None:
                continue
            if step < 0:
                raise ValueError(f"negative cost {step} from {here} to {there}")
            new_total = total + step
            if limit is not None and new_total > limit:
                continue
            if new_total <= best.get(there, float("inf")):
                best[there] = new_total
                # the trail in the key breaks ties by label order, the same on every run
                heapq.heappush(queue, (new_total + h(there), new_total, trail + (there,)))
    return None


def costs_from(starts: Iterable[str], neighbours: Neighbours, cost: Cost, *,
               limit: float | None = None) -> dict[str, float]:
    """The cheapest cost from any of ``starts`` to every reachable label (within ``limit``)."""
    best: dict[str, float] = {}
    queue: list[tuple[float, str]] = [(0, s) for s in sorted(set(starts))]
    heapq.heapify(queue)
    while queue:
        total, here = heapq.heappop(queue)
        if here in best:
            continue
        best[here] = total
        for there in neighbours(here):
            if there in best:
                continue
            step = cost(here, there)
            if step is None:
                continue
            new_total = total + step
            if limit is None or new_total <= limit:
                heapq.heappush(queue, (new_total, there))
    return best


def path_cost(path: list[Hashable], cost: Callable[[Hashable, Hashable], "float | int | None"]) -> float | None:
    """The total cost of walking ``path`` step by step, or None when a step is impassable."""
    total: float = 0
    for a, b in zip(path, path[1:]):
        step = cost(a, b)
        if step is None:
            return None
        total += step
    return total
