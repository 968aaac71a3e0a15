"""The look of a hex map: colours and sizes shared by the map's features and its key."""
from __future__ import annotations

TERRAIN_COLOURS = {".": "#f5f1df", "f": "#a9d18e", "s": "#cfe0c3", "m": "#d2ae85", "~": "#a4cbea",
                   "l": "#74c2c9"}
TERRAIN_LEGEND = {".": "plain", "f": "forest (+1 per half hex)", "s": "swamp (+2 per half hex)",
                  "m": "mountain (+2 per half hex)", "~": "sea", "l": "lake"}
SWAMP_HATCH, SWAMP_INK = "---", "#5f8f7c"
MOUNTAIN, MOUNTAIN_INK = "#b8906a", "#7a5230"
RIVER, WIDE_RIVER, BLOCKED = "#2a78b8", "#1b5690", "#a40000"
FERRY, FOREIGN, SPECIAL, START, HIGHLIGHT = "#17307a", "#6d5a8a", "#f2c200", "#111111", "#e0119d"
GRID_EDGE, HEX_NUMBER, WATER_NUMBER, CASING = "#9a9a9a", "#6e6e6e", "#3f74a0", "#202020"
LAKE_NUMBER = "#174a6e"    # darker than on the sea: the lake's blue-green is darker too (contrast 4.5:1)
PALETTE = ["#1f63c6", "#d62728", "#2a9d3a", "#ef8a00", "#8e44ad", "#8c564b", "#17becf", "#e377c2"]
HEX_INCHES = (0.2, 0.42)   # corner radius of a hex on paper: small enough to fit, big enough to read
NUMBER_PT = 4.8            # hex numbers, at a quarter-inch hex
GRID_LINE_PT = 0.75        # the hex grid's lines
TRACK_GAP = 0.2            # between parallel tracks, in hex radii: clear at the size the PNG is read
DPI = 110
