"""A bot that writes legal, sensible orders: it buys buildings that complete productive pairs,
runs trains on its best routes, and brings barracks to the front in war. NMR default and playouts."""
from __future__ import annotations

import random
from collections import deque
from functools import lru_cache

from gm.games.base import State
from .cards import Cards
from .data import GameMap, line_key
from .rules import building_refusal, closed_lines, missing_permits, price



@lru_cache(maxsize=64)
def paths(gmap: GameMap, blocked: frozenset[str] = frozenset()) -> dict[str, dict[str, list[str]]]:
    """Fewest-lines paths between every two cities, through no ``blocked`` city ([] when none)."""
    out: dict[str, dict[str, list[str]]] = {}
    for start in gmap.cities:
        prev = {start: None}
        todo = deque([start])
        while todo:
            city = todo.popleft()
            for n in gmap.neighbours[city]:
                if n not in prev and n not in blocked:
                    prev[n] = city
                    todo.append(n)
        out[start] = {}
        for end in gmap.cities:
            path, c = [], end if end in prev else None
            while c is not None:
                path.append(c)
                c = prev[c]
            out[start][end] = path[::-1]
    return out


def open_paths(state: State, gmap: GameMap, player: str) -> dict[str, dict[str, list[str]]]:
    """Paths the player's trains may run: no Foreign city without its permit (unless annexed)."""
    blocked = frozenset(c for c, city in gmap.cities.items() if city.kind == "foreign"
                        and city.country not in state["annexed"]
                        and f"permit {city.country}" not in state["permits"][player])
    return paths(gmap, blocked)


def route_value(gmap: GameMap, buildings: dict[str, str], kind: str, path: list[str]) -> int:
    ends = gmap.cities[path[0]].value + gmap.cities[path[-1]].value
    if kind == "factory":
        return ends
    inner = sum(2 * gmap.cities[c].value if buildings.get(c) == "station" else -gmap.cities[c].value
                for c in path[1:-1])
    return max(0, ends + inner)


def candidate_routes(state: State, gmap: GameMap, player: str, closed: set[str]) -> list[tuple[float, list[str]]]:
    buildings = state["buildings"][player]
    table = open_paths(state, gmap, player)
    out = []
    for kind in ("factory",) if state["war"] else ("station", "factory"):
        cities = sorted(c for c, k in buildings.items() if k == kind)
        for i, a in enumerate(cities):
            for b in cities[i + 1:]:
                path = table[a][b]
                if not path or len(path) > 6 or any(line_key(x, y) in closed for x, y in zip(path, path[1:])):
                    continue
                value = route_value(gmap, buildings, kind, path) * (1.3 if kind == "factory" else 1.0)
                if value > 0:
                    out.append((value / (len(path) - 1), path))
    return sorted(out, key=lambda t: (-t[0], t[1]))


def _front_lines(state, gmap, player, closed) -> list[str]:
    """Ranked lines that bring each barracks to the front, the barracks nearest the front first:
    for each, the paths to up to three front-line cities (single-track lines count as longer:
    another player may fill them first), then the other lines out of a barracks on the front."""
    front = set(gmap.front_line(state["war"]["target"]))
    table = open_paths(state, gmap, player)

    def cost(path: list[str]) -> float:
        return len(path) - 1 + sum(0.5 for a, b in zip(path, path[1:]) if gmap.lines[line_key(a, b)].capacity == 1)

    plans = []
    for city, kind in state["buildings"][player].items():
        if kind != "barracks":
            continue
        reach = sorted((table[city][f] for f in front if table[city][f]), key=lambda p: (cost(p), p))
        reach = [p for p in reach if len(p) <= 5 and not closed & {line_key(a, b) for a, b in zip(p, p[1:])}][:3]
        if reach:
            plans.append((cost(reach[0]), city, reach))
    out: list[str] = []
    for _, city, reach in sorted(plans):
        keys = [line_key(a, b) for path in reach for a, b in zip(path, path[1:])]
        spare = [line_key(city, n) for n in gmap.neighbours[city]
                 if line_key(city, n) not in closed and city in front
                 and not missing_permits(state, gmap, player, line_key(city, n))]
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
    table = open_paths(state, gmap, player)
    options: list[tuple[float, str]] = []
    war = state["war"]
    # in war a station costs double and earns nothing: money spent on it is capital lost
    kinds = ["barracks", "factory"] if war else ["factory", "station"]
    for kind in kinds:
        if kind not in market_kinds or price(state, cards, f"{kind}-1") > cash:
            continue
        for city, c in gmap.cities.items():
            if building_refusal(state, gmap, player, kind, city):
                continue
            if war and kind == "barracks":
                reach = [len(table[city][f]) for f in gmap.front_line(war["target"]) if table[city][f]]
                if not reach:
                    continue
                score = 200.0 / min(reach)  # on the front 200, one line away 100: noise must not swamp it
            else:
                mates = [b for b, k in buildings.items() if k == kind]
                pairs = [route_value(gmap, buildings, kind, table[city][m]) / (len(table[city][m]) - 1)
                         for m in mates if 1 < len(table[city][m]) <= 5]
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
    # converting costs a factory's price for barracks worth less: a last resort, when the war has
    # stalled and there is nothing to buy (any purchase keeps the Empire from exhaustion)
    if war and war["turns"] >= 2 and not buys and state["cash"][player] >= cards.cost["factory"]:
        factories = sorted(c for c, k in state["buildings"][player].items() if k == "factory")
        if factories:
            front = gmap.front_line(war["target"])
            best = min(factories, key=lambda c: min(len(paths(gmap)[c][f]) for f in front))
            lines.append(f"convert: {best}")
    return "\n".join(lines) + "\n"
