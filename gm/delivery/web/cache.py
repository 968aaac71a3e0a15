"""Files read once and kept while they stay the same: the server answers hundreds of checks a minute
from the same campaign.yaml, state and token list. gm writes every file by renaming a new one into
place, so a change always brings a new inode (or time, or size) and is read at once."""
from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from gm.store.campaign import Campaign

T = TypeVar("T")


class FileCache:
    def __init__(self, limit: int = 4096):
        self._items: dict[str, tuple[tuple[int, int, int], Any]] = {}
        self._guard = threading.Lock()
        self.limit = limit

    def get(self, path: Path, read: Callable[[], T]) -> T:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return read()
        stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
        hit = self._items.get(str(path))
        if hit is not None and hit[0] == stamp:
            return hit[1]
        value = read()
        with self._guard:
            if len(self._items) >= self.limit:
                self._items.clear()
            self._items[str(path)] = (stamp, value)
        return value


files = FileCache()


def open_campaign(folder: Path):
    """The campaign at ``folder`` as campaign.yaml now says (read again whenever it changes)."""
    return files.get(Path(folder) / "campaign.yaml", lambda: Campaign(folder))
