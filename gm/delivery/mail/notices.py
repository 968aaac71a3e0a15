"""Notices to players about the GM's changes (deadline moved, player replaced, turn undone): each
written to outbox/notices/ and queued for the next `gm run`, which sends it."""
from __future__ import annotations

import datetime as dt
import email.utils
from email.message import EmailMessage
from pathlib import Path

import yaml

from gm.delivery.mail.outbox import write_eml
from gm.delivery.mail.settings import sender_address
from gm.store.campaign import Campaign
from gm.store.fileio import write_yaml
from gm.time import clock


def _notice_queue(campaign: Campaign) -> Path:
    return campaign.path / "outbox" / "notices" / "queue.yaml"


def queued_notices(campaign: Campaign) -> list[dict[str, str]]:
    path = _notice_queue(campaign)
    return list(yaml.safe_load(path.read_text(encoding="utf-8")) or []) if path.exists() else []


def notify(campaign: Campaign, players: list[str], subject: str, body: str, *, kind: str,
           address: dict[str, str] | None = None) -> list[str]:
    """A notice to each player with an address: written to outbox/notices/ and queued for the next
    `gm run` (sent with --send). ``address`` overrides a player's address (the player replaced)."""
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
        msg = EmailMessage()
        msg["From"] = sender = sender_address(campaign)
        msg["To"] = email.utils.formataddr((str(info.get("name") or pid), to))
        msg["Subject"] = f"[{campaign.name}] {subject}"
        msg["Date"] = email.utils.format_datetime(now)
        msg["Message-ID"] = email.utils.make_msgid(domain=email.utils.parseaddr(sender)[1].partition("@")[2]
                                                   or "localhost")
        msg.set_content(body)
        seq += 1
        path = write_eml(folder, f"notice-{stamp}-{seq:04d}-{kind}-{pid}", msg)
        queue.append({"key": f"notice:{stamp}:{seq:04d}:{kind}:{pid}", "file": path.name})
        written.append(pid)
    if written:
        write_yaml(_notice_queue(campaign), queue)
    return written


def clear_notices(campaign: Campaign, keys: set[str]) -> None:
    left = [n for n in queued_notices(campaign) if n["key"] not in keys]
    write_yaml(_notice_queue(campaign), left)


# ---- gm deadline -----------------------------------------------------------------------------
