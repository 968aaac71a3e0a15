"""The Network deck and the War deck (maps/imperial-network/cards.yaml), checked against the map.

Card ids are what players write: ``station-3`` (any station is written ``station``),
``permit France``, ``link Hanseatic ports``, an event's id (``cold-winter``), ``war France``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...names import suggestion
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
    data, error = found.data, found.error

    def number(value: Any, what: str, low: int = 0, *where: Any) -> int:
        if not isinstance(value, int) or value < low:
            error(f"{what} must be a whole number of at least {low}, not {value!r}", *where)
            return low
        return value

    raw_b = data.get("buildings") or {}
    cost, copies = {}, {}
    for kind in BUILDINGS:
        entry = raw_b.get(kind) or {}
        cost[kind] = number(entry.get("cost"), f"{kind} cost", 1, "buildings", kind)
        copies[kind] = number(entry.get("copies"), f"{kind} copies", 1, "buildings", kind)
    for kind in raw_b:
        if kind not in BUILDINGS:
            error(f"unknown building {kind!r}{suggestion(kind, BUILDINGS)}", "buildings", str(kind))
    trains = data.get("trains") or {}
    supply = number(trains.get("supply"), "trains supply", 1, "trains", "supply")
    start = number(trains.get("start"), "trains start", 1, "trains", "start")
    if start > supply:
        error("trains: start must not exceed supply", "trains", "start")
    foreign = gmap.foreign_countries()
    permits = {}
    for country, c in (data.get("operating_permits") or {}).items():
        if country not in foreign:
            error(f"operating permit {country!r}: not a Foreign country{suggestion(country, foreign)}",
                  "operating_permits", str(country))
        permits[str(country)] = number(c, f"operating permit {country} cost", 1, "operating_permits", str(country))
    links = {}
    for name, entry in (data.get("connection_permits") or {}).items():
        cities = [str(c) for c in entry.get("cities") or []]
        for c in cities:
            if c not in gmap.cities:
                error(f"connection permit {name}: unknown city {c!r}{gmap.city_hint(c)}",
                      "connection_permits", str(name))
        if len(cities) < 2:
            error(f"connection permit {name}: needs at least two cities", "connection_permits", str(name))
        links[str(name)] = {"cost": number(entry.get("cost"), f"{name} cost", 1, "connection_permits", str(name)),
                            "bonus": number(entry.get("bonus"), f"{name} bonus", 1, "connection_permits", str(name)),
                            "cities": cities}
    events = {}
    for n, entry in enumerate(data.get("events") or [], start=1):
        ident, kind = str(entry.get("id")), entry.get("kind")
        if kind not in EVENT_KINDS:
            error(f"event {ident}: kind {kind!r} is not one of {', '.join(EVENT_KINDS)}", "events", n)
        if kind == "riot" and entry.get("city") not in gmap.cities:
            error(f"event {ident}: riot needs a city of the map, not {entry.get('city')!r}", "events", n)
        if kind == "trade_treaty" and gmap.countries.get(entry.get("country")) != "allied":
            error(f"event {ident}: a trade treaty names an Allied state, not {entry.get('country')!r}", "events", n)
        number(entry.get("turns"), f"event {ident} turns", 1, "events", n)
        events[ident] = dict(entry)
    wars = {}
    for country, power in (data.get("wars") or {}).items():
        if country not in foreign:
            error(f"war {country!r}: not a Foreign country{suggestion(str(country), foreign)}", "wars", str(country))
        if power not in (1, 2, 3):
            error(f"war {country}: war power is 1 to 3, not {power!r}", "wars", str(country))
        wars[str(country)] = power
    war_deck = []
    for troops, n in (data.get("war_deck") or {}).items():
        if troops not in (1, 2, 3, 4):
            error(f"war deck: troop numbers are 1 to 4, not {troops!r}", "war_deck", str(troops))
        war_deck += [int(troops)] * number(n, f"war deck copies of {troops}", 1, "war_deck", str(troops))
    if not war_deck:
        error("war deck: no cards", "war_deck")
    train_cost = number(data.get("train_cost"), "train_cost", 1, "train_cost")
    start_cash = number(data.get("start_cash"), "start_cash", 0, "start_cash")
    troops = number(data.get("troops_per_barracks"), "troops_per_barracks", 1, "troops_per_barracks")
    peace = number(data.get("peace_cards", 0), "peace_cards", 0, "peace_cards")
    found.check()
    return Cards(str(file), cost, copies, train_cost, supply, start, start_cash, troops, permits, links, events,
                 wars, war_deck, peace)
