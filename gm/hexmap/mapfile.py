"""Loading and checking hex-map files (YAML, format in gm/hexmap/README.md); every error located and listed."""
from __future__ import annotations

import os
from pathlib import Path

from gm.store.errors import MapError, MapErrors, UsageError
from gm.hexmap.mapreader import MapReader
from gm.hexmap.model import Ferry, Foreign, HexMap, Town
from gm.store.names import suggestion

__all__ = ["load_map", "check_map", "parse_map", "shipped_maps", "map_path", "HexMap", "Town", "Foreign",
           "Ferry"]

# --- where maps live ---------------------------------------------------------------------------
# A hex game keeps its shipped maps in one folder (its package's maps/, or $GM_MAPS/<game>/) and
# passes that folder here; ``owner`` names the maps in messages ("no <owner> map named ...").
def shipped_maps(folder: Path | None) -> list[str]:
    """Names of the maps shipped in ``folder`` (file names without .yaml)."""
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder is not None and folder.is_dir() else []


def map_path(name_or_path: str | os.PathLike, folder: Path | None = None, *, owner: str = "hex") -> Path:
    """A shipped map's file from its name (looked up in ``folder``), or the path itself when it names
    a file."""
    text = os.fspath(name_or_path)
    path = Path(text)
    if path.suffix in (".yaml", ".yml") or os.sep in text or "/" in text or path.is_file():
        if not path.is_file():
            raise UsageError(f"map file {text} not found")
        return path
    shipped = folder / f"{text}.yaml" if folder is not None else None
    if shipped is not None and shipped.is_file():
        return shipped
    names = shipped_maps(folder)
    raise UsageError(f"no {owner} map named \"{text}\"{suggestion(text, names)}; "
                     f"shipped maps: {', '.join(names) or 'none'}")


_cache: dict[tuple[str, int, int], HexMap] = {}


def load_map(name_or_path: str | os.PathLike, folder: Path | None = None, *, owner: str = "hex") -> HexMap:
    """Load a shipped map by name (from ``folder``) or a map file by path; MapErrors lists every
    error in the file."""
    path = map_path(name_or_path, folder, owner=owner)
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _cache:  # maps are read-only once loaded, so one copy serves every caller
        hexmap, errors = parse_map(path.read_text(encoding="utf-8"), file=str(path))
        if errors:
            raise MapErrors(errors)
        hexmap.path = path
        _cache[key] = hexmap
    return _cache[key]


def check_map(path: str | os.PathLike) -> list[MapError]:
    """Every error in a map file (empty when the map is fine)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [MapError(f"cannot read the map: {exc.strerror if isinstance(exc, OSError) else exc}",
                         file=str(p))]
    return parse_map(text, file=str(p))[1]


def parse_map(text: str, *, file: str = "<map>") -> tuple[HexMap | None, list[MapError]]:
    """(map, []) for a good map text, (None, errors) otherwise."""
    reader = MapReader(file, text)
    hexmap = reader.read()
    reader.errors.sort(key=lambda e: (e.line or 0, e.col or 0))
    return (None, reader.errors) if reader.errors else (hexmap, [])
