"""The small masks a map is painted with (gm.hexmap.canvas), kept on disk beside the map's layer.

A map is painted from a few hundred masks (a track link in each direction and phase, a town's
circle, each name and digit), all drawn afresh by every process. They depend only on sizes, so the
masks of one map and size are written to one file after painting and read back by the next process
(a few milliseconds against tens). The file sits in gm.hexmap.basecache's folder: a JSON index
(what each mask is, its size and place) and the masks' bytes. Anything wrong with it only means
drawing the masks afresh.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from PIL import Image

from gm.hexmap import basecache, canvas

_loaded: set[str] = set()


def _path(name: tuple) -> Path | None:
    where = basecache.folder()
    if where is None:
        return None
    digest = hashlib.sha256(repr((basecache.VERSION, Image.__version__, name)).encode()).hexdigest()[:32]
    return where / f"masks-{digest}.bin"


def _tuple(value):
    return tuple(_tuple(v) for v in value) if isinstance(value, list) else value


def load(name: tuple) -> int:
    """Read the masks kept for ``name`` (the map and size) into canvas's masks; how many are known now."""
    path = _path(name)
    if path is None or str(path) in _loaded:
        return len(canvas._masks)
    _loaded.add(str(path))
    try:
        data = path.read_bytes()
        length = int.from_bytes(data[:8], "big")
        index = json.loads(data[8:8 + length])
        blob = memoryview(data)[8 + length:]
        for key, (width, height, left, top, start) in index:
            if width == 0:
                canvas._masks.setdefault(_tuple(key), (None, 0, 0, 0, 0))
                continue
            image = Image.frombytes("L", (width, height), bytes(blob[start:start + width * height]))
            canvas._masks.setdefault(_tuple(key), (image, left, top, left + width, top + height))
    except (OSError, ValueError, TypeError, KeyError):
        pass  # drawn afresh
    return len(canvas._masks)


def save(name: tuple, known: int) -> None:
    """Write canvas's masks for ``name`` when painting made new ones (``known``: how many there were)."""
    path = _path(name)
    if path is None or len(canvas._masks) == known:
        return
    index, parts, start = [], [], 0
    for key, (image, left, top, _, _) in canvas._masks.items():
        if image is None:
            index.append([key, 0, 0, 0, 0, 0])
            continue
        raw = image.tobytes()
        index.append([key, image.width, image.height, left, top, start])
        parts.append(raw)
        start += len(raw)
    try:
        header = json.dumps([[i[0], i[1:]] for i in index]).encode()
    except (TypeError, ValueError):
        return
    basecache.keep_file(path, len(header).to_bytes(8, "big") + header + b"".join(parts), "masks")


def forget() -> None:
    """Drop every mask of this process, so the next painting reads them from disk (tests)."""
    canvas.forget()
    _loaded.clear()
