"""Benchmark: the web door's check (`POST /c/CAMPAIGN/check` to a running `gm serve`, uvicorn on
loopback) against a `gm check` process on the same orders. Prints figures only (no asserts on time).
Goal: a check on the web takes at most a fifth of a `gm check` process. 200 players at once:
tests/test_web_load.py (`pytest -s` prints its medians). Run: .venv/bin/python bench/web.py
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from gm.delivery.web.tokens import sign_in_link  # noqa: E402
from gm.store.campaign import Campaign  # noqa: E402
from test_web_support import GM, Client, Server, make_campaign  # noqa: E402

ORDERS = "player: ann\nround 1: (0203) 0204\nround 2: 0205 0206\n"


def median_of(func, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "campaigns"
        root.mkdir()
        folder = make_campaign(root, "rr", "railway-rivals", ["ann", "bob"])
        order_file = Path(tmp) / "ann.txt"
        order_file.write_text(ORDERS)
        process = median_of(lambda: subprocess.run([GM, "check", str(folder), str(order_file)],
                                                   capture_output=True, check=False), 7)
        link = sign_in_link(Campaign(folder), "ann")
        with Server(root) as server:
            client = Client(server.port)
            client.sign_in(link)
            client.post("/c/rr/check", {"orders": ORDERS})
            web = median_of(lambda: client.post("/c/rr/check", {"orders": ORDERS}), 15)
        print(f"  {'gm check (a process), Railway Rivals orders':<58} {process * 1000:>11.0f} ms")
        print(f"  {'POST /check to gm serve, the same orders':<58} {web * 1000:>11.1f} ms")
        print(f"  {'web check / gm check':<58} {web / process:>13.2f}x   goal: at most 0.20x")


if __name__ == "__main__":
    main()
