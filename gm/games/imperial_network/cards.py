"""The Network deck and the War deck (maps/imperial-network/cards.yaml), checked against the map.

Card ids are what players write: ``station-3`` (any station is written ``station``),
``permit France``, ``link Hanseatic ports``, an event's id (``cold-winter``), ``war France``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...errors import MapError, MapErrors
from ...names import suggestion
from .data import BUILDINGS, EVENT_KINDS, FOLDER, GameMap, _read


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
    data = _read(file) or {}
    errors: list[str] = []

    def number(value: Any, what: str, low: int = 0) -> int:
        if not isinstance(value, int) or value < low:
            errors.append(f"{what} must be a whole number of at least {low}, not {value!r}")
            return low
        return value

    raw_b = data.get("buildings") or {}
    cost, copies = {}, {}
    for kind in BUILDINGS:
        entry = raw_b.get(kind) or {}
        cost[kind] = number(entry.get("cost"), f"{kind} cost", 1)
        copies[kind] = number(entry.get("copies"), f"{kind} copies", 1)
    for kind in raw_b:
        if kind not in BUILDINGS:
            errors.append(f"unknown building {kind!r}{suggestion(kind, BUILDINGS)}")
    trains = data.get("trains") or {}
    supply = number(trains.get("supply"), "trains supply", 1)
    start = number(trains.get("start"), "trains start", 1)
    if start > supply:
        errors.append("trains: start must not exceed supply")
    foreign = gmap.foreign_countries()
    permits = {}
    for country, c in (data.get("operating_permits") or {}).items():
        if country not in foreign:
            errors.append(f"operating permit {country!r}: not a Foreign country{suggestion(country, foreign)}")
        permits[str(country)] = number(c, f"operating permit {country} cost", 1)
    links = {}
    for name, entry in (data.get("connection_permits") or {}).items():
        cities = [str(c) for c in entry.get("cities") or []]
        for c in cities:
            if c not in gmap.cities:
                errors.append(f"connection permit {name}: unknown city {c!r}{gmap.city_hint(c)}")
        if len(cities) < 2:
            errors.append(f"connection permit {name}: needs at least two cities")
        links[str(name)] = {"cost": number(entry.get("cost"), f"{name} cost", 1),
                            "bonus": number(entry.get("bonus"), f"{name} bonus", 1), "cities": cities}
    events = {}
    for entry in data.get("events") or []:
        ident, kind = str(entry.get("id")), entry.get("kind")
        if kind not in EVENT_KINDS:
            errors.append(f"event {ident}: kind {kind!r} is not one of {', '.join(EVENT_KINDS)}")
        if kind == "riot" and entry.get("city") not in gmap.cities:
            errors.append(f"event {ident}: riot needs a city of the map, not {entry.get('city')!r}")
        if kind == "trade_treaty" and gmap.countries.get(entry.get("country")) != "allied":
            errors.append(f"event {ident}: a trade treaty names an Allied state, not {entry.get('country')!r}")
        number(entry.get("turns"), f"event {ident} turns", 1)
        events[ident] = dict(entry)
    wars = {}
    for country, power in (data.get("wars") or {}).items():
        if country not in foreign:
            errors.append(f"war {country!r}: not a Foreign country{suggestion(str(country), foreign)}")
        if power not in (1, 2, 3):
            errors.append(f"war {country}: war power is 1 to 3, not {power!r}")
        wars[str(country)] = power
    war_deck = []
    for troops, n in (data.get("war_deck") or {}).items():
        if troops not in (1, 2, 3, 4):
            errors.append(f"war deck: troop numbers are 1 to 4, not {troops!r}")
        war_deck += [int(troops)] * number(n, f"war deck copies of {troops}", 1)
    if not war_deck:
        errors.append("war deck: no cards")
    if errors:
        raise MapErrors([MapError(e, file=str(file)) for e in errors])
    return Cards(str(file), cost, copies, number(data.get("train_cost"), "train_cost", 1), supply, start,
                 number(data.get("start_cash"), "start_cash"), number(data.get("troops_per_barracks"),
                 "troops_per_barracks", 1), permits, links, events, wars, war_deck,
                 number(data.get("peace_cards", 0), "peace_cards"))
