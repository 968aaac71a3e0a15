"""Benchmark: one `gm run` pass over 100 idle campaigns (a schedule, a deadline days away, some
orders in, nothing due), as a cron job meets them most of the time.

Prints figures only (no asserts on time). Goal: well under a second per ten campaigns, so a
five-minute cron job over hundreds of campaigns stays cheap.
Run: .venv/bin/python bench/run_pass.py [N]
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
GM = str(Path(sys.executable).parent / "gm")
NOW = "2026-12-01T12:00Z"
GUESS_GM = (f"import sys; sys.path.insert(0, {str(ROOT / 'tests')!r}); from gm import games; "
            "games.register('guess', 'support.guessgame:GAME'); from gm.cli import main; "
            "sys.argv[0] = 'gm'; main()")
SETTINGS = """schedule: {every: 7d, at: "18:00", zone: Europe/London}
deadline: 2026-12-04T18:00+00:00
grace: 6h
early: true
remind: 1d
"""


def make_template(folder: Path) -> tuple[Path, str]:
    """One campaign of a real game (Network, else the first that sets up), with one order in."""
    from gm.turn import engine
    errors = []
    for game, players in (("network", ["dark", "light"]), ("thurn-und-taxis", ["ann", "bob"]),
                          ("railway-rivals", ["blue", "red"])):
        path = folder / f"template-{game}"
        try:
            camp = engine.new_campaign(path, game, [f"{p}:{p.title()}:{p}@example.org" for p in players],
                                       master=bytes(range(32)))
        except Exception as exc:  # a game mid-change on this branch: try the next one
            errors.append(f"{game}: {type(exc).__name__}")
            shutil.rmtree(path, ignore_errors=True)
            continue
        with open(camp.path / "campaign.yaml", "a", encoding="utf-8") as handle:
            handle.write(SETTINGS)
        return path, game
    # every real game failed (a branch mid-change): the tests' tiny game, said so in the figure
    sys.path.insert(0, str(ROOT / "tests"))
    from gm import games
    games.register("guess", "support.guessgame:GAME")
    camp = engine.new_campaign(folder / "template-guess", "guess",
                               ["ann:Ann:ann@example.org", "bob:Bob:bob@example.org"], master=bytes(range(32)))
    with open(camp.path / "campaign.yaml", "a", encoding="utf-8") as handle:
        handle.write(SETTINGS)
    print(f"  (no real game sets up on this branch: {'; '.join(errors)}; using the tests' guess game)")
    return camp.path, "guess"


def run_pass(folders: list[str], game: str) -> float:
    env = dict(os.environ, GM_NOW=NOW)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    command = [GM] if not game.startswith("guess") else [sys.executable, "-c", GUESS_GM]
    subprocess.run([*command, "run", *folders], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                   check=False)
    return time.perf_counter() - start


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    os.environ.setdefault("MPLBACKEND", "Agg")
    tmp = Path(tempfile.mkdtemp(prefix="gm-bench-run-"))
    try:
        template, game = make_template(tmp)
        folders = []
        for n in range(count):
            target = tmp / "league" / f"c{n:03d}"
            shutil.copytree(template, target)
            folders.append(str(target))
        run_pass(folders, game)  # the first pass writes each campaign's set-up reports: not idle yet
        run_pass(folders, game)
        idle = [run_pass(folders, game) for _ in range(5)]
        one = [run_pass(folders[:1], game) for _ in range(5)]
        median, single = statistics.median(idle), statistics.median(one)
        print(f"  {'gm run over ' + str(count) + ' idle ' + game + ' campaigns (subprocess)':<58} "
              f"{median * 1000:>11.0f} ms   {(median - single) / max(count - 1, 1) * 1000:.1f} ms per campaign "
              f"after start-up ({single * 1000:.0f} ms for one)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
