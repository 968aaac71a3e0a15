"""Issue 17: fuzzed order files for Thurn und Taxis. Only OrderError/OrderErrors escape the reader,
every error names its line; the slowest file's time is printed (`pytest -s`), never asserted."""
from __future__ import annotations

import random

from gm.store.dice import Dice
from gm.games import get
from gm.store.orders import read_frame
from support.order_fuzz import fuzz

GAME = get("thurn-und-taxis")
WORDS = ["official:", "draw:", "play:", "score:", "discard:", "deck", "display", "left", "right", "new", "houses",
         "postmaster", "carrier", "München", "Munchen", "Frankfurt am Main", "Ulm", "none", "-", "x"]


def positions(map_name: str, players: list[str], seed: int, turns: int) -> list[tuple[dict, str]]:
    """(state, player to move) along a seeded random game."""
    rng = random.Random(seed)
    state = GAME.setup(map_name, players, {}, Dice(b"fuzz %d" % seed))
    out = []
    for turn in range(turns):
        if GAME.finished(state):
            break
        player = GAME.due(state)[0]
        out.append((state, player))
        orders = GAME.parse(state, player, read_frame(GAME.random_orders(state, player, rng)).lines)
        state, _ = GAME.resolve(state, {player: orders}, Dice(b"fuzz %d %d" % (seed, turn)))
    return out


def test_fuzzed_orders_raise_only_order_errors():
    states = positions("map1", ["ann", "bob", "cy"], 1, 60)[::3] + positions("map2", ["ann", "bob"], 2, 40)[::4]
    figures = fuzz(GAME, states, range(2200), WORDS)
    assert figures["files"] >= 2000
    print(f"\nThurn und Taxis fuzz: {figures['files']} files; slowest mutated file {figures['slowest']:.3f} s, "
          f"slowest 1 MB probe {figures['slowest_probe']:.3f} s")
