"""Benchmark: a whole six-company Railway Rivals game played by bots, without rendering, and the
race schedule of the 36-town campaign map.

Prints figures only (no asserts on time). Goals: the whole game under 3 s; the schedule under
0.1 s. Run: .venv/bin/python bench/bench_railway_rivals.py [MAP] [GAMES]
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gm.store.dice import Dice, turn_seed  # noqa: E402
from gm.games import get  # noqa: E402
from gm.games.railway_rivals.hexmaps import load_map  # noqa: E402
from gm.store.orders import read_frame  # noqa: E402
from gm.games.railway_rivals.operate.schedule import draw_schedule  # noqa: E402

SIX = ["blue", "red", "green", "yellow", "purple", "orange"]


def whole_game(map_name: str, seed: int) -> tuple[float, int, dict]:
    game = get("railway-rivals")
    master = seed.to_bytes(32, "big")
    rng = random.Random(seed)
    start = time.perf_counter()
    state = game.setup(map_name, SIX, {}, Dice(turn_seed(master, 0)))
    turn = 1
    while game.due(state):
        orders = {p: game.parse(state, p, read_frame(game.random_orders(state, p, rng), p).lines)
                  for p in game.due(state)}
        state, _ = game.resolve(state, orders, Dice(turn_seed(master, turn)))
        turn += 1
    return time.perf_counter() - start, turn - 1, state


def main() -> None:
    map_name = sys.argv[1] if len(sys.argv) > 1 else "scotland"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    load_map(map_name)  # the map file once, as a campaign would
    times = []
    for seed in range(1, games + 1):
        seconds, turns, state = whole_game(map_name, seed)
        times.append(seconds)
        won = sum(state["races_won"].values())
        print(f"game {seed}: {turns} turns, {won} races won, winner {', '.join(state['winner'])}: {seconds:.2f} s")
    print(f"whole six-company game on {map_name}, bots, no rendering: median {statistics.median(times):.2f} s "
          f"(goal < 3 s)")
    hexmap = load_map(map_name)
    draws = []
    for n in range(20):
        t = time.perf_counter()
        draw_schedule(hexmap, 6, Dice(bytes([n]) * 32))
        draws.append(time.perf_counter() - t)
    print(f"race schedule for {map_name} ({len(hexmap.towns)} town numbers): median "
          f"{statistics.median(draws) * 1000:.1f} ms (goal < 100 ms)")


if __name__ == "__main__":
    main()
