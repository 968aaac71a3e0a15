"""`make bench`: speed figures, printed, never asserted (shared machines are noisy).

Each figure is a median over several runs taken in this one run; ratios compare figures taken
side by side.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PY = sys.executable
GM = str(Path(PY).parent / "gm")
CLICK: dict[str, float] = {}  # `python -c "import click"`, measured first: the peer of start-up figures


def wall(cmd: list[str], runs: int = 7) -> float:
    return wall_and_cpu(cmd, runs)[0]


def wall_and_cpu(cmd: list[str], runs: int = 7, extra_env: dict[str, str] | None = None) -> tuple[float, float]:
    """Median wall time and median CPU time (user + sys) of a command: CPU time is what the
    command itself costs, wall time what a person waits on a machine that may be busy."""
    import resource
    # as installed: byte-code caches are written once (this sandbox sets PYTHONDONTWRITEBYTECODE)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | (extra_env or {})
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def timed(func, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def row(what: str, figure: str, goal: str = "") -> None:
    print(f"  {what:<58} {figure:>14}   {goal}")


def bench_startup() -> None:
    print("Start-up (median of 9 runs, wall time)")
    click_time, click_cpu = wall_and_cpu([PY, "-c", "import click"], 9)
    help_time, help_cpu = wall_and_cpu([GM, "--help"], 9)
    row("python -c 'import click'", f"{click_time * 1000:.0f} ms", f"cpu {click_cpu * 1000:.0f} ms")
    row("gm --help", f"{help_time * 1000:.0f} ms", f"cpu {help_cpu * 1000:.0f} ms")
    row("gm --help / import click", f"{help_time / click_time:.2f}x wall",
        f"{help_cpu / click_cpu:.2f}x cpu (goal <= 1.5x)")
    CLICK.update(wall=click_time, cpu=click_cpu)


def bench_network(tmp: Path) -> None:
    from gm.turn import engine
    from gm.store.campaign import Campaign
    from gm.games.network.networks import bench_detection
    print("Network")
    camp = tmp / "network"
    engine.new_campaign(camp, "network", ["dark", "light"], master=hashlib.sha256(b"bench").digest())
    order = tmp / "dark.txt"
    order.write_text("player: dark\nplace c3\n")
    check_wall, check_cpu = wall_and_cpu([GM, "check", str(camp), str(order)])
    row("gm check of one order (subprocess)", f"{check_wall * 1000:.0f} ms",
        f"cpu {check_cpu * 1000:.0f} ms (goal < 300 ms)")
    # the games are found through entry points; their table is cached (gm.games.discovery)
    cold_wall, cold_cpu = wall_and_cpu([GM, "check", str(camp), str(order)], extra_env={"GM_CACHE_DIR": "off"})
    row("gm check, entry points read without the cache", f"{cold_wall * 1000:.0f} ms",
        f"cpu {cold_cpu * 1000:.0f} ms ({cold_cpu / check_cpu:.2f}x the cached)")
    if CLICK:
        row("gm check / import click", f"{check_wall / CLICK['wall']:.2f}x wall",
            f"{check_cpu / CLICK['cpu']:.2f}x cpu")
    campaign = Campaign(camp)
    moves = ["c3", "c6", "d5", "e3", "f4", "b4", "g6", "e6", "d2", "f2", "b6", "g5"]
    times = []
    for n, square in enumerate(moves):
        player = "dark" if n % 2 == 0 else "light"
        campaign.store_orders(campaign.current_turn, player, f"player: {player}\nplace {square}\n")
        start = time.perf_counter()
        engine.resolve(campaign)
        times.append(time.perf_counter() - start)
    row("resolve one turn + 10 reports + board PNG (in process)", f"{statistics.median(times) * 1000:.0f} ms",
        "goal < 1 s")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    walls = []
    for n, square in enumerate(["g2", "b7", "a5", "d1", "h6"]):
        player = "dark" if n % 2 == 0 else "light"
        order.write_text(f"player: {player}\nplace {square}\n")
        subprocess.run([GM, "submit", str(camp), str(order)], stdout=subprocess.DEVNULL, check=True, env=env)
        start = time.perf_counter()
        subprocess.run([GM, "resolve", str(camp)], stdout=subprocess.DEVNULL, check=True, env=env)
        walls.append(time.perf_counter() - start)
    row("gm resolve of one turn (subprocess, start-up included)",
        f"{statistics.median(walls) * 1000:.0f} ms", "goal < 1 s")
    figures = bench_detection(10_000)
    rate = figures["per_second"]
    row(f"network detection, {figures['positions']:,} random legal positions", f"{rate:,.0f} /s",
        f"{figures['networks']} networks found")


def bench_script(path: Path, title: str) -> None:
    if not path.exists():
        return
    print(title)
    sys.stdout.flush()
    subprocess.run([PY, str(path)], check=False)


def section(func, *args) -> None:
    """One part of the bench; a part that fails says so and the others still run."""
    try:
        func(*args)
    except Exception as exc:  # noqa: BLE001 - a bench reports, it does not stop
        print(f"  not measured: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}")


def main() -> int:
    os.environ.setdefault("MPLBACKEND", "Agg")
    tmp = Path(tempfile.mkdtemp(prefix="gm-bench-"))
    try:
        bench_startup()
        section(bench_network, tmp)
        bench_script(ROOT / "bench" / "bench_waits.py", "Waits of issue 16: fresh processes against their peers")
        bench_script(ROOT / "bench" / "bench_replay.py", "gm replay and gm dice verify against the number of turns")
        bench_script(ROOT / "bench" / "bench_railway_rivals.py", "Railway Rivals")
        bench_script(ROOT / "bench" / "bench_imperial_network.py", "Imperial Network")
        bench_script(ROOT / "bench" / "run_pass.py", "gm run (unattended passes)")
        bench_script(ROOT / "bench" / "mail.py", "Mail")
        bench_script(ROOT / "bench" / "mail_send.py", "Mail out (the one delivery path)")
        bench_script(ROOT / "bench" / "report_mail.py", "Report mail and forum copy (issue 24 item 11)")
        bench_script(ROOT / "bench" / "site.py", "Campaign website")
        bench_script(ROOT / "bench" / "check_junk.py", "gm check on a megabyte of junk (issue 22 item 11)")
        bench_script(ROOT / "bench" / "web.py", "The players' web door (gm serve)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
