"""Rule questions asked in more than one phase: where a building may stand, what things cost,
which cities a player's trains join, capital."""
from __future__ import annotations


from gm.games.base import State
from .cards import Cards
from .data import GameMap, line_key



def counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and the word, singular or plural: "1 train", "2 trains"."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def is_open(state: State, gmap: GameMap, city: str) -> bool:
    """Allied cities take factories and barracks only while open; annexed cities count as open."""
    return city in state["open_cities"] or gmap.cities[city].country in state["annexed"]


def building_refusal(state: State, gmap: GameMap, player: str, kind: str, city: str) -> str | None:
    """Why ``player`` may not put a ``kind`` in ``city`` now (None: they may)."""
    c = gmap.cities[city]
    if city in state["buildings"][player]:
        return f"you already have a {state['buildings'][player][city]} in {city}"
    annexed = c.country in state["annexed"]
    if c.kind == "foreign" and not annexed:
        if kind != "station":
            return f"{city} ({c.country}) is Foreign: factories and barracks only once it is annexed"
        if f"permit {c.country}" not in state["permits"][player]:
            return f"a station in {city} needs the {c.country} operating permit"
    if c.kind == "allied" and kind != "station" and not is_open(state, gmap, city):
        return f"{city} ({c.country}) is an Allied city that is not open: stations only"
    return None


def missing_permits(state: State, gmap: GameMap, player: str, key: str) -> list[str]:
    """The Foreign countries (not annexed) at the ends of line ``key`` whose operating permit
    ``player`` lacks: "connections to foreign cities are only allowed if the player has an
    international permit" (docs/rules/imperial-network.md, "Utilisation")."""
    out = []
    for city in key.split("-", 1):
        c = gmap.cities[city]
        if (c.kind == "foreign" and c.country not in state["annexed"] and c.country not in out
                and f"permit {c.country}" not in state["permits"][player]):
            out.append(c.country)
    return out


def price(state: State, cards: Cards, card: str, *, from_hand: bool = False) -> int:
    """A card's price now: stations cost double in war; another player's unused card double."""
    info = cards.info(card)
    cost = info["cost"]
    if info["type"] == "building" and info["kind"] == "station" and state["war"]:
        cost *= 2
    return cost * 2 if from_hand else cost


def building_value(state: State, cards: Cards, player: str) -> int:
    return sum(cards.cost[kind] for kind in state["buildings"][player].values())


def capital(state: State, cards: Cards, player: str) -> int:
    """Capital: building value plus cash."""
    return state["cash"][player] + building_value(state, cards, player)


def closed_lines(state: State, gmap: GameMap, cards: Cards) -> set[str]:
    """Lines that take no train now (Cold Winter closes the mountain lines)."""
    event = state["event"]
    if event and cards.info(event["card"]).get("kind") == "cold_winter":
        return {key for key, line in gmap.lines.items() if line.mountain}
    return set()


def joined(start: str, lines: list[str]) -> set[str]:
    """The cities a chain of the given lines joins to ``start`` (``start`` included)."""
    graph: dict[str, list[str]] = {}
    for key in lines:
        a, b = key.split("-", 1)  # city names hold no '-' (the map loader checks)
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, []).append(a)
    seen, todo = {start}, [start]
    while todo:
        for n in graph.get(todo.pop(), []):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def player_lines(state: State, player: str) -> list[str]:
    return [line_key(a, b) for a, b in state["placements"].get(player, [])]


def forward_order(state: State) -> list[str]:
    seats = state["seats"]
    first = state["first"] % len(seats)
    order = seats[first:] + seats[:first]
    return order[::-1] if state.get("snake") else order
