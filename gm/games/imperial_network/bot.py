"""A bot that writes legal, sensible orders: it buys buildings that complete productive pairs,
runs trains on its best routes, and brings barracks to the front in war. NMR default and playouts."""
from __future__ import annotations

import random
from collections import deque
from functools import lru_cache
from typing import Any

from ..base import State
from .cards import Cards
from .data import GameMap, line_key
from .rules import building_refusal, closed_lines, price



@lru_cache(maxsize=8)
def paths(gmap: GameMap) -> dict[str, dict[str, list[str]]]:
    """Fewest-lines paths between every two cities."""
    out: dict[str, dict[str, list[str]]] = {}
    for start in gmap.cities:
        prev = {start: None}
        todo = deque([start])
        while todo:
            city = todo.popleft()
            for n in gmap.neighbours[city]:
                if n not in prev:
                    prev[n] = city
                    todo.append(n)
        out[start] = {}
        for end in gmap.cities:
            path, c = [], end
            while c is not None:
                path.append(c)
                c = prev[c]
            out[start][end] = path[::-1]
    return out


def route_value(gmap: GameMap, buildings: dict[str, str], kind: str, path: list[str]) -> int:
    ends = gmap.cities[path[0]].value + gmap.cities[path[-1]].value
    if kind == "factory":
        return ends
    inner = sum(2 * gmap.cities[c].value if buildings.get(c) == "station" else -gmap.cities[c].value
                for c in path[1:-1])
    return max(0, ends + inner)


def candidate_routes(state: State, gmap: GameMap, player: str, closed: set[str]) -> list[tuple[float, list[str]]]:
    buildings = state["buildings"][player]
    table = paths(gmap)
    out = []
    for kind in ("factory",) if state["war"] else ("station", "factory"):
        cities = sorted(c for c, k in buildings.items() if k == kind)
        for i, a in enumerate(cities):
            for b in cities[i + 1:]:
                path = table[a][b]
                if len(path) > 6 or any(line_key(x, y) in closed for x, y in zip(path, path[1:])):
                    continue
                value = route_value(gmap, buildings, kind, path) * (1.3 if kind == "factory" else 1.0)
                if value > 0:
                    out.append((value / (len(path) - 1), path))
    return sorted(out, key=lambda t: (-t[0], t[1]))


def _front_lines(state, gmap, player, closed) -> list[str]:
    """Ranked lines that bring each barracks to the front: the shortest path first, then the
    other lines out of the barracks city (another player may fill a line first)."""
    front = set(gmap.front_line(state["war"]["target"]))
    table = paths(gmap)
    out: list[str] = []
    for city, kind in sorted(state["buildings"][player].items()):
        if kind != "barracks":
            continue
        best = min((table[city][f] for f in front), key=len)
        keys = [line_key(a, b) for a, b in zip(best, best[1:])]
        if len(keys) > 4 or closed & set(keys):
            continue
        spare = [line_key(city, n) for n in gmap.neighbours[city]
                 if line_key(city, n) not in closed and (n in front or city in front)]
        for key in keys + spare:
            if key not in out:
                out.append(key)
    return out


def plan_trains(state, gmap, cards, player, rng) -> tuple[list[str], list[list[str]]]:
    closed = closed_lines(state, gmap, cards)
    trains: list[str] = []
    routes: list[list[str]] = []
    budget = state["trains_owned"][player]
    if state["war"]:
        trains += _front_lines(state, gmap, player, closed)[:budget]
    cands = candidate_routes(state, gmap, player, closed)
    if rng is not None:
        cands = sorted(cands, key=lambda t: -t[0] * rng.uniform(0.6, 1.4))
    for _, path in cands:
        keys = [line_key(a, b) for a, b in zip(path, path[1:])]
        if set(keys) & set(trains) or len(trains) + len(keys) > budget:
            continue
        trains += keys
        routes.append(path)
    return trains, routes


def plan_buys(state, gmap, cards, player, rng) -> list[str]:
    cash = state["cash"][player]
    market_kinds = {c.rsplit("-", 1)[0] for c in state["market"] if cards.info(c)["type"] == "building"}
    buildings = state["buildings"][player]
    table = paths(gmap)
    options: list[tuple[float, str]] = []
    war = state["war"]
    kinds = ["barracks", "factory", "station"] if war else ["factory", "station"]
    for kind in kinds:
        if kind not in market_kinds or price(state, cards, f"{kind}-1") > cash:
            continue
        for city, c in gmap.cities.items():
            if building_refusal(state, gmap, player, kind, city):
                continue
            if war and kind == "barracks":
                front = gmap.front_line(war["target"])
                score = 100.0 - min(len(table[city][f]) for f in front)
            else:
                mates = [b for b, k in buildings.items() if k == kind]
                pairs = [route_value(gmap, buildings, kind, table[city][m]) / (len(table[city][m]) - 1)
                         for m in mates if len(table[city][m]) <= 5]
                best_mate = max(gmap.cities[n].value for n in gmap.neighbours[city])
                score = max(pairs) if pairs else (c.value + best_mate) / 3
                score *= 1.5 if kind == "factory" else 1.0
            if rng is not None:
                score *= rng.uniform(0.7, 1.3)
            options.append((score, f"{kind} {city}"))
    if war:  # in war any purchase keeps the Empire from exhaustion
        for card in state["market"]:
            info = cards.info(card)
            if info["type"] in ("permit", "link") and price(state, cards, card) <= cash:
                options.append((-1.0, card))
    else:
        for card in state["market"]:
            info = cards.info(card)
            if info["type"] == "link" and info["cost"] <= cash // 2:
                near = sum(1 for c in info["cities"] if c in buildings)
                options.append((near * 8.0, f"{card}"))
            elif info["type"] == "permit" and info["cost"] <= cash // 2:
                near = sum(1 for c in gmap.country_cities(info["country"]) for n in gmap.neighbours[c]
                           if buildings.get(n) == "station")
                options.append((near * 6.0, f"{card}"))
    options.sort(key=lambda t: (-t[0], t[1]))
    ranked: list[str] = []
    per_kind: dict[str, int] = {}
    for _, text in options:  # at most two choices of a kind: another kind is the fallback
        kind = text.split()[0]
        if per_kind.get(kind, 0) < 2 and len(ranked) < 6:
            per_kind[kind] = per_kind.get(kind, 0) + 1
            ranked.append(text)
    return ranked


def _factory_order(state, gmap, cards, player, trains) -> str:
    """The leader in capital buys all the trains it can (racing to the end); the others buy only
    the trains their routes want, and bank the rest."""
    from .rules import capital
    mine = capital(state, cards, player)
    if all(mine >= capital(state, cards, p) for p in state["players"]):
        return "all"
    wanted = sum(len(path) - 1 for _, path in candidate_routes(state, gmap, player, set()))
    return str(max(0, min(wanted, 12) - state["trains_owned"][player]))


def write_orders(state: State, gmap: GameMap, cards: Cards, player: str, rng: random.Random | None = None) -> str:
    if state.get("winners") is not None:
        return ""
    lines = []
    buys = plan_buys(state, gmap, cards, player, rng)
    if buys:
        lines.append("buy: " + "; ".join(buys))
    trains, routes = plan_trains(state, gmap, cards, player, rng)
    if trains:
        lines.append("trains: " + ", ".join(trains))
    lines += ["route: " + " ".join(r) for r in routes]
    lines.append(f"factory: {_factory_order(state, gmap, cards, player, trains)}")
    war = state["war"]
    if war and state["cash"][player] >= cards.cost["factory"] and not any(b.startswith("barracks") for b in buys):
        factories = sorted(c for c, k in state["buildings"][player].items() if k == "factory")
        if factories:
            front = gmap.front_line(war["target"])
            best = min(factories, key=lambda c: min(len(paths(gmap)[c][f]) for f in front))
            lines.append(f"convert: {best}")
    return "\n".join(lines) + "\n"
