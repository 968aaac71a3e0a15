"""Benchmark: the waits of issue 16, each as a ratio against its peer, both measured in this one run as
fresh processes taken in turns (a busy moment of the machine falls on both alike).

- `gm map` of a six-company Scotland campaign against hexalattice's own plotter drawing the same grid
  at the same size (goal: gm at least 3x faster);
- `gm resolve` of a Railway Rivals race round (six companies) and of a Thurn und Taxis turn (four
  players) against `python -c "import click"` (goal: at most 8x);
- the peak memory of each resolve (goal: under 100 MB).

Prints figures only (no asserts on time). Run: .venv/bin/python bench/bench_waits.py [RUNS]
"""
from __future__ import annotations

import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PY = sys.executable
GM = str(Path(PY).parent / "gm")
SIX = ["blue", "red", "green", "yellow", "purple", "orange"]
# as installed: byte-code caches are written (this sandbox may set PYTHONDONTWRITEBYTECODE)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(cmd: list[str], env: dict | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env or ENV)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:3])}... failed: {process.stderr.read().decode()[-300:]}")
    return wall, usage.ru_utime + usage.ru_stime


# the peak memory of a command, measured by a small parent: a child forked from this (large) process
# would count this process's memory as its own
_PEAK = ("import os, sys\npid = os.fork()\nif pid == 0:\n    os.execv(sys.argv[1], sys.argv[1:])\n"
         "_, status, usage = os.wait4(pid, 0)\nprint(usage.ru_maxrss)\n"
         "sys.exit(os.waitstatus_to_exitcode(status))\n")


def peak_mb(cmd: list[str]) -> float:
    done = subprocess.run([PY, "-S", "-c", _PEAK, *cmd], capture_output=True, text=True, env=ENV, check=True)
    return int(done.stdout.split()[-1]) / 1024


def in_turns(commands: dict[str, object], runs: int) -> dict[str, list[tuple[float, float]]]:
    """Each command (a list, or a function giving the list for run n) once untimed, then ``runs``
    times each, in turns."""
    out: dict[str, list] = {name: [] for name in commands}
    for n in range(-1, runs):
        for name, cmd in commands.items():
            figures = run(cmd(n) if callable(cmd) else cmd)
            if n >= 0:
                out[name].append(figures)
    return out


def median(figures: list[tuple], k: int) -> float:
    return statistics.median(f[k] for f in figures)


def row(what: str, figure: str, note: str = "") -> None:
    print(f"  {what:<60} {figure:>12}   {note}")


def ratio(name: str, ours: list, peer: list, *, goal: str, faster: bool) -> None:
    wall = median(peer, 0) / median(ours, 0) if faster else median(ours, 0) / median(peer, 0)
    cpu = median(peer, 1) / median(ours, 1) if faster else median(ours, 1) / median(peer, 1)
    row(name, f"{wall:.2f}x wall", f"{cpu:.2f}x cpu ({goal})")


def play_until(camp: Path, game_name: str, players: list[str], stop, *, map_name: str | None = None) -> None:
    """A campaign played by random legal orders until ``stop(state)``; the next turn's orders stored."""
    from gm import games
    from gm.turn import engine
    from gm.store.campaign import Campaign
    game = games.get(game_name)
    engine.new_campaign(camp, game_name, [f"{p}:{p.title()} Lines" for p in players], map_name=map_name,
                        master=bytes(range(32)))
    campaign, rng = Campaign(camp), random.Random(7)
    while True:
        state = campaign.state()
        for p in game.due(state):
            campaign.store_orders(campaign.current_turn, p, f"player: {p}\n" + game.random_orders(state, p, rng))
        if stop(state):
            return
        engine.resolve(campaign)


def resolve_each_time(ready: Path, tmp: Path, label: str):
    """A command resolving a fresh copy of ``ready`` each run (the same turn every time)."""
    def command(n: int) -> list[str]:
        camp = tmp / f"{label}-{n + 1}"
        shutil.rmtree(camp, ignore_errors=True)
        shutil.copytree(ready, camp)
        return [GM, "resolve", str(camp)]
    return command


def bench_map(rr: Path, tmp: Path, runs: int) -> None:
    png = tmp / "map.png"
    subprocess.run([GM, "map", str(rr), "-o", str(png)], check=True, env=ENV, stdout=subprocess.DEVNULL)
    from PIL import Image
    with Image.open(png) as image:
        width, height = image.size
    peer = [PY, str(ROOT / "bench" / "hexalattice_plot.py"), "scotland", str(width), str(height),
            str(tmp / "hexalattice.png")]
    print(f"Fresh processes, median of {runs} runs taken in turns (Scotland, six companies, {width}x{height} px)")
    maps = in_turns({"gm": [GM, "map", str(rr), "-o", str(png)], "hexalattice": peer}, runs)
    cold = dict(ENV, GM_CACHE_DIR="off")
    gm_cold = [run([GM, "map", str(rr), "-o", str(png)], cold) for _ in range(max(runs // 2, 1))]
    row("gm map (the map's unchanging layer kept on disk)", f"{median(maps['gm'], 0) * 1000:.0f} ms",
        f"cpu {median(maps['gm'], 1) * 1000:.0f} ms")
    row("gm map, nothing kept (GM_CACHE_DIR=off)", f"{median(gm_cold, 0) * 1000:.0f} ms",
        f"cpu {median(gm_cold, 1) * 1000:.0f} ms")
    row("hexalattice's plotter, same grid and size", f"{median(maps['hexalattice'], 0) * 1000:.0f} ms",
        f"cpu {median(maps['hexalattice'], 1) * 1000:.0f} ms")
    ratio("hexalattice / gm map", maps["gm"], maps["hexalattice"], goal="goal >= 3x", faster=True)
    ratio("hexalattice / gm map, nothing kept", gm_cold, maps["hexalattice"], goal="goal >= 3x", faster=True)


def bench_resolves(rr: Path, tt: Path | None, tmp: Path, runs: int) -> None:
    commands = {"click": [PY, "-c", "import click"], "rr": resolve_each_time(rr, tmp, "rr")}
    if tt is not None:
        commands["tt"] = resolve_each_time(tt, tmp, "tt")
    waits = in_turns(commands, runs)
    row("python -c 'import click'", f"{median(waits['click'], 0) * 1000:.0f} ms",
        f"cpu {median(waits['click'], 1) * 1000:.0f} ms")
    for name, label in (("rr", "gm resolve, Railway Rivals race round (6 companies)"),
                        ("tt", "gm resolve, Thurn und Taxis turn (4 players)")):
        if name not in waits:
            continue
        row(label, f"{median(waits[name], 0) * 1000:.0f} ms", f"cpu {median(waits[name], 1) * 1000:.0f} ms")
        ratio("  / import click", waits[name], waits["click"], goal="goal <= 8x", faster=False)
        row("  peak memory", f"{peak_mb(commands[name](runs)):.0f} MB", "goal < 100 MB")


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    tmp = Path(tempfile.mkdtemp(prefix="gm-waits-"))
    ENV["GM_CACHE_DIR"] = str(tmp / "cache")
    ENV.setdefault("MPLBACKEND", "Agg")
    os.environ.update(GM_CACHE_DIR=ENV["GM_CACHE_DIR"], MPLBACKEND=ENV["MPLBACKEND"])
    try:
        rr = tmp / "rr"
        play_until(rr, "railway-rivals", SIX, lambda s: s.get("stage") == "operate", map_name="scotland")
        bench_map(rr, tmp, runs)
        tt: Path | None = tmp / "tt"
        try:
            play_until(tt, "thurn-und-taxis", SIX[:4], lambda s: True)
        except Exception as exc:  # noqa: BLE001 - a game being reworked still lets the others be measured
            print(f"  Thurn und Taxis not measured: {type(exc).__name__}: {exc}")
            tt = None
        bench_resolves(rr, tt, tmp, runs)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
