"""Route advice for a player (for `gm route DIR FROM TO --player P`): the fastest route and the
cheapest one between two places along existing track, with their fees, pips and expected turns."""
from __future__ import annotations

import math
from typing import Any

from gm.store.errors import InputError, UsageError
from gm.hexmap.model import HexMap

from ..money import route_fees
from ..reading import shown, small_number
from ..words import company_names, count
from .bot import best_route
from .entries import over_cap
from .network import railway, route_pips, route_text

AVERAGE_ROLL = 3.5


def _place(hexmap: HexMap, text: str) -> list[str]:
    """The hexes a place names: a hex, a town (name or number) or a special destination."""
    if hexmap.grid.contains(text):
        return [text]
    if small_number(text, 2) is not None and int(text) in hexmap.towns:
        return [hexmap.towns[int(text)].hex]
    town = hexmap.town_by_name(text)
    if town is not None:
        return [town.hex]
    for key, special in hexmap.specials.items():
        if text.lower() in (key.lower(), str(special.get("name", "")).lower()):
            return list(special.get("hexes") or [])
    from gm.store.names import suggestion
    known = [t.name for t in hexmap.towns.values()] + [str(s.get("name", "")) for s in hexmap.specials.values()]
    raise UsageError(f"{shown(text)} is not a hex, town or special destination on this map{suggestion(text, known)}")


def route_advice(state: dict[str, Any], hexmap: HexMap, player: str, start: str, goal: str) -> list[dict[str, Any]]:
    """[{what, route, text, pips, fees, fee_total, expected_turns}] for the fastest and the cheapest route."""
    net = railway(state, hexmap)
    starts, goals = _place(hexmap, start), _place(hexmap, goal)
    out = []
    for what, fastest in (("fastest", True), ("cheapest", False)):
        route = best_route(net, hexmap, player, starts[0], goals, fastest=fastest)
        if route is None:
            continue
        fees = route_fees(net, player, route, state["players"])
        pips = route_pips(hexmap, route)
        out.append({"what": what, "route": [s["hex"] for s in route], "text": route_text(route, hexmap), "pips": pips,
                    "fees": fees, "fee_total": sum(f["amount"] for f in fees),
                    "expected_turns": math.ceil(pips / AVERAGE_ROLL)})
    return out


def advice_text(state: dict[str, Any], hexmap: HexMap, player: str, start: str, goal: str) -> str:
    """The advice as `gm route` prints it; no track between the places is an input error (exit 1).
    A route that pays one rival more than the cap says that it cannot be entered alone."""
    names = company_names(state)
    cap = state["options"]["fee_cap"]
    lines = []
    for a in route_advice(state, hexmap, player, start, goal):
        detail = ", ".join(f"{f['amount']} to {f.get('country') or names[f['to']]}" for f in a["fees"]) or "none"
        lines.append(f"{a['what']}: {a['text']}\n  {count(a['pips'], 'pip')} (about "
                     f"{count(a['expected_turns'], 'turn')}), fees {a['fee_total']} ({detail})")
        over = over_cap(a["fees"], cap, None, None)
        if over:
            whom = " and ".join(f"{f['amount']} to {f.get('country') or names[f['to']]}" for f in over)
            lines.append(f"  it cannot be entered alone: it pays {whom}, over the cap of {cap} to one rival "
                         f"(a joint run or an exchange of running powers may get round it)")
    if not lines:
        raise InputError(f"no track joins {start} and {goal}")
    return "\n".join(lines)
