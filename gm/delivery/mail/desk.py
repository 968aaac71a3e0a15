"""What one fetch works with: the campaign read once (game, state, turn, the clock), the ledger of
messages already handled (inbox/processed-log.yaml, appended one line per message), and the
Outcome of each message."""
from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

from gm import games
from gm.store.campaign import Campaign
from gm.store.logbook import append_entries, append_entry, read_entries
from gm.delivery.mail.settings import read_log

# a Date: later than the moment of fetching by more than this is not believed (clocks drift a little)
FUTURE_TOLERANCE = dt.timedelta(minutes=15)
LEDGER = "processed-log.yaml"
OLD_LEDGER = "processed.yaml"  # before the append-only log: one mapping rewritten per message


@dataclass
class Outcome:
    """What became of one fetched message."""

    digest: str
    sender: str
    player: str | None
    status: str                      # stored | refused | ignored | answered (a mail command, or for the GM)
    line: str                        # the one line for the GM
    receipt: str | None = None
    reply: EmailMessage | None = None
    date: dt.datetime | None = None
    errors: list[str] = field(default_factory=list)
    command: str | None = None       # help | status | orders | resend | press | gm, for a mail command
    reply_file: str | None = None    # the reply as kept under outbox/replies/, as soon as decided
    automatic: str | None = None     # auto-reply | bulk | list | receipt | bounce: never answered
    capped: str | None = None        # press | answers: over a per-turn cap (the player told once)
    withheld: bool = False           # the reply was held back by the loop guard (logged only)
    forward: EmailMessage | None = None  # a message for the GM, to the GM's own address (mail.gm)
    secrets: list[str] = field(default_factory=list)  # password values the message held (never kept)

    @property
    def key(self) -> str:
        """The reply's key in the sent log."""
        return reply_key(self.digest)


def reply_key(digest: str) -> str:
    return f"reply:{digest}"


def stem(digest: str) -> str:
    """How a kept message is named under inbox/: the first 32 hex digits of its SHA-256."""
    return digest[:32]


class Ledger:
    """Messages already handled, read once per fetch; each new one is appended, never rewritten."""

    def __init__(self, campaign: Campaign, now: dt.datetime):
        self.path = campaign.path / "inbox" / LEDGER
        self.now = now
        _migrate(campaign, self.path)
        self.entries = read_entries(self.path)
        self.done = {stem(str(e.get("digest", ""))) for e in self.entries}
        self.newest: dict[tuple[int, str], dt.datetime] = {}
        for entry in self.entries:
            self._note(entry)

    def _note(self, entry: dict[str, Any]) -> None:
        if entry.get("status") != "stored" or not entry.get("date") or entry.get("turn") is None:
            return
        try:
            when = dt.datetime.fromisoformat(str(entry["date"]))
        except ValueError:
            return
        if when > self.now + FUTURE_TOLERANCE:  # logged before far-future dates were refused
            return
        key = (int(entry["turn"]), str(entry.get("player")))
        if key not in self.newest or when > self.newest[key]:
            self.newest[key] = when

    def record(self, entry: dict[str, Any]) -> None:
        append_entry(self.path, entry)
        self.entries.append(entry)
        self.done.add(stem(str(entry["digest"])))
        self._note(entry)


def _migrate(campaign: Campaign, path) -> None:
    """Move a ledger of the old kind (one mapping rewritten per message) into the log, once."""
    old = campaign.path / "inbox" / OLD_LEDGER
    if not old.exists():
        return
    append_entries(path, [dict(entry or {}, digest=digest) for digest, entry in read_log(old).items()])
    os.replace(old, old.with_name(OLD_LEDGER + ".migrated"))


class Desk:
    """The campaign as one fetch sees it: read once, since nothing else changes it under the lock."""

    def __init__(self, campaign: Campaign, now: dt.datetime):
        self.campaign = campaign
        self.now = now
        self.game = games.get(campaign.game_name)
        self.turn = campaign.current_turn
        self.state = campaign.state(self.turn - 1)
        self.ledger = Ledger(campaign, now)
        self.addresses = {str(p.get("email") or "").strip().lower(): p["id"] for p in campaign.players
                           if "@" in str(p.get("email") or "")}

    def player_by_address(self, address: str) -> str | None:
        return self.addresses.get(address) if address else None

    def trusted_date(self, date: dt.datetime | None) -> tuple[dt.datetime | None, bool]:
        """(the date to order by, whether the message's own Date: was set aside): a Date: beyond
        the moment of fetching (plus a small tolerance) is replaced by the moment of fetching."""
        if date is not None and date > self.now + FUTURE_TOLERANCE:
            return self.now.astimezone(dt.timezone.utc), True
        return date, False
