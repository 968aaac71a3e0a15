"""The map's unchanging layer kept on disk: terrain, hex sides, rivers, frontiers, hex numbers.

A campaign's map is drawn every turn and by every `gm map`, and most of it never changes: only the
track and what sits above it do. The layer beneath the track is painted once per map and size, kept
in 256 colours as its palette and one byte a pixel, uncompressed (about 4 MB for Scotland: it reads
back in a fiftieth of the time painting takes, a PNG in a tenth), and read back by later processes.
The layer is always reduced to those 256 colours, read back or freshly painted, so the picture is
the same to the byte either way (tests compare the two).

Where: ``$GM_CACHE_DIR`` (``off`` keeps nothing on disk), else ``$XDG_CACHE_HOME/gm/maps``, else
``~/.cache/gm/maps``; the newest KEEP layers are kept. Anything wrong with the folder or a file
(unwritable, corrupt, another size) only means painting afresh.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from collections import OrderedDict
from pathlib import Path
from typing import Callable

from PIL import Image

VERSION = 4   # raise when the unchanging layer's drawing changes: older files are then not used
KEEP = 12     # layers kept on disk
_in_process: OrderedDict[str, Image.Image] = OrderedDict()


def folder() -> Path | None:
    chosen = os.environ.get("GM_CACHE_DIR")
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "off", "none", "0") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gm" / "maps"


def layer(key: tuple, size: tuple[int, int], paint: Callable[[], Image.Image]) -> Image.Image:
    """The layer ``paint()`` makes in full colour for ``key`` (everything its pixels depend on), at
    ``size``, as the 256-colour (palette) image that is kept."""
    digest = hashlib.sha256(repr((VERSION, Image.__version__, key, size)).encode()).hexdigest()[:32]
    kept = _in_process.get(digest)
    if kept is None:
        kept = _read(digest, size)
        if kept is None:
            kept = reduced(paint())
            _write(digest, kept)
        _in_process[digest] = kept
        while len(_in_process) > 2:
            _in_process.popitem(last=False)
    _in_process.move_to_end(digest)
    return kept


def reduced(image: Image.Image) -> Image.Image:
    """The layer in 256 colours (a palette image), as it is kept: the colours chosen as for every PNG
    (gm.store.pictures.palette, from every fourth pixel each way)."""
    from gm.store.pictures import palette
    return palette(image)


def _read(digest: str, size: tuple[int, int]) -> Image.Image | None:
    where = folder()
    if where is None:
        return None
    try:
        data = (where / f"layer-{digest}.bin").read_bytes()
    except OSError:
        return None
    if len(data) != 768 + size[0] * size[1]:
        return None
    image = Image.frombytes("P", size, data[768:])
    image.putpalette(data[:768])
    return image


def _write(digest: str, image: Image.Image) -> None:
    where = folder()
    if where is None:
        return
    palette = (image.getpalette() or [])[:768]
    data = bytes(palette + [0] * (768 - len(palette))) + image.tobytes()
    keep_file(where / f"layer-{digest}.bin", data, "layer")


def keep_file(path: Path, data: bytes, family: str) -> None:
    """Write ``data`` to ``path`` (temporary file, then rename) and keep only the KEEP newest files of
    its ``family`` ("layer" for FAMILY-*.bin) in that folder; a cache that cannot be written is no error."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{family}-", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
        tmp = None
        kept = sorted(path.parent.glob(f"{family}-*.bin"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[KEEP:]:
            old.unlink(missing_ok=True)
    except OSError:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)


def forget() -> None:
    """Drop the layers kept in this process (tests)."""
    _in_process.clear()
