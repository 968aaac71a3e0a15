"""`gm map check` / `gm map render`: map files. A file under a game's maps folder (its package's
``maps/``, or ``<game name>/`` in any folder, as ``$GM_MAPS/<game>/``), or named with --game, is
checked and drawn by that game. A file no game claims is read as a hex map (gm/hexmap's format)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from gm import games
from gm.store.errors import UsageError


def _exists(path: str) -> None:
    if not Path(path).is_file():
        raise UsageError(f"{path}: no such map file")


def _package_maps(target: str) -> Path | None:
    """The maps/ folder of the package an entry point names, found without importing the game."""
    module = target.partition(":")[0].strip()
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    folder = Path(spec.origin).resolve().parent
    return folder / "maps"


def _game_for(path: str, game_name: str | None):
    if game_name:
        return games.get(game_name)
    table = games.installed()
    where = Path(path).resolve()
    for name, target in sorted(table.items()):
        maps = _package_maps(target)
        if maps is not None and maps in where.parents:
            return games.get(name)
    for part in reversed(where.parts[:-1]):
        if part in table:
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
