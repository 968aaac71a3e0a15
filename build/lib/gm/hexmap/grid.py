"""Hex-grid geometry: CCRR labels on flat-topped hexes in columns, computed in axial/cube coordinates.

Labels are 'CCRR' strings ('2522' = column 25, row 22; '0101' is the top-left hex). Flat-topped hexes
stand in columns; every other column sits half a hex lower (``low_columns`` says which: 'even' or
'odd'). Internally a hex is axial (q, r) with q = column; the third cube coordinate is s = -q - r.
Drawing coordinates put hex centres one unit (the hex's corner radius) from each corner, x growing
rightward with the column and y growing downward with the row.
"""
from __future__ import annotations

import math
import re
from typing import Iterator

LABEL_RE = re.compile(r"^(\d{2})(\d{2})$")
SQRT3 = math.sqrt(3.0)

# Axial directions of the six neighbours, clockwise from straight up (flat-topped, y down).
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def parse_label(label: str) -> tuple[int, int]:
    """'2522' -> (25, 22); ValueError for anything that is not four digits."""
    if not isinstance(label, str):
        raise ValueError(f"hex label {label!r} must be a string of four digits, like \"0301\"")
    m = LABEL_RE.match(label)
    if not m:
        raise ValueError(f"hex label {label!r} must be four digits CCRR, like \"0301\"")
    return int(m.group(1)), int(m.group(2))


def make_label(col: int, row: int) -> str:
    """(25, 22) -> '2522'."""
    if not (0 <= col <= 99 and 0 <= row <= 99):
        raise ValueError(f"column {col} / row {row} cannot be written as a CCRR label")
    return f"{col:02d}{row:02d}"


def side_label(a: str, b: str) -> str:
    """The canonical name of the side between two hexes: the smaller label first ('1415/1416')."""
    return f"{a}/{b}" if a < b else f"{b}/{a}"


class Grid:
    """A rectangle of ``columns`` x ``rows`` hexes; ``low_columns`` ('even'|'odd') sit half a hex lower."""

    def __init__(self, columns: int, rows: int, low_columns: str = "even"):
        if not (isinstance(columns, int) and isinstance(rows, int)) or isinstance(columns, bool) \
                or isinstance(rows, bool):
            raise ValueError("columns and rows must be whole numbers")
        if not (1 <= columns <= 99 and 1 <= rows <= 99):
            raise ValueError(f"a grid is 1 to 99 columns and rows, not {columns}x{rows}")
        if low_columns not in ("even", "odd"):
            raise ValueError(f"low_columns must be 'even' or 'odd', not {low_columns!r}")
        self.columns, self.rows, self.low_columns = columns, rows, low_columns
        self._low_parity = 0 if low_columns == "even" else 1
        self._labels: tuple[str, ...] | None = None

    def __repr__(self) -> str:
        return f"Grid({self.columns}, {self.rows}, low_columns={self.low_columns!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grid) and (self.columns, self.rows, self.low_columns) == \
            (other.columns, other.rows, other.low_columns)

    def __hash__(self) -> int:
        return hash((self.columns, self.rows, self.low_columns))

    # --- coordinates -------------------------------------------------------------------------
    def is_low(self, col: int) -> bool:
        """True when column ``col`` sits half a hex lower than its neighbours."""
        return col % 2 == self._low_parity

    def to_axial(self, label: str) -> tuple[int, int]:
        col, row = parse_label(label)
        return col, self._axial_r(col, row)

    def _axial_r(self, col: int, row: int) -> int:
        # even-low: r = row - (col + col%2)//2 ; odd-low: r = row - col//2 (both keep y = r + q/2 + k)
        return row - (col + (col & 1)) // 2 if self._low_parity == 0 else row - col // 2

    def from_axial(self, q: int, r: int) -> str | None:
        """The label at axial (q, r), or None when that is off this grid."""
        row = r + ((q + (q & 1)) // 2 if self._low_parity == 0 else q // 2)
        if 1 <= q <= self.columns and 1 <= row <= self.rows:
            return make_label(q, row)
        return None

    def to_cube(self, label: str) -> tuple[int, int, int]:
        q, r = self.to_axial(label)
        return q, r, -q - r

    # --- membership --------------------------------------------------------------------------
    def contains(self, label: object) -> bool:
        if not isinstance(label, str) or not LABEL_RE.match(label):
            return False
        col, row = int(label[:2]), int(label[2:])
        return 1 <= col <= self.columns and 1 <= row <= self.rows

    def __contains__(self, label: object) -> bool:
        return self.contains(label)

    def labels(self) -> list[str]:
        """Every label, row by row from the top, left to right."""
        if self._labels is None:
            self._labels = tuple(f"{c:02d}{r:02d}" for r in range(1, self.rows + 1)
                                 for c in range(1, self.columns + 1))
        return list(self._labels)

    def __iter__(self) -> Iterator[str]:
        return iter(self.labels())

    def __len__(self) -> int:
        return self.columns * self.rows

    def _require(self, label: str) -> None:
        if not self.contains(label):
            parse_label(label)  # says what is malformed, if that is the trouble
            raise ValueError(f"hex {label} is off the {self.columns}x{self.rows} grid")

    # --- relations ---------------------------------------------------------------------------
    def neighbours(self, label: str) -> list[str]:
        """The on-grid neighbours of ``label``, clockwise from the hex above."""
        self._require(label)
        q, r = self.to_axial(label)
        found = (self.from_axial(q + dq, r + dr) for dq, dr in DIRECTIONS)
        return [n for n in found if n is not None]

    def adjacent(self, a: str, b: str) -> bool:
        if not (self.contains(a) and self.contains(b)):
            return False
        return self.distance(a, b) == 1

    def distance(self, a: str, b: str) -> int:
        """Hexes to step from a to b (0 for the same hex)."""
        self._require(a)
        self._require(b)
        qa, ra = self.to_axial(a)
        qb, rb = self.to_axial(b)
        dq, dr = qb - qa, rb - ra
        return max(abs(dq), abs(dr), abs(dq + dr))

    def direction(self, a: str, b: str) -> int | None:
        """Index into DIRECTIONS of the hex axis running from a to b, or None when not on one."""
        qa, ra = self.to_axial(a)
        qb, rb = self.to_axial(b)
        dq, dr = qb - qa, rb - ra
        n = max(abs(dq), abs(dr), abs(dq + dr))
        if n == 0 or not (dq == 0 or dr == 0 or dq + dr == 0):
            return None
        return DIRECTIONS.index((dq // n, dr // n))

    def straight_between(self, a: str, b: str) -> list[str] | None:
        """The hexes strictly between a and b on one straight hex axis (in order), else None.

        Neighbours give []; the same hex or two hexes off any common axis give None.
        """
        self._require(a)
        self._require(b)
        d = self.direction(a, b)
        if d is None:
            return None
        q, r = self.to_axial(a)
        dq, dr = DIRECTIONS[d]
        steps = self.distance(a, b)
        between = [self.from_axial(q + dq * i, r + dr * i) for i in range(1, steps)]
        # a rectangle is convex along every axis, so these are always on the grid
        return [h for h in between if h is not None]

    def side(self, a: str, b: str) -> str:
        """The side between adjacent hexes as 'AAAA/BBBB' (smaller label first)."""
        if not self.adjacent(a, b):
            raise ValueError(f"hexes {a} and {b} are not adjacent, so they share no side")
        return side_label(a, b)

    def ring(self, label: str, radius: int) -> list[str]:
        """The on-grid hexes exactly ``radius`` steps from ``label``."""
        self._require(label)
        q, r = self.to_axial(label)
        if radius == 0:
            return [label]
        out: list[str] = []
        cq, cr = q + DIRECTIONS[4][0] * radius, r + DIRECTIONS[4][1] * radius
        for d in range(6):
            for _ in range(radius):
                h = self.from_axial(cq, cr)
                if h is not None:
                    out.append(h)
                cq, cr = cq + DIRECTIONS[d][0], cr + DIRECTIONS[d][1]
        return out

    # --- drawing coordinates -----------------------------------------------------------------
    def center(self, label: str) -> tuple[float, float]:
        """Drawing coordinates of the hex centre: x = 1.5 per column, y = sqrt(3) per row, y down."""
        col, row = parse_label(label)
        return 1.5 * (col - 1), SQRT3 * ((row - 1) + (0.5 if self.is_low(col) else 0.0))

    def corners(self, label: str) -> list[tuple[float, float]]:
        """The six corners of the hex, clockwise from the right-hand corner."""
        x, y = self.center(label)
        return [(x + math.cos(math.radians(60 * k)), y + math.sin(math.radians(60 * k))) for k in range(6)]

    def side_segment(self, a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two end points of the side between adjacent hexes a and b."""
        self.side(a, b)
        (xa, ya), (xb, yb) = self.center(a), self.center(b)
        mx, my = (xa + xb) / 2, (ya + yb) / 2
        length = math.hypot(xb - xa, yb - ya)  # = sqrt(3) between neighbours
        px, py = -(yb - ya) / length * 0.5, (xb - xa) / length * 0.5  # half a side, perpendicular
        return (mx - px, my - py), (mx + px, my + py)

    def size(self) -> tuple[float, float]:
        """Width and height of the drawn grid (from the left corner of column 1 to the bottom edge)."""
        return 1.5 * self.columns + 0.5, SQRT3 * (self.rows + 0.5)
