"""The map (cities, lines) and the card decks, read from YAML and checked: every problem at once."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from gm.store.errors import MapError, MapErrors, UsageError
from gm.store.fileio import compose_yaml, load_yaml
from gm.store.names import fold, suggestion

FOLDER = Path(__file__).resolve().parent / "maps"  # the shipped map and cards
KINDS = ("prussian", "german", "allied", "foreign")
BUILDINGS = ("station", "factory", "barracks")
EVENT_KINDS = ("hot_summer", "ski_season", "cold_winter", "riot", "trade_treaty")


def line_key(a: str, b: str) -> str:
    """The name of the line between two cities, the same whichever end comes first."""
    return "-".join(sorted((a, b)))


@dataclass(frozen=True)
class City:
    name: str
    country: str
    kind: str
    value: int
    capital: bool = False
    port: bool = False
    alpine: bool = False
    at: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class Line:
    ends: tuple[str, str]
    capacity: int
    mountain: bool

    @property
    def key(self) -> str:
        return line_key(*self.ends)


@dataclass(eq=False)  # identity hash: one loaded map is one object (cached)
class GameMap:
    name: str
    file: str
    cities: dict[str, City]
    lines: dict[str, Line]
    countries: dict[str, str]
    aliases: dict[str, str] = field(default_factory=dict)  # folded name or alias -> city
    neighbours: dict[str, list[str]] = field(default_factory=dict)

    def city(self, text: str) -> str | None:
        return self.aliases.get(fold(text))

    def city_hint(self, text: str) -> str:
        return suggestion(text, list(self.cities))

    def line(self, a: str, b: str) -> Line | None:
        return self.lines.get(line_key(a, b))

    def country_cities(self, country: str) -> list[str]:
        return [c.name for c in self.cities.values() if c.country == country]

    def front_line(self, country: str) -> list[str]:
        """The cities outside ``country`` with a line into it."""
        inside = set(self.country_cities(country))
        return sorted({n for c in inside for n in self.neighbours[c] if n not in inside})

    def foreign_countries(self) -> list[str]:
        return [c for c, k in self.countries.items() if k == "foreign"]


class DataFile:
    """One data file (a map or the cards) read once: its data, where each thing stands in it, and the
    errors found, each at the line and column of what it names. ``check()`` raises them all."""

    def __init__(self, path: Path):
        self.path = path
        try:
            text = path.read_text(encoding="utf-8")
            self.data = load_yaml(text) or {}
        except FileNotFoundError:
            raise UsageError(f"{path}: no such file") from None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            raise MapError(f"not valid YAML ({getattr(exc, 'problem', exc)})", file=str(path),
                           line=mark.line + 1 if mark else None, col=mark.column + 1 if mark else None) from None
        self.marks = _marks(compose_yaml(text))
        self.errors: list[MapError] = []

    def error(self, text: str, *where: Any) -> None:
        """Note an error at ``where``: ("lines", n), ("cities", name), a top-level key (see _marks)."""
        at = self.marks.get(where) or self.marks.get(where[:1])
        self.errors.append(MapError(text, file=str(self.path), line=at[0] if at else None,
                                    col=at[1] if at else None))

    def check(self) -> None:
        if self.errors:
            raise MapErrors(sorted(self.errors, key=lambda e: (e.line or 0, e.col or 0)))


def _marks(root: Any) -> dict[tuple, tuple[int, int]]:
    """Where things stand in the file (line, column): ("lines", n) for the n-th rail line, ("cities",
    name), ("countries", name), and each top-level key alone, e.g. ("home",)."""
    marks: dict[tuple, tuple[int, int]] = {}
    if not isinstance(root, yaml.MappingNode):
        return marks
    for key, value in root.value:
        marks[(key.value,)] = (key.start_mark.line + 1, key.start_mark.column + 1)
        if isinstance(value, yaml.SequenceNode):
            for n, item in enumerate(value.value, start=1):
                marks[(key.value, n)] = (item.start_mark.line + 1, item.start_mark.column + 1)
        elif isinstance(value, yaml.MappingNode):
            for inner, _ in value.value:
                marks[(key.value, str(inner.value))] = (inner.start_mark.line + 1, inner.start_mark.column + 1)
    return marks


def shipped() -> list[str]:
    return sorted(p.stem for p in FOLDER.glob("*.yaml") if p.stem != "cards")


def map_path(name: str) -> Path:
    if name in shipped():
        return FOLDER / f"{name}.yaml"
    path = Path(name)
    if path.is_file():
        return path
    raise UsageError(f"unknown map {name!r}{suggestion(name, shipped())}; maps: {', '.join(shipped())}")


@lru_cache(maxsize=8)
def load_map(name: str) -> GameMap:
    path = map_path(name)
    found = DataFile(path)
    data = found.data
    countries = _read_countries(found)
    cities, aliases = _read_cities(found, countries)
    lines, neighbours = _read_lines(found, cities)
    _check_reach(found, str(data.get("home", "Berlin")), cities, countries, neighbours)
    found.check()
    return GameMap(str(data.get("name", name)), str(path), cities, lines, countries, aliases,
                   {c: sorted(ns) for c, ns in neighbours.items()})


def _read_countries(found: DataFile) -> dict[str, str]:
    """Country -> kind (prussian, german, allied or foreign)."""
    countries = {str(k): str(v) for k, v in (found.data.get("countries") or {}).items()}
    for country, kind in countries.items():
        if kind not in KINDS:
            found.error(f"country {country}: kind {kind!r} is not one of {', '.join(KINDS)}", "countries", country)
    return countries


def _read_cities(found: DataFile, countries: dict[str, str]) -> tuple[dict[str, City], dict[str, str]]:
    """The cities, and every folded name or alias -> its city."""
    error = found.error
    cities: dict[str, City] = {}
    aliases: dict[str, str] = {}
    for name_, raw in (found.data.get("cities") or {}).items():
        name_ = str(name_)
        raw = raw or {}
        if "-" in name_:
            error(f"city {name_}: a city name may not hold '-' (it joins the two ends of a line)", "cities", name_)
            continue
        country = str(raw.get("country"))
        if country not in countries:
            error(f"city {name_}: unknown country {country!r}{suggestion(country, countries)}", "cities", name_)
            continue
        value = raw.get("value")
        if not isinstance(value, int) or not 10 <= value <= 50:
            error(f"city {name_}: value must be a whole number from 10 to 50, not {value!r}", "cities", name_)
            continue
        at = tuple(float(v) for v in raw.get("at", (0, 0)))
        cities[name_] = City(name_, country, countries[country], value, bool(raw.get("capital")),
                             bool(raw.get("port")), bool(raw.get("alpine")), at)  # type: ignore[arg-type]
        for alias in [name_] + [str(a) for a in raw.get("aka") or []]:
            if fold(alias) in aliases and aliases[fold(alias)] != name_:
                error(f"city {name_}: the name {alias!r} is already {aliases[fold(alias)]}", "cities", name_)
            aliases[fold(alias)] = name_
    return cities, aliases


def _read_lines(found: DataFile, cities: dict[str, City]) -> tuple[dict[str, Line], dict[str, list[str]]]:
    """The rail lines by key, and each city's neighbours along them."""
    error = found.error
    lines: dict[str, Line] = {}
    neighbours: dict[str, list[str]] = {c: [] for c in cities}
    for n, raw in enumerate(found.data.get("lines") or [], start=1):
        if not isinstance(raw, list) or len(raw) not in (3, 4):
            error(f"rail line {n}: write [city, city, capacity] or [city, city, capacity, mountain]", "lines", n)
            continue
        a, b, capacity = str(raw[0]), str(raw[1]), raw[2]
        bad = [c for c in (a, b) if c not in cities]
        for c in bad:
            error(f"rail line {n}: unknown city {c!r}{suggestion(c, cities)}", "lines", n)
        if bad:
            continue
        if a == b or capacity not in (1, 2):
            error(f"rail line {n} {a}-{b}: two different cities and a capacity of 1 or 2", "lines", n)
            continue
        if len(raw) == 4 and raw[3] != "mountain":
            error(f"rail line {n} {a}-{b}: the fourth entry may only be 'mountain'", "lines", n)
        line = Line((a, b), capacity, len(raw) == 4)
        if line.key in lines:
            error(f"rail line {n}: {a}-{b} is listed twice", "lines", n)
            continue
        lines[line.key] = line
        neighbours[a].append(b)
        neighbours[b].append(a)  # lines run both ways: the neighbour table is symmetric by construction
    return lines, neighbours


def _check_reach(found: DataFile, home: str, cities: dict[str, City], countries: dict[str, str],
                 neighbours: dict[str, list[str]]) -> None:
    """Every city, and a city of every foreign country, is reached by rail from ``home``."""
    error = found.error
    if home not in cities:
        error(f"home {home!r} is not a city{suggestion(home, cities)}", "home")
        return
    reached, todo = {home}, [home]
    while todo:
        for n_ in neighbours[todo.pop()]:
            if n_ not in reached:
                reached.add(n_)
                todo.append(n_)
    for country, kind in countries.items():
        inside = [c for c in cities if cities[c].country == country]
        if not inside:
            error(f"country {country} has no city", "countries", country)
        elif kind == "foreign" and not set(inside) & reached:
            error(f"country {country} cannot be reached by rail from {home}", "countries", country)
    for c in cities:
        if c not in reached:
            error(f"city {c} has no rail link to {home}", "cities", c)
