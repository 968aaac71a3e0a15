"""`gm list` and `gm run FOLDER`: the campaigns under a folder, and one summary row for each."""
from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from gm import games
from gm.store.campaign import Campaign
from gm.store.errors import UsageError
from gm.time import clock
from gm.time.deadlines import deadline_status
from gm.time.zones import campaign_zone, show_moment, zone_name


def find_campaigns(root: Path) -> list[Path]:
    """Every folder under ``root`` holding a campaign.yaml (not looking inside a campaign)."""
    if (root / "campaign.yaml").is_file():
        return [root]
    found: list[Path] = []
    try:
        children = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError as exc:
        raise UsageError(f"{root}: cannot read the folder ({exc.strerror})") from None
    for child in children:
        found += find_campaigns(child)
    return found


def campaign_summary(path: Path, now: dt.datetime) -> dict[str, Any]:
    try:
        campaign = Campaign(path)
        game = games.get(campaign.game_name)
        info = deadline_status(campaign, now)
        zone = campaign_zone(campaign)
        return {"path": str(path), "name": campaign.name, "game": game.name, "turn": info.turn,
                "finished": not info.due, "zone": zone_name(zone),
                "deadline": info.deadline.astimezone(zone).isoformat() if info.deadline else None,
                "deadline_shown": show_moment(info.deadline, zone) if info.deadline else None,
                "left": info.left if info.due else None, "missing": info.missing, "dropped": info.dropped}
    except Exception as exc:  # one unreadable campaign is a row, never the end of the list
        return {"path": str(path), "error": str(exc) or type(exc).__name__}


def list_campaigns(root: str) -> list[dict[str, Any]]:
    base = Path(root)
    if not base.is_dir():
        raise UsageError(f"{root}: no such folder")
    now = clock.now()
    return [campaign_summary(p, now) for p in find_campaigns(base)]
