"""DejaVu Sans, the face matplotlib draws with, for pictures painted with Pillow: matplotlib's own
copy (found without importing matplotlib), else the system's."""
from __future__ import annotations

import importlib.util
import os
from functools import lru_cache

FACES = {("normal", "normal"): "DejaVuSans.ttf", ("bold", "normal"): "DejaVuSans-Bold.ttf",
         ("normal", "italic"): "DejaVuSans-Oblique.ttf", ("bold", "italic"): "DejaVuSans-BoldOblique.ttf"}
_SYSTEM_FONTS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF")


@lru_cache(maxsize=None)
def font_file(weight: str = "normal", style: str = "normal") -> str | None:
    """DejaVu Sans in the weight and style asked for: matplotlib's own copy (found without importing
    matplotlib), else the system's; None when neither is there."""
    name = FACES[(weight, "italic" if style in ("italic", "oblique") else "normal")]
    places = []
    spec = importlib.util.find_spec("matplotlib")
    if spec and spec.submodule_search_locations:
        places.append(os.path.join(spec.submodule_search_locations[0], "mpl-data", "fonts", "ttf"))
    for folder in places + list(_SYSTEM_FONTS):
        path = os.path.join(folder, name)
        if os.path.exists(path):
            return path
    return None


def dejavu(pixels: int, *, bold: bool = False, italic: bool = False):
    """A Pillow font of DejaVu Sans at ``pixels``; Pillow's own small font where DejaVu is missing."""
    from PIL import ImageFont
    path = font_file("bold" if bold else "normal", "italic" if italic else "normal")
    return ImageFont.truetype(path, pixels) if path else ImageFont.load_default()
