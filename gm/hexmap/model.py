"""What a loaded hex map holds: terrain, rivers, towns, foreign countries, ferries — plain, read-only data.

The map holds what the file says and no game's rules: the numbers a file gives a foreign country or a
ferry (fees, costs) are kept as read in ``terms``; the game that plays the map gives them their
meaning and their defaults (in that game's own package), as it does the
sectors of its town numbers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from gm.hexmap.grid import Grid, side_label
from gm.store.names import fold

TERRAIN_NAMES = {".": "plain", "f": "forest", "s": "swamp", "m": "mountain", "~": "sea", "l": "lake",
                 "x": "off the map"}
WATER = frozenset("~l")
UNBUILDABLE = frozenset("~lx")


@dataclass(frozen=True)
class Town:
    """A numbered town; a big town with ``same_as`` numbers is one Town holding all its numbers."""

    number: int
    name: str
    hex: str
    small: bool = False
    numbers: tuple[int, ...] = ()

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Foreign:
    """A foreign country: its hexes, where players may enter, the routes they may build through it;
    ``terms``: the numbers the file gives it (e.g. fee_per_hex), as read."""

    name: str
    hexes: list[str]
    entry_hexes: list[str]
    permitted_routes: list[list[str]]
    terms: Mapping[str, int] = field(default_factory=dict)

    @property
    def fee_per_hex(self) -> int | None:
        """The file's fee_per_hex, or None (kept for map drawing; games read ``terms`` with their defaults)."""
        return self.terms.get("fee_per_hex")


@dataclass(frozen=True)
class Ferry:
    """A ferry site between two coast hexes; ``terms``: the numbers the file gives it (cost, use_fee)."""

    id: str
    ends: list[str]
    terms: Mapping[str, int] = field(default_factory=dict)

    @property
    def cost(self) -> int | None:
        """The file's cost, or None (kept for map drawing; games read ``terms`` with their defaults)."""
        return self.terms.get("cost")

    @property
    def use_fee(self) -> int | None:
        """The file's use_fee, or None (kept for map drawing; games read ``terms`` with their defaults)."""
        return self.terms.get("use_fee")


@dataclass
class HexMap:
    """A checked map. Build it with gm.hexmap.mapfile.load_map; treat it as read-only."""

    name: str
    path: Path | None
    grid: Grid
    terrain: dict[str, str]
    rivers: frozenset[str] = frozenset()
    wide_rivers: frozenset[str] = frozenset()
    impassable_sides: frozenset[str] = frozenset()
    towns: dict[int, Town] = field(default_factory=dict)
    town_at: dict[str, Town] = field(default_factory=dict)
    start: list[str] = field(default_factory=list)
    specials: dict[str, dict] = field(default_factory=dict)
    foreign: list[Foreign] = field(default_factory=list)
    ferries: list[Ferry] = field(default_factory=list)
    rules: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._foreign_at = {h: f for f in self.foreign for h in f.hexes}
        self._by_fold = {fold(t.name): t for t in self.towns.values()}

    def __repr__(self) -> str:
        return f"<HexMap {self.name!r} {self.grid.columns}x{self.grid.rows}, {len(self.town_list())} towns>"

    # --- terrain ---------------------------------------------------------------------------
    def terrain_at(self, label: str) -> str | None:
        """The terrain letter of ``label`` ('.', 'f', 's', 'm', '~', 'l', 'x') or None off the grid."""
        return self.terrain.get(label)

    def buildable(self, label: str) -> bool:
        """On the grid and land: not sea, lake or off the map."""
        letter = self.terrain.get(label)
        return letter is not None and letter not in UNBUILDABLE

    def is_coast(self, label: str) -> bool:
        """A land hex next to sea or lake (where a ferry may land)."""
        return self.buildable(label) and any(self.terrain.get(n) in WATER for n in self.grid.neighbours(label))

    # --- sides -----------------------------------------------------------------------------
    def river_crossing(self, a: str, b: str) -> str | None:
        """'wide', 'river' or None for the side between a and b."""
        side = side_label(a, b)
        if side in self.wide_rivers:
            return "wide"
        if side in self.rivers:
            return "river"
        return None

    def blocked_side(self, a: str, b: str) -> bool:
        """True when the side between a and b is impassable (an estuary)."""
        return side_label(a, b) in self.impassable_sides

    # --- towns -----------------------------------------------------------------------------
    def town_list(self) -> list[Town]:
        """Each town once (a big town with two numbers appears once), by its first number."""
        seen: dict[str, Town] = {}
        for number in sorted(self.towns):
            seen.setdefault(self.towns[number].hex, self.towns[number])
        return list(seen.values())

    def town_names(self) -> list[str]:
        return [t.name for t in self.town_list()]

    def town_by_name(self, name: str) -> Town | None:
        """The town called ``name``, ignoring case and accents, or None."""
        return self._by_fold.get(fold(name))

    # --- foreign countries and ferries -----------------------------------------------------
    def foreign_at(self, label: str) -> Foreign | None:
        return self._foreign_at.get(label)

    def ferry(self, ferry_id: str) -> Ferry | None:
        return next((f for f in self.ferries if fold(f.id) == fold(ferry_id)), None)
