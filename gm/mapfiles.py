"""`gm map check` / `gm map render`: map files of the hex games (Railway Rivals' format)."""
from __future__ import annotations

from pathlib import Path

from .errors import UsageError


def _exists(path: str) -> None:
    if not Path(path).is_file():
        raise UsageError(f"{path}: no such map file")


def check_map_file(path: str) -> list[str]:
    """Every error of the map file, one located line each ([] when it is fine)."""
    _exists(path)
    from .hexmap.mapfile import check_map
    return [str(e) for e in check_map(path)]


def render_map_file(path: str, out: str) -> None:
    _exists(path)
    if Path(out).suffix.lower() not in (".png", ".svg"):
        raise UsageError(f"{out}: the image must end in .png or .svg")
    from .hexmap.render import render_blank
    render_blank(path, out)
