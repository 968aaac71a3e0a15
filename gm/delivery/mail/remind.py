"""Reminders: one message to each player whose orders are missing, never twice for one deadline."""
from __future__ import annotations

import datetime as dt
from email.message import EmailMessage

from gm.delivery.mail.outbox import reminder_message
from gm.delivery.mail.settings import MailError
from gm.delivery.mail.smtp import already_sent
from gm.store.campaign import Campaign
from gm.time.deadlines import POLICIES, deadline_status
from gm.time.schedule import campaign_zone, short_moment, show_moment


def reminder_key(deadline: dt.datetime, player: str) -> str:
    return f"remind:{deadline.isoformat()}:{player}"


def due_reminders(campaign: Campaign,
                  now: dt.datetime | None = None) -> tuple[list[tuple[str, EmailMessage]], list[str]]:
    """(key, message) for each missing player not yet reminded of this deadline, and notes for the GM."""
    info = deadline_status(campaign, now)
    if info.deadline is None:
        raise MailError("no deadline set: set one with 'gm deadline DIR set 2026-12-01T18:00+01:00' "
                        "(or a schedule: in campaign.yaml)")
    if info.phase == "passed":
        return [], [f"the deadline and grace period of turn {info.turn} have passed; no reminders sent"]
    zone = campaign_zone(campaign)
    shown, subject_moment = show_moment(info.deadline, zone), short_moment(info.deadline, zone)
    log = already_sent(campaign)
    out, notes = [], []
    for player in info.missing:
        key = reminder_key(info.deadline, player)
        if key in log:
            notes.append(f"{player}: already reminded of this deadline ({log[key].get('at', '')})")
            continue
        if "@" not in str(campaign.player(player).get("email") or ""):
            notes.append(f"{player}: no e-mail address in campaign.yaml; not reminded")
            continue
        out.append((key, reminder_message(campaign, player, info.turn, subject_moment,
                                          info.left, POLICIES[info.policy], shown=shown)))
    if not info.missing:
        notes.append(f"every player's orders for turn {info.turn} are in")
    return out, notes
