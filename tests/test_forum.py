"""Forum-sized images: width limit and size cap; a hex map's readable parts beside its overview."""
import io
import math

import numpy as np
import pytest
from PIL import Image

from gm.store.errors import UsageError
from gm.turn.forum import image_url, shrink_png


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


# --- a hex map's forum copy: a shrunken overview and readable parts ------------------------------------
def _map_png(name: str, companies: int = 6) -> bytes:
    import sys
    from pathlib import Path

    from gm.games.railway_rivals.hexmaps import load_map
    from gm.hexmap.render import draw_map
    from gm.store.pictures import figure_bytes
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from bench_hexmap import COMPANIES, plausible_track
    hexmap = load_map(name)
    picture = draw_map(hexmap, track=plausible_track(hexmap, COMPANIES[:companies]), title=hexmap.name)
    return figure_bytes(picture, "png")


def test_the_overview_of_scotland_is_too_small_to_read_so_parts_are_planned():
    from gm.turn.forum import LEGIBLE_PX, MAX_PART_HEIGHT, OVERLAP, plan_parts
    parts = plan_parts("map.png", (1689, 2591), 8.07, (16, 49, 1673, 2496))
    assert [p.name for p in parts] == [f"map-part{n}.png" for n in (1, 2, 3, 4)]
    assert [p.caption for p in parts] == ["north-west", "north-east", "south-west", "south-east"]
    scale = parts[0].scale
    assert 8.07 * 800 / 1689 < LEGIBLE_PX <= 8.07 * scale <= 8.07  # the overview is too small; the parts are not
    for part in parts:
        left, top, right, bottom = part.box
        assert right - left <= 800 and bottom - top <= MAX_PART_HEIGHT
    (a, b, c, d) = (p.box for p in parts)
    assert a[2] - b[0] >= OVERLAP and a[3] - c[1] >= OVERLAP and a[0] <= 16 * scale and d[2] >= 1673 * scale - 1
    assert a[1] <= 49 * scale and d[3] >= 2496 * scale - 1
    whole = plan_parts("map.png", (1689, 2591), 8.07, (0, 0, 1689, 2591))  # a box to the picture's edges
    assert all(p.box[2] <= round(1689 * p.scale) and p.box[3] <= round(2591 * p.scale) for p in whole)


def test_a_picture_readable_when_shrunk_or_saying_nothing_has_no_parts(tmp_path):
    from gm.turn.forum import parts_of, plan_parts
    assert plan_parts("map.png", (1451, 1369), 12.32, (16, 48, 1435, 1301)) == []  # tutorial: 6.8 px shrunk
    plain = tmp_path / "board.png"
    plain.write_bytes(_noisy_png(2000, 300))
    assert parts_of(plain) == []  # another game's picture: the overview alone, as before


def test_scotland_with_six_companies_is_written_as_overview_and_parts_that_cover_it(tmp_path):
    from gm.turn.forum import LEGIBLE_PX, MAX_BYTES, parts_of, write_forum_images
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "map.png").write_bytes(_map_png("scotland"))
    source = Image.open(reports / "map.png")
    fine = float(source.info["gm:fine-print"])
    left, top, right, bottom = (int(v) for v in source.info["gm:map-box"].split(","))
    written = write_forum_images(reports, 3, ["map.png"], tmp_path / "up")
    assert [p.name for p in written] == ["turn003-map.png"] + [f"turn003-map-part{n}.png" for n in (1, 2, 3, 4)]
    for path in written:
        assert Image.open(path).size[0] <= 800 and path.stat().st_size <= MAX_BYTES, path.name
    parts = parts_of(reports / "map.png")
    covered = np.zeros((source.height, source.width), bool)
    for part, path in zip(parts, written[1:]):
        assert Image.open(path).size == (part.box[2] - part.box[0], part.box[3] - part.box[1])
        assert fine * part.scale >= LEGIBLE_PX
        x0, y0, x1, y1 = (v / part.scale for v in part.box)
        covered[math.floor(y0):math.ceil(y1), math.floor(x0):math.ceil(x1)] = True
    assert covered[top:bottom, left:right].all()  # together the parts hold every hex
    overview = Image.open(written[0])
    assert overview.size[0] == 800 and fine * 800 / source.width < LEGIBLE_PX


def test_the_tutorial_map_keeps_its_overview_alone(tmp_path):
    from gm.turn.forum import LEGIBLE_PX, write_forum_images
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "map.png").write_bytes(_map_png("tutorial", 3))
    source = Image.open(reports / "map.png")
    assert float(source.info["gm:fine-print"]) * 800 / source.width >= LEGIBLE_PX
    assert [p.name for p in write_forum_images(reports, 1, ["map.png"], tmp_path / "up")] == ["turn001-map.png"]


def test_a_forum_post_of_a_scotland_campaign_references_every_part(tmp_path):
    import hashlib

    from click.testing import CliRunner

    from gm.turn import engine
    from gm.cli import main
    camp = tmp_path / "scot"
    engine.new_campaign(camp, "railway-rivals", ["ann", "bob", "cy"], map_name="scotland",
                        master=hashlib.sha256(b"forum").digest())
    posts = {}
    for fmt in ("bbcode", "markdown", "html", "text"):  # the copies written once; the URLs alone after
        upload = ["--forum-images", str(tmp_path / "up")] if fmt == "bbcode" else []
        result = CliRunner().invoke(main, ["report", str(camp), "--public", "--format", fmt, "--image-url",
                                           "https://example.org/c", *upload])
        assert result.exit_code == 0, result.output
        posts[fmt] = result.output
    names = ["turn000-map.png"] + [f"turn000-map-part{n}.png" for n in (1, 2, 3, 4)]
    assert sorted(p.name for p in (tmp_path / "up").iterdir()) == sorted(names)
    bbcode = posts["bbcode"]
    assert "[img]https://example.org/c/turn000-map.png[/img]" in bbcode
    assert "The map in 4 overlapping parts, large enough to read the hex numbers:" in bbcode
    assert "[b]North-west[/b]\n[img]https://example.org/c/turn000-map-part1.png[/img]" in bbcode
    assert "![north-east](https://example.org/c/turn000-map-part2.png)" in posts["markdown"]
    assert '<img src="https://example.org/c/turn000-map-part3.png" alt="The map\'s south-west part">' in posts["html"]
    assert "South-east: https://example.org/c/turn000-map-part4.png" in posts["text"]
    for fmt, post in posts.items():
        assert all(f"https://example.org/c/{n}" in post for n in names), fmt
