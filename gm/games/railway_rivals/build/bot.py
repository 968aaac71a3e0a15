"""A simple builder for bots, conformance playouts and missed turns: it heads for the cheapest of
the nearest towns its network does not reach yet, spending each round's die as far as it goes."""
from __future__ import annotations

import random
from typing import Any

from gm.hexmap.model import HexMap
from gm.hexmap.paths import cheapest_path_from, costs_from

from .company import Builder, planning_builder, starting_points
from ..links import link_key, link_table


def bot_orders_text(state: dict[str, Any], hexmap: HexMap, player: str, rng: random.Random) -> str:
    builder, rivals = planning_builder(state, hexmap, player)
    rival_links = set().union(*rivals.values()) if rivals else set()
    rival_hexes = {h for link in rival_links for h in link}
    lines = [f"# default build for {player}: towards the nearest unreached town"]
    for number, die in enumerate(state["build_dice"], start=1):
        segments = plan_round(builder, hexmap, die, rival_links, rival_hexes, rng)
        lines.append(f"round {number}: " + "; ".join(segments))
    return "\n".join(lines) + "\n"


def plan_round(builder: Builder, hexmap: HexMap, die: int, rival_links: set, rival_hexes: set[str],
                rng: random.Random, goals: list[str] | None = None) -> list[str]:
    """Segments spending ``die`` pips towards one of ``goals`` (default: towns the network lacks)."""
    table = link_table(hexmap)
    sources = sorted(builder.hexes) or [rng.choice(starting_points(hexmap))]

    def neighbours(here: str):
        return table.get(here, ())

    def cost(a: str, b: str) -> int:
        if link_key(a, b) in builder.links:
            return 0
        # rivals' track costs cash: a junction 1, a parallel link up to 4
        penalty = 1 if b in rival_hexes and b not in hexmap.town_at else 0
        return table[a][b] + penalty + (3 if link_key(a, b) in rival_links else 0)

    targets = [h for h in goals or [t.hex for t in hexmap.town_list()] if h not in builder.hexes and h not in sources]
    reach = costs_from(sources, neighbours, cost)
    targets = sorted((reach[t], t) for t in targets if t in reach)
    if not targets:
        return []
    target = rng.choice(targets[:3])[1]
    found = cheapest_path_from(sources, [target], neighbours, cost)
    if found is None:
        return []
    segments: list[list[str]] = []
    used = 0
    path = found[1]
    for a, b in zip(path, path[1:]):
        if link_key(a, b) in builder.links:
            continue
        pips, problem = builder.build_problem(a, b)
        if problem or used + pips > die:
            break
        if not segments or segments[-1][-1] != a:
            segments.append([a])
        segments[-1].append(b)
        used += pips
        builder.add_link(a, b)
    if not segments:  # the next step is too dear for this die: build any affordable step towards the town
        choices = [(hexmap.grid.distance(there, target), here, there) for here in sources
                   for there, pips in table.get(here, {}).items()
                   if pips <= die and link_key(here, there) not in builder.links]
        if choices:
            best = min(c[0] for c in choices)
            _, here, there = rng.choice([c for c in choices if c[0] == best])
            builder.add_link(here, there)
            segments.append([here, there])
    return [f"({seg[0]}) " + " ".join(seg[1:]) for seg in segments]
