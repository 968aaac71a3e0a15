"""Forum-sized images: width limit and size cap."""
import io

import pytest
from PIL import Image

from gm.errors import UsageError
from gm.forum import image_url, shrink_png


def _noisy_png(width=1600, height=1000) -> bytes:
    import random
    rng = random.Random(1)
    image = Image.new("RGB", (width, height))
    image.putdata([(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(width * height)])
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def test_shrink_fits_width_and_size():
    data = _noisy_png()
    small = shrink_png(data, max_width=800, max_bytes=300_000)
    image = Image.open(io.BytesIO(small))
    assert image.size[0] <= 800 and len(small) <= 300_000


def test_impossible_cap_is_one_clear_error():
    with pytest.raises(UsageError, match="cannot bring the image under 10 bytes"):
        shrink_png(_noisy_png(200, 100), max_bytes=10)


def test_image_url_is_turn_stamped():
    assert image_url("https://x.org/c/", 3, "map.png") == "https://x.org/c/turn003-map.png"


def test_palette_pictures_are_scaled_smoothly_not_by_picking_pixels():
    # our maps are 256-colour PNGs; black and white stripes two pixels wide must average to grey
    image = Image.new("P", (1600, 400))
    image.putpalette([0, 0, 0, 255, 255, 255] + [0] * 762)
    image.putdata([(x // 2) % 2 for _ in range(400) for x in range(1600)])
    out = io.BytesIO()
    image.save(out, format="PNG")
    small = Image.open(io.BytesIO(shrink_png(out.getvalue(), max_width=530))).convert("L")
    greys = [small.getpixel((x, 60)) for x in range(10, 500)]
    assert small.size[0] == 530 and sum(40 < v < 215 for v in greys) > len(greys) // 2
