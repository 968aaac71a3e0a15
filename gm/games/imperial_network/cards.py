"""The Network deck and the War deck (maps/cards.yaml in this package), checked against the map.

Card ids are what players write: ``station-3`` (any station is written ``station``),
``permit France``, ``link Hanseatic ports``, an event's id (``cold-winter``), ``war France``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from gm.store.names import suggestion
from .data import BUILDINGS, EVENT_KINDS, FOLDER, DataFile, GameMap


@dataclass
class Cards:
    file: str
    cost: dict[str, int]               # building kind -> cost
    copies: dict[str, int]
    train_cost: int
    supply: int
    start_trains: int
    start_cash: int
    troops_per_barracks: int
    permits: dict[str, int]            # Foreign country -> cost
    links: dict[str, dict[str, Any]]   # name -> {cost, bonus, cities}
    events: dict[str, dict[str, Any]]  # id -> {name, kind, turns, ...}
    wars: dict[str, int]               # country -> war power
    war_deck: list[int]
    peace_cards: int = 0               # no War! among the top cards of the first deck

    def network_deck(self) -> list[str]:
        deck = [f"{k}-{n}" for k in BUILDINGS for n in range(1, self.copies[k] + 1)]
        deck += [f"permit {c}" for c in self.permits] + [f"link {n}" for n in self.links]
        return deck + list(self.events) + [f"war {c}" for c in self.wars]

    def info(self, card: str) -> dict[str, Any]:
        """What a card is: ``{type, name, cost, ...}``."""
        kind = card.rsplit("-", 1)[0]
        if kind in BUILDINGS:
            return {"type": "building", "kind": kind, "name": kind, "cost": self.cost[kind]}
        if card.startswith("permit "):
            country = card[7:]
            return {"type": "permit", "country": country, "name": card, "cost": self.permits[country]}
        if card.startswith("link "):
            link = self.links[card[5:]]
            return {"type": "link", "name": card, **link}
        if card.startswith("war "):
            return {"type": "war", "country": card[4:], "name": f"War! against {card[4:]}",
                    "power": self.wars[card[4:]]}
        return {"type": "event", "id": card, **self.events[card]}

    def purchasable(self, card: str) -> bool:
        return self.info(card)["type"] in ("building", "permit", "link")

    def is_card(self, card: str) -> bool:
        try:
            self.info(card)
        except (KeyError, ValueError):
            return False
        return card in set(self.network_deck())


@lru_cache(maxsize=8)
def load_cards(gmap: GameMap, path: str | None = None) -> Cards:
    file = Path(path) if path else FOLDER / "cards.yaml"
    found = DataFile(file)
    data = found.data
    cost, copies = _buildings(found)
    supply, start = _trains(found)
    foreign = gmap.foreign_countries()
    permits = _operating_permits(found, foreign)
    links = _connection_permits(found, gmap)
    events = _events(found, gmap)
    wars = _wars(found, foreign)
    war_deck = _war_deck(found)
    train_cost = _number(found, data.get("train_cost"), "train_cost", 1, "train_cost")
    start_cash = _number(found, data.get("start_cash"), "start_cash", 0, "start_cash")
    troops = _number(found, data.get("troops_per_barracks"), "troops_per_barracks", 1, "troops_per_barracks")
    peace = _number(found, data.get("peace_cards", 0), "peace_cards", 0, "peace_cards")
    found.check()
    return Cards(str(file), cost, copies, train_cost, supply, start, start_cash, troops, permits, links, events,
                 wars, war_deck, peace)


def _number(found: DataFile, value: Any, what: str, low: int = 0, *where: Any) -> int:
    """``value`` when it is a whole number of at least ``low``; else an error, and ``low``."""
    if not isinstance(value, int) or value < low:
        found.error(f"{what} must be a whole number of at least {low}, not {value!r}", *where)
        return low
    return value


def _buildings(found: DataFile) -> tuple[dict[str, int], dict[str, int]]:
    """Each building kind's cost and number of cards."""
    raw_b = found.data.get("buildings") or {}
    cost, copies = {}, {}
    for kind in BUILDINGS:
        entry = raw_b.get(kind) or {}
        cost[kind] = _number(found, entry.get("cost"), f"{kind} cost", 1, "buildings", kind)
        copies[kind] = _number(found, entry.get("copies"), f"{kind} copies", 1, "buildings", kind)
    for kind in raw_b:
        if kind not in BUILDINGS:
            found.error(f"unknown building {kind!r}{suggestion(kind, BUILDINGS)}", "buildings", str(kind))
    return cost, copies


def _trains(found: DataFile) -> tuple[int, int]:
    """The train supply and each player's trains at the start."""
    trains = found.data.get("trains") or {}
    supply = _number(found, trains.get("supply"), "trains supply", 1, "trains", "supply")
    start = _number(found, trains.get("start"), "trains start", 1, "trains", "start")
    if start > supply:
        found.error("trains: start must not exceed supply", "trains", "start")
    return supply, start


def _operating_permits(found: DataFile, foreign: list[str]) -> dict[str, int]:
    """Foreign country -> the cost of its operating permit."""
    permits = {}
    for country, c in (found.data.get("operating_permits") or {}).items():
        if country not in foreign:
            found.error(f"operating permit {country!r}: not a Foreign country{suggestion(country, foreign)}",
                        "operating_permits", str(country))
        permits[str(country)] = _number(found, c, f"operating permit {country} cost", 1,
                                        "operating_permits", str(country))
    return permits


def _connection_permits(found: DataFile, gmap: GameMap) -> dict[str, dict[str, Any]]:
    """Connection permit name -> {cost, bonus, cities}."""
    links = {}
    for name, entry in (found.data.get("connection_permits") or {}).items():
        where = ("connection_permits", str(name))
        cities = [str(c) for c in entry.get("cities") or []]
        for c in cities:
            if c not in gmap.cities:
                found.error(f"connection permit {name}: unknown city {c!r}{gmap.city_hint(c)}", *where)
        if len(cities) < 2:
            found.error(f"connection permit {name}: needs at least two cities", *where)
        links[str(name)] = {"cost": _number(found, entry.get("cost"), f"{name} cost", 1, *where),
                            "bonus": _number(found, entry.get("bonus"), f"{name} bonus", 1, *where),
                            "cities": cities}
    return links


def _events(found: DataFile, gmap: GameMap) -> dict[str, dict[str, Any]]:
    """Event id -> the event as written (name, kind, turns, ...)."""
    events = {}
    for n, entry in enumerate(found.data.get("events") or [], start=1):
        ident, kind = str(entry.get("id")), entry.get("kind")
        if kind not in EVENT_KINDS:
            found.error(f"event {ident}: kind {kind!r} is not one of {', '.join(EVENT_KINDS)}", "events", n)
        if kind == "riot" and entry.get("city") not in gmap.cities:
            found.error(f"event {ident}: riot needs a city of the map, not {entry.get('city')!r}", "events", n)
        if kind == "trade_treaty" and gmap.countries.get(entry.get("country")) != "allied":
            found.error(f"event {ident}: a trade treaty names an Allied state, not {entry.get('country')!r}",
                        "events", n)
        _number(found, entry.get("turns"), f"event {ident} turns", 1, "events", n)
        events[ident] = dict(entry)
    return events


def _wars(found: DataFile, foreign: list[str]) -> dict[str, int]:
    """Foreign country -> the war power of its War! card."""
    wars = {}
    for country, power in (found.data.get("wars") or {}).items():
        if country not in foreign:
            found.error(f"war {country!r}: not a Foreign country{suggestion(str(country), foreign)}",
                        "wars", str(country))
        if power not in (1, 2, 3):
            found.error(f"war {country}: war power is 1 to 3, not {power!r}", "wars", str(country))
        wars[str(country)] = power
    return wars


def _war_deck(found: DataFile) -> list[int]:
    """The War deck: one troop number per card."""
    war_deck = []
    for troops, n in (found.data.get("war_deck") or {}).items():
        if troops not in (1, 2, 3, 4):
            found.error(f"war deck: troop numbers are 1 to 4, not {troops!r}", "war_deck", str(troops))
        war_deck += [int(troops)] * _number(found, n, f"war deck copies of {troops}", 1, "war_deck", str(troops))
    if not war_deck:
        found.error("war deck: no cards", "war_deck")
    return war_deck
