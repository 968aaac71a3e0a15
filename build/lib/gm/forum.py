"""Forum posts: a report's images referenced by the URL where the GM uploads them, and copies of
the images sized for forums (a width limit and a size cap)."""
from __future__ import annotations

import io
from pathlib import Path

from .errors import UsageError
from .fileio import atomic_write

MAX_WIDTH = 800        # px: readable on a phone, accepted by common forum software
MAX_BYTES = 500_000    # many forums refuse larger attachments


def forum_name(turn: int, name: str) -> str:
    """Turn-stamped file name, so one upload folder can hold a whole campaign's images."""
    return f"turn{turn:03d}-{name}"


def image_url(base: str, turn: int, name: str) -> str:
    return f"{base.rstrip('/')}/{forum_name(turn, name)}"


def shrink_png(data: bytes, *, max_width: int = MAX_WIDTH, max_bytes: int = MAX_BYTES) -> bytes:
    """The PNG scaled down to ``max_width`` and, when still over ``max_bytes``, reduced to fewer
    colours and then smaller sizes until it fits."""
    from PIL import Image  # Pillow comes with matplotlib; only loaded here
    image = Image.open(io.BytesIO(data))
    image.load()
    if image.mode not in ("RGB", "RGBA"):  # a palette image would be scaled by picking pixels: jagged
        image = image.convert("RGBA" if "transparency" in image.info else "RGB")
    width = min(max_width, image.width)
    for attempt in range(8):
        scaled = image if width == image.width else image.resize(
            (width, round(image.height * width / image.width)), Image.LANCZOS)
        if attempt:
            scaled = scaled.convert("RGB").quantize(colors=max(16, 256 >> (attempt - 1)))
        out = io.BytesIO()
        scaled.save(out, format="PNG", optimize=True)
        if out.tell() <= max_bytes:
            return out.getvalue()
        if attempt >= 3:
            width = int(width * 0.8)
    raise UsageError(f"cannot bring the image under {max_bytes} bytes")


def write_forum_images(reports: Path, turn: int, names: list[str], folder: Path, *,
                       max_width: int = MAX_WIDTH, max_bytes: int = MAX_BYTES) -> list[Path]:
    written = []
    for name in names:
        source = reports / name
        if not source.exists():
            continue
        target = folder / forum_name(turn, name)
        atomic_write(target, shrink_png(source.read_bytes(), max_width=max_width, max_bytes=max_bytes))
        written.append(target)
    return written
