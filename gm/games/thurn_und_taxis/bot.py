"""Random legal turns (conformance playouts, test games) and the orders of a missing player (NMR)."""
from __future__ import annotations

import random
from typing import Any

from gm.store.errors import OrderErrors
from gm.store.orders import read_frame
from .maps import GameMap
from .orders import parse_orders

OFFICIAL_WORDS = {"postmaster": "postmaster", "administrator": "administrator", "carrier": "carrier",
                  "cartwright": "cartwright"}


def default_orders(state: dict[str, Any], player: str) -> dict[str, Any]:
    """No orders: draw from the deck (twice with the Postmaster when the hand is empty), the
    default play, no scoring (docs/rules/thurn-und-taxis.md, "Default rules")."""
    return {"official": None, "steps": [], "default": True, "notes": []}


def random_orders(gmap: GameMap, state: dict[str, Any], player: str, rng: random.Random) -> str:
    """The text of some legal orders for ``player``; every candidate is checked by the parser."""
    for _ in range(30):
        text = _candidate(gmap, state, player, rng)
        if _legal(gmap, state, player, text):
            return text
    # the plainest turn: draw what can be seen, start a new route with a known card
    known = list(state["hands"][player]) + list(state["display"])
    lines = ["official: postmaster"] if not state["hands"][player] else []
    draws = 2 if lines else 1
    lines += [f"draw: display {c}" for c in state["display"][:draws]] or ["draw: deck"] * draws
    lines.append(f"play: {known[0]} new" if known else "play: ? new")
    return "\n".join(lines) + "\n"


def _legal(gmap: GameMap, state: dict[str, Any], player: str, text: str) -> bool:
    try:
        parse_orders(gmap, state, player, read_frame(text).lines)
    except OrderErrors:
        return False
    return True


def _candidate(gmap: GameMap, state: dict[str, Any], player: str, rng: random.Random) -> str:
    hand = list(state["hands"][player])
    display = list(state["display"])
    unknown = 0
    lines = []
    route = list(state["routes"][player])
    if not hand:
        official = "postmaster"
    elif len(hand) < 3 and rng.random() < 0.6:
        official = "postmaster"  # a bigger hand extends routes more often: games end sooner
    else:
        official = rng.choice([None, "postmaster", "administrator", "carrier", "carrier", "cartwright"])
    if official:
        lines.append(f"official: {OFFICIAL_WORDS[official]}")
    plays_needed = 2 if official == "carrier" else 1
    ends = {c for end in (route[:1] + route[-1:]) for c in gmap.cities[end].roads} - set(route)
    for _ in range(2 if official == "postmaster" else 1):
        seen = display if official != "administrator" else []
        useful = [c for c in seen if c in ends]
        if useful and rng.random() < 0.8:
            card = rng.choice(useful)
        elif seen and (len(hand) < plays_needed or rng.random() < 0.3):
            card = rng.choice(seen)
        else:
            card = None
        if card:
            display.remove(card)  # its replacement is not known when the orders are written
            hand.append(card)
            lines.append(f"draw: display {card}")
        else:
            unknown += 1
            lines.append("draw: deck")
    for _ in range(plays_needed):
        if not hand:
            break
        extend = [(c, end) for c in hand for end in ("left", "right") if route and c not in route
                  and gmap.adjacent(route[0] if end == "left" else route[-1], c)]
        if extend and rng.random() < 0.95:
            card, end = rng.choice(extend)
            route.insert(0, card) if end == "left" else route.append(card)
        else:
            card, end = rng.choice(hand), "new"
            route = [card]
        hand.remove(card)
        lines.append(f"play: {card} {end}")
    carriage = state["carriage"][player] or 0
    if len(route) >= 3 and (len(route) > carriage or rng.random() < 0.7):
        over = len(hand) + unknown - 3
        if over <= len(hand):
            lines.append(_score_line(gmap, state, player, route, rng))
            if over > 0:
                lines.append("discard: " + " ".join(rng.sample(hand, over)))
    return "\n".join(lines) + "\n"


def _score_line(gmap: GameMap, state: dict[str, Any], player: str, route: list[str], rng: random.Random) -> str:
    own = set(state["houses"][player])
    free = [c for c in route if c not in own]
    groups: dict[str, list[str]] = {}
    for c in free:
        groups.setdefault(gmap.group(c), []).append(c)
    left = state["houses_left"][player]
    if not groups or left == 0:
        return "score"
    biggest = max(groups.values(), key=len)
    spread = [cities[0] for cities in groups.values()]
    # mostly the option that places more houses: the game ends sooner
    chosen = max(biggest, spread, key=len) if rng.random() < 0.8 else rng.choice([biggest, spread])
    chosen = chosen[: max(1, min(left, len(chosen)))]
    return "score: houses " + " ".join(chosen)
