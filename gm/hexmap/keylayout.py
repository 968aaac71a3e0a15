"""The map key's layout, one for both pictures: the vector key (gm.hexmap.legend, matplotlib) and the
PNG key (gm.hexmap.rasterkey, Pillow) flow the same entries into the same centred rows, each
measuring its labels with its own lettering. Sizes are inches and points (the key does not scale
with the hexes)."""
from __future__ import annotations

from collections.abc import Callable

FONT_PT = 8.0
ROW_IN = 0.25        # height of one row of entries
HANDLE_IN = 0.36     # width of the little picture before each label
GAP_IN = 0.09        # between picture and label
SPACING_IN = 0.32    # between entries
MARGIN_IN = 0.15     # left and right of the key


def layout(entries: list[tuple], width_in: float,
           label_width: Callable[[str], float]) -> list[list[tuple[float, tuple]]]:
    """Entries flowed into centred rows no wider than ``width_in``: [[(x, entry), ...], ...]."""
    rows: list[list[tuple[float, tuple]]] = [[]]
    used = 0.0
    for entry in entries:
        w = HANDLE_IN + GAP_IN + label_width(entry[1])
        if rows[-1] and used + w > width_in:
            rows.append([])
            used = 0.0
        rows[-1].append((used, entry))
        used += w + SPACING_IN
    centred = []
    for row in rows:
        last_x, last = row[-1]
        shift = (width_in - (last_x + HANDLE_IN + GAP_IN + label_width(last[1]))) / 2
        centred.append([(x + shift, e) for x, e in row])
    return centred


def height_needed(entries: list[tuple], figure_width_in: float, label_width: Callable[[str], float]) -> float:
    if not entries:
        return 0.1
    return len(layout(entries, figure_width_in - 2 * MARGIN_IN, label_width)) * ROW_IN + 0.12
