"""What players wrote to the GM (not orders, not a command for gm): CAMPAIGN/inbox/for-gm.yaml, one
entry appended per message (when, turn, player, subject, text — never a password line), whether it
came by mail or through the web door. `gm inbox DIR` lists them, newest first."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from gm.store.campaign import Campaign
from gm.store.logbook import append_entry, read_entries
from gm.store.orders import without_password

FILE = ("inbox", "for-gm.yaml")
MAX_CHARS = 8000  # what is kept of one message (a mailed one stays whole in inbox/ for the GM)


def path(campaign: Campaign) -> Path:
    return campaign.path.joinpath(*FILE)


def kept_text(text: str) -> str:
    """The text as kept: password lines out, trailing blank lines and spaces gone, at most MAX_CHARS."""
    lines = [line.rstrip() for line in without_password(text).strip("\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)[:MAX_CHARS]


def keep_message(campaign: Campaign, entry: dict[str, Any]) -> None:
    append_entry(path(campaign), entry)


def messages(campaign: Campaign) -> list[dict[str, Any]]:
    """Every message for the GM, newest first."""
    return sorted(read_entries(path(campaign)), key=lambda e: str(e.get("at", "")), reverse=True)
