"""The registry of game plug-ins. Each game module is imported only when it is asked for."""
from __future__ import annotations

import importlib

from gm.store.errors import UsageError
from gm.store.names import suggestion
from gm.games.base import Game

# name -> module path; the module has a ``GAME`` attribute (a Game instance)
REGISTRY: dict[str, str] = {
    "imperial-network": "gm.games.imperial_network",
    "network": "gm.games.network",
    "network-king": "gm.games.network_king",
    "railway-rivals": "gm.games.railway_rivals",
    "thurn-und-taxis": "gm.games.thurn_und_taxis",
}


def names() -> list[str]:
    return sorted(REGISTRY)


def get(name: str) -> Game:
    if name not in REGISTRY:
        raise UsageError(f"unknown game {name!r}{suggestion(name, REGISTRY)}; games: {', '.join(names())}")
    return importlib.import_module(REGISTRY[name]).GAME


def all_games() -> list[Game]:
    return [get(n) for n in names()]
