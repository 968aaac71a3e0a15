"""A game's state: the set-up, and positions given by rules cases (checked to be legal)."""
from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from gm.store.dice import Dice
from gm.store.errors import UsageError
from gm.store.names import suggestion
from .cards import DISPLAY_SIZE, new_deck
from .maps import GameMap

PER_PLAYER = ("hands", "routes", "houses", "houses_left", "carriage", "tiles")
SETTABLE = PER_PLAYER + ("display", "deck", "discard", "tiles_left", "to_move", "round", "end_triggered_by")


def new_game(gmap: GameMap, map_name: str, players: list[str], dice: Dice) -> dict[str, Any]:
    deck = new_deck(gmap.full_deck(), dice)
    return {
        "map": map_name,
        "players": list(players),
        "display": deck[:DISPLAY_SIZE],
        "deck": deck[DISPLAY_SIZE:],
        "discard": [],
        "hands": {p: [] for p in players},
        "routes": {p: [] for p in players},
        "houses": {p: [] for p in players},
        "houses_left": {p: gmap.houses for p in players},
        "carriage": {p: None for p in players},
        "tiles": {p: [] for p in players},
        "tiles_left": gmap.tile_stacks(),
        "to_move": players[0],
        "round": 1,
        "end_triggered_by": None,
        "finished": False,
        "scores": None,
        "score_details": None,
        "winners": None,
    }


def apply_setup(gmap: GameMap, state: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """``state`` with ``overrides`` (keys as in ``gm show --json``; per-player keys merge by
    player); raise UsageError naming what makes the position illegal."""
    new = copy.deepcopy(state)
    players = new["players"]
    problems: list[str] = []
    for key, value in overrides.items():
        if key not in SETTABLE:
            raise UsageError(f"setup: {key!r} cannot be set{suggestion(key, SETTABLE)}; keys: {', '.join(SETTABLE)}")
        if key in PER_PLAYER:
            if not isinstance(value, dict):
                raise UsageError(f"setup: {key} maps each player to a value")
            for p, v in value.items():
                if p not in players:
                    raise UsageError(f"setup: {key}: no player {p!r}{suggestion(str(p), players)}")
                new[key][p] = copy.deepcopy(v)
        else:
            new[key] = copy.deepcopy(value)

    def city(name: Any, where: str) -> str:
        found = gmap.city(str(name))
        if found is None:
            problems.append(f"{where}: no city {name!r}{gmap.suggest(str(name))}")
            return str(name)
        return found

    for key in ("display", "deck", "discard"):
        new[key] = [city(c, key) for c in new[key] or []]
    for p in players:
        new["hands"][p] = [city(c, f"hands.{p}") for c in new["hands"][p] or []]
        new["routes"][p] = route = [city(c, f"routes.{p}") for c in new["routes"][p] or []]
        new["houses"][p] = houses = [city(c, f"houses.{p}") for c in new["houses"][p] or []]
        if problems:
            continue
        if len(set(route)) != len(route):
            problems.append(f"routes.{p}: a city appears twice in {route}")
        for a, b in zip(route, route[1:]):
            if not gmap.adjacent(a, b):
                problems.append(f"routes.{p}: no road joins {a} and {b}")
        if len(set(houses)) != len(houses):
            problems.append(f"houses.{p}: two houses in one city")
        if "houses_left" not in overrides or p not in overrides["houses_left"]:
            new["houses_left"][p] = gmap.houses - len(houses)
        if not 0 <= new["houses_left"][p] <= gmap.houses - len(houses):
            problems.append(f"houses_left.{p}: {new['houses_left'][p]} with {len(houses)} placed "
                            f"(a player has {gmap.houses})")
        if new["carriage"][p] is not None and new["carriage"][p] not in gmap.carriages:
            problems.append(f"carriage.{p}: no carriage card {new['carriage'][p]} (cards: {list(gmap.carriages)})")
    _check_tiles(gmap, state, new, overrides, problems)
    if not problems:
        _account_cards(gmap, state, new, overrides, problems)
    if new["to_move"] not in players:
        problems.append(f"to_move: no player {new['to_move']!r}")
    if new["end_triggered_by"] is not None and new["end_triggered_by"] not in players:
        problems.append(f"end_triggered_by: no player {new['end_triggered_by']!r}")
    if problems:
        raise UsageError("setup is not a legal position: " + "; ".join(problems))
    return new


def _check_tiles(gmap: GameMap, old: dict, new: dict, overrides: dict, problems: list[str]) -> None:
    stacks = gmap.tile_stacks()
    given_left = "tiles_left" in overrides
    left = copy.deepcopy(old["tiles_left"])
    for kind, values in (overrides["tiles_left"] or {}).items() if given_left else ():
        if kind not in stacks:
            problems.append(f"tiles_left: no tile {kind!r}{suggestion(str(kind), stacks)}")
        elif not isinstance(values, list) or any(v not in stacks[kind] for v in values):
            problems.append(f"tiles_left: {kind} is a list of points from {stacks[kind]}, not {values!r}")
        else:
            left[kind] = list(values)  # the stacks not named keep their set-up values
    for p in new["players"]:
        for tile in new["tiles"][p]:
            kind, points = (tile.get("kind"), tile.get("points")) if isinstance(tile, dict) else (None, None)
            if kind not in stacks:
                problems.append(f"tiles.{p}: no tile {kind!r}{suggestion(str(kind), stacks)}")
            elif points not in stacks[kind]:
                problems.append(f"tiles.{p}: a {kind} tile is worth one of {stacks[kind]}, not {points!r}")
            elif not given_left and p in overrides.get("tiles", {}):
                if points in left[kind]:
                    left[kind].remove(points)
                else:
                    problems.append(f"tiles.{p}: no {kind} tile of {points} left to give")
    new["tiles_left"] = left


def _account_cards(gmap: GameMap, old: dict, new: dict, overrides: dict, problems: list[str]) -> None:
    """Every card is in exactly one place; the deck keeps its shuffled order minus cards placed elsewhere."""
    full = Counter(gmap.full_deck())
    placed = Counter(new["display"])
    for p in new["players"]:
        placed.update(new["hands"][p])
        placed.update(new["routes"][p])
    if "discard" in overrides:
        placed.update(new["discard"])
    if "deck" in overrides:
        placed.update(new["deck"])
    over = {c: n for c, n in placed.items() if n > full[c]}
    for c, n in sorted(over.items()):
        problems.append(f"{n} {c} cards in play, but the map has {full[c]}")
    if over:
        return
    missing = full - placed
    if "deck" in overrides:
        new["discard"] = (new["discard"] if "discard" in overrides else []) + list(missing.elements())
    else:
        rest = []
        everything = old["deck"] + old["display"] + old["discard"] + [
            c for p in old["players"] for c in old["hands"][p] + old["routes"][p]]
        for card in everything:
            if missing[card] > 0:
                missing[card] -= 1
                rest.append(card)
        new["deck"] = rest
        if "discard" not in overrides:
            new["discard"] = []
    if len(new["display"]) > DISPLAY_SIZE:
        problems.append(f"display: {len(new['display'])} cards, at most {DISPLAY_SIZE}")
    elif len(new["display"]) < DISPLAY_SIZE and new["deck"]:
        problems.append(f"display: {len(new['display'])} cards while the deck still has cards "
                        f"(the display is refilled to {DISPLAY_SIZE} at once)")
