"""Notices to players about the GM's changes (deadline moved, player replaced, turn undone): each
written to outbox/notices/ and queued for the next `gm run`, which sends it."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import yaml

from gm.delivery.mail.outbox import notice_message, report_key, write_eml
from gm.delivery.mail.smtp import already_sent
from gm.store.campaign import Campaign
from gm.store.fileio import write_yaml
from gm.time import clock


def _notice_queue(campaign: Campaign) -> Path:
    return campaign.path / "outbox" / "notices" / "queue.yaml"


def queued_notices(campaign: Campaign) -> list[dict[str, str]]:
    path = _notice_queue(campaign)
    return list(yaml.safe_load(path.read_text(encoding="utf-8")) or []) if path.exists() else []


def notify(campaign: Campaign, players: list[str], subject: str, body: str, *, kind: str,
           address: dict[str, str] | None = None, names: dict[str, str] | None = None) -> list[str]:
    """A notice to each player with an address: written to outbox/notices/ and queued, with the
    address it is for, for the next `gm run` (sent with --send). ``address`` and ``names`` override
    a seat's address and name (the player a seat had before a replacement)."""
    now = clock.now()
    stamp = now.astimezone(dt.timezone.utc).strftime("%Y%m%dT%H%M%S")
    queue, written = queued_notices(campaign), []
    folder = campaign.path / "outbox" / "notices"
    seq = len(list(folder.glob("notice-*.eml"))) if folder.is_dir() else 0
    for pid in players:
        info = campaign.player(pid)
        to = str((address or {}).get(pid) or info.get("email") or "").strip()
        if "@" not in to:
            continue
        msg = notice_message(campaign, pid, subject, body, name=(names or {}).get(pid), address=to)
        seq += 1
        path = write_eml(folder, f"notice-{stamp}-{seq:04d}-{kind}-{pid}", msg)
        queue.append({"key": f"notice:{stamp}:{seq:04d}:{kind}:{pid}", "file": path.name, "to": to})
        written.append(pid)
    if written:
        write_yaml(_notice_queue(campaign), queue)
    return written


def queue_report(campaign: Campaign, player: str, turn: int, *, why: str) -> None:
    """Queue ``player``'s report of ``turn`` (built when it goes, with the order form then due),
    for a player who has not had it at their address (``why``: a short word for the key). Nothing
    is queued while that report has not gone out at all: it then goes to the seat's new address."""
    if report_key(campaign, turn, player) not in already_sent(campaign):
        return
    stamp = clock.now().astimezone(dt.timezone.utc).strftime("%Y%m%dT%H%M%S")
    queue = queued_notices(campaign)
    queue.append({"key": f"report:{turn}:{why}:{stamp}:{player}", "report": turn, "player": player})
    write_yaml(_notice_queue(campaign), queue)


def clear_notices(campaign: Campaign, keys: set[str]) -> None:
    left = [n for n in queued_notices(campaign) if n["key"] not in keys]
    write_yaml(_notice_queue(campaign), left)


# ---- gm deadline -----------------------------------------------------------------------------
