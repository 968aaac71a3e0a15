"""Income of a declared route, worked out city by city so a player can check the arithmetic.

Stations: the two end cities' values, plus each intermediate city's value doubled where the
player has a station, minus it where not (a route never pays less than 0). Factories: the two
end cities' values only. A route pays only when productive: the same kind of building at both
ends and the player's train on every line of it.
"""
from __future__ import annotations

from typing import Any

from gm.games.base import State
from .cards import Cards
from .data import GameMap, line_key



def route_income(state: State, gmap: GameMap, cards: Cards, player: str, route: list[str]) -> dict[str, Any]:
    buildings = state["buildings"][player]
    held = {line_key(a, b) for a, b in state["placements"].get(player, [])}
    out: dict[str, Any] = {"route": list(route), "kind": None, "amount": 0, "steps": [], "productive": False}
    missing = [line_key(a, b) for a, b in zip(route, route[1:]) if line_key(a, b) not in held]
    first, last = buildings.get(route[0]), buildings.get(route[-1])
    if missing:
        out["why"] = f"no train of yours on {', '.join(missing)}"
        return out
    if first != last or first not in ("station", "factory"):
        ends = f"{route[0]} has {first or 'nothing'}, {route[-1]} has {last or 'nothing'}"
        out["why"] = f"not a productive pair ({ends})"
        return out
    out["kind"], out["productive"] = first, True
    if first == "station" and state["war"]:
        out["why"] = "stations earn nothing in war"
        return out
    total, steps = 0, []
    for n, city in enumerate(route):
        value = gmap.cities[city].value
        if n in (0, len(route) - 1):
            total += value
            steps.append({"city": city, "role": "end", "amount": value})
        elif first == "factory":
            steps.append({"city": city, "role": "passed", "amount": 0})
        elif buildings.get(city) == "station":
            total += 2 * value
            steps.append({"city": city, "role": "served (doubled)", "amount": 2 * value})
        else:
            total -= value
            steps.append({"city": city, "role": "not served", "amount": -value})
    if first == "station":
        total = max(total, 0)
        total += _event_bonus(state, gmap, cards, buildings, route, steps)
    out["amount"], out["steps"] = total, steps
    out["sum"] = " ".join(f"{'+' if s['amount'] >= 0 else '-'} {abs(s['amount'])} ({s['city']}, {s['role']})"
                          for s in steps).lstrip("+ ")
    return out


def _event_bonus(state, gmap, cards, buildings, route, steps) -> int:
    """Hot Summer pays for sea-port stations on the route, Ski Season for Alpine ones."""
    event = state["event"]
    if not event:
        return 0
    info = cards.info(event["card"])
    flag = {"hot_summer": "port", "ski_season": "alpine"}.get(info.get("kind"))
    if not flag:
        return 0
    bonus = 0
    for city in route:
        if buildings.get(city) == "station" and getattr(gmap.cities[city], flag):
            bonus += info["bonus"]
            steps.append({"city": city, "role": info["name"], "amount": info["bonus"]})
    return bonus
