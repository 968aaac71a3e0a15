"""The games: plug-ins found through the entry point group ``gm.games`` (``name = module:GAME``,
GAME an instance of ``gm.games.base.Game``), the five shipped ones declared in gm's own
pyproject.toml like any other. This module keeps no list of games: it lists what is installed and
imports a game only when it is asked for."""
from __future__ import annotations

import importlib

from gm.store.errors import UsageError
from gm.store.names import suggestion
from gm.games.base import Game
from gm.games.discovery import entry_points_table

# games added in this process without an installed distribution (tests): name -> "module:attribute"
_added: dict[str, str] = {}
_loaded: dict[str, Game] = {}
_table: dict[str, str] | None = None


def register(name: str, target: str) -> None:
    """Add a game for this process only, as an entry point would: ``target`` is "module:attribute"."""
    _added[name] = target
    _loaded.pop(name, None)


def installed(*, fresh: bool = False) -> dict[str, str]:
    """name -> "module:attribute" of every game installed (and registered in this process)."""
    global _table
    if _table is None or fresh:
        _table = entry_points_table(fresh=fresh)
    return {**_table, **_added}


def names() -> list[str]:
    return sorted(installed())


def get(name: str) -> Game:
    """The game called ``name``, imported on first use."""
    if name in _loaded:
        return _loaded[name]
    table = installed()
    if name not in table:
        table = installed(fresh=True)  # the cache may predate an installation made in the meantime
    if name not in table:
        raise UsageError(f"unknown game {name!r}{suggestion(name, table)}; games: {', '.join(sorted(table))}")
    try:
        game = _load(table[name])
    except ImportError:
        target = installed(fresh=True).get(name, table[name])  # a stale cache: look once more
        try:
            game = _load(target)
        except ImportError as exc:
            raise UsageError(f"game {name!r} ({target}) cannot be imported: {exc}") from None
    if not isinstance(game, Game) or game.name != name:
        raise UsageError(f"game {name!r} ({table[name]}) is not a gm game of that name: its entry point must "
                         f"name a gm.games.base.Game instance whose name is {name!r}")
    _loaded[name] = game
    return game


def _load(target: str) -> Game:
    module_name, _, attribute = target.partition(":")
    try:
        found = importlib.import_module(module_name.strip())
        for part in attribute.strip().split(".") if attribute.strip() else ["GAME"]:
            found = getattr(found, part)
    except AttributeError as exc:
        raise UsageError(f"game entry point {target!r}: {exc}") from None
    return found


def all_games() -> list[Game]:
    return [get(n) for n in names()]
