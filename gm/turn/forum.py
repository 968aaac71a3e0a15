"""Forum posts: a report's images referenced by the URL where the GM uploads them, and copies of
the images sized for forums (a width limit and a size cap).

A picture whose fine print would be unreadable shrunk to the width limit (a hex map's numbers, which
players copy into their orders) says so in its PNG: ``gm:fine-print``, that print's font size in
pixels, and ``gm:map-box``, the box of the part worth cutting up (gm.hexmap.render). Its forum copy
is then the shrunken overview as before and, beside it, overlapping parts at a scale where that
print is LEGIBLE_PX high: ``turn003-map.png``, ``turn003-map-part1.png``, ... Pictures that say
nothing (every other game's) keep the overview alone.
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

from gm.store.errors import UsageError
from gm.store.fileio import atomic_write
from gm.store.pictures import palette, save_png

MAX_WIDTH = 800        # px: readable on a phone, accepted by common forum software
MAX_BYTES = 500_000    # many forums refuse larger attachments
LEGIBLE_PX = 6.5       # px: hex numbers read at 6.5 px (Scotland shrunk by 0.8), hardly at 5.6, not at 4.8
MAX_PART_HEIGHT = 1200  # px: a part fits a screen or two
OVERLAP = 120          # px each part shares with its neighbour: three hex columns of a large map


@dataclass(frozen=True)
class Part:
    """One readable part of a picture: its file ``name``, where it lies (``caption``), and its ``box``
    (left, top, right, bottom) in the picture scaled by ``scale``."""

    name: str
    caption: str
    box: tuple[int, int, int, int]
    scale: float


def forum_name(turn: int, name: str) -> str:
    """Turn-stamped file name, so one upload folder can hold a whole campaign's images."""
    return f"turn{turn:03d}-{name}"


def image_url(base: str, turn: int, name: str) -> str:
    return f"{base.rstrip('/')}/{forum_name(turn, name)}"


def parts_of(source: Path, *, max_width: int = MAX_WIDTH) -> list[Part]:
    """The parts the forum copy of ``source`` (a PNG) is cut into; none when its overview is readable.
    Reads only the file's header."""
    from PIL import Image
    with Image.open(source) as image:
        size, info = image.size, dict(image.info)
    try:
        fine = float(info["gm:fine-print"])
        box = tuple(int(v) for v in str(info.get("gm:map-box", f"0,0,{size[0]},{size[1]}")).split(","))
    except (KeyError, ValueError):
        return []
    return plan_parts(Path(source).name, size, fine, box, max_width=max_width)  # type: ignore[arg-type]


def plan_parts(name: str, size: tuple[int, int], fine: float, box: tuple[int, int, int, int], *,
               max_width: int = MAX_WIDTH) -> list[Part]:
    """Overlapping parts of ``box``, each at most ``max_width`` wide and MAX_PART_HEIGHT high, as few
    columns of them as keep print ``fine`` px high at least LEGIBLE_PX, and those as wide as the limit
    allows (never enlarged); none when the overview (``size`` shrunk to ``max_width``) keeps that print
    LEGIBLE_PX high already."""
    if fine * min(1.0, max_width / size[0]) >= LEGIBLE_PX or len(box) != 4:
        return []
    scale = min(1.0, LEGIBLE_PX / fine)
    columns = len(_spans(0, math.ceil((box[2] - box[0]) * scale), max_width))
    if columns > 1:  # as large as that many parts allow: each as wide as the limit
        scale = min(1.0, (columns * max_width - (columns - 1) * OVERLAP - 2) / (box[2] - box[0]))
    left, top = math.floor(box[0] * scale), math.floor(box[1] * scale)
    right = min(math.ceil(box[2] * scale), round(size[0] * scale))  # within the scaled picture
    bottom = min(math.ceil(box[3] * scale), round(size[1] * scale))
    xs, ys = _spans(left, right, max_width), _spans(top, bottom, MAX_PART_HEIGHT)
    stem = Path(name).stem
    parts = []
    for row, (y0, y1) in enumerate(ys):
        for column, (x0, x1) in enumerate(xs):
            parts.append(Part(f"{stem}-part{len(parts) + 1}.png", _caption(row, len(ys), column, len(xs)),
                              (x0, y0, x1, y1), scale))
    return parts


def _spans(start: int, end: int, most: int) -> list[tuple[int, int]]:
    """``start``..``end`` in as few spans of at most ``most`` as overlap by at least OVERLAP, alike."""
    length = end - start
    if length <= most:
        return [(start, end)]
    count = math.ceil((length - OVERLAP) / (most - OVERLAP))
    span = min(most, math.ceil((length + (count - 1) * OVERLAP) / count))
    firsts = [start + round(k * (length - span) / (count - 1)) for k in range(count)]
    return [(first, first + span) for first in firsts]


def _caption(row: int, rows: int, column: int, columns: int) -> str:
    """Where a part lies: 'north-west', 'east', 'centre'; 'row 2, column 4' on a finer grid."""
    if rows > 3 or columns > 3:
        return f"row {row + 1}, column {column + 1}"
    north = {1: [""], 2: ["north", "south"], 3: ["north", "", "south"]}[rows][row]
    west = {1: [""], 2: ["west", "east"], 3: ["west", "", "east"]}[columns][column]
    return "-".join(w for w in (north, west) if w) or "centre"


def shrink_png(data: bytes, *, max_width: int = MAX_WIDTH, max_bytes: int = MAX_BYTES) -> bytes:
    """The PNG scaled down to ``max_width`` and, when still over ``max_bytes``, reduced to fewer
    colours and then smaller sizes until it fits."""
    image = _opened(data)
    return _fit(image, min(max_width, image.width), max_bytes, shrink=True)


def cut_png(data: bytes, parts: list[Part], *, max_bytes: int = MAX_BYTES) -> list[bytes]:
    """Each part of the PNG, scaled and cut as planned; fewer colours if over ``max_bytes``, never smaller."""
    return _cut(_opened(data), parts, max_bytes)[0]


def _cut(image, parts: list[Part], max_bytes: int):
    """(each part's PNG bytes, the picture at the parts' scale or None)."""
    from PIL import Image  # Pillow only for forum copies
    scaled: dict[float, Image.Image] = {}
    cuts = []
    for part in parts:
        if part.scale not in scaled:  # bilinear (Pillow averages as it shrinks): at 0.9 the hex numbers
            scaled[part.scale] = image if part.scale == 1 else image.resize(  # read as with Lanczos, in 1/4 the time
                (round(image.width * part.scale), round(image.height * part.scale)), Image.BILINEAR)
        piece = scaled[part.scale].crop(part.box)
        cuts.append(_fit(piece, piece.width, max_bytes, shrink=False))
    return cuts, (scaled[min(scaled)] if scaled else None)


def _opened(data: bytes):
    from PIL import Image  # Pillow comes with matplotlib; only loaded here
    image = Image.open(io.BytesIO(data))
    image.load()
    if image.mode not in ("RGB", "RGBA"):  # a palette image would be scaled by picking pixels: jagged
        image = image.convert("RGBA" if "transparency" in image.info else "RGB")
    return image


def _fit(image, width: int, max_bytes: int, *, shrink: bool) -> bytes:
    """``image`` at ``width`` as PNG bytes under ``max_bytes``: 256 colours (gm.store.pictures.palette,
    nothing visible lost on flat-coloured pictures), then fewer, then (``shrink``) smaller. zlib at
    level 3: Pillow's ``optimize`` (every filter, level 9) took most of a forum copy's time for a
    file a few per cent smaller (issue 24 item 11; `make bench`)."""
    from PIL import Image  # Pillow only for forum copies

    rgb = image if image.mode == "RGB" else image.convert("RGB")
    for attempt in range(8 if shrink else 4):  # an overview: bilinear (averaging as Pillow shrinks) will do
        scaled = rgb if width == rgb.width else rgb.resize(
            (width, round(rgb.height * width / rgb.width)), Image.BILINEAR)
        out = io.BytesIO()
        save_png(palette(scaled, max(16, 256 >> attempt)), out, compress_level=3)
        if out.tell() <= max_bytes:
            return out.getvalue()
        if attempt >= 3:
            width = int(width * 0.8)
    raise UsageError(f"cannot bring the image under {max_bytes} bytes")


def write_forum_images(reports: Path, turn: int, names: list[str], folder: Path, *,
                       max_width: int = MAX_WIDTH, max_bytes: int = MAX_BYTES) -> list[Path]:
    """Each image's forum copy (and its readable parts, see parts_of), turn-stamped, into ``folder``:
    the files written. Each picture is decoded once; its overview is shrunk from the parts' scaled
    copy when there are parts (a smaller picture to shrink, the same result to the eye)."""
    written = []
    for name in names:
        source = reports / name
        if not source.exists():
            continue
        image = _opened(source.read_bytes())
        parts = parts_of(source, max_width=max_width)
        cuts, scaled = _cut(image, parts, max_bytes)
        base = scaled if scaled is not None and scaled.width >= min(max_width, image.width) else image
        target = folder / forum_name(turn, name)
        atomic_write(target, _fit(base, min(max_width, image.width), max_bytes, shrink=True))
        written.append(target)
        for part, cut in zip(parts, cuts):
            atomic_write(folder / forum_name(turn, part.name), cut)
            written.append(folder / forum_name(turn, part.name))
    return written


def part_references(base: str, turn: int, source: Path) -> list[dict[str, str]]:
    """The URL and caption of each readable part of ``source``'s forum copy (see parts_of), for a
    report's ``image_parts``; empty when the overview alone is readable or there is no such file."""
    if not Path(source).is_file():
        return []
    return [{"url": image_url(base, turn, part.name), "caption": part.caption} for part in parts_of(source)]
