"""Mail a judge must never answer (RFC 3834, and what the Diplomacy judges do): auto-replies,
bulk and list mail, read receipts and bounces. Decided on the header block alone, before the
sender is looked up, so an out-of-office reply from a player's own address gets no answer and no
loop can start. A bounce of a report is read just far enough to say whose report it was, for
`gm status`."""
from __future__ import annotations

import datetime as dt
import email
import email.policy
import email.utils
import re
from dataclasses import dataclass
from typing import Any

from gm.store.campaign import Campaign
from gm.store.logbook import append_entry, read_entries

BOUNCES = "bounces.yaml"  # under inbox/: one line per bounce read
_ROBOT_SENDERS = ("mailer-daemon", "postmaster", "mail-daemon", "mailerdaemon", "noreply-dmarc-support")
_PRECEDENCE = ("bulk", "junk", "list", "auto_reply", "auto-reply")
_MSGID = re.compile(r"<[^<>\s]{1,250}>")
_RETURNED_ID = re.compile(r"^message-id:[ \t]*(<[^<>\s]{1,250}>)", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class Robot:
    kind: str        # auto-reply | bulk | list | receipt | bounce
    why: str         # the header that says so, for the GM's log


def classify(msg: Any, sender: str) -> Robot | None:
    """What kind of automatic mail the headers (a compat32 header-only message) say this is, or
    None for mail a person sent. A list message is 'list': the caller still reads it for orders."""
    ctype = _plain(msg, "Content-Type").lower()
    report = _report_type(ctype)
    local = sender.partition("@")[0]
    if report == "delivery-status":
        return Robot("bounce", "a delivery status report (multipart/report)")
    if local in _ROBOT_SENDERS:
        return Robot("bounce", f"sent by {local}")
    if report == "disposition-notification":
        return Robot("receipt", "a read receipt (multipart/report; disposition-notification)")
    auto = _plain(msg, "Auto-Submitted").lower()
    if auto and auto.split(";")[0].strip() != "no":
        return Robot("auto-reply", f"Auto-Submitted: {auto[:40]}")
    for name in ("X-Autoreply", "X-Autorespond", "X-Autoresponder", "X-Auto-Reply"):
        if _plain(msg, name):
            return Robot("auto-reply", f"{name}: {_plain(msg, name)[:40]}")
    precedence = _plain(msg, "Precedence").lower()
    if precedence in _PRECEDENCE and precedence != "list":
        return Robot("bulk", f"Precedence: {precedence}")
    if "<>" in _plain(msg, "Return-Path").replace(" ", ""):
        return Robot("auto-reply", "an empty Return-Path: <> (automatic mail)")
    if precedence == "list" or _plain(msg, "List-Id") or _plain(msg, "List-Unsubscribe"):
        return Robot("list", "mailing-list headers (List-Id, List-Unsubscribe or Precedence: list)")
    return None


def _plain(msg: Any, name: str) -> str:
    try:
        value = msg.get(name)
    except Exception:  # noqa: BLE001 - a header too broken to read is no header
        return ""
    return " ".join(str(value or "").split())[:300]


def _report_type(ctype: str) -> str:
    if not ctype.startswith("multipart/report"):
        return ""
    found = re.search(r"report-type\s*=\s*\"?([\w-]+)", ctype)
    return found.group(1) if found else ""


# ---- bounces -------------------------------------------------------------------------------------

@dataclass
class Bounce:
    recipients: list[str]
    message_ids: list[str]
    subject: str
    diagnostic: str


def read_bounce(raw: bytes) -> Bounce:
    """Who a bounce was for and which message it returns, from the delivery status report (RFC
    3464) and the returned message or its headers; what Postfix and Exchange send. Never raises."""
    out = Bounce([], [], "", "")
    try:
        msg = email.message_from_bytes(raw, policy=email.policy.compat32)
        for part in msg.walk():
            ctype = part.get_content_type()
            if ctype == "message/delivery-status":
                _status_fields(part, out)
            elif ctype in ("message/rfc822", "text/rfc822-headers", "message/rfc822-headers"):
                _returned(part, out)
        if not out.recipients or not out.message_ids:  # no report (qmail): the text names them
            text = raw[:64 * 1024].decode("utf-8", "replace")
            body = text.split("\n\n", 1)[-1] if "\n\n" in text else text.split("\r\n\r\n", 1)[-1]
            out.recipients = out.recipients or sorted(set(re.findall(r"<([^<>\s@]{1,64}@[^<>\s]{1,200})>", body)))[:20]
            out.message_ids = out.message_ids or _RETURNED_ID.findall(body)[:1]
    except Exception:  # noqa: BLE001 - a broken bounce is still a bounce, just an unnamed one
        pass
    return out


def _status_fields(part: Any, out: Bounce) -> None:
    payload = part.get_payload()
    blocks = payload if isinstance(payload, list) else [payload]
    for block in blocks:
        text = block.as_string() if hasattr(block, "as_string") else str(block)
        for line in text.splitlines():
            name, colon, value = line.partition(":")
            name = name.strip().lower()
            if not colon:
                continue
            if name in ("final-recipient", "original-recipient"):
                address = value.split(";", 1)[-1].strip().strip("<>").lower()
                if "@" in address and address not in out.recipients:
                    out.recipients.append(address)
            elif name == "diagnostic-code" and not out.diagnostic:
                out.diagnostic = " ".join(value.split(";", 1)[-1].split())[:160]


def _returned(part: Any, out: Bounce) -> None:
    payload = part.get_payload()
    if isinstance(payload, list) and payload:
        inner = payload[0]
    else:
        inner = email.message_from_string(str(payload), policy=email.policy.compat32)
    for name in ("Message-ID", "Message-Id"):
        value = _plain(inner, name)
        if value:
            out.message_ids += _MSGID.findall(value)[:1]
            break
    out.subject = out.subject or _plain(inner, "Subject")[:200]
    to = email.utils.getaddresses([_plain(inner, "To")])
    for _name, address in to:
        if "@" in address and address.lower() not in out.recipients:
            out.recipients.append(address.lower())


def record_bounce(campaign: Campaign, raw: bytes, *, at: dt.datetime,
                  addresses: dict[str, str], sent: dict[str, Any]) -> tuple[str | None, str]:
    """Note a bounce in inbox/bounces.yaml: the player it concerns (by the returned message's id
    in the sent log, else by the failed address) and what was returned. (player, one line)."""
    bounce = read_bounce(raw)
    by_id = {str(entry.get("message_id")): key for key, entry in sent.items() if entry.get("message_id")}
    key = next((by_id[m] for m in bounce.message_ids if m in by_id), None)
    player = None
    if key and key.startswith("report:"):
        player = key.rsplit(":", 1)[1]
    if player is None:
        player = next((addresses[a] for a in bounce.recipients if a in addresses), None)
    what = ("report" if (key or "").startswith("report:") else
            "report" if key is None and "report" in bounce.subject.lower() else "mail")
    if player is None:
        return None, "bounce for no player's address (no reply sent)"
    append_entry(campaign.path / "inbox" / BOUNCES, {
        "player": player, "at": at.astimezone(dt.timezone.utc).isoformat(timespec="seconds"), "what": what,
        "key": key, "subject": bounce.subject[:120], "diagnostic": bounce.diagnostic})
    why = f": {bounce.diagnostic}" if bounce.diagnostic else ""
    return player, f"bounce: the {what} to {player} was not delivered{why} (no reply sent)"


def last_bounces(campaign: Campaign) -> dict[str, dict[str, Any]]:
    """{player: their latest bounce entry} (what `gm status` shows)."""
    out: dict[str, dict[str, Any]] = {}
    for entry in read_entries(campaign.path / "inbox" / BOUNCES):
        if entry.get("player"):
            out[str(entry["player"])] = entry
    return out


def bounce_lines(campaign: Campaign) -> list[str]:
    """'ann: last report bounced on 2026-12-03 18:05 UTC (why)', one line per player with a bounce."""
    lines = []
    for player, entry in sorted(last_bounces(campaign).items()):
        try:
            when = dt.datetime.fromisoformat(str(entry.get("at"))).strftime("%Y-%m-%d %H:%M UTC")
        except ValueError:
            when = str(entry.get("at"))
        why = f" ({entry['diagnostic']})" if entry.get("diagnostic") else ""
        lines.append(f"{player}: last {entry.get('what') or 'mail'} bounced on {when}{why}")
    return lines
