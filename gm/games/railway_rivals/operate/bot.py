"""A simple operator for bots, conformance playouts and missed turns in the operating stage.

Races: it enters the races it can run most cheaply (special runs first, then lowest fees), each by
the route that is cheapest in fees and then in pips, within the fee cap and the cash it has.
Expansion: it builds towards the nearest town its network does not reach, within budget and cash.
"""
from __future__ import annotations

import random
from typing import Any

from gm.hexmap.model import HexMap
from gm.hexmap.paths import cheapest_path_from

from ..build.bot import plan_round
from ..build.company import planning_builder
from ..build.orders import SegmentReader
from ..build.rounds import Cursor
from ..links import link_key
from ..mapdata import country_fee, ferry_use_fee
from ..money import route_fees
from .entries import open_races, over_cap, runnable
from .network import MOUNTAIN, Network, race_ends, railway, route_text
from .round import expansion_budget


def best_route(net: Network, hexmap: HexMap, player: str, start: str, goals: list[str], *, fastest: bool = False
               ) -> list[dict[str, Any]] | None:
    """The route cheapest in fees, then pips (or with ``fastest``, fewest pips, then fees) as route
    steps, or None when no track joins them."""
    fee_weight, pip_weight = (1, 100) if fastest else (100, 1)

    def cost(a: str, b: str) -> int:
        pips = 2 if hexmap.terrain.get(b) == MOUNTAIN else 1
        ferry = net.ferry_between(a, b) if not net.has_link(a, b) else None
        if ferry:
            owner = net.ferries[ferry]
            return (0 if owner == player else ferry_use_fee(hexmap.ferry(ferry))) * fee_weight + 2 * pip_weight
        owners = net.owners.get(link_key(a, b), [])
        if player in owners:
            fee = 0
        elif owners:
            fee = 1
        else:
            country = net.foreign.get(link_key(a, b))
            fee = country_fee(hexmap, country) if country else 0
        return fee * fee_weight + pips * pip_weight

    found = cheapest_path_from([start], goals, lambda h: sorted(net.next_to.get(h, ())), cost)
    if found is None:
        return None
    path = found[1]
    route = [{"hex": path[0], "kind": "start", "col": 0}]
    for a, b in zip(path, path[1:]):
        ferry = net.ferry_between(a, b) if not net.has_link(a, b) else None
        route.append({"hex": b, "kind": "ferry", "ferry": ferry, "col": 0} if ferry else
                     {"hex": b, "kind": "run", "col": 0})
    return route


def cheapest_entry(state: dict[str, Any], hexmap: HexMap, net: Network, player: str, race: dict[str, Any]
                   ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]] | None:
    """(route, fees) of the race's cheapest route the company may enter alone (within the cap), or None."""
    start, goals = race_ends(hexmap, race)
    route = best_route(net, hexmap, player, start, goals)
    if route is None:
        return None
    fees = route_fees(net, player, route, state["players"])
    return None if over_cap(fees, state["options"]["fee_cap"], None, None) else (route, fees)


def race_orders_text(state: dict[str, Any], hexmap: HexMap, player: str, rng: random.Random) -> str:
    net = railway(state, hexmap)
    options = state["options"]
    choices = []
    for race in open_races(state):
        found = cheapest_entry(state, hexmap, net, player, race) if runnable(net, hexmap, race) else None
        if found is not None:
            total = sum(f["amount"] for f in found[1])
            choices.append((not race["special"], total, rng.random(), race["id"], found[0], total))
    lines = [f"# races entered for {player} by the bot: the cheapest it can run"]
    cash = state["cash"][player]
    for _, _, _, race_id, route, total in sorted(choices)[:options["max_entries"]]:
        if total > cash:
            continue
        cash -= total
        lines.append(f"race {race_id}: {route_text(route)}")
    return "\n".join(lines) + "\n"


def _unjoined_ends(state: dict[str, Any], hexmap: HexMap) -> list[str] | None:
    """Ends of the next round's races that no track reaches yet (special runs' first), or None."""
    net = railway(state, hexmap)
    r = state["race_round"]
    coming = list(state.get("carried_over", [])) + (state["schedule"][r] if r < len(state["schedule"]) else [])
    ends: list[str] = []
    for race in sorted(coming, key=lambda x: not x["special"]):
        start, goals = race_ends(hexmap, race)
        ends += [h for h in [start] + goals if h not in net.next_to and hexmap.buildable(h) and h not in ends]
    return ends or None


def expansion_orders_text(state: dict[str, Any], hexmap: HexMap, player: str, rng: random.Random) -> str:
    """Builds within the budget, payments to rivals and ferries included (a smaller plan when a
    plan's payments would take it over)."""
    from .expansion import expansion_spending  # expansion reads orders; the bot only plans them

    budget = min(expansion_budget(state), max(state["cash"][player] - 2, 0))  # keep a little for fees
    lines = [f"# expansion for {player} by the bot: towards the nearest unreached town"]
    for pips in range(budget, 0, -1):
        builder, rivals = planning_builder(state, hexmap, player)
        rival_links = set().union(*rivals.values()) if rivals else set()
        rival_hexes = {h for link in rival_links for h in link}
        segments = plan_round(builder, hexmap, pips, rival_links, rival_hexes, rng, _unjoined_ends(state, hexmap))
        if not segments:
            segments = plan_round(builder, hexmap, pips, rival_links, rival_hexes, rng)
        if not segments:
            break
        text = "expand: " + "; ".join(segments)
        fresh, _ = planning_builder(state, hexmap, player)
        plan = Cursor(fresh, read_segments(state, hexmap, text), pips, lenient=True).run_all()
        if expansion_spending(state, hexmap, player, plan, rivals)["over"] is None:
            lines.append(text)
            break
    return "\n".join(lines) + "\n"


def read_segments(state: dict[str, Any], hexmap: HexMap, text: str) -> list[dict[str, Any]]:
    """The segments of the bot's own `expand:` line (it always reads cleanly)."""
    from gm.store.orders import OrderLine
    head = len("expand:")
    line = OrderLine(text=text, number=1, col=1, file="<bot>")
    return SegmentReader(hexmap, state["companies"], line, head, []).read(text[head:])
