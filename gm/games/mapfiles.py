"""`gm map check` / `gm map render`: map files. A file under maps/<game>/ (or named with --game)
is checked by that game when it has its own format; otherwise it is a hex map (Railway Rivals'
format, DESIGN.md)."""
from __future__ import annotations

from pathlib import Path

from gm.store.errors import UsageError


def _exists(path: str) -> None:
    if not Path(path).is_file():
        raise UsageError(f"{path}: no such map file")


def _game_for(path: str, game_name: str | None):
    from gm import games
    if game_name:
        return games.get(game_name)
    for part in reversed(Path(path).resolve().parts[:-1]):
        if part in games.REGISTRY:
            return games.get(part)
    return None


def check_map_file(path: str, game_name: str | None = None) -> list[str]:
    """Every error of the map file, one located line each ([] when it is fine)."""
    _exists(path)
    game = _game_for(path, game_name)
    problems = game.check_map_file(path) if game is not None else None
    if problems is not None:
        return problems
    from gm.hexmap.mapfile import check_map
    return [str(e) for e in check_map(path)]


def render_map_file(path: str, out: str, game_name: str | None = None) -> None:
    _exists(path)
    if Path(out).suffix.lower() not in (".png", ".svg"):
        raise UsageError(f"{out}: the image must end in .png or .svg")
    game = _game_for(path, game_name)
    if game is not None and game.check_map_file(path) is not None:
        if not game.render_map_file(path, out):
            raise UsageError(f"{path}: {game.title} draws no picture from this file (it is not a map); "
                             f"gm map check checks it")
        return
    from gm.hexmap.render import render_blank
    render_blank(path, out)
