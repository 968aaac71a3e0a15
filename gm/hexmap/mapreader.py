"""Reading one map file's YAML into a HexMap, collecting every mistake as a located MapError."""
from __future__ import annotations

from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode

from gm.hexmap.grid import Grid, side_label
from gm.hexmap.model import TERRAIN_NAMES, UNBUILDABLE, WATER, Ferry, Foreign, HexMap, Town
from gm.hexmap.yamlnodes import NodeReader
from gm.store.names import fold

MAP_KEYS = ("name", "grid", "terrain", "rivers", "wide_rivers", "impassable_sides", "towns", "start",
            "specials", "foreign", "ferries", "rules")
GRID_KEYS = ("columns", "rows", "low_columns")
TOWN_KEYS = ("name", "hex", "small", "same_as")
SPECIAL_KEYS = ("name", "hexes")
# the numbers a file may give a country or a ferry: kept as read, their meaning is the game's
FOREIGN_TERMS = ("fee_per_hex",)
FERRY_TERMS = ("cost", "use_fee")
FOREIGN_KEYS = ("name", "hexes", "entry_hexes", "permitted_routes") + FOREIGN_TERMS
FERRY_KEYS = ("id", "ends") + FERRY_TERMS
LETTERS = "".join(TERRAIN_NAMES)
LETTER_HELP = ", ".join(f"{k} {v}" for k, v in TERRAIN_NAMES.items())


class MapReader(NodeReader):
    """The map format of maps/README.md, read key by key; ``read()`` gives the map or None."""

    grid: Grid | None = None
    terrain: dict[str, str]

    def __init__(self, file: str, text: str):
        super().__init__(file, text)
        self.numbers_given: set[int] = set()  # town numbers in the file, even those with errors

    def read(self) -> HexMap | None:
        root = self.compose()
        if root is None:
            if not self.errors:
                self.error(None, "the map file is empty", line=1, col=1)
            return None
        entries = {k: v for k, _, v in self.mapping(root, "map", MAP_KEYS)}
        for required in ("name", "grid", "terrain"):
            if required not in entries and isinstance(root, MappingNode):
                self.error(root, f"the map has no \"{required}:\"")
        name = self.text_value(entries["name"], "name") if "name" in entries else None
        self.grid = self.read_grid(entries["grid"]) if "grid" in entries else None
        self.terrain = self.read_terrain(entries["terrain"]) if "terrain" in entries and self.grid else {}
        rivers = self.read_sides(entries.get("rivers"), "rivers")
        wide = self.read_sides(entries.get("wide_rivers"), "wide_rivers")
        blocked = self.read_sides(entries.get("impassable_sides"), "impassable_sides")
        for side, node in wide.items():
            if side in rivers:
                self.error(node, f"wide_rivers: side {side} is also listed in rivers; keep it in one list")
        towns = self.read_towns(entries.get("towns"))
        town_at = {t.hex: t for t in towns.values()}
        start = self.read_start(entries.get("start"), towns)
        specials = self.read_specials(entries.get("specials"))
        foreign = self.read_foreign(entries.get("foreign"))
        ferries = self.read_ferries(entries.get("ferries"))
        rules = self.read_rules(entries.get("rules"))
        if self.errors or self.grid is None or name is None:
            return None
        return HexMap(name=name, path=None, grid=self.grid, terrain=self.terrain, rivers=frozenset(rivers),
                      wide_rivers=frozenset(wide), impassable_sides=frozenset(blocked), towns=towns,
                      town_at=town_at, start=start, specials=specials, foreign=foreign, ferries=ferries,
                      rules=rules)

    # --- grid and terrain --------------------------------------------------------------------
    def read_grid(self, node: Node) -> Grid | None:
        fields = {k: (kn, v) for k, kn, v in self.mapping(node, "grid", GRID_KEYS)}
        for required in ("columns", "rows"):
            if required not in fields:
                self.error(node, f"grid: missing \"{required}\"")
        columns = self.integer(fields["columns"][1], "grid: columns", low=1, high=99) if "columns" in fields else None
        rows = self.integer(fields["rows"][1], "grid: rows", low=1, high=99) if "rows" in fields else None
        low = "even"
        if "low_columns" in fields:
            value = self.value(fields["low_columns"][1])
            if value not in ("even", "odd"):
                self.error(fields["low_columns"][1], f"grid: low_columns must be even or odd, not {value!r}")
                return None
            low = value
        return Grid(columns, rows, low) if columns and rows else None

    def read_terrain(self, node: Node) -> dict[str, str]:
        grid = self.grid
        assert grid is not None
        if isinstance(node, ScalarNode) and isinstance(self.value(node), str):
            rows = [(node, i, line) for i, line in enumerate(node.value.split("\n"))]
        elif isinstance(node, ScalarNode):
            self.error(node, "terrain must be a block of text (terrain: |) with one line per row")
            return {}
        else:
            rows = [(item, 0, str(self.value(item) or "")) for item in self.sequence(node, "terrain")]
        rows = [r for r in rows if r[2].strip()]  # blank lines are not rows
        if len(rows) != grid.rows:
            self.error(node, f"terrain has {len(rows)} row(s), the grid has {grid.rows} rows")
        terrain: dict[str, str] = {}
        for row, (where, line_index, line) in enumerate(rows[:grid.rows], start=1):
            cells = [(i, c) for i, c in enumerate(line) if not c.isspace()]
            if len(cells) != grid.columns:
                at = cells[min(len(cells), grid.columns) - 1][0] + 1 if cells else 0
                line_no, col = self.block_position(where, line_index, at)
                self.error(None, f"terrain row {row:02d} has {len(cells)} hexes, the grid has "
                                 f"{grid.columns} columns", line=line_no, col=col)
            for column, (i, letter) in enumerate(cells[:grid.columns], start=1):
                if letter not in LETTERS:
                    line_no, col = self.block_position(where, line_index, i)
                    close = f" (did you mean \"{letter.lower()}\"?)" if letter.lower() in LETTERS else ""
                    self.error(None, f"terrain: unknown letter \"{letter}\" at hex {column:02d}{row:02d}{close}; "
                                     f"letters: {LETTER_HELP}", line=line_no, col=col)
                else:
                    terrain[f"{column:02d}{row:02d}"] = letter
        return terrain

    # --- hexes ---------------------------------------------------------------------------------
    def hex_on_grid(self, node: Node, what: str) -> str | None:
        label = self.label(node, what)
        if label is not None and self.grid is not None and not self.grid.contains(label):
            self.error(node, f"{what}: hex {label} is off the {self.grid.columns}x{self.grid.rows} grid")
            return None
        return label

    def land(self, label: str) -> bool:
        """Buildable land, or unknown terrain (already reported) so as not to pile up errors."""
        return self.terrain.get(label, ".") not in UNBUILDABLE

    def hex_list(self, node: Node | None, what: str) -> list[str]:
        out = []
        for item in self.sequence(node, what):
            label = self.hex_on_grid(item, what)
            if label is not None:
                out.append(label)
        return out

    def read_sides(self, node: Node | None, what: str) -> dict[str, Node]:
        sides: dict[str, Node] = {}
        for item in self.sequence(node, what):
            value = self.value(item) if isinstance(item, ScalarNode) else None
            parts = value.split("/") if isinstance(value, str) else []
            if len(parts) != 2 or not all(p.strip().isdigit() and len(p.strip()) == 4 for p in parts):
                self.error(item, f"{what}: {item.value if isinstance(item, ScalarNode) else 'this'!r} is not a "
                                 f"side; write the two hexes it separates, like \"1415/1416\"")
                continue
            a, b = (p.strip() for p in parts)
            if self.grid is not None:
                off = [h for h in (a, b) if not self.grid.contains(h)]
                if off:
                    self.error(item, f"{what}: hex {off[0]} of side {a}/{b} is off the "
                                     f"{self.grid.columns}x{self.grid.rows} grid")
                    continue
                if not self.grid.adjacent(a, b):
                    self.error(item, f"{what}: hexes {a} and {b} are not adjacent, so no side lies between them")
                    continue
            side = side_label(a, b)
            if side in sides:
                self.error(item, f"{what}: side {side} is listed twice")
            sides[side] = item
        return sides

    # --- towns and starting points -------------------------------------------------------------
    def read_towns(self, node: Node | None) -> dict[int, Town]:
        named: dict[int, tuple[Town, Node]] = {}
        aliases: list[tuple[int, Node, Node]] = []
        by_hex: dict[str, int] = {}
        by_name: dict[str, int] = {}
        seen: set[int] = set()
        for key, key_node, value in self.mapping(node, "towns"):
            number = key if isinstance(key, int) else int(key) if str(key).isdigit() else None
            if number is None or isinstance(key, bool) or not (1 <= number // 10 <= 6 and 1 <= number % 10 <= 6):
                self.error(key_node, f"towns: {key!r} is not a town number: two digits 11-66, the first the "
                                     f"sector 1-6, the second 1-6")
                continue
            if number in seen:
                self.error(key_node, f"towns: town number {number} is given twice")
                continue
            seen.add(number)
            self.numbers_given.add(number)
            fields = {k: v for k, _, v in self.mapping(value, f"town {number}", TOWN_KEYS)}
            if "same_as" in fields:
                if set(fields) != {"same_as"}:
                    self.error(value, f"town {number}: a town with same_as takes its name and hex from that town; "
                                      f"give only same_as")
                aliases.append((number, fields["same_as"], key_node))
                continue
            town = self.read_town(number, fields, value)
            if town is None:
                continue
            if town.hex in by_hex:
                self.error(fields["hex"], f"town {number}: hex {town.hex} already holds town {by_hex[town.hex]}; "
                                          f"a big town with two numbers uses same_as")
            elif fold(town.name) in by_name:
                self.error(fields["name"], f"town {number}: the name \"{town.name}\" is already town "
                                           f"{by_name[fold(town.name)]}")
            else:
                by_hex[town.hex] = number
                by_name[fold(town.name)] = number
                named[number] = (town, value)
        towns = {n: t for n, (t, _) in named.items()}
        extra: dict[int, list[int]] = {}
        for number, target_node, _key_node in aliases:
            target = self.value(target_node) if isinstance(target_node, ScalarNode) else None
            if target not in named:
                if any(a[0] == target for a in aliases):
                    self.error(target_node, f"town {number}: same_as {target!r} is another same_as town")
                elif target not in self.numbers_given:  # else that town's own error says it all
                    self.error(target_node, f"town {number}: same_as {target!r} is not a town with a name")
                continue
            extra.setdefault(target, []).append(number)
        for target, numbers in extra.items():
            base = towns[target]
            merged = Town(base.number, base.name, base.hex, base.small, tuple(sorted([target] + numbers)))
            for n in merged.numbers:
                towns[n] = merged
        return dict(sorted(towns.items()))

    def read_town(self, number: int, fields: dict[str, Node], node: Node) -> Town | None:
        for required in ("name", "hex"):
            if required not in fields:
                self.error(node, f"town {number}: missing \"{required}\"")
        name = self.text_value(fields["name"], f"town {number}: name") if "name" in fields else None
        label = self.hex_on_grid(fields["hex"], f"town {number}") if "hex" in fields else None
        small = self.boolean(fields["small"], f"town {number}: small") if "small" in fields else False
        if name is not None and name.isdigit() and len(name) == 4:
            self.error(fields["name"], f"town {number}: the name {name} would read as a hex label in orders")
            return None
        if label is not None and not self.land(label):
            what = TERRAIN_NAMES[self.terrain[label]]
            self.error(fields["hex"], f"town {number} ({name}) is on {what} at {label}; towns stand on land")
            return None
        if name is None or label is None or small is None:
            return None
        return Town(number, name, label, small, (number,))

    def read_start(self, node: Node | None, towns: dict[int, Town]) -> list[str]:
        start: list[str] = []
        for item in self.sequence(node, "start"):
            value = self.value(item) if isinstance(item, ScalarNode) else None
            if isinstance(value, int) and not isinstance(value, bool) and not item.style and value <= 66:
                if value not in towns:
                    if value not in self.numbers_given:  # else the town's own error says it all
                        self.error(item, f"start: {value} is not a town number on this map")
                    continue
                label = towns[value].hex
            else:
                label = self.hex_on_grid(item, "start")
                if label is None:
                    continue
                if not self.land(label):
                    self.error(item, f"start: hex {label} is {TERRAIN_NAMES[self.terrain[label]]}; "
                                     f"a starting point must be land")
                    continue
            if label not in start:
                start.append(label)
        return start

    # --- specials, foreign countries, ferries, rules ---------------------------------------------
    def read_specials(self, node: Node | None) -> dict[str, dict]:
        specials: dict[str, dict] = {}
        for key, _key_node, value in self.mapping(node, "specials"):
            fields = {k: v for k, _, v in self.mapping(value, f"special {key}", SPECIAL_KEYS)}
            name = self.text_value(fields["name"], f"special {key}: name") if "name" in fields else None
            hexes = self.hex_list(fields.get("hexes"), f"special {key}: hexes")
            if "name" not in fields or not hexes:
                self.error(value, f"special {key}: give a name and at least one hex in hexes")
            if name and hexes:
                specials[str(key)] = {"name": name, "hexes": hexes}
        return specials

    def read_foreign(self, node: Node | None) -> list[Foreign]:
        countries: list[Foreign] = []
        owner: dict[str, str] = {}
        for item in self.sequence(node, "foreign"):
            fields = {k: v for k, _, v in self.mapping(item, "foreign", FOREIGN_KEYS)}
            name = self.text_value(fields["name"], "foreign: name") if "name" in fields else None
            if name is None:
                if "name" not in fields:
                    self.error(item, "foreign: missing \"name\"")
                continue
            what = f"foreign {name}"
            hexes = self.hex_list(fields.get("hexes"), f"{what}: hexes")
            if not hexes:
                self.error(item, f"{what}: list its hexes in hexes")
            for label in hexes:
                if label in owner and owner[label] != name:
                    self.error(fields["hexes"], f"{what}: hex {label} already belongs to {owner[label]}")
                owner.setdefault(label, name)
            entries = self.hex_list(fields.get("entry_hexes"), f"{what}: entry_hexes")
            for label in entries:
                if label not in hexes:
                    self.error(fields["entry_hexes"], f"{what}: entry hex {label} is not one of its hexes")
            routes = []
            for number, route_node in enumerate(self.sequence(fields.get("permitted_routes"),
                                                              f"{what}: permitted_routes"), start=1):
                route = self.read_route(route_node, f"{what}: route {number}", set(hexes))
                if route:
                    routes.append(route)
            countries.append(Foreign(name, hexes, entries, routes, self.terms(fields, FOREIGN_TERMS, what)))
        return countries

    def read_route(self, node: Node, what: str, foreign_hexes: set[str]) -> list[str] | None:
        items = self.sequence(node, what)
        route = [self.hex_on_grid(i, what) for i in items]
        if not items or any(h is None for h in route):
            return None
        if len(route) < 2:
            self.error(node, f"{what}: a route needs at least two hexes")
            return None
        for (a, b), item in zip(zip(route, route[1:]), items[1:]):
            if self.grid is not None and not self.grid.adjacent(a, b):
                self.error(item, f"{what} is not contiguous: {a} and {b} are not adjacent")
                return None
        for label, item in zip(route, items):
            if not self.land(label):
                self.error(item, f"{what}: hex {label} is {TERRAIN_NAMES[self.terrain[label]]}; track needs land")
                return None
        if not foreign_hexes.intersection(route):
            self.error(node, f"{what} never enters the country")
        return route

    def read_ferries(self, node: Node | None) -> list[Ferry]:
        ferries: list[Ferry] = []
        for index, item in enumerate(self.sequence(node, "ferries"), start=1):
            fields = {k: v for k, _, v in self.mapping(item, "ferries", FERRY_KEYS)}
            ferry_id = self.text_value(fields["id"], "ferry: id") if "id" in fields else f"F{index}"
            what = f"ferry {ferry_id}"
            if any(f.id == ferry_id for f in ferries):
                self.error(fields.get("id", item), f"{what}: the id is used twice")
            ends = self.hex_list(fields.get("ends"), f"{what}: ends")
            if len(self.sequence(fields.get("ends"), what)) != 2 or ("ends" not in fields):
                self.error(fields.get("ends", item), f"{what}: ends must be two hexes, like [\"0404\", \"0704\"]")
                continue
            for label, end_node in zip(ends, fields["ends"].value):
                if self.grid is not None and self.terrain and not self.is_coast(label):
                    self.error(end_node, f"{what}: end {label} is not on a coast (a land hex next to sea or lake)")
            if len(ends) == 2 and ends[0] == ends[1]:
                self.error(fields["ends"], f"{what}: both ends are {ends[0]}")
            terms = self.terms(fields, FERRY_TERMS, what)
            if len(ends) == 2 and ferry_id:
                ferries.append(Ferry(ferry_id, ends, terms))
        return ferries

    def terms(self, fields: dict[str, Node], keys: tuple[str, ...], what: str) -> dict[str, int]:
        """The numbers given for ``keys`` (whole numbers, at least 0), as read; a wrong one is an error."""
        out = {}
        for key in keys:
            if key in fields:
                value = self.integer(fields[key], f"{what}: {key}", low=0)
                if value is not None:
                    out[key] = value
        return out

    def is_coast(self, label: str) -> bool:
        assert self.grid is not None
        return self.land(label) and any(self.terrain.get(n) in WATER for n in self.grid.neighbours(label))

    def read_rules(self, node: Node | None) -> dict[str, Any]:
        rules: dict[str, Any] = {}
        for key, key_node, value in self.mapping(node, "rules"):
            if not isinstance(key, str):
                self.error(key_node, f"rules: option names are words, not {key!r}")
                continue
            rules[key] = self.value(value)
        return rules
