"""Scoring a route (carriage, houses, tiles) and the final scores. Rules: docs/rules/thurn-und-taxis.md."""
from __future__ import annotations

from typing import Any

from gm.games.base import player_ref
from .maps import FREE, GameMap

MIN_ROUTE = 3
CARTWRIGHT_HELP = 2


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and the word, singular or plural: "1 train", "2 trains"."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def carriage_after(current: int | None, length: int, cartwright: bool, gmap: GameMap) -> int | None:
    """The carriage card held after scoring a route of ``length``: one step up at most."""
    numbers = list(gmap.carriages)
    if current is None:
        return numbers[0]
    if current >= numbers[-1]:
        return current
    needed = current - (CARTWRIGHT_HELP if cartwright else 0)
    return current + 1 if length > needed else current


def house_problems(gmap: GameMap, route: list[str], own: list[str], chosen: list[str],
                   houses_left: int) -> list[tuple[int | None, str]]:
    """What is wrong with placing houses in ``chosen`` (index into ``chosen`` or None, message)."""
    problems: list[tuple[int | None, str]] = []
    seen: set[str] = set()
    for i, city in enumerate(chosen):
        if city in seen:
            problems.append((i, f"{city} is named twice: one house a city"))
        elif city not in route:
            problems.append((i, f"{city} is not on the route you score ({' - '.join(route)})"))
        elif city in own:
            problems.append((i, f"you already have a house in {city}"))
        seen.add(city)
    groups: dict[str, list[int]] = {}
    for i, city in enumerate(chosen):
        if city in route:
            groups.setdefault(gmap.group(city), []).append(i)
    if len(groups) > 1:
        crowded = [g for g, idx in groups.items() if len(idx) > 1]
        if crowded:
            g = crowded[0]
            others = ", ".join(sorted(x for x in groups if x != g))
            problems.append((groups[g][1], f"houses go either all in one area or one in each of several areas: "
                                           f"this is a second house in {_group_name(g)} while others go to {others}"))
    if len(set(chosen)) > houses_left:
        problems.append((None, f"you have only {counted(houses_left, 'house')} left, not {len(set(chosen))}"))
    return problems


def _group_name(group: str) -> str:
    return "the free cities" if group == FREE else group


def take_tile(state: dict[str, Any], player: str, kind: str) -> dict[str, Any] | None:
    stack = state["tiles_left"].get(kind) or []
    if not stack:
        return None
    tile = {"kind": kind, "points": stack.pop(0)}
    state["tiles"][player].append(tile)
    return tile


def route_tile(gmap: GameMap, state: dict[str, Any], player: str, length: int) -> dict[str, Any] | None:
    """The route's own length stack, else the longest shorter stack with a tile left."""
    for n in gmap.route_lengths_for(length):
        tile = take_tile(state, player, gmap.route_kind(n))
        if tile:
            return tile
    return None


def area_tiles(gmap: GameMap, state: dict[str, Any], player: str, new_houses: list[str]) -> list[dict[str, Any]]:
    """Area tiles completed by the houses just placed (one of each kind a player)."""
    houses = set(state["houses"][player])
    held = {t["kind"] for t in state["tiles"][player]}
    won = []
    for kind, spec in gmap.area_tiles.items():
        cities = [c for a in spec.areas for c in gmap.area_cities(a)]
        if kind not in held and all(c in houses for c in cities) and any(c in new_houses for c in cities):
            tile = take_tile(state, player, kind)
            if tile:
                won.append(tile)
    if gmap.all_areas_except is not None and "all areas" not in held:
        needed = gmap.all_areas_needed()
        have = {gmap.cities[c].area for c in houses}
        if all(a in have for a in needed) and any(gmap.cities[c].area in needed for c in new_houses):
            tile = take_tile(state, player, "all areas")
            if tile:
                won.append(tile)
    return won


def ends_game(gmap: GameMap, state: dict[str, Any], player: str) -> bool:
    """The end condition: the highest carriage card, or no house left in the supply."""
    return state["carriage"][player] == max(gmap.carriages) or state["houses_left"][player] == 0


def score_route(gmap: GameMap, state: dict[str, Any], player: str, houses: list[str], cartwright: bool,
                events: list[dict]) -> None:
    """Carriage, houses, tiles, in that order; the scored route's cards go to the discard pile."""
    route = state["routes"][player]
    length = len(route)
    events.append({"kind": "score", "player": player, "route": list(route), "length": length,
                   "text": f"{player_ref(player)} scored a route of {length}: {' - '.join(route)}."})
    before = state["carriage"][player]
    after = carriage_after(before, length, cartwright, gmap)
    if after != before:
        state["carriage"][player] = after
        helped = cartwright and before is not None and length <= before
        events.append({"kind": "carriage", "player": player, "carriage": after,
                       "text": f"{player_ref(player)} gained carriage {after}"
                               + (" (with the Cartwright)." if helped else ".")})
    for city in houses:
        state["houses"][player].append(city)
        state["houses_left"][player] -= 1
    if houses:
        events.append({"kind": "houses", "player": player, "cities": list(houses),
                       "text": f"{player_ref(player)} placed {counted(len(houses), 'house')}: {', '.join(houses)} "
                               f"({state['houses_left'][player]} left)."})
    won = [t for t in [route_tile(gmap, state, player, length)] if t]
    won += area_tiles(gmap, state, player, houses)
    if ends_game(gmap, state, player) and not state.get("end_triggered_by"):
        state["end_triggered_by"] = player
        tile = take_tile(state, player, "end")
        won += [tile] if tile else []
        why = f"reached carriage {after}" if after == max(gmap.carriages) else "placed the last house"
        events.append({"kind": "end_triggered", "player": player,
                       "text": f"{player_ref(player)} {why}: the game ends when this round is finished."})
    for tile in won:
        events.append({"kind": "tile", "player": player, "tile": tile["kind"], "points": tile["points"],
                       "text": f"{player_ref(player)} took the {tile['kind']} tile "
                               f"({counted(tile['points'], 'point')})."})
    state["discard"].extend(route)
    state["routes"][player] = []


def final_scores(gmap: GameMap, state: dict[str, Any]) -> tuple[dict[str, int], dict[str, dict], list[str]]:
    """Each player's total and its parts, and the winners after the tie-breaks (several: a shared win)."""
    players = state["players"]
    details = {}
    for p in players:
        tiles = sum(t["points"] for t in state["tiles"][p])
        carriage = gmap.carriages.get(state["carriage"][p], 0) if state["carriage"][p] else 0
        left = state["houses_left"][p]
        details[p] = {"tiles": tiles, "carriage": carriage, "houses_left": -left, "total": tiles + carriage - left}
    scores = {p: details[p]["total"] for p in players}
    best = max(scores.values())
    tied = [p for p in players if scores[p] == best]
    holder = next((p for p in players if any(t["kind"] == "end" for t in state["tiles"][p])), None)
    if len(tied) == 1 or holder is None:
        return scores, details, tied
    start = players.index(holder)
    clockwise = [players[(start + k) % len(players)] for k in range(len(players))]
    return scores, details, [next(p for p in clockwise if p in tied)]


def ranking(state: dict[str, Any], winners: list[str]) -> list[list[str]]:
    """Places, best first: the winners, then the others by score (equal scores share a place)."""
    scores = state["scores"]
    rest = sorted({scores[p] for p in state["players"] if p not in winners}, reverse=True)
    return [list(winners)] + [[p for p in state["players"] if p not in winners and scores[p] == s] for s in rest]
