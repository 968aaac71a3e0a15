"""Where orders come from: a Maildir, an mbox file or an IMAP account (settings in campaign.yaml).

A source yields the raw messages not yet kept; it never changes the mailbox except that IMAP marks
a message seen once it is kept (kept messages are also recognised by their hash, so a second fetch
never repeats one).
"""
from __future__ import annotations

import hashlib
import imaplib
import mailbox
import re
import ssl
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from gm.store.campaign import Campaign
from gm.store.logbook import append_entry, read_entries
from gm.delivery.mail.settings import MailError, mail_config, secret

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
    """(raw message, call-when-kept) pairs for the messages of the configured source not yet kept.
    Only new messages are read: a Maildir's kept keys and an mbox's kept length are in the source
    index (inbox/sources.yaml, appended), IMAP asks for unseen messages."""
    kind = settings["kind"]
    if kind == "imap":
        yield from _imap(campaign, settings, imap_factory)
        return
    path = Path(settings["path"])
    index = campaign.path / "inbox" / SOURCES
    try:
        if kind == "maildir":
            yield from _maildir(path, index)
        else:
            yield from _mbox(path, index)
    except OSError as exc:
        raise MailError(f"{path}: cannot read the mailbox ({exc.strerror or exc})") from None


SOURCES = "sources.yaml"


def _maildir(path: Path, index: Path):
    if not (path / "cur").is_dir() or not (path / "new").is_dir():
        raise MailError(f"{path}: not a Maildir (no cur/ and new/ folders); check mail.inbox.path")
    source = f"maildir:{path.resolve()}"
    kept = {e.get("key") for e in read_entries(index) if e.get("source") == source}
    box = mailbox.Maildir(str(path), factory=None, create=False)
    for key in sorted(set(box.keys()) - kept):
        try:
            raw = box.get_bytes(key)
        except KeyError:  # taken away by a mail client since the listing
            continue
        yield raw, (lambda k=key: append_entry(index, {"source": source, "key": k}))


_FROM_LINE = re.compile(rb"^From ", re.MULTILINE)
_TAIL = 64  # bytes before the kept length whose hash tells whether the file is still the one kept


def _mbox(path: Path, index: Path):
    """An mbox grows at its end: read only what lies after the length already kept. A file that was
    rewritten (shorter, or different before that length) is read again from the start; messages
    already kept are then recognised by their hash."""
    if not path.is_file():
        raise MailError(f"{path}: no such mbox file; check mail.inbox.path")
    source = f"mbox:{path.resolve()}"
    marks = [e for e in read_entries(index) if e.get("source") == source]
    with open(path, "rb") as handle:
        start = _resume_at(handle, marks[-1] if marks else None)
        handle.seek(start)
        data = handle.read()
    starts = [m.start() for m in _FROM_LINE.finditer(data)]
    for n, begin in enumerate(starts):
        stop = starts[n + 1] if n + 1 < len(starts) else len(data)
        body = data[data.index(b"\n", begin) + 1 if b"\n" in data[begin:stop] else stop:stop]
        if body.endswith(b"\n\n"):
            body = body[:-1]  # the blank line that separates messages is not part of one
        end = start + stop
        mark = {"source": source, "offset": end,
                "tail": hashlib.sha256(data[max(0, stop - _TAIL):stop]).hexdigest()}
        yield body, (lambda m=mark: append_entry(index, m))


def _resume_at(handle, mark: dict[str, Any] | None) -> int:
    if not mark or not isinstance(mark.get("offset"), int):
        return 0
    offset = mark["offset"]
    handle.seek(0, 2)
    if handle.tell() < offset:
        return 0
    handle.seek(max(0, offset - _TAIL))
    if hashlib.sha256(handle.read(offset - max(0, offset - _TAIL))).hexdigest() != mark.get("tail"):
        return 0
    return offset


IMAP_SECURITY = {"ssl": 993, "starttls": 143, "none": 143}
LOOPBACK = ("127.0.0.1", "::1", "localhost")


def _imap_connect(host: str, port: int, security: str, timeout: float):
    if security == "none":
        return imaplib.IMAP4(host, port, timeout=timeout)
    if security == "starttls":
        conn = imaplib.IMAP4(host, port, timeout=timeout)
        conn.starttls(ssl_context=ssl.create_default_context())
        return conn
    return imaplib.IMAP4_SSL(host, port, ssl_context=ssl.create_default_context(), timeout=timeout)


def _imap(campaign: Campaign, settings: dict[str, Any], factory: Callable[..., Any] | None):
    host = settings.get("host")
    user = settings.get("user")
    if not host or not user:
        raise MailError("mail.inbox for imap needs host and user")
    security = str(settings.get("security") or "ssl")
    if security not in IMAP_SECURITY:
        raise MailError(f"mail.inbox.security is one of {', '.join(IMAP_SECURITY)}, not {security!r}")
    if security == "none" and str(host) not in LOOPBACK:
        raise MailError(f"mail.inbox.security 'none' sends the password in clear: only for a server on this "
                        f"machine (127.0.0.1), not {host}; use ssl or starttls")
    port = int(settings.get("port") or IMAP_SECURITY[security])
    folder = str(settings.get("folder") or "INBOX")
    password = secret(campaign, settings, "the IMAP account")
    conn = None
    try:
        conn = factory(host, port) if factory is not None else _imap_connect(
            str(host), port, security, float(settings.get("timeout", 60)))
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
            yield raw, (lambda n=number: _mark_seen(conn, n, f"{host}:{port}"))
        conn.logout()
    except (OSError, imaplib.IMAP4.error, ssl.SSLError) as exc:
        _drop(conn)
        raise MailError(f"IMAP {host}:{port}: cannot read the mailbox ({exc})") from None


def _mark_seen(conn, number: bytes, where: str) -> None:
    try:
        conn.store(number, "+FLAGS", "\\Seen")
    except (OSError, imaplib.IMAP4.error, ssl.SSLError) as exc:
        _drop(conn)  # kept already: the next fetch sees it again and knows it by its hash
        raise MailError(f"IMAP {where}: cannot mark a message seen ({exc})") from None


def _drop(conn) -> None:
    """Close a connection that failed half-way; messages not yet kept stay unseen on the server."""
    try:
        if conn is not None and hasattr(conn, "shutdown"):
            conn.shutdown()
    except (OSError, imaplib.IMAP4.error):
        pass
