"""Where orders come from: a Maildir, an mbox file or an IMAP account (settings in campaign.yaml).

A source yields raw messages; it never changes the mailbox except that IMAP marks a message seen
once it is kept (kept messages are recognised by their hash, so a second fetch never repeats one).
"""
from __future__ import annotations

import imaplib
import mailbox
import ssl
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..campaign import Campaign
from .settings import MailError, mail_config, secret

KINDS = ("maildir", "mbox", "imap")


def inbox_settings(campaign: Campaign, *, maildir: str | None = None, mbox: str | None = None) -> dict[str, Any]:
    """The inbox to read: --maildir/--mbox win over campaign.yaml's mail.inbox."""
    if maildir and mbox:
        raise MailError("give --maildir or --mbox, not both")
    if maildir:
        return {"kind": "maildir", "path": maildir}
    if mbox:
        return {"kind": "mbox", "path": mbox}
    block = mail_config(campaign).get("inbox")
    if not isinstance(block, dict) or not block.get("kind"):
        raise MailError("no inbox: set mail.inbox (kind: maildir|mbox|imap) in campaign.yaml, "
                        "or give --maildir PATH or --mbox PATH")
    if block["kind"] not in KINDS:
        raise MailError(f"mail.inbox.kind is one of {', '.join(KINDS)}, not {block['kind']!r}")
    if block["kind"] != "imap" and not block.get("path"):
        raise MailError(f"mail.inbox needs a path for a {block['kind']}")
    if block["kind"] != "imap":
        path = Path(str(block["path"])).expanduser()
        block = dict(block, path=str(path if path.is_absolute() else campaign.path / path))
    return dict(block)


def raw_messages(campaign: Campaign, settings: dict[str, Any], *,
                 imap_factory: Callable[..., Any] | None = None) -> Iterator[tuple[bytes, Callable[[], None]]]:
    """(raw message, call-when-kept) pairs from the configured source."""
    kind = settings["kind"]
    if kind == "imap":
        yield from _imap(campaign, settings, imap_factory)
        return
    path = Path(settings["path"])
    try:
        if kind == "maildir":
            if not (path / "cur").is_dir() or not (path / "new").is_dir():
                raise MailError(f"{path}: not a Maildir (no cur/ and new/ folders); check mail.inbox.path")
            box: mailbox.Mailbox = mailbox.Maildir(str(path), factory=None, create=False)
        else:
            if not path.is_file():
                raise MailError(f"{path}: no such mbox file; check mail.inbox.path")
            box = mailbox.mbox(str(path), factory=None, create=False)
        for key in sorted(box.keys()):
            yield box.get_bytes(key), _nothing
    except OSError as exc:
        raise MailError(f"{path}: cannot read the mailbox ({exc.strerror or exc})") from None


def _nothing() -> None:
    return None


def _imap(campaign: Campaign, settings: dict[str, Any], factory: Callable[..., Any] | None):
    host = settings.get("host")
    user = settings.get("user")
    if not host or not user:
        raise MailError("mail.inbox for imap needs host and user")
    starttls = settings.get("security", "ssl") == "starttls"
    port = int(settings.get("port") or (143 if starttls else 993))
    folder = str(settings.get("folder") or "INBOX")
    password = secret(campaign, settings, "the IMAP account")
    try:
        if factory is not None:
            conn = factory(host, port)
        elif starttls:
            conn = imaplib.IMAP4(host, port)
            conn.starttls(ssl_context=ssl.create_default_context())
        else:
            conn = imaplib.IMAP4_SSL(host, port, ssl_context=ssl.create_default_context())
        conn.login(user, password)
        status, _ = conn.select(folder)
        if status != "OK":
            raise MailError(f"IMAP {host}: no folder {folder!r}")
        status, data = conn.search(None, "UNSEEN")
        numbers = data[0].split() if status == "OK" and data and data[0] else []
        for number in numbers:
            status, parts = conn.fetch(number, "(BODY.PEEK[])")
            raw = next((p[1] for p in parts or [] if isinstance(p, tuple) and len(p) > 1), None)
            if status != "OK" or raw is None:
                raise MailError(f"IMAP {host}: cannot fetch message {number.decode(errors='replace')}")
            yield raw, (lambda n=number: conn.store(n, "+FLAGS", "\\Seen"))
        conn.logout()
    except (OSError, imaplib.IMAP4.error, ssl.SSLError) as exc:
        raise MailError(f"IMAP {host}:{port}: cannot read the mailbox ({exc})") from None
