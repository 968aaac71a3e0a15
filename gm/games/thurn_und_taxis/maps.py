"""Thurn und Taxis maps: loading and checking a map file (format in maps/README.md beside this module)."""
from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from gm.store.errors import MapError, MapErrors
from gm.store.names import fold, suggestion
from . import yamlmarks

MAP_DIR = Path(__file__).resolve().parent / "maps"  # the shipped maps
FREE = "free cities"  # the placement group of cities that belong to no area (Map 2's free cities)
KEYS = ("name", "reconstruction", "note", "sources", "cards_per_city", "houses", "carriages", "areas",
        "cities", "route_tiles", "area_tiles", "all_areas_tile", "end_tile")
_RGB = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True)
class City:
    name: str
    area: str | None
    at: tuple[float, float]
    roads: tuple[str, ...]
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class AreaTile:
    kind: str
    areas: tuple[str, ...]
    points: tuple[int, ...]


@dataclass(frozen=True)
class GameMap:
    """A checked map. Tile stacks are listed first copy first (each later copy worth less)."""

    key: str
    title: str
    reconstruction: bool
    note: str
    cards_per_city: int
    houses: int
    carriages: dict[int, int]
    areas: dict[str, dict]
    cities: dict[str, City]
    route_tiles: dict[int, tuple[int, ...]]
    area_tiles: dict[str, AreaTile]
    all_areas_except: tuple[str, ...] | None
    all_areas_points: tuple[int, ...]
    end_tile: int
    _folded: dict[str, str] = field(default_factory=dict, repr=False)

    # ---- cities and roads -----------------------------------------------------------------
    def city(self, text: str) -> str | None:
        """The city a player means by ``text`` (case, accents and aliases ignored), or None."""
        return self._folded.get(fold(text.strip('"')))

    def suggest(self, text: str) -> str:
        return suggestion(text.strip('"'), list(self.cities) + [a for c in self.cities.values() for a in c.aliases])

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.cities[a].roads

    def group(self, city: str) -> str:
        """The placement group of a city: its area, or the free cities together."""
        return self.cities[city].area or FREE

    def area_cities(self, area: str) -> list[str]:
        return [c.name for c in self.cities.values() if c.area == area]

    def roads(self) -> list[tuple[str, str]]:
        return sorted({tuple(sorted((c.name, r))) for c in self.cities.values() for r in c.roads})

    def full_deck(self) -> list[str]:
        return [name for name in self.cities for _ in range(self.cards_per_city)]

    # ---- tiles ----------------------------------------------------------------------------
    def route_kind(self, length: int) -> str:
        top = max(self.route_tiles)
        return f"route {length}+" if length == top else f"route {length}"

    def route_lengths_for(self, length: int) -> list[int]:
        """Route-tile stacks a scored route may take, best first: its own, then shorter ones."""
        own = [n for n in self.route_tiles if n <= length]
        return sorted(own, reverse=True)

    def tile_stacks(self) -> dict[str, list[int]]:
        stacks = {self.route_kind(n): list(p) for n, p in sorted(self.route_tiles.items())}
        stacks.update({k: list(t.points) for k, t in self.area_tiles.items()})
        if self.all_areas_except is not None:
            stacks["all areas"] = list(self.all_areas_points)
        stacks["end"] = [self.end_tile]
        return stacks

    def all_areas_needed(self) -> list[str]:
        skip = set(self.all_areas_except or ())
        return [a for a in self.areas if a not in skip]


def map_path(name: str) -> Path:
    """A shipped map's file (``map1``) or a path to a map file."""
    if os.sep in name or "/" in name or name.endswith((".yaml", ".yml")):
        return Path(name)
    return MAP_DIR / f"{name}.yaml"


def shipped() -> list[str]:
    return sorted(p.stem for p in MAP_DIR.glob("*.yaml"))


def load(name: str) -> GameMap:
    path = map_path(name)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        known = ", ".join(shipped())
        raise MapErrors([MapError(f"no Thurn und Taxis map {name!r}{suggestion(name, shipped())}; "
                                  f"shipped maps: {known}", file=str(path))]) from None
    return _load(str(path), stamp, name)


@functools.lru_cache(maxsize=16)
def _load(path: str, _stamp: int, key: str) -> GameMap:
    with open(path, encoding="utf-8") as f:
        return parse_map(f.read(), path, key=key)


def parse_map(text: str, file: str = "<map>", *, key: str = "") -> GameMap:
    """Check a map file and build it; raise MapErrors listing every problem found."""
    doc = yamlmarks.read(text, file)
    if doc.data is None:  # not YAML at all (or empty): nothing more to check
        raise MapErrors(doc.errors or [MapError("the map file is empty", file=file)])
    built = _Checker(doc, key).build()
    if doc.errors:
        raise MapErrors(sorted(doc.errors, key=lambda e: (e.line or 0, e.col or 0)))
    return built


class _Checker:
    """Walks the document once, recording every problem in ``doc.errors``."""

    def __init__(self, doc: yamlmarks.Located, key: str):
        self.doc, self.key = doc, key

    def fail(self, path, message: str) -> None:
        self.doc.errors.append(self.doc.error(path, message))

    def _int(self, path, value, *, least: int = 1) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            self.fail(path, f"expected a whole number of at least {least}, not {value!r}")
            return least
        return value

    def _points(self, path, value) -> tuple[int, ...]:
        if not isinstance(value, list) or not value:
            self.fail(path, f"expected a list of points, first copy first, like [3, 2, 1], not {value!r}")
            return ()
        return tuple(self._int(path + (i,), v) for i, v in enumerate(value))

    def _mapping(self, data: dict, name: str) -> dict:
        value = data.get(name)
        if not isinstance(value, dict) or not value:
            self.fail((name,) if name in data else (), f"'{name}:' must be a mapping with at least one entry")
            return {}
        return value

    def build(self) -> GameMap:
        data = self.doc.data
        if not isinstance(data, dict):
            self.fail((), "a map file is a mapping with keys " + ", ".join(KEYS))
            data = {}
        for k in data:
            if k not in KEYS:
                self.fail((k, "<key>"), f"unknown key {k!r}{suggestion(str(k), KEYS)}")
        areas = self._areas(data)
        cities = self._cities(data, areas)
        carriages = self._carriages(data)
        route_tiles = self._route_tiles(data)
        area_tiles = self._area_tiles(data, areas, cities)
        all_except, all_points = self._all_areas(data, areas)
        folded: dict[str, str] = {}
        for c in cities.values():
            for alias in (c.name, *c.aliases):
                other = folded.get(fold(alias))
                if other is not None and other != c.name:
                    self.fail(("cities", c.name, "<key>"), f"{alias!r} reads the same as {other!r} "
                              "(case and accents are ignored in orders)")
                folded[fold(alias)] = c.name
        return GameMap(
            key=self.key, title=str(data.get("name", self.key)), reconstruction=bool(data.get("reconstruction", False)),
            note=str(data.get("note", "")).strip(),
            cards_per_city=self._int(("cards_per_city",), data.get("cards_per_city", 3)),
            houses=self._int(("houses",), data.get("houses", 20)), carriages=carriages, areas=areas,
            cities=cities, route_tiles=route_tiles, area_tiles=area_tiles, all_areas_except=all_except,
            all_areas_points=all_points, end_tile=self._int(("end_tile",), data.get("end_tile", 1)),
            _folded=folded)

    def _areas(self, data: dict) -> dict[str, dict]:
        areas: dict[str, dict] = {}
        for name, spec in self._mapping(data, "areas").items():
            path = ("areas", name)
            if not isinstance(spec, dict) or not isinstance(spec.get("colour"), str):
                self.fail(path, f"area {name}: give at least its colour, like {{colour: white, rgb: '#f4f1e8'}}")
                spec = {"colour": "grey"}
            rgb = spec.get("rgb", "#cccccc")
            if not isinstance(rgb, str) or not _RGB.match(rgb):
                self.fail(path + ("rgb",), f"area {name}: rgb is written '#rrggbb', not {rgb!r}")
                rgb = "#cccccc"
            for k in spec:
                if k not in ("colour", "rgb"):
                    self.fail(path + (k, "<key>"), f"area {name}: unknown key {k!r} (colour, rgb)")
            areas[str(name)] = {"colour": spec["colour"], "rgb": rgb}
        return areas

    def _cities(self, data: dict, areas: dict) -> dict[str, City]:
        raw = self._mapping(data, "cities")
        cities: dict[str, City] = {}
        for name, spec in raw.items():
            path = ("cities", name)
            name = str(name)
            if not isinstance(spec, dict):
                self.fail(path, f"city {name}: expected {{area: ..., at: [x, y], roads: [...]}}")
                continue
            for k in spec:
                if k not in ("area", "at", "roads", "aliases"):
                    known = ("area", "at", "roads", "aliases")
                    self.fail(path + (k, "<key>"), f"city {name}: unknown key {k!r}{suggestion(str(k), known)}")
            area = spec.get("area")
            if area is not None and area not in areas:
                self.fail(path + ("area",), f"city {name}: no area {area!r}{suggestion(str(area), areas)}")
                area = None
            at = spec.get("at")
            if not (isinstance(at, list) and len(at) == 2 and all(isinstance(v, (int, float)) for v in at)):
                self.fail(path + ("at",), f"city {name}: 'at' is its position [x, y] (longitude, latitude)")
                at = [0.0, 0.0]
            roads = spec.get("roads", [])
            if not isinstance(roads, list):
                self.fail(path + ("roads",), f"city {name}: 'roads' is a list of neighbouring cities")
                roads = []
            aliases = spec.get("aliases", [])
            if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
                self.fail(path + ("aliases",), f"city {name}: 'aliases' is a list of other spellings")
                aliases = []
            cities[name] = City(name, area, (float(at[0]), float(at[1])), tuple(str(r) for r in roads), tuple(aliases))
        for c in cities.values():
            seen: set[str] = set()
            for i, r in enumerate(c.roads):
                path = ("cities", c.name, "roads", i)
                if r not in cities:
                    self.fail(path, f"city {c.name}: road to unknown city {r!r}{suggestion(r, cities)}")
                elif r == c.name:
                    self.fail(path, f"city {c.name}: a road cannot lead to the city itself")
                elif r in seen:
                    self.fail(path, f"city {c.name}: the road to {r} is listed twice")
                elif c.name not in cities[r].roads:
                    self.fail(path, f"road {c.name}-{r} is listed under {c.name} but not under {r} "
                                    "(roads go both ways: list it under both)")
                seen.add(r)
        for area in areas:
            if not any(c.area == area for c in cities.values()):
                self.fail(("areas", area), f"area {area} has no city")
        return cities

    def _carriages(self, data: dict) -> dict[int, int]:
        raw = data.get("carriages", {3: 2, 4: 3, 5: 5, 6: 7, 7: 10})
        if not isinstance(raw, dict) or not raw:
            self.fail(("carriages",), "'carriages:' maps each carriage card to its points, like {3: 2, 4: 3}")
            return {3: 2}
        out = {self._int(("carriages", k, "<key>"), k, least=1): self._int(("carriages", k), v, least=0)
               for k, v in raw.items()}
        numbers = sorted(out)
        if numbers != list(range(numbers[0], numbers[0] + len(numbers))):
            self.fail(("carriages",), f"carriage cards must be consecutive numbers, not {numbers}")
        return dict(sorted(out.items()))

    def _route_tiles(self, data: dict) -> dict[int, tuple[int, ...]]:
        out = {}
        for length, points in self._mapping(data, "route_tiles").items():
            n = self._int(("route_tiles", length, "<key>"), length, least=3)
            out[n] = self._points(("route_tiles", length), points)
        return dict(sorted(out.items()))

    def _area_tiles(self, data: dict, areas: dict, cities: dict) -> dict[str, AreaTile]:
        out = {}
        raw = data.get("area_tiles", {})
        if not isinstance(raw, dict):
            self.fail(("area_tiles",), "'area_tiles:' is a mapping: tile name -> {areas: [...], points: [...]}")
            return out
        for kind, spec in raw.items():
            path = ("area_tiles", kind)
            if not isinstance(spec, dict) or not isinstance(spec.get("areas"), list) or not spec["areas"]:
                self.fail(path, f"area tile {kind}: expected {{areas: [AREA, ...], points: [...]}}")
                continue
            for i, a in enumerate(spec["areas"]):
                if a not in areas:
                    self.fail(path + ("areas", i), f"area tile {kind}: no area {a!r}{suggestion(str(a), areas)}")
            if kind in ("all areas", "end") or str(kind).startswith("route "):
                self.fail((*path, "<key>"), f"area tile name {kind!r} is reserved")
            out[str(kind)] = AreaTile(str(kind), tuple(str(a) for a in spec["areas"]),
                                      self._points(path + ("points",), spec.get("points")))
        return out

    def _all_areas(self, data: dict, areas: dict) -> tuple[tuple[str, ...] | None, tuple[int, ...]]:
        spec = data.get("all_areas_tile")
        if spec is None:
            return None, ()
        if not isinstance(spec, dict):
            self.fail(("all_areas_tile",), "'all_areas_tile:' is {except: [AREA, ...], points: [...]}")
            return None, ()
        skip = spec.get("except", []) or []
        for i, a in enumerate(skip if isinstance(skip, list) else [skip]):
            if a not in areas:
                self.fail(("all_areas_tile", "except", i), f"all-areas tile: no area {a!r}{suggestion(str(a), areas)}")
        skip = skip if isinstance(skip, list) else [skip]
        return tuple(skip), self._points(("all_areas_tile", "points"), spec.get("points"))


def check_file(path: str) -> list[str]:
    """Every error of a map file, one located line each ([] when the map is fine)."""
    try:
        with open(path, encoding="utf-8") as f:
            parse_map(f.read(), path)
    except OSError as exc:
        return [f"{path}: cannot read the map: {exc.strerror}"]
    except MapErrors as exc:
        return [str(e) for e in exc.errors]
    return []

