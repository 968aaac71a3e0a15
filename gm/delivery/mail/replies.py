"""Replies to players' mail, kept under outbox/replies/ the moment each is decided, then either sent
(`--send`) or handed to the GM as .eml files. A reply neither sent nor handed over (a run that
stopped half-way, an SMTP server that failed) is pending: the next run with --send sends it, and
only it, so nothing is lost and nothing goes out twice."""
from __future__ import annotations

import email
import email.policy
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage

from gm.store.campaign import Campaign
from gm.delivery.mail.desk import LEDGER, reply_key
from gm.store.logbook import read_entries
from gm.delivery.mail.smtp import Sent, already_sent, record_written, send_messages

FOLDER = ("outbox", "replies")


@dataclass
class Delivery:
    sent: list[Sent] = field(default_factory=list)      # --send: every reply tried, with its result
    written: list[str] = field(default_factory=list)    # without --send: reply files handed to the GM

    @property
    def failed(self) -> list[Sent]:
        return [s for s in self.sent if s.status == "failed"]


def folder(campaign: Campaign):
    return campaign.path.joinpath(*FOLDER)


def pending_replies(campaign: Campaign) -> list[tuple[str, EmailMessage]]:
    """(key, message) of every kept reply not yet sent nor handed to the GM, oldest first."""
    done = already_sent(campaign)
    out = []
    for entry in read_entries(campaign.path / "inbox" / LEDGER):
        name, digest = entry.get("reply"), str(entry.get("digest", ""))
        key = reply_key(digest)
        if not name or key in done:
            continue
        path = folder(campaign) / str(name)
        if path.is_file() and path.parent == folder(campaign):
            msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            out.append((key, msg))
            done[key] = {}
    return out


def deliver_replies(campaign: Campaign, *, send: bool,
                    on_done: Callable[[Sent], None] | None = None) -> Delivery:
    """Send every pending reply (send=True) or mark each as handed to the GM (the files stay in
    outbox/replies/ for them to send). Raises MailError when SMTP is not set up; the replies then
    stay pending."""
    pending = pending_replies(campaign)
    delivery = Delivery()
    if not pending:
        return delivery
    if send:
        delivery.sent = send_messages(campaign, pending, on_done=on_done)
        return delivery
    for key, msg in pending:
        name = f"reply-{key.split(':', 1)[1][:16]}.eml"
        record_written(campaign, key, msg, folder(campaign) / name)
        delivery.written.append(name)
    return delivery
