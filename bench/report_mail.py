"""`make bench`: how heavy a report mail is and how long a forum copy takes (issue 24 item 11), for a
six-company Railway Rivals campaign on Scotland after its six build turns (bots' orders).

Figures in one run, never asserted:
- each player's report mail as sent (the map around their network) against the same mail with the
  whole map, as gm sent it before (goal: at most a third);
- `gm report --forum-images` (the forum copy of the map and its readable parts) against `gm map`
  of the same map, both as a GM runs them (goal: at most 1.5x).
Run: .venv/bin/python bench/report_mail.py
"""
from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gm.delivery.mail.outbox import report_messages  # noqa: E402
from gm.store.campaign import Campaign  # noqa: E402
from gm.turn import engine  # noqa: E402
from gm.turn.publish import near_image_file  # noqa: E402

SIX = ["blue", "red", "green", "yellow", "purple", "orange"]
GM = str(Path(sys.executable).parent / "gm")


def row(what: str, figure: str, goal: str = "") -> None:
    print(f"  {what:<58} {figure:>14}   {goal}")


def campaign(folder: Path) -> Campaign:
    engine.new_campaign(folder, "railway-rivals", [f"{p}:{p.title()}:{p}@example.org" for p in SIX],
                        map_name="scotland", master=bytes(range(32)))
    text = (folder / "campaign.yaml").read_text(encoding="utf-8")
    (folder / "campaign.yaml").write_text(text + "nmr_policy: bot\n", encoding="utf-8")
    for _ in range(6):  # the six build turns, every company played by the bot
        engine.resolve(Campaign(folder), force=True)
    return Campaign(folder)


def whole_map_sizes(camp: Campaign, folder: Path) -> dict[str, int]:
    """Each report mail as it was before: the same reports with the whole map (a copy of the campaign)."""
    copy = folder / "whole"
    shutil.copytree(camp.path, copy)
    reports = copy / "turns" / f"{camp.last_turn:03d}" / "reports"
    for player in SIX:
        html = reports / f"{player}.html"
        html.write_text(html.read_text(encoding="utf-8").replace(near_image_file_name(player), "map.png"),
                        encoding="utf-8")
    messages, _ = report_messages(Campaign(copy), camp.last_turn)
    return {key.rsplit(":", 1)[1]: len(bytes(msg)) for key, msg in messages}


def near_image_file_name(player: str) -> str:
    from gm import games
    return near_image_file(games.get("railway-rivals"), player)


def timed(cmd: list[str], runs: int = 5) -> tuple[float, float]:
    """Median wall and CPU seconds of a command (CPU: what it costs; wall: what the GM waits)."""
    import resource
    import time
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    os.environ.setdefault("MPLBACKEND", "Agg")
    tmp = Path(tempfile.mkdtemp(prefix="gm-bench-report-mail-"))
    try:
        camp = campaign(tmp / "scotland")
        messages, _ = report_messages(camp, camp.last_turn)
        now = {key.rsplit(":", 1)[1]: len(bytes(msg)) for key, msg in messages}
        before = whole_map_sizes(camp, tmp)
        reports = camp.turn_dir(camp.last_turn) / "reports"
        ratios = sorted(now[p] / before[p] for p in SIX)
        row("whole map PNG (the site's, `gm map`)", f"{(reports / 'map.png').stat().st_size / 1000:.0f} KB")
        row("report mail with the whole map (as before), median", f"{statistics.median(before.values()) / 1000:.0f} KB")
        row("report mail with the map around the player, median", f"{statistics.median(now.values()) / 1000:.0f} KB",
            f"largest {max(now.values()) / 1000:.0f} KB")
        row("  now / before, median (goal <= 0.33)", f"{statistics.median(ratios):.2f}x",
            f"largest {max(ratios):.2f}x (" + ", ".join(f"{p} {now[p] / before[p]:.2f}" for p in SIX) + ")")
        up = tmp / "upload"
        map_wall, map_cpu = timed([GM, "map", str(camp.path), "-o", str(tmp / "map.png")])
        forum = [GM, "report", str(camp.path), "--public", "--format", "bbcode", "--image-url",
                 "https://example.org/camp", "--forum-images", str(up)]
        forum_wall, forum_cpu = timed(forum)
        parts = len([p for p in up.glob("*.png") if re.search(r"-part\d+\.png$", p.name)])
        row("gm map (six companies, Scotland)", f"{map_wall:.2f} s", f"cpu {map_cpu:.2f} s")
        row(f"gm report --forum-images (overview + {parts} parts)", f"{forum_wall:.2f} s", f"cpu {forum_cpu:.2f} s")
        row("  forum copy / gm map (goal <= 1.5x)", f"{forum_wall / map_wall:.2f}x wall",
            f"{forum_cpu / map_cpu:.2f}x cpu")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
