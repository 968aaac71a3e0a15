"""The whole railway as trains see it in the operating stage: every link, ferry and who owns it.

A train may run over any company's track, the foreign companies' permitted routes and built
ferries; what it pays depends on whose they are (see ``fees``). A link several companies built
side by side belongs to each of them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gm.hexmap.model import HexMap

from ..links import link_key

MOUNTAIN = "m"


@dataclass
class Network:
    hexmap: HexMap
    owners: dict[tuple[str, str], list[str]] = field(default_factory=dict)    # link -> companies
    foreign: dict[tuple[str, str], str] = field(default_factory=dict)         # link -> foreign country
    ferries: dict[str, str] = field(default_factory=dict)                     # ferry id -> owner
    next_to: dict[str, set[str]] = field(default_factory=dict)                # hex -> hexes one hop away

    def add_hop(self, a: str, b: str) -> None:
        self.next_to.setdefault(a, set()).add(b)
        self.next_to.setdefault(b, set()).add(a)

    def has_link(self, a: str, b: str) -> bool:
        key = link_key(a, b)
        return key in self.owners or key in self.foreign

    def ferry_between(self, a: str, b: str) -> str | None:
        for ferry in self.hexmap.ferries:
            if ferry.id in self.ferries and set(ferry.ends) == {a, b}:
                return ferry.id
        return None

    def connected(self, starts: list[str], goals: list[str]) -> bool:
        """Can a train get from any of ``starts`` to any of ``goals`` along the railway?"""
        goal_set, seen = set(goals), set(starts)
        todo = list(starts)
        while todo:
            here = todo.pop()
            if here in goal_set:
                return True
            for there in self.next_to.get(here, ()):
                if there not in seen:
                    seen.add(there)
                    todo.append(there)
        return False


def railway(state: dict[str, Any], hexmap: HexMap) -> Network:
    net = Network(hexmap)
    for p in state["players"]:
        for a, b in state["track"].get(p, []):
            net.owners.setdefault(link_key(a, b), []).append(p)
            net.add_hop(a, b)
    for country, links in state.get("foreign_track", {}).items():
        for a, b in links:
            if link_key(a, b) not in net.owners:
                net.foreign[link_key(a, b)] = country
            net.add_hop(a, b)
    for ferry in hexmap.ferries:
        owner = state.get("ferries", {}).get(ferry.id)
        if owner:
            net.ferries[ferry.id] = owner
            net.add_hop(*ferry.ends)
    return net


def race_ends(hexmap: HexMap, race: dict[str, Any]) -> tuple[str, list[str]]:
    """(start hex, destination hexes) of a race: a town's hex, or a special destination's hexes."""
    start = hexmap.towns[int(race["from"])].hex
    if race["special"]:
        return start, list(hexmap.specials[race["to"]].get("hexes") or [])
    return start, [hexmap.towns[int(race["to"])].hex]


def place_of(hexmap: HexMap, key: Any) -> str:
    """'Isengard (11)' or the special destination's name."""
    if isinstance(key, str) and key in hexmap.specials:
        return str(hexmap.specials[key].get("name") or key)
    town = hexmap.towns[int(key)]
    return f"{town.name} ({int(key)})"


def race_title(hexmap: HexMap, race: dict[str, Any]) -> str:
    kind = "special run" if race["special"] else "race"
    return f"{kind} {race['id']}: {place_of(hexmap, race['from'])} to {place_of(hexmap, race['to'])}"


def moves_of(hexmap: HexMap, route: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The train's moves along a checked route: each hex entered costs 1 pip (a mountain 2); a
    ferry is two moves, embarking (1) and disembarking (1)."""
    moves = []
    for step in route[1:]:
        if step["kind"] == "ferry":
            moves.append({"kind": "embark", "to": None, "pips": 1, "ferry": step["ferry"]})
            moves.append({"kind": "disembark", "to": step["hex"], "pips": 1, "ferry": step["ferry"]})
        else:
            moves.append({"kind": "run", "to": step["hex"],
                          "pips": 2 if hexmap.terrain.get(step["hex"]) == MOUNTAIN else 1})
    return moves


def route_pips(hexmap: HexMap, route: list[dict[str, Any]]) -> int:
    return sum(m["pips"] for m in moves_of(hexmap, route))


def route_text(route: list[dict[str, Any]], hexmap: HexMap | None = None, *, towns: bool = False) -> str:
    """The route as an order writes it; with ``hexmap``, each straight run of hexes as its two ends
    (and with ``towns``, towns by their names, for reports)."""
    text = _town_words(hexmap) if towns and hexmap is not None else (lambda label: label)
    words, i = [route[0]["hex"]], 0
    while i < len(route) - 1:
        j = i + 1
        if route[j]["kind"] == "ferry":
            words.append(f"ferry {route[j]['ferry']}")
            i = j
            continue
        while hexmap is not None and j + 1 < len(route) and route[j + 1]["kind"] != "ferry" \
                and hexmap.grid.straight_between(route[i]["hex"], route[j + 1]["hex"]) == \
                [x["hex"] for x in route[i + 1:j + 1]]:
            j += 1
        words.append(route[j]["hex"])
        i = j
    return " ".join(w if w.startswith("ferry ") else text(w) for w in words)


def _town_words(hexmap: HexMap):
    return lambda label: hexmap.town_at[label].name if label in hexmap.town_at else label
