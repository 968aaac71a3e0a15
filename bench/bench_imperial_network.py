"""Benchmark: 200 four-player Imperial Network games between bots, without rendering.

Prints games per second and the balance figures of the run (no asserts on time).
Run: .venv/bin/python bench/bench_imperial_network.py [GAMES]
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gm.turn.simulate import describe, run  # noqa: E402


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    start = time.perf_counter()
    figures = run("imperial-network", games, 4, seed=0)
    elapsed = time.perf_counter() - start
    turns = figures["mean_turns"] * games
    print(f"imperial-network: {games} four-player games in {elapsed:.2f} s: "
          f"{games / elapsed:.1f} games/s, {turns / elapsed:.0f} turns/s")
    for line in describe(figures):
        print(f"  {line}")


if __name__ == "__main__":
    main()
