"""Benchmark: drawing the full campaign map with six companies' track to PNG, against hexalattice,
both drawing again and again in this one process (after their imports). No command draws twice in
a process: the goal's figure is the fresh-process one of bench_waits.py, which `make bench` runs;
this one only shows the drawing alone. Also holds plausible_track, used by the tests.
Prints figures only (no asserts on time). Run: .venv/bin/python bench/bench_hexmap.py [MAP]
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gm.games.railway_rivals.hexmaps import load_map  # noqa: E402
from gm.hexmap.paths import cheapest_path  # noqa: E402

COMPANIES = ["blue", "red", "green", "yellow", "purple", "brown"]
TERRAIN_EXTRA = {".": 0, "f": 1, "s": 2, "m": 2}
ROUNDS = 7


def build_cost(hexmap):
    """Pips to build from a to b (the rules' costs; enough to route plausible track)."""
    def cost(a: str, b: str):
        if not hexmap.buildable(b) or hexmap.blocked_side(a, b):
            return None
        crossing = {"wide": 3, "river": 2, None: 0}[hexmap.river_crossing(a, b)]
        return 1 + TERRAIN_EXTRA[hexmap.terrain[a]] + TERRAIN_EXTRA[hexmap.terrain[b]] + crossing
    return cost


def plausible_track(hexmap, companies=COMPANIES, towns_each: int = 6) -> dict[str, list[list[str]]]:
    """Each company links its starting point to the towns nearest its network, cheapest way each time."""
    cost = build_cost(hexmap)
    towns = hexmap.town_list()
    starts = (hexmap.start * len(companies))[:len(companies)]
    track: dict[str, list[list[str]]] = {}
    for company, start in zip(companies, starts):
        network, links = {start}, []
        for _ in range(towns_each):
            targets = [t.hex for t in towns if t.hex not in network]
            if not targets:
                break
            target = min(targets, key=lambda h: (min(hexmap.grid.distance(h, n) for n in network), h))
            best = None
            for origin in sorted(network, key=lambda n: (hexmap.grid.distance(n, target), n))[:3]:
                route = cheapest_path(origin, target, hexmap.grid.neighbours, cost)
                if route and (best is None or route[0] < best[0]):
                    best = route
            if best is None:
                network.add(target)
                continue
            links += [[a, b] for a, b in zip(best[1], best[1][1:])]
            network.update(best[1])
        track[company] = links
    return track


def draw_ours(hexmap, track, out: Path) -> None:
    from gm.hexmap.render import draw_map, save_figure

    save_figure(draw_map(hexmap, track=track, colours=dict(zip(COMPANIES, COMPANIES)), title=hexmap.name), out)


def hexalattice_plotter(hexmap, size: tuple[float, float]):
    """A function drawing the same grid and terrain colours with hexalattice's own plotting, saved the same
    way; and a note when its documented way (do_plot=True) fails."""
    import numpy as np
    from gm.hexmap.lattice import _validated
    from gm.hexmap.render import TERRAIN_COLOURS
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from hexalattice.hexalattice import create_hex_grid, plot_single_lattice_custom_colors

    columns, rows = _validated(hexmap.grid.columns, hexmap.grid.rows)
    note = ""
    try:  # its documented way: do_plot=True
        _, ax = create_hex_grid(nx=rows, ny=columns, min_diam=1.0, plotting_gap=0.0, do_plot=True)
        plt.close(ax.figure)
    except Exception as exc:  # noqa: BLE001 - we report whatever it is
        note = f"create_hex_grid(do_plot=True) fails: {type(exc).__name__}: {exc}"
    colours = np.array([matplotlib.colors.to_rgba(TERRAIN_COLOURS.get(hexmap.terrain[h], "#ffffff"))
                        for h in hexmap.grid.labels()])

    def draw(out: Path) -> None:
        centres, _ = create_hex_grid(nx=rows, ny=columns, min_diam=1.0, plotting_gap=0.0, do_plot=False)
        fig = plt.figure(figsize=size)
        ax = fig.add_axes((0, 0, 1, 1))
        # its custom-colour plotter runs when given flat arrays (do_plot passes (n, 1) ones and crashes)
        plot_single_lattice_custom_colors(centres[:, 0], centres[:, 1], face_color=colours,
                                          edge_color=colours * 0 + np.array([0.6, 0.6, 0.6, 1]), min_diam=1.0,
                                          plotting_gap=0.0, rotate_deg=90.0, line_width=0.3, h_ax=ax)
        fig.savefig(out, dpi=110)
        plt.close(fig)
    return draw, note


def timed(draw, out: Path) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    draw(out)
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    hexmap = load_map(sys.argv[1] if len(sys.argv) > 1 else "scotland")
    track = plausible_track(hexmap)
    links = sum(len(v) for v in track.values())
    print(f"map {hexmap.name}: {hexmap.grid.columns}x{hexmap.grid.rows} hexes, "
          f"{len(COMPANIES)} companies, {links} track links, {ROUNDS} runs each, taken in turns")
    with tempfile.TemporaryDirectory() as tmp:
        ours_png, theirs_png = Path(tmp) / "ours.png", Path(tmp) / "hexalattice.png"
        import gm.hexmap.render  # noqa: F401 - importing matplotlib is not drawing
        first, _ = timed(lambda out: draw_ours(hexmap, track, out), ours_png)
        from PIL import Image

        with Image.open(ours_png) as image:
            inches = (image.size[0] / 110, image.size[1] / 110)
        theirs_draw, note = hexalattice_plotter(hexmap, inches)
        theirs_draw(theirs_png)  # its first drawing (pyplot's start-up) is not timed either
        ours, theirs = [], []
        for _ in range(ROUNDS):  # in turns, so a busy moment of the machine falls on both alike
            ours.append(timed(lambda out: draw_ours(hexmap, track, out), ours_png))
            theirs.append(timed(theirs_draw, theirs_png))
        size = ours_png.stat().st_size
    wall, cpu = (statistics.median(x) for x in zip(*ours))
    their_wall, their_cpu = (statistics.median(x) for x in zip(*theirs))
    print(f"figure {inches[0]:.1f} x {inches[1]:.1f} in at 110 dpi for both")
    print(f"ours, first drawing in a fresh process after imports (fonts, glyph masks, the map's unchanging layer): "
          f"{first:.3f} s; later drawings of the same map copy that layer")
    print(f"ours (terrain, rivers, towns, hex numbers, track, legend) to PNG: median {wall:.3f} s wall, "
          f"{cpu:.3f} s CPU ({size // 1024} KiB)")
    if note:
        print(f"hexalattice: {note}")
    print(f"hexalattice plot_single_lattice_custom_colors (hexes and colours only) to PNG: "
          f"median {their_wall:.3f} s wall, {their_cpu:.3f} s CPU")
    print(f"ratio hexalattice / ours: {their_wall / wall:.2f}x wall, {their_cpu / cpu:.2f}x CPU (goal >= 3x); "
          f"ours under 1.5 s: {'yes' if wall < 1.5 else 'no'}")


if __name__ == "__main__":
    main()
