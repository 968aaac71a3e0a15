"""Reading one player's orders for a turn. Checks against the state; changes nothing.

    buy: station Hamburg; factory Leipzig from red; permit Italy; link Hanseatic ports; barracks
    place: station Bremen              (a building card kept in hand)
    trains: Erfurt-Leipzig, Leipzig-Dresden, Hamburg-Bremen
    route: Erfurt Leipzig Dresden
    factory: 2 | all | none
    convert: Leipzig, Essen            (war only: factories become barracks)
"""
from __future__ import annotations

import re
from typing import Any

from gm.store.errors import OrderError
from gm.store.names import fold, match, suggestion
from gm.store.orders import OrderLine, capped, collect
from gm.games.base import State
from .cards import Cards
from .data import BUILDINGS, GameMap, line_key
from .rules import building_refusal, closed_lines, missing_permits

KEYWORDS = ("buy", "place", "trains", "route", "factory", "convert")
MAX_LINE = 1000    # characters: a long ranked list of trains fits easily
MAX_ERRORS = 50    # a file this wrong is not worth reading on: the rest is named as not read
_COUNT = re.compile(r"[0-9]{1,3}")  # ASCII digits only: '²' or '３' pass str.isdigit() but are no count


def empty_orders() -> dict[str, Any]:
    return {"buy": [], "place": [], "trains": [], "routes": [], "factory": None, "convert": [], "notes": []}


def split_items(text: str, start: int, seps: str = ";,") -> list[tuple[int, str]]:
    """The items of a list with their offsets (``start`` = offset of ``text`` in the line)."""
    out, pos = [], 0
    for piece in re.split(f"[{re.escape(seps)}]", text):
        stripped = piece.strip()
        if stripped:
            out.append((start + pos + piece.index(stripped), stripped))
        pos += len(piece) + 1
    return out


class Reader:
    """One player's orders, collecting every error of the file."""

    def __init__(self, state: State, gmap: GameMap, cards: Cards, player: str):
        self.state, self.gmap, self.cards, self.player = state, gmap, cards, player
        self.orders = empty_orders()
        self.errors: list[OrderError] = []
        self.route_lines: dict[str, int] = {}
        self.train_at: dict[str, tuple[OrderLine, int]] = {}

    def city(self, line: OrderLine, offset: int, text: str) -> str | None:
        found = self.gmap.city(text)
        if found is None:
            self.errors.append(line.error(f"unknown city {text!r}{self.gmap.city_hint(text)}", offset))
        return found

    def read(self, lines: list[OrderLine]) -> dict[str, Any]:
        for n, line in enumerate(lines):
            if len(self.errors) >= MAX_ERRORS:
                self.errors.append(line.error(f"too many errors: this line and the {len(lines) - n - 1} after it "
                                              "were not read"))
                break
            if len(line.text) > MAX_LINE:
                self.errors.append(line.syntax(f"this line is {len(line.text)} characters long, more than an order "
                                               f"line takes ({MAX_LINE}); split the list over several lines"))
                continue
            head, colon, rest = line.text.partition(":")
            key = match(head.strip(), KEYWORDS) or match(head.strip().rstrip("s"), KEYWORDS)
            if not colon or key is None:
                self.errors.append(line.syntax(f"expected one of {', '.join(k + ':' for k in KEYWORDS)}, "
                                               f"not {head.strip()!r}{suggestion(head.strip(), KEYWORDS)}"))
                continue
            start = len(head) + 1
            getattr(self, f"read_{key}")(line, start + len(rest) - len(rest.lstrip()), rest.strip())
        self.check_permits()
        collect(capped(self.errors, lines[0].file if lines else "", MAX_ERRORS))
        return self.orders

    def check_permits(self) -> None:
        """A train into a Foreign country needs its operating permit: held, or bought this turn
        (buying comes before the trains; the line is passed over if the purchase fails)."""
        buying = {item["card"] for item in self.orders["buy"] if "card" in item}
        for key, (line, offset) in self.train_at.items():
            lacking = missing_permits(self.state, self.gmap, self.player, key)
            if not lacking:
                continue
            unbought = [c for c in lacking if f"permit {c}" not in buying]
            if unbought:
                names = " and the ".join(unbought)
                buy = "; ".join(f"permit {c}" for c in unbought)
                self.errors.append(line.error(f"{key} enters {' and '.join(lacking)} (Foreign): a train there needs "
                                              f"the {names} operating permit, which you do not hold (buy it first: "
                                              f"'buy: {buy}')", offset))
            else:
                self.orders["notes"].append(f"line {line.number}: {key} needs the {' and the '.join(lacking)} "
                                            "permit: your train goes there only if you buy it this turn, "
                                            "else the line is passed over")

    # ---- buy and place ------------------------------------------------------------------
    def read_buy(self, line: OrderLine, start: int, text: str) -> None:
        for offset, item in split_items(text, start, ";,"):
            entry = self.buy_item(line, offset, item)
            if entry is not None:
                self.orders["buy"].append(entry)

    def buy_item(self, line: OrderLine, offset: int, item: str) -> dict[str, Any] | None:
        words = item.split()
        first = fold(words[0])
        if first in ("permit", "link"):
            return self.permit_item(line, offset, first, " ".join(words[1:]), item)
        kind = match(words[0], BUILDINGS)
        if kind is None:
            choices = list(BUILDINGS) + ["permit", "link"]
            self.errors.append(line.syntax(f"unknown card {words[0]!r}{suggestion(words[0], choices)}: "
                                           "expected station, factory, barracks, permit or link", offset))
            return None
        seller = None
        if len(words) >= 3 and fold(words[-2]) == "from":
            seller = match(words[-1], self.state["players"])
            if seller is None or seller == self.player:
                others = [p for p in self.state["players"] if p != self.player]
                self.errors.append(line.error(f"{words[-1]!r} is not another player"
                                              f"{suggestion(words[-1], others)}", offset + item.rindex(words[-1])))
                return None
            words = words[:-2]
        city = None
        if len(words) > 1:
            city_text = " ".join(words[1:])
            city = self.city(line, offset + item.index(words[1]), city_text)
            if city is None:
                return None
            refusal = building_refusal(self.state, self.gmap, self.player, kind, city)
            if refusal:
                self.errors.append(line.error(refusal, offset + item.index(words[1])))
                return None
        if seller is None and not any(c.rsplit("-", 1)[0] == kind for c in self.state["market"]):
            self.errors.append(line.error(f"no {kind} in the market ({', '.join(self.state['market']) or 'empty'})",
                                          offset))
            return None
        if seller is not None and not any(c.rsplit("-", 1)[0] == kind for c in self.state["hand"][seller]):
            self.errors.append(line.error(f"{seller} holds no unused {kind}", offset))
            return None
        return {"kind": kind, "city": city, "from": seller, "text": item}

    def permit_item(self, line: OrderLine, offset: int, what: str, name: str, item: str) -> dict[str, Any] | None:
        choices = list(self.cards.permits) if what == "permit" else list(self.cards.links)
        found = match(name, choices) if name else None
        if found is None and what == "permit":
            city = self.gmap.city(name) if name else None  # "permit Milan" means Italy's permit
            found = self.gmap.cities[city].country if city and self.gmap.cities[city].country in choices else None
        if found is None:
            self.errors.append(line.error(f"unknown {what} {name!r}{suggestion(name, choices)}; "
                                          f"{what}s: {', '.join(choices)}", offset))
            return None
        card = f"{what} {found}"
        if card in self.state["permits"][self.player]:
            self.errors.append(line.error(f"you already hold {card}", offset))
            return None
        if card not in self.state["market"]:
            self.errors.append(line.error(f"{card} is not in the market ({', '.join(self.state['market'])})", offset))
            return None
        return {"card": card, "text": item}

    def read_place(self, line: OrderLine, start: int, text: str) -> None:
        for offset, item in split_items(text, start, ";,"):
            words = item.split()
            kind = match(words[0], BUILDINGS)
            if kind is None or len(words) < 2:
                self.errors.append(line.syntax("expected 'place: KIND CITY' (a building card in your hand)", offset))
                continue
            city = self.city(line, offset + item.index(words[1]), " ".join(words[1:]))
            if city is None:
                continue
            held = sum(1 for c in self.state["hand"][self.player] if c.rsplit("-", 1)[0] == kind)
            placed = sum(1 for p in self.orders["place"] if p["kind"] == kind)
            refusal = building_refusal(self.state, self.gmap, self.player, kind, city)
            if held <= placed:
                self.errors.append(line.error(f"you hold no unused {kind} to place", offset))
            elif refusal or any(p["city"] == city for p in self.orders["place"]):
                self.errors.append(line.error(refusal or f"{city} is named twice", offset + item.index(words[1])))
            else:
                self.orders["place"].append({"kind": kind, "city": city})

    # ---- trains and routes ----------------------------------------------------------------
    def line_between(self, line: OrderLine, offset: int, a_text: str, b_text: str) -> str | None:
        a = self.city(line, offset, a_text)
        b = self.city(line, offset + len(a_text) + 1, b_text)
        if a is None or b is None:
            return None
        if self.gmap.line(a, b) is None:
            self.errors.append(line.error(f"no line between {a} and {b} (lines from {a} go to "
                                          f"{', '.join(self.gmap.neighbours[a])})", offset))
            return None
        return line_key(a, b)

    def read_trains(self, line: OrderLine, start: int, text: str) -> None:
        closed = closed_lines(self.state, self.gmap, self.cards)
        for offset, item in split_items(text, start, ";,"):
            ends = [e.strip() for e in item.split("-")]
            if len(ends) != 2 or not all(ends):
                self.errors.append(line.syntax(f"expected a line as CITY-CITY, not {item!r}", offset))
                continue
            key = self.line_between(line, offset, ends[0], ends[1])
            if key is None:
                continue
            if key in self.orders["trains"]:
                self.errors.append(line.error(f"the ranked list names {key} twice", offset))
            elif key in closed:
                self.errors.append(line.error(f"{key} is a mountain line closed by the Cold Winter", offset))
            else:
                self.orders["trains"].append(key)
                self.train_at[key] = (line, offset)

    def read_route(self, line: OrderLine, start: int, text: str) -> None:
        words = [(m.start() + start, m.group(0)) for m in re.finditer(r"[^\s,\-]+", text)]
        if len(words) < 2:
            self.errors.append(line.syntax("a route names at least two cities: 'route: Erfurt Leipzig Dresden'", start))
            return
        cities = [self.city(line, offset, w) for offset, w in words]
        if None in cities:
            return
        keys = []
        for (offset, _), a, b in zip(words, cities, cities[1:]):
            if self.gmap.line(a, b) is None:
                self.errors.append(line.error(f"no line between {a} and {b} (lines from {a} go to "
                                              f"{', '.join(self.gmap.neighbours[a])})", offset))
                return
            key = line_key(a, b)
            if key in keys or key in self.route_lines:
                where = "this route" if key in keys else f"the route on line {self.route_lines[key]}"
                self.errors.append(line.error(f"{key} already counts in {where}: a line counts in one route",
                                              offset))
                return
            keys.append(key)
        if len(set(cities)) != len(cities):
            self.errors.append(line.error("a route passes each city once", start))
            return
        self.route_lines.update({k: line.number for k in keys})
        self.orders["routes"].append(cities)

    # ---- profit and war -------------------------------------------------------------------
    def read_factory(self, line: OrderLine, start: int, text: str) -> None:
        low = text.lower()
        if self.orders["factory"] is not None:
            self.errors.append(line.error("a second 'factory:' line", 0))
        elif low in ("all", "none"):
            self.orders["factory"] = 0 if low == "none" else "all"
        elif _COUNT.fullmatch(low):
            self.orders["factory"] = int(low)
        else:
            shown = text if len(text) <= 20 else text[:20] + "..."
            self.errors.append(line.syntax(f"factory: takes a number of trains (0 to 999, in digits 0-9), 'all' or "
                                           f"'none', not {shown!r}", start))

    def read_convert(self, line: OrderLine, start: int, text: str) -> None:
        for offset, item in split_items(text, start, ";,"):
            city = self.city(line, offset, item)
            if city is None:
                continue
            if not self.state["war"]:
                self.errors.append(line.error("factories convert to barracks only in war", offset))
            elif self.state["buildings"][self.player].get(city) != "factory":
                self.errors.append(line.error(f"you have no factory in {city}", offset))
            elif city not in self.orders["convert"]:
                self.orders["convert"].append(city)


def parse_orders(state: State, gmap: GameMap, cards: Cards, player: str, lines: list[OrderLine]) -> dict[str, Any]:
    return Reader(state, gmap, cards, player).read(lines)
