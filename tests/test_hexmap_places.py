"""Ferries' and foreign countries' names on a hex map: placed clear of track, towns, other labels,
ferry lines and permitted routes, and drawn at the same places in the PNG and the SVG."""
from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from gm.hexmap.lettering import advance
from gm.games.railway_rivals.hexmaps import load_map
from gm.hexmap.mapfile import parse_map
from gm.hexmap.placing import (CAP, COUNTRY_PT, FERRY_PT, SPECIAL_PT, country_text, ferry_text, label_places,
                               town_name_style, town_radius)
from gm.hexmap.render import draw_map
from gm.hexmap.trackplan import plan

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from bench_hexmap import COMPANIES, plausible_track  # noqa: E402

S, PT = 1.1, 1 / (0.275 * 72)  # Scotland's scale: a hex of 0.275 inch


def _box(x: float, top: float, text: str, points: float, weight: str, style: str, ha: str = "center"):
    """The ink's box of a label (no margin): measured here from the font, not taken from the placer."""
    size = points * S * PT
    parts = text.split("\n")
    width = max(advance(part, size, weight, style) for part in parts)
    left = x - {"center": 0.5, "left": 0.0, "right": 1.0}[ha] * width
    return left, top, left + width, top + (CAP + 0.24 + 1.05 * (len(parts) - 1)) * size


def _meets_segment(box, a, b, half: float) -> bool:
    """Whether the segment a-b, ``half`` wide each side, touches ``box`` (sampled finely)."""
    left, top, right, bottom = box
    steps = max(2, int(math.hypot(b[0] - a[0], b[1] - a[1]) / 0.02))
    for k in range(steps + 1):
        x, y = a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps
        if left - half < x < right + half and top - half < y < bottom + half:
            return True
    return False


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _what_it_covers(hexmap, track, places, box) -> list[str]:
    at = hexmap.grid.center
    lines, _ = plan(track, {h: at(h) for h in hexmap.grid.labels()})
    found = [f"track {a}-{b}" for _, a, b, _ in lines if _meets_segment(box, a, b, 3.9 * S * PT / 2)]
    found += [f"ferry line {f.id}" for f in hexmap.ferries if _meets_segment(box, at(f.ends[0]), at(f.ends[1]), 0)]
    found += [f"permitted route {r[i]}-{r[i + 1]}" for c in hexmap.foreign for r in c.permitted_routes
              for i in range(len(r) - 1) if _meets_segment(box, at(r[i]), at(r[i + 1]), 0)]
    for town in hexmap.town_list():
        (x, y), r = at(town.hex), town_radius(town)
        if _overlap(box, (x - r, y - r, x + r, y + r)) and \
                (min(max(x, box[0]), box[2]) - x) ** 2 + (min(max(y, box[1]), box[3]) - y) ** 2 < r * r:
            found.append(f"town {town.name}")
        nx, top, ha = places.towns[town.hex]
        points, weight = town_name_style(town)
        if _overlap(box, _box(nx, top, town.name, points, weight, "normal", ha)):
            found.append(f"name of {town.name}")
    for special_id, special in hexmap.specials.items():
        x, baseline, ha = places.specials[special_id]
        size = SPECIAL_PT * S * PT
        if _overlap(box, _box(x, baseline - CAP * size, f"{special_id}: {special['name']}", SPECIAL_PT, "bold",
                              "normal", ha)):
            found.append(f"label of {special_id}")
    return found


def _label_boxes(hexmap, places) -> dict[str, tuple]:
    boxes = {f"ferry {f.id}": _box(*places.ferries[f.id], ferry_text(f), FERRY_PT, "normal", "italic")
             for f in hexmap.ferries}
    boxes.update({f"country {c.name}": _box(*places.countries[c.name], country_text(c), COUNTRY_PT, "bold", "italic")
                  for c in hexmap.foreign})
    return boxes


@pytest.mark.parametrize("companies", [0, 3, 6])
def test_on_scotland_ferry_and_country_names_cover_no_track_town_label_or_each_other(companies):
    hexmap = load_map("scotland")
    track = plausible_track(hexmap, COMPANIES[:companies], towns_each=8) if companies else {}
    lines, _ = plan(track, {h: hexmap.grid.center(h) for h in hexmap.grid.labels()})
    places = label_places(hexmap, lines, s=S, pt=PT)
    boxes = _label_boxes(hexmap, places)
    assert len(boxes) == 4  # three ferries, England
    for name, box in boxes.items():
        assert _what_it_covers(hexmap, track, places, box) == [], name
        assert [other for other, b in boxes.items() if other != name and _overlap(box, b)] == [], name


def test_a_ferry_name_sits_beside_the_middle_of_its_line():
    hexmap = load_map("scotland")
    places = label_places(hexmap, [], s=S, pt=PT)
    for ferry in hexmap.ferries:
        (x0, y0), (x1, y1) = (hexmap.grid.center(h) for h in ferry.ends)
        left, top, right, bottom = _box(*places.ferries[ferry.id], ferry_text(ferry), FERRY_PT, "normal", "italic")
        middle = ((x0 + x1) / 2, (y0 + y1) / 2)
        nearest = (min(max(middle[0], left), right), min(max(middle[1], top), bottom))
        assert math.dist(middle, nearest) < 1.0, ferry.id  # within a hex of the line's middle
    kyle = next(f for f in hexmap.ferries if f.id == "F3")  # a level line: the name goes above it
    assert places.ferries["F3"][1] + FERRY_PT * S * PT < hexmap.grid.center(kyle.ends[0])[1]


def test_names_move_off_track_laid_where_they_first_went():
    hexmap = load_map("scotland")
    at = hexmap.grid.center
    free = label_places(hexmap, [], s=S, pt=PT)
    # track through the middle of England's label, and across the Kyle ferry and its label
    (england,) = hexmap.foreign
    x, top = free.countries["England"]
    under = sorted(england.hexes, key=lambda h: math.dist(at(h), (x, top + 0.3)))[0]
    track = {"blue": [[under, n] for n in hexmap.grid.neighbours(under) if n in england.hexes],
             "red": [["0618", "0619"]]}
    lines, _ = plan(track, {h: at(h) for h in hexmap.grid.labels()})
    moved = label_places(hexmap, lines, s=S, pt=PT)
    assert moved.countries["England"] != free.countries["England"]
    assert moved.ferries["F3"] != free.ferries["F3"]
    for name, box in _label_boxes(hexmap, moved).items():
        assert _what_it_covers(hexmap, track, moved, box) == [], name
    # England's name stays over England: its middle within a hex of one of England's hexes
    x, top = moved.countries["England"]
    assert min(math.dist(at(h), (x, top + 0.4)) for h in england.hexes) < 1.0


SMALL = """\
name: Small
grid: {columns: 6, rows: 5, low_columns: even}
terrain: |
  ......
  .~....
  ......
  ......
  ......
towns:
  11: {name: Alpha, hex: "0101"}
  12: {name: Beta, hex: "0305"}
foreign:
  - {name: Outland, hexes: ["0604", "0605"], entry_hexes: ["0604"], permitted_routes: [["0504", "0604", "0605"]]}
ferries:
  - {id: F1, ends: ["0102", "0302"]}
"""


def test_names_without_terms_say_only_the_name():
    hexmap, errors = parse_map(SMALL)
    assert errors == []
    assert country_text(hexmap.foreign[0]) == "Outland" and ferry_text(hexmap.ferries[0]) == "F1"
    scotland = load_map("scotland")
    assert country_text(scotland.foreign[0]) == "England\n(1k per hex)"
    assert ferry_text(scotland.ferries[0]) == "F1: 6k, use 5k"


def test_a_small_country_and_a_short_ferry_on_a_small_map_get_places_on_the_map():
    hexmap, _ = parse_map(SMALL)
    places = label_places(hexmap, [], s=1.68, pt=1 / (0.42 * 72))
    right, bottom = 1.5 * 5 + 1.1, 1.732 * 5 + 0.12
    for (x, top), text in ((places.countries["Outland"], "Outland"), (places.ferries["F1"], "F1")):
        width = advance(text, 9 * 1.68 / (0.42 * 72), "bold", "italic")
        assert -1.1 <= x - width / 2 and x + width / 2 <= right and -1 <= top < bottom, text


def test_the_png_and_the_svg_put_the_names_in_the_same_places(monkeypatch):
    from gm.hexmap import raster
    from gm.hexmap.stamps import Labels
    from gm.hexmap.style import FERRY, FOREIGN

    hexmap = load_map("scotland")
    track = plausible_track(hexmap, COMPANIES[:3])
    drawn = {}
    original = raster.Lettering.labels

    def record(self, texts, positions, size, **style):
        if style.get("colour") in (FERRY, FOREIGN):
            drawn.update(zip(texts, positions))
        return original(self, texts, positions, size, **style)
    monkeypatch.setattr(raster.Lettering, "labels", record)
    picture = draw_map(hexmap, track=track, title=hexmap.name)
    picture.image()
    page = raster.page_for(hexmap, picture.title, picture.entries)
    lines, _ = plan(picture.track, {h: hexmap.grid.center(h) for h in hexmap.grid.labels()})
    places = label_places(hexmap, lines, s=page.s, pt=raster.DPI / 72 / page.scale)
    wanted = {ferry_text(f): page.px(places.ferries[f.id]) for f in hexmap.ferries}
    wanted.update({country_text(c): page.px(places.countries[c.name]) for c in hexmap.foreign})
    assert drawn.keys() == wanted.keys()
    assert all(math.dist(drawn[t], wanted[t]) < 1e-6 for t in wanted)
    figure = picture.figure()
    in_svg = {t: tuple(p) for a in figure.artists if isinstance(a, Labels) and a.colour in (FERRY, FOREIGN)
              for t, p in zip(a.texts, a.positions)}
    svg_places = label_places(hexmap, lines, s=page.s, pt=1 / (page.s * 0.25 * 72))
    assert in_svg == {**{ferry_text(f): svg_places.ferries[f.id] for f in hexmap.ferries},
                      **{country_text(c): svg_places.countries[c.name] for c in hexmap.foreign}}
    assert all(a.va == "top" for a in figure.artists if isinstance(a, Labels) and a.colour in (FERRY, FOREIGN))


@pytest.mark.parametrize("companies", [0, 6])
def test_on_scotland_no_town_name_lies_on_a_ferry_line(companies):
    """Issue 24 item 8: Kirkcaldy's and Edinburgh's names used to sit across the Forth ferry's line."""
    hexmap = load_map("scotland")
    at = hexmap.grid.center
    track = plausible_track(hexmap, COMPANIES[:companies], towns_each=8) if companies else {}
    lines, _ = plan(track, {h: at(h) for h in hexmap.grid.labels()})
    places = label_places(hexmap, lines, s=S, pt=PT)
    for town in hexmap.town_list():
        x, top, ha = places.towns[town.hex]
        points, weight = town_name_style(town)
        box = _box(x, top, town.name, points, weight, "normal", ha)
        crossed = [f.id for f in hexmap.ferries if _meets_segment(box, at(f.ends[0]), at(f.ends[1]), 0)]
        assert crossed == [], town.name


def test_a_built_ferry_is_drawn_in_its_owner_s_colour_unlike_a_site():
    """Issue 24 item 8: a ferry a company built is part of its network on the map (a dashed line in its
    colour, cased), where an unbuilt ferry is only the thin dashed line of its site."""
    from gm.games import get
    from gm.turn import runner
    rr = get("railway-rivals")
    players = ["ann", "bob"]
    state = runner.start(rr, "scotland", players, {}, runner.turn_dice(bytes(32), 0))
    orders = {}
    for p, text in (("ann", "round 1: (Edinburgh) ferry F1 2429"), ("bob", "round 1: (Inverness) 1816")):
        checked = runner.check(rr, state, f"player: {p}\n{text}\n", file="o.txt", players=players, turn=1)
        assert checked.ok, checked.problems
        orders[p] = checked.orders
    state, events = runner.step(rr, state, orders, runner.turn_dice(bytes(32), 1))
    view = rr.view(state, "public")
    assert view["ferries"] == {"F1": "ann"}
    picture = rr.render(view, "public", events=events)
    drawn = {tuple(sorted(link)) for links in picture.track.values() for link in links}
    owner_keys = [k for k, links in picture.track.items() if ["2332", "2430"] in [sorted(x) for x in links]]
    assert ("2332", "2430") in drawn and owner_keys and all(k.endswith("ann") for k in owner_keys)
    assert ("0519", "0719") not in drawn  # Kyle's ferry, unbuilt: only its site
    # the pixels: along the Forth's line the owner's colour shows; along Kyle's (a site) it does not
    image = picture.image()
    from gm.hexmap.raster import page_for
    hexmap = load_map("scotland")
    page = page_for(hexmap, picture.title, picture.entries)
    ink = tuple(int(picture.paint["ann"][i:i + 2], 16) for i in (1, 3, 5))

    def inked(a: str, b: str) -> int:
        (x0, y0), (x1, y1) = (page.px(hexmap.grid.center(h)) for h in (a, b))
        along = [image.getpixel((round(x0 + (x1 - x0) * k / 100), round(y0 + (y1 - y0) * k / 100)))
                 for k in range(25, 76)]
        return sum(1 for rgb in along if sum(abs(c - i) for c, i in zip(rgb, ink)) < 40)
    assert inked("2332", "2430") > 15 and inked("0519", "0719") == 0, (inked("2332", "2430"), inked("0519", "0719"))
