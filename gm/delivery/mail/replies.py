"""Replies to players' mail, kept under outbox/replies/ the moment each is decided, then either sent
(`--send`) or handed to the GM as .eml files, through the one delivery path (deliver.py). A reply
neither sent nor handed over (a run that stopped half-way, an SMTP server that failed) is pending:
the next run with --send sends it, and only it, so nothing is lost and nothing goes out twice."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gm.delivery.mail.deliver import deliver, reply_items
from gm.delivery.mail.smtp import Sent
from gm.store.campaign import Campaign

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


def pending_count(campaign: Campaign) -> int:
    return len(reply_items(campaign))


def deliver_replies(campaign: Campaign, *, send: bool,
                    on_done: Callable[[Sent], None] | None = None) -> Delivery:
    """Send every pending reply (send=True) or hand each to the GM (the files stay in
    outbox/replies/ for them to send). Raises MailError when SMTP is not set up; the replies then
    stay pending."""
    pending = reply_items(campaign)
    delivery = Delivery()
    if not pending:
        return delivery
    results = deliver(campaign, pending, send=send, on_done=on_done)
    if send:
        delivery.sent = results
    else:
        delivery.written = [f"{item.stem}.eml" for item, r in zip(pending, results) if r.status == "written"]
    return delivery
