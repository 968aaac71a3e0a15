"""Benchmark (issue 16 item 5): `gm replay` and `gm dice verify` cost in proportion to the number of turns.

Each game is played by random legal orders to 1, N and 2N turns (the same seed, so the first turns
are the same), then both commands run on each campaign as fresh processes, taken in turns. The cost
of a turn is the difference between campaigns over the turns between them; linear cost means a turn
among N+1..2N costs what one among 2..N did: "later/earlier" near 1 (above 1, each turn costs more
the longer the campaign). Below half a millisecond a turn, no ratio is printed.

Prints figures only (no asserts on time). Run: .venv/bin/python bench/bench_replay.py [RUNS]
"""
from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_waits import ENV, GM, SIX, in_turns, play_until, row  # noqa: E402

# (game, players, N): Network's random games end near turn 26, so its N is 12
GAMES = (("network", ["dark", "light"], 12), ("thurn-und-taxis", SIX[:4], 20))


def campaign(tmp: Path, game: str, players: list[str], turns: int) -> Path:
    from gm.store.campaign import Campaign
    camp = tmp / f"{game}-{turns}"
    count = [0]

    def stop(state) -> bool:
        count[0] += 1
        return count[0] > turns
    play_until(camp, game, players, stop)
    played = Campaign(camp).current_turn - 1
    if played < turns:
        raise RuntimeError(f"{game}: the game ended after {played} turns, before {turns}")
    return camp


def bench_game(tmp: Path, game: str, players: list[str], n: int, runs: int) -> None:
    sizes = (1, n, 2 * n)
    camps = {size: campaign(tmp, game, players, size) for size in sizes}
    commands = {}
    for size, camp in camps.items():
        commands[f"replay {size}"] = [GM, "replay", str(camp)]
        commands[f"verify {size}"] = [GM, "dice", "verify", str(camp)]
    figures = in_turns(commands, runs)
    cpu = {name: statistics.median(f[1] for f in runs_) for name, runs_ in figures.items()}
    for what, label in (("replay", "gm replay"), ("verify", "gm dice verify")):
        one, first, both = (cpu[f"{what} {size}"] for size in sizes)
        row(f"{label}, {game}, 1 / {n} / {2 * n} turns",
            f"{one * 1000:.0f}/{first * 1000:.0f}/{both * 1000:.0f} ms", "cpu, whole process")
        early, late = (first - one) / (n - 1), (both - first) / n
        ratio = f"{late / early:.2f}x" if early > 0.0005 else "-"
        row(f"  a turn among turns 2-{n} / among {n + 1}-{2 * n}", f"{early * 1000:.1f}/{late * 1000:.1f} ms",
            f"later/earlier {ratio} (linear: ~1)")


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    tmp = Path(tempfile.mkdtemp(prefix="gm-replay-"))
    ENV["GM_CACHE_DIR"] = str(tmp / "cache")
    ENV.setdefault("MPLBACKEND", "Agg")
    print(f"Fresh processes, cpu time, median of {runs} runs taken in turns")
    try:
        for game, players, n in GAMES:
            try:
                bench_game(tmp, game, players, n, runs)
            except Exception as exc:  # noqa: BLE001 - one game not measured lets the others be
                print(f"  {game} not measured: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
