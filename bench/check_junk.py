"""Benchmark: `gm check` on a 1 MB file of junk against `gm check` on a clean order file, for each
game (issue 22 item 11: at most a screenful, fast). Prints figures only (no asserts on time).
Run: .venv/bin/python bench/check_junk.py
"""
from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
GM = str(Path(sys.executable).parent / "gm")
GAMES = {"network": ["ann", "bob"], "railway-rivals": ["ann", "bob", "cat"],
         "thurn-und-taxis": ["ann", "bob", "cat"], "imperial-network": ["ann", "bob", "cat"]}


def junk(size: int = 1_000_000, seed: int = 1) -> str:
    rng = random.Random(seed)
    lines, total = [], 0
    while total < size:
        line = "".join(rng.choice("abcdefghij klmnop0123456789-:>") for _ in range(rng.randint(1, 80)))
        lines.append(line)
        total += len(line) + 1
    return "player: ann\nturn: 1\n" + "\n".join(lines)


def measure(cmd: list[str], runs: int = 5) -> tuple[float, int]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(cmd, capture_output=True, env=env)
    times, lines = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, env=env)
        times.append(time.perf_counter() - start)
        lines = len((done.stdout + done.stderr).splitlines())
    return statistics.median(times), lines


def main() -> None:
    from gm.turn import engine
    tmp = Path(tempfile.mkdtemp(prefix="gm-bench-check-"))
    (tmp / "junk.txt").write_text(junk())
    (tmp / "short.txt").write_text("player: ann\nturn: 1\nnonsense\n")
    for game, players in GAMES.items():
        camp = tmp / game
        try:
            engine.new_campaign(camp, game, players, master=bytes(32))
        except Exception as exc:  # noqa: BLE001 - a bench reports, it does not stop
            print(f"  {game}: not measured ({exc})")
            continue
        big, lines = measure([GM, "check", str(camp), str(tmp / "junk.txt")])
        small, _ = measure([GM, "check", str(camp), str(tmp / "short.txt")])
        print(f"  gm check, 1 MB of junk, {game:<18} {big:6.2f} s median, {lines} lines "
              f"(a 3-line file: {small:.2f} s; ratio {big / small:.1f})")


if __name__ == "__main__":
    main()
