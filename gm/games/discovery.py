"""Which games are installed: the entry points of the group ``gm.games`` (``name = module:GAME``).

Reading every installed distribution's metadata costs more than `gm check` itself (importlib.metadata
alone pulls in the e-mail parser), so the table found is kept in a small file beside gm's other caches
and read back while nothing on ``sys.path`` has changed: installing or removing a distribution adds
or removes a folder in a ``sys.path`` entry, which changes that entry's modification time.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

GROUP = "gm.games"


def cache_folder() -> Path | None:
    """Where the table is kept: $GM_CACHE_DIR ("off" for nowhere), else the user's cache folder."""
    chosen = os.environ.get("GM_CACHE_DIR")
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "off", "none", "0") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gm"


def _fingerprint() -> list[list]:
    """Each ``sys.path`` entry with its modification time (None when it is missing)."""
    marks = []
    for entry in sys.path:
        where = entry or os.getcwd()
        try:
            marks.append([where, os.stat(where).st_mtime_ns])
        except OSError:
            marks.append([where, None])
    return marks


def scan() -> dict[str, str]:
    """name -> "module:attribute" of every game the installed distributions declare (no cache)."""
    from importlib.metadata import entry_points  # lazy: slow to import, and the cache usually answers
    return {ep.name: ep.value for ep in entry_points(group=GROUP)}


def entry_points_table(*, fresh: bool = False) -> dict[str, str]:
    """The games declared in ``gm.games``: from the cache while ``sys.path`` is unchanged, else a
    scan (written back to the cache). ``fresh``: scan whatever the cache says."""
    marks = _fingerprint()
    where = cache_folder()
    key = hashlib.sha256(repr([sys.executable, [m[0] for m in marks]]).encode()).hexdigest()[:24]
    path = where / f"games-{key}.json" if where is not None else None
    if path is not None and not fresh:
        try:
            kept = json.loads(path.read_text(encoding="utf-8"))
            if kept.get("fingerprint") == marks and isinstance(kept.get("games"), dict):
                return {str(k): str(v) for k, v in kept["games"].items()}
        except (OSError, ValueError):
            pass
    table = scan()
    if path is not None:
        _keep(path, json.dumps({"fingerprint": marks, "games": table}))
    return table


def _keep(path: Path, text: str) -> None:
    """Write the cache (temporary file, then rename); a cache that cannot be written is no error."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".games-", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
        tmp = None
    except OSError:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
