"""hexalattice's own plotter in a process of its own: the same grid and terrain colours as `gm map`
draws, at the same size, to PNG. The peer of `gm map` in `make bench` (run as a fresh process, as
`gm map` is). Run: .venv/bin/python bench/hexalattice_plot.py MAP WIDTH_PX HEIGHT_PX OUT.png
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    map_name, width, height, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from hexalattice.hexalattice import create_hex_grid, plot_single_lattice_custom_colors

    from gm.games.railway_rivals.hexmaps import load_map
    from gm.hexmap.style import TERRAIN_COLOURS

    hexmap = load_map(map_name)
    columns, rows = hexmap.grid.columns, hexmap.grid.rows
    colours = np.array([matplotlib.colors.to_rgba(TERRAIN_COLOURS.get(hexmap.terrain[h], "#ffffff"))
                        for h in hexmap.grid.labels()])
    centres, _ = create_hex_grid(nx=rows, ny=columns, min_diam=1.0, plotting_gap=0.0, do_plot=False)
    fig = plt.figure(figsize=(width / 110, height / 110))
    ax = fig.add_axes((0, 0, 1, 1))
    # its custom-colour plotter runs when given flat arrays (do_plot=True passes (n, 1) ones and crashes)
    plot_single_lattice_custom_colors(centres[:, 0], centres[:, 1], face_color=colours,
                                      edge_color=colours * 0 + np.array([0.6, 0.6, 0.6, 1]), min_diam=1.0,
                                      plotting_gap=0.0, rotate_deg=90.0, line_width=0.3, h_ax=ax)
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
