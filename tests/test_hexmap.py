"""Hex geometry (gm.hexmap.grid), the hexalattice adapter and least-cost paths."""
from __future__ import annotations

import math
import subprocess
import sys
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.hexmap.grid import SQRT3, Grid, make_label, parse_label
from gm.hexmap.paths import cheapest_path, cheapest_path_from, costs_from, path_cost

EVEN = Grid(9, 7, "even")
ODD = Grid(9, 7, "odd")


def test_labels_parse_and_make():
    assert parse_label("2522") == (25, 22)
    assert make_label(3, 1) == "0301"
    for bad in ("301", "03011", "AB01", 301, None):
        with pytest.raises(ValueError):
            parse_label(bad)


def test_grid_lists_labels_row_by_row():
    grid = Grid(3, 2)
    assert grid.labels() == ["0101", "0201", "0301", "0102", "0202", "0302"]
    assert grid.contains("0302") and not grid.contains("0303") and not grid.contains("0401")
    assert not grid.contains(302) and not grid.contains("0000")


def test_neighbours_with_even_columns_low():
    # column 2 sits half a hex lower: its side neighbours are on its own row and the row below
    assert sorted(EVEN.neighbours("0202")) == ["0102", "0103", "0201", "0203", "0302", "0303"]
    assert sorted(EVEN.neighbours("0303")) == ["0202", "0203", "0302", "0304", "0402", "0403"]
    assert sorted(EVEN.neighbours("0101")) == ["0102", "0201"]


def test_neighbours_with_odd_columns_low():
    assert sorted(ODD.neighbours("0303")) == ["0203", "0204", "0302", "0304", "0403", "0404"]
    assert sorted(ODD.neighbours("0202")) == ["0101", "0102", "0201", "0203", "0301", "0302"]
    assert sorted(ODD.neighbours("0101")) == ["0102", "0201", "0202"]


@pytest.mark.parametrize("grid", [EVEN, ODD], ids=["even", "odd"])
def test_neighbours_are_exactly_the_hexes_one_hex_width_away(grid):
    for label in grid.labels():
        x, y = grid.center(label)
        near = {h for h in grid.labels() if h != label and math.isclose(math.dist((x, y), grid.center(h)), SQRT3)}
        assert set(grid.neighbours(label)) == near, label


@pytest.mark.parametrize("grid", [EVEN, ODD], ids=["even", "odd"])
def test_distance_is_the_number_of_steps(grid):
    start = "0404"
    steps = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for n in grid.neighbours(here):
            if n not in steps:
                steps[n] = steps[here] + 1
                queue.append(n)
    assert all(grid.distance(start, h) == steps[h] for h in grid.labels())


labels = st.sampled_from(Grid(12, 10).labels())
parity = st.sampled_from(["even", "odd"])


@settings(max_examples=300)
@given(labels, labels, labels, parity)
def test_distance_is_a_metric(a, b, c, low):
    grid = Grid(12, 10, low)
    assert grid.distance(a, b) == grid.distance(b, a)
    assert (grid.distance(a, b) == 0) == (a == b)
    assert grid.distance(a, c) <= grid.distance(a, b) + grid.distance(b, c)
    assert (grid.distance(a, b) == 1) == grid.adjacent(a, b)


@settings(max_examples=300)
@given(labels, labels, parity)
def test_straight_lines_step_through_neighbours(a, b, low):
    grid = Grid(12, 10, low)
    between = grid.straight_between(a, b)
    if between is None:
        return
    chain = [a, *between, b]
    assert len(between) == grid.distance(a, b) - 1
    assert all(grid.adjacent(p, q) for p, q in zip(chain, chain[1:]))
    assert grid.straight_between(b, a) == list(reversed(between))


def test_straight_lines_of_the_rules_example():
    grid = Grid(40, 30)
    # "2522-2924 can be declared as one move as it's a straight line"
    assert grid.straight_between("2522", "2924") == ["2622", "2723", "2823"]
    assert grid.straight_between("0203", "0207") == ["0204", "0205", "0206"]
    assert grid.straight_between("2522", "2523") == []
    assert grid.straight_between("2522", "2925") is None  # a knight's move is no line
    assert grid.straight_between("2522", "2522") is None


def test_sides_are_named_smaller_label_first():
    assert EVEN.side("0303", "0302") == "0302/0303"
    assert EVEN.side("0302", "0303") == "0302/0303"
    with pytest.raises(ValueError, match="not adjacent"):
        EVEN.side("0101", "0303")


def test_side_segment_is_the_shared_edge():
    a, b = "0303", "0403"
    (x0, y0), (x1, y1) = EVEN.side_segment(a, b)
    assert math.isclose(math.dist((x0, y0), (x1, y1)), 1.0)  # a side is one corner radius long
    for corner in ((x0, y0), (x1, y1)):
        for label in (a, b):
            assert any(math.isclose(corner[0], cx, abs_tol=1e-9) and math.isclose(corner[1], cy, abs_tol=1e-9)
                       for cx, cy in EVEN.corners(label))


def test_ring_holds_the_hexes_at_that_distance():
    for radius in range(4):
        assert sorted(EVEN.ring("0504", radius)) == sorted(h for h in EVEN.labels()
                                                           if EVEN.distance("0504", h) == radius)


def test_bad_grids_are_refused():
    for args in ((0, 5), (100, 5), (5, 5, "middle"), (5.0, 5)):
        with pytest.raises(ValueError):
            Grid(*args)


# --- the hexalattice adapter ----------------------------------------------------------------------------
@pytest.mark.parametrize("columns,rows,low", [(9, 7, "even"), (9, 7, "odd"), (1, 1, "even"), (36, 46, "even"),
                                              (41, 31, "odd")])
def test_hexalattice_centres_match_the_grid(columns, rows, low):
    from gm.hexmap.lattice import check_against

    assert check_against(Grid(columns, rows, low)) < 1e-9


@pytest.mark.parametrize("columns,rows", [(0, 5), (-1, 5), (2.5, 5), (True, 5), ("3", 5), (5, 100)])
def test_hexalattice_never_sees_a_bad_argument(columns, rows):
    from gm.hexmap.lattice import lattice_centres

    # hexalattice answers a bad argument with exit() (status 0); the adapter must raise first
    with pytest.raises(ValueError):
        lattice_centres(columns, rows)


def test_geometry_and_map_files_load_without_matplotlib():
    code = "import sys, gm.hexmap.grid, gm.hexmap.mapfile, gm.hexmap.paths; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --- least-cost paths -----------------------------------------------------------------------------------
def _costs(expensive=(), walls=()):
    def cost(a, b):
        if b in walls:
            return None
        return 5 if b in expensive else 1
    return cost


def test_cheapest_path_goes_round_dear_and_impassable_hexes():
    grid = Grid(7, 5)
    plain = cheapest_path("0103", "0703", grid.neighbours, _costs())
    assert plain[0] == grid.distance("0103", "0703") == 6
    walls = {"0401", "0402", "0403", "0404"}
    around = cheapest_path("0103", "0703", grid.neighbours, _costs(walls=walls))
    assert around is not None and not walls & set(around[1])
    assert around[0] == len(around[1]) - 1 == path_cost(around[1], _costs(walls=walls))
    assert around[1][0] == "0103" and around[1][-1] == "0703"
    assert all(grid.adjacent(p, q) for p, q in zip(around[1], around[1][1:]))


def test_no_path_through_a_wall_is_none():
    grid = Grid(7, 5)
    wall = {make_label(4, r) for r in range(1, 6)}
    assert cheapest_path("0103", "0703", grid.neighbours, _costs(walls=wall)) is None
    assert cheapest_path("0103", "0703", grid.neighbours, _costs(), limit=3) is None


def test_ties_are_broken_the_same_way_every_time():
    grid = Grid(7, 5)
    first = cheapest_path("0101", "0705", grid.neighbours, _costs())
    reordered = cheapest_path("0101", "0705", lambda h: list(reversed(grid.neighbours(h))), _costs())
    assert first == reordered


def test_a_star_agrees_with_dijkstra():
    grid = Grid(12, 10)
    dear = {h for h in grid.labels() if (hash(h) % 5) == 0}
    for goal in ("1210", "0610", "1201"):
        plain = cheapest_path("0101", goal, grid.neighbours, _costs(dear))
        guided = cheapest_path("0101", goal, grid.neighbours, _costs(dear),
                               heuristic=lambda h, g=goal: grid.distance(h, g))
        assert plain[0] == guided[0]


def test_many_starts_and_goals_and_all_costs():
    grid = Grid(7, 5)
    best = cheapest_path_from(["0101", "0705"], ["0703", "0301"], grid.neighbours, _costs())
    assert best[0] == 2 and best[1][0] in ("0101", "0705")
    reach = costs_from(["0303"], grid.neighbours, _costs(), limit=2)
    assert reach == {h: grid.distance("0303", h) for h in grid.labels() if grid.distance("0303", h) <= 2}
