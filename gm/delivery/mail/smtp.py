"""Sending through SMTP (STARTTLS, SSL or plain on loopback), retried, and the sent log
(CAMPAIGN/outbox/sent-log.yaml, keyed by what the message is, one line appended per message: a
message is logged the moment the server took it). Which messages go, and the check each passes
first, is gm/delivery/mail/deliver.py: the one way mail goes out."""
from __future__ import annotations

import smtplib
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gm.delivery.mail.settings import MailError, mail_config, now_utc, read_log, secret
from gm.store.campaign import Campaign
from gm.store.logbook import append_entry, read_entries

SECURITY = {"starttls": 587, "ssl": 465, "none": 25}


@dataclass
class Sent:
    key: str
    to: str
    status: str          # sent | skipped (already in the sent log) | failed
    detail: str = ""
    attempts: int = 0


def smtp_settings(campaign: Campaign) -> dict[str, Any]:
    block = mail_config(campaign).get("smtp")
    if not isinstance(block, dict) or not block.get("host"):
        raise MailError("no SMTP server: set mail.smtp.host (and port, security, user) in campaign.yaml")
    security = str(block.get("security") or "starttls")
    if security not in SECURITY:
        raise MailError(f"mail.smtp.security is one of {', '.join(SECURITY)}, not {security!r}")
    return dict(block, security=security, port=int(block.get("port") or SECURITY[security]),
                attempts=max(1, int(block.get("attempts", 3))), retry_delay=float(block.get("retry_delay", 5)),
                timeout=float(block.get("timeout", 30)))


def sent_log_path(campaign: Campaign):
    return campaign.path / "outbox" / "sent-log.yaml"


OLD_SENT_LOG = "sent.yaml"  # before the append-only log: one mapping rewritten per message


def already_sent(campaign: Campaign) -> dict[str, Any]:
    """{key: {to, message_id, at[, file]}} of every message sent (or written for the GM to send)."""
    log = read_log(campaign.path / "outbox" / OLD_SENT_LOG)
    for entry in read_entries(sent_log_path(campaign)):
        if entry.get("key"):
            log[str(entry["key"])] = entry
    return log


def log_sent(campaign: Campaign, key: str, to: str, message_id: str, **extra: Any) -> None:
    """One line in the sent log: the message with this key went (or was handed to the GM, or was
    refused as unsafe); it is never built or sent again."""
    append_entry(sent_log_path(campaign), {"key": key, "to": to, "message_id": message_id,
                                           "at": now_utc().isoformat(), **extra})


def _connect(campaign: Campaign, settings: dict[str, Any]) -> smtplib.SMTP:
    host, port, timeout = settings["host"], settings["port"], settings["timeout"]
    cafile = settings.get("cafile")  # a private server's certificate authority, relative to the campaign
    try:
        context = ssl.create_default_context(cafile=str(campaign.path / str(cafile)) if cafile else None)
    except (OSError, ssl.SSLError) as exc:
        raise MailError(f"mail.smtp.cafile {cafile!r}: cannot load it ({exc})") from None
    if settings["security"] == "ssl":
        conn: smtplib.SMTP = smtplib.SMTP_SSL(host, port, timeout=timeout, context=context)
    else:
        conn = smtplib.SMTP(host, port, timeout=timeout)
        if settings["security"] == "starttls":
            conn.starttls(context=context)
    if settings.get("user"):
        conn.login(str(settings["user"]), secret(campaign, settings, "the SMTP account"))
    return conn


class Line:
    """One SMTP connection for a batch of messages, opened at the first message, each message
    retried on a failure; the caller keeps the sent log (gm/delivery/mail/deliver.py)."""

    def __init__(self, campaign: Campaign, *, sleep: Callable[[float], None] = time.sleep):
        self.campaign = campaign
        self.settings = smtp_settings(campaign)
        self.conn: smtplib.SMTP | None = None
        self.sleep = sleep

    def send(self, key: str, data: bytes, *, sender: str, to: str) -> Sent:
        """``data`` (the sealed message) to the one envelope recipient ``to``, never to any address
        the message's own headers name."""
        settings, error = self.settings, ""
        for attempt in range(1, settings["attempts"] + 1):
            try:
                if self.conn is None:
                    self.conn = _connect(self.campaign, settings)
                refused = self.conn.sendmail(sender, [to], data)
                if refused:
                    return Sent(key, to, "failed", f"refused: {', '.join(refused)}", attempt)
                return Sent(key, to, "sent", f"on attempt {attempt}" if attempt > 1 else "", attempt)
            except smtplib.SMTPRecipientsRefused as exc:  # permanent: retrying cannot help
                return Sent(key, to, "failed", f"recipient refused ({_code(exc)})", attempt)
            except smtplib.SMTPAuthenticationError as exc:
                raise MailError(f"SMTP {settings['host']}: login refused ({_code(exc)}); check mail.smtp.user "
                                "and the password") from None
            except smtplib.SMTPNotSupportedError:
                raise MailError(f"SMTP {settings['host']}: the server offers no login here; check "
                                "mail.smtp.security (starttls or ssl) and mail.smtp.user") from None
            except (smtplib.SMTPException, OSError) as exc:
                error = f"{type(exc).__name__}: {exc}".strip()
                self._drop()
                if attempt < settings["attempts"]:
                    self.sleep(settings["retry_delay"] * attempt)
        return Sent(key, to, "failed", f"after {settings['attempts']} attempt(s): {error}", settings["attempts"])

    def _drop(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            except (smtplib.SMTPException, OSError):
                pass
        self.conn = None

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.quit()
            except (smtplib.SMTPException, OSError):
                pass
        self.conn = None


def _code(exc: Exception) -> str:
    code = getattr(exc, "smtp_code", None)
    return f"{code} {getattr(exc, 'smtp_error', b'').decode(errors='replace')}".strip() if code else str(exc)
