"""Railway Rivals' maps: hex maps in gm.hexmap's format, shipped in this package's maps/ (or in
$GM_MAPS/railway-rivals/ when GM_MAPS is set)."""
from __future__ import annotations

import os
from pathlib import Path

from gm.games.base import maps_folder
from gm.hexmap import mapfile
from gm.hexmap.model import HexMap

NAME = "railway-rivals"


def folder() -> Path:
    return maps_folder(NAME, Path(__file__).resolve().parent)


def shipped_maps() -> list[str]:
    return mapfile.shipped_maps(folder())


def map_path(name_or_path: str | os.PathLike) -> Path:
    return mapfile.map_path(name_or_path, folder(), owner=NAME)


def load_map(name_or_path: str | os.PathLike) -> HexMap:
    """A shipped map by name, or a map file by path (MapErrors lists every error in it)."""
    return mapfile.load_map(name_or_path, folder(), owner=NAME)
