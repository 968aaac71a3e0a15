"""The headers of every message gm sends, and the last check before one goes out.

A header value that came from outside (a player's Message-ID, Subject, name) is data, never a
header: an id is copied into In-Reply-To/References only when it is a plain `<local@domain>` of safe
characters (no '?', so no RFC 2047 encoded word can hide in it), and text gm puts in a header
(campaign and player names) has its control characters and encoded-word openers taken out.

`seal` is the gate every message passes just before it is sent or written for the GM: only the
headers gm writes, each once; To: is exactly the one registered address the message is meant for;
a stable Message-ID derived from what the message is (its sent-log key); `Auto-Submitted`; the
whole message flattened with a strict policy and read back to prove that what goes on the wire
has exactly the headers checked and nothing decoded into a line break.
"""
from __future__ import annotations

import email.header
import email.parser
import email.policy
import email.utils
import hashlib
import hmac
import re
from email.message import EmailMessage

# every outgoing message: CRLF on the wire, any defect an error (never "best effort")
OUTGOING = email.policy.SMTP.clone(raise_on_defect=True)
ON_DISK = OUTGOING.clone(linesep="\n")  # the same message as a .eml file for the GM

_ID = re.compile(r"<[A-Za-z0-9!#$%&'*+/=^_`{|}~.-]{1,200}@[A-Za-z0-9.-]{1,200}>")
_DOMAIN = re.compile(r"[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*")
_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_UNFOLD = re.compile(r"\r?\n(?=[ \t])")
_RAW_BAD = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")

# kind of message -> Auto-Submitted (RFC 3834): a reply answers a message; the rest gm makes itself
AUTO_SUBMITTED = {"reply": "auto-replied"}
TOP_HEADERS = ("from", "to", "subject", "date", "message-id", "in-reply-to", "references", "auto-submitted",
               "mime-version", "content-type", "content-transfer-encoding")


class UnsafeMessage(ValueError):
    """A message that must not go out as it is; the text says why in one line."""


def safe_id(value: object) -> str:
    """``value`` when it is one plain message id `<local@domain>` of safe characters, else ""."""
    text = str(value or "").strip()
    return text if len(text) <= 400 and _ID.fullmatch(text) else ""


def plain_text(value: object, limit: int = 200) -> str:
    """Text gm puts into a header (a campaign or player name): one line, no control characters,
    no encoded-word opener ("=?") that a mail program would decode."""
    text = " ".join(_BREAKS.sub(" ", str(value or "")).split())
    while "=?" in text:
        text = text.replace("=?", "= ?")
    return text[:limit]


def mail_domain(sender: str) -> str:
    domain = email.utils.parseaddr(sender)[1].rpartition("@")[2]
    return domain.lower() if _DOMAIN.fullmatch(domain or "") else "localhost"


def stable_id(secret: bytes, key: str, domain: str) -> str:
    """The Message-ID of the message with this sent-log key: the same every time it is built (a
    resend after a crash is the same message to a mail program), different in every campaign."""
    kind = re.sub(r"[^a-z]", "", key.partition(":")[0].lower())[:12] or "msg"
    digest = hmac.new(secret, b"gm message-id\0" + key.encode("utf-8"), hashlib.sha256).hexdigest()[:32]
    return f"<gm.{kind}.{digest}@{domain}>"


def set_reply_ids(msg: EmailMessage, their_id: object) -> None:
    """In-Reply-To and References for an answer to a message whose Message-ID was ``their_id``:
    set only when it is a plain valid id, never from anything else."""
    good = safe_id(their_id)
    for name in ("In-Reply-To", "References"):
        del msg[name]
        if good:
            msg[name] = good


def kind_of(key: str) -> str:
    return key.partition(":")[0]


def seal(msg: EmailMessage, *, to: str, key: str, message_id: str, on_disk: bool = False) -> bytes:
    """The bytes to send (or to write for the GM) of ``msg``, meant for the one address ``to``;
    raises UnsafeMessage when it cannot be made safe. Sets Message-ID and Auto-Submitted."""
    names = [name.lower() for name in msg.keys()]
    stray = sorted({n for n in names if n not in TOP_HEADERS})
    if stray:
        raise UnsafeMessage(f"header {stray[0]!r} is not one gm writes")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise UnsafeMessage(f"header {twice[0]!r} appears more than once")
    for name in ("In-Reply-To", "References"):
        if name in msg and not safe_id(str(msg[name])):
            del msg[name]  # an id that is not plainly valid is left out, never repaired
    del msg["Message-ID"]
    msg["Message-ID"] = message_id
    del msg["Auto-Submitted"]
    msg["Auto-Submitted"] = AUTO_SUBMITTED.get(kind_of(key), "auto-generated")
    _only_recipient(str(msg.get("To", "")), to)
    try:
        data = msg.as_bytes(policy=ON_DISK if on_disk else OUTGOING)
    except Exception as exc:  # noqa: BLE001 - any defect under the strict policy: not sent
        raise UnsafeMessage(f"cannot be written strictly ({type(exc).__name__}: {exc})") from None
    _read_back(data, [name.lower() for name in msg.keys()], to)
    return data


def _only_recipient(value: str, to: str) -> None:
    pairs = email.utils.getaddresses([value])
    addresses = [addr.strip().lower() for _name, addr in pairs if addr]
    if addresses != [to.strip().lower()]:
        raise UnsafeMessage(f"To: is not exactly the registered address {to}")


def _read_back(data: bytes, expected: list[str], to: str) -> None:
    """Parse the flattened header block as a receiving server would and compare."""
    end = min(i for i in (data.find(b"\r\n\r\n"), data.find(b"\n\n"), len(data)) if i >= 0)
    head = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(data[:end] + b"\n\n")
    if [name.lower() for name in head.keys()] != expected:
        raise UnsafeMessage("its headers changed when written out")
    for name, value in head.items():
        raw = _UNFOLD.sub("", str(value))
        try:
            shown = str(email.header.make_header(email.header.decode_header(raw)))
        except Exception:  # noqa: BLE001 - undecodable: judged as written
            shown = raw
        if _RAW_BAD.search(raw) or len(shown.splitlines()) > 1 or "\r" in shown or "\n" in shown:
            raise UnsafeMessage(f"header {name} holds a line break")
    _only_recipient(_UNFOLD.sub("", str(head["To"])), to)
