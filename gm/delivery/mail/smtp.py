"""Sending through SMTP (STARTTLS, SSL or plain on loopback), retried, with a sent log so a rerun
never sends the same message twice (CAMPAIGN/outbox/sent-log.yaml, keyed by what the message is,
one line appended per message sent: a message is logged the moment the server took it)."""
from __future__ import annotations

import smtplib
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

from gm.delivery.mail.settings import MailError, gm_log, mail_config, now_utc, read_log, secret
from gm.store.campaign import Campaign
from gm.store.logbook import append_entry, check_plain, read_entries

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


def _log_sent(campaign: Campaign, key: str, msg: EmailMessage, **extra: Any) -> None:
    append_entry(sent_log_path(campaign), {"key": key, "to": str(msg["To"]), "message_id": str(msg["Message-ID"]),
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


def send_messages(campaign: Campaign, messages: list[tuple[str, EmailMessage]], *,
                  on_done: Callable[[Sent], None] | None = None,
                  sleep: Callable[[float], None] = time.sleep) -> list[Sent]:
    """Send each (key, message) not yet in the sent log; a failure is retried, then reported, and
    the others still go out. The log is written after every message, so a crash loses nothing."""
    settings = smtp_settings(campaign)
    with campaign.lock():
        for path in (campaign.path / "mail.log", sent_log_path(campaign)):
            check_plain(path)  # before the first message goes: a linked log would stop the run half-way
        log = already_sent(campaign)
        results: list[Sent] = []
        conn: smtplib.SMTP | None = None
        try:
            for key, msg in messages:
                to = str(msg["To"])
                if key in log:
                    result = Sent(key, to, "skipped", f"already sent {log[key].get('at', '')}")
                else:
                    result, conn = _send_one(campaign, settings, conn, key, msg, sleep)
                    if result.status == "sent":
                        _log_sent(campaign, key, msg)
                        log[key] = {}
                    gm_log(campaign, f"send {key} to {to}: {result.status}"
                                     + (f" ({result.detail})" if result.detail else ""))
                results.append(result)
                if on_done:
                    on_done(result)
        finally:
            if conn is not None:
                try:
                    conn.quit()
                except (smtplib.SMTPException, OSError):
                    pass
        return results


def _send_one(campaign, settings, conn, key, msg, sleep) -> tuple[Sent, smtplib.SMTP | None]:
    error = ""
    for attempt in range(1, settings["attempts"] + 1):
        try:
            if conn is None:
                conn = _connect(campaign, settings)
            refused = conn.send_message(msg)
            if refused:
                return Sent(key, str(msg["To"]), "failed", f"refused: {', '.join(refused)}", attempt), conn
            return Sent(key, str(msg["To"]), "sent", f"on attempt {attempt}" if attempt > 1 else "", attempt), conn
        except smtplib.SMTPRecipientsRefused as exc:  # permanent: retrying cannot help
            return Sent(key, str(msg["To"]), "failed", f"recipient refused ({_code(exc)})", attempt), conn
        except smtplib.SMTPAuthenticationError as exc:
            raise MailError(f"SMTP {settings['host']}: login refused ({_code(exc)}); check mail.smtp.user "
                            "and the password") from None
        except smtplib.SMTPNotSupportedError:
            raise MailError(f"SMTP {settings['host']}: the server offers no login here; check mail.smtp.security "
                            "(starttls or ssl) and mail.smtp.user") from None
        except (smtplib.SMTPException, OSError) as exc:
            error = f"{type(exc).__name__}: {exc}".strip()
            if conn is not None:
                try:
                    conn.close()
                except (smtplib.SMTPException, OSError):
                    pass
            conn = None
            if attempt < settings["attempts"]:
                sleep(settings["retry_delay"] * attempt)
    return Sent(key, str(msg["To"]), "failed", f"after {settings['attempts']} attempt(s): {error}",
                settings["attempts"]), conn


def _code(exc: Exception) -> str:
    code = getattr(exc, "smtp_code", None)
    return f"{code} {getattr(exc, 'smtp_error', b'').decode(errors='replace')}".strip() if code else str(exc)


def record_written(campaign: Campaign, key: str, msg: EmailMessage, path) -> None:
    """Log a message written to a file for the GM to send, so it is not built again (reminders)."""
    with campaign.lock():
        _log_sent(campaign, key, msg, file=str(path))
