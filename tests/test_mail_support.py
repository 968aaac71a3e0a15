"""Helpers for the mail tests (no tests here): a small campaign and messages built like a mail client would."""
from __future__ import annotations

import mailbox
from email.message import EmailMessage
from pathlib import Path

import yaml

from gm.store.campaign import Campaign
from gm.turn.engine import new_campaign

ANN = "ann@example.org"
BOB = "bob@example.org"


def guess_campaign(tmp_path: Path, **config) -> Campaign:
    camp = new_campaign(tmp_path / "camp", "guess", [f"ann:Ann:{ANN}", f"bob:Bob:{BOB}"],
                        master=bytes(range(32)))
    if config:
        update_config(camp, **config)
    return Campaign(camp.path)


def update_config(camp: Campaign, **config) -> Campaign:
    path = camp.path / "campaign.yaml"
    data = yaml.safe_load(path.read_text())
    data.update(config)
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return Campaign(camp.path)


def message(body: str | None = None, *, sender: str = ANN, date: str = "Mon, 30 Nov 2026 10:00:00 +0000",
            html: str | None = None, attachment: tuple[str, str] | None = None,
            subject: str = "orders", msgid: str | None = None) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = f"Someone <{sender}>"
    msg["To"] = "gm@example.org"
    msg["Subject"] = subject
    if date:
        msg["Date"] = date
    msg["Message-ID"] = msgid or f"<{abs(hash((body, sender, date, html)))}@example.org>"
    if body is not None:
        msg.set_content(body)
    if html is not None:
        if body is None:
            msg.set_content(html, subtype="html")
        else:
            msg.add_alternative(html, subtype="html")
    if attachment is not None:
        name, text = attachment
        msg.add_attachment(text.encode("utf-8"), maintype="text", subtype="plain", filename=name)
    return msg


def maildir_with(path: Path, *messages: EmailMessage | bytes) -> Path:
    box = mailbox.Maildir(str(path), create=True)
    for m in messages:
        box.add(m if isinstance(m, bytes) else bytes(m))
    return path


def mbox_with(path: Path, *messages: EmailMessage | bytes) -> Path:
    box = mailbox.mbox(str(path), create=True)
    for m in messages:
        box.add(m if isinstance(m, bytes) else bytes(m))
    box.flush()
    return path


def replies(camp: Campaign) -> list[str]:
    folder = camp.path / "outbox" / "replies"
    return [p.read_text() for p in sorted(folder.glob("*.eml"))] if folder.is_dir() else []
