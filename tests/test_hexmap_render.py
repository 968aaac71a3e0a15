"""Drawing maps: PNG painted with Pillow (no matplotlib, numpy or hexalattice imported), SVG from a
Figure (never pyplot), every company's track visible, shared track side by side."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from matplotlib.figure import Figure
from PIL import Image

from gm.games.railway_rivals.hexmaps import load_map
from gm.hexmap.shapes import lines_of
from gm.hexmap.render import draw_map, render_blank, save_figure
from gm.hexmap.trackplan import plan

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from bench_hexmap import COMPANIES, plausible_track  # noqa: E402


def _pixels(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB")).reshape(-1, 3).astype(int)


def _near(pixels: np.ndarray, colour: tuple[int, int, int], tolerance: int = 40) -> int:
    return int((np.abs(pixels - np.array(colour)).sum(axis=1) < tolerance).sum())


def test_blank_map_renders_to_png_and_svg(tmp_path):
    png = render_blank(Path("gm/games/railway_rivals/maps/tutorial.yaml"), tmp_path / "blank.png")
    with Image.open(png) as image:
        assert image.format == "PNG" and image.size[0] > 800 and image.size[1] > 800
    svg = render_blank(Path("gm/games/railway_rivals/maps/tutorial.yaml"), tmp_path / "blank.svg")
    assert svg.read_text(encoding="utf-8").lstrip().startswith(("<?xml", "<svg"))
    assert not list(tmp_path.glob(".*"))  # the temporary files were renamed into place
    assert png.stat().st_mode & 0o044 and svg.stat().st_mode & 0o044  # readable by a web server too


def test_the_svg_figure_leaves_pyplot_alone():
    import matplotlib.pyplot as plt  # imported by hexalattice anyway; we must never open its figures

    before = plt.get_fignums()
    fig = draw_map(load_map("tutorial")).figure()
    assert isinstance(fig, Figure) and plt.get_fignums() == before


def test_a_png_map_imports_neither_matplotlib_nor_numpy_nor_hexalattice(tmp_path):
    code = ("import sys\nfrom gm.games.railway_rivals.hexmaps import load_map\n"
            "from gm.hexmap.render import draw_map, save_figure\n"
            "m = load_map('scotland')\n"
            "save_figure(draw_map(m, track={'a': [['1234', '1235']]}, title='t'), sys.argv[1])\n"
            "heavy = sorted(n for n in sys.modules if n.split('.')[0] in ('matplotlib', 'numpy', 'hexalattice'))\n"
            "print(heavy)\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "m.png")], capture_output=True, text=True,
                          env={**os.environ, "GM_CACHE_DIR": "off"}, cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]" and (tmp_path / "m.png").stat().st_size > 50_000


def test_six_companies_on_the_campaign_map(tmp_path):
    hexmap = load_map("scotland")
    track = plausible_track(hexmap)
    assert len(track) == 6 and all(track.values())
    colours = dict(zip(COMPANIES, ["#0000ff", "#ff0000", "#00a000", "#ffd000", "#a000c0", "#8b4513"]))
    fig = draw_map(hexmap, track=track, colours=colours, names={c: c.title() for c in COMPANIES}, title="Scotland")
    out = save_figure(fig, tmp_path / "six.png")
    pixels = _pixels(out)
    assert out.stat().st_size > 50_000
    for company, hex_colour in colours.items():
        rgb = tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
        assert _near(pixels, rgb) > 200, company  # every company's track shows in its own colour


def test_parallel_track_is_drawn_side_by_side():
    hexmap = load_map("tutorial")
    shared = [["0508", "0509"], ["0509", "0510"]]
    fig = draw_map(hexmap, track={"blue": shared, "red": shared[::-1]}, colours={"blue": "blue", "red": "red"}).figure()
    coloured = [c for c in fig.artists if c.get_zorder() == 7.1]
    blue, red = (np.array(lines_of(c)) for c in coloured)
    # the same links (red gave them the other way round), a fifth of a hex apart, either side of the centres
    gaps = np.linalg.norm(blue - red, axis=2)
    assert len(coloured) == 2 and np.allclose(gaps, 0.2)
    centres = np.array([[hexmap.grid.center(a), hexmap.grid.center(b)] for a, b in shared])
    assert np.allclose((blue + red) / 2, centres)


def test_the_png_and_the_svg_share_one_track_plan():
    hexmap = load_map("tutorial")
    shared = [["0508", "0509"], ["0509", "0510"]]
    centres = {h: hexmap.grid.center(h) for h in hexmap.grid.labels()}
    lines, covered = plan({"blue": shared, "red": shared[::-1]}, centres)
    assert [company for company, *_ in lines] == ["blue", "blue", "red", "red"]
    for (_, a, b, dashed), (_, c, d, _) in zip(lines[:2], lines[2:]):
        assert not dashed
        assert np.isclose(np.hypot(*np.subtract(a, c)), 0.2) and np.isclose(np.hypot(*np.subtract(b, d)), 0.2)
    assert covered == {"0508", "0509", "0510"}


def test_tracks_alone_on_a_link_stay_on_the_centre_line():
    hexmap = load_map("tutorial")
    fig = draw_map(hexmap, track={"blue": [["0506", "0507"]]}).figure()
    (blue,) = [c for c in fig.artists if c.get_zorder() == 7.1]
    (segment,) = lines_of(blue)
    centres = [hexmap.grid.center("0506"), hexmap.grid.center("0507")]
    assert np.allclose(segment, centres)


def test_blank_map_has_no_track_colour_and_colours_default(tmp_path):
    hexmap = load_map("tutorial")
    blank = _pixels(save_figure(draw_map(hexmap), tmp_path / "blank.png"))
    with_track = _pixels(save_figure(draw_map(hexmap, track={"x": [["0911", "1011"], ["1011", "1111"]]},
                                              colours={"x": "#ff00ff"}), tmp_path / "track.png"))
    assert _near(blank, (255, 0, 255)) == 0 and _near(with_track, (255, 0, 255)) > 50


def test_bad_track_links_and_file_types_are_refused(tmp_path):
    hexmap = load_map("tutorial")
    with pytest.raises(ValueError, match="not two hexes of this map"):
        draw_map(hexmap, track={"blue": [["0101", "9999"]]})
    with pytest.raises(ValueError, match=r"\.png or \.svg"):
        save_figure(draw_map(hexmap), tmp_path / "map.jpg")


def test_highlight_and_no_hex_numbers_still_draw(tmp_path):
    hexmap = load_map("tutorial")
    plain = save_figure(draw_map(hexmap, hex_numbers=False), tmp_path / "plain.png")
    lit = save_figure(draw_map(hexmap, highlight=["0910", "1010"]), tmp_path / "lit.png")
    assert _near(_pixels(lit), (0xE0, 0x11, 0x9D)) > 50 and _near(_pixels(plain), (0xE0, 0x11, 0x9D)) == 0


def test_a_town_name_moves_off_track_leaving_southward_and_stays_below_otherwise():
    from gm.hexmap.placing import label_places

    hexmap = load_map("tutorial")
    helms = hexmap.town_by_name("Helm's Deep")
    col, row = int(helms.hex[:2]), int(helms.hex[2:])
    south = f"{col:02d}{row + 1:02d}"
    centres = {h: hexmap.grid.center(h) for h in hexmap.grid.labels()}
    free = label_places(hexmap, [], s=1.0, pt=1 / 18).towns
    assert all(ha == "center" and top > centres[h][1] for h, (_, top, ha) in free.items())  # below, as always
    lines, _ = plan({"blue": [[helms.hex, south]]}, centres)
    moved = label_places(hexmap, lines, s=1.0, pt=1 / 18).towns
    x, top, ha = moved[helms.hex]
    assert top < centres[helms.hex][1] and ha == "center"  # above: the track south stays in sight
    assert {h: p for h, p in moved.items() if h != helms.hex} == {h: p for h, p in free.items() if h != helms.hex}


def test_a_label_takes_the_first_free_place_else_the_least_covered():
    from gm.hexmap.placing import Obstacles, choose

    clear = Obstacles(lines=[((0, 5), (10, 5), 1.0)], circles=[((20, 20), 3)])
    assert choose([(0, 0, 10, 10), (0, 11, 10, 15), (30, 30, 40, 40)], clear) == 1
    assert choose([(0, 11, 10, 15), (50, 50, 60, 60)], clear) == 1  # the first is now taken by a label
    assert choose([(0, 0, 10, 10), (15, 15, 25, 25)], clear) == 0  # all covered: the least, the first of ties
