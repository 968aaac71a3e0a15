"""A raw message -> who sent it, when, and the order text (text/plain preferred, HTML turned into
text, or a text attachment). Problems become one clear line (BadMessage), never a traceback."""
from __future__ import annotations

import datetime as dt
import email
import email.errors
import email.header
import email.parser
import email.policy
import email.utils
import html
import re
from dataclasses import dataclass, field
from email.message import EmailMessage
from html.parser import HTMLParser

from gm.store.errors import OrderError
from gm.store.orders import decode_order_bytes, read_frame
from gm.delivery.mail.automatic import Robot, classify
from gm.delivery.mail.quoting import (FORWARDED, Cleaned, attributions, is_attribution, is_signature,
                                      plain_typography, quoted_start, unflow)

_FORWARDED = FORWARDED  # the names commands.py reads
__all__ = ["BadMessage", "Cleaned", "Head", "Incoming", "clean_order_text", "is_attribution", "read_head",
           "read_incoming"]

# defects that mean the MIME structure cannot be trusted to hold what the player wrote
_FATAL_DEFECTS = (email.errors.StartBoundaryNotFoundDefect, email.errors.NoBoundaryInMultipartDefect,
                  email.errors.MultipartInvariantViolationDefect, email.errors.CloseBoundaryNotFoundDefect,
                  email.errors.MissingHeaderBodySeparatorDefect)


class BadMessage(ValueError):
    """A message that cannot be read as orders; the text is the one line the GM and player see."""


@dataclass
class Incoming:
    sender: str                      # the From address, lower-case
    date: dt.datetime | None         # the Date header in UTC, None when absent or unreadable
    message_id: str
    subject: str
    text: str                        # the order text, BOM removed, line ends normalised
    source: str                      # where the text came from: "body", "html body", "attachment 'x.txt'"
    notes: list[str] = field(default_factory=list)  # what the reply should say of how it was read


def parse_message(raw: bytes) -> EmailMessage:
    return email.message_from_bytes(raw, policy=email.policy.default)


def header(msg: EmailMessage, name: str) -> str:
    try:
        value = msg.get(name)
    except (ValueError, IndexError, TypeError, email.errors.HeaderParseError):
        return ""
    return str(value or "").strip()


def sender_of(msg: EmailMessage) -> str:
    pairs = email.utils.getaddresses([header(msg, "From")])
    addresses = [addr.strip().lower() for _name, addr in pairs if "@" in addr]
    return addresses[0] if addresses else ""


def date_of(msg: EmailMessage) -> dt.datetime | None:
    return _date(header(msg, "Date"))


def _date(text: str) -> dt.datetime | None:
    if not text:
        return None
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # "-0000": the sender's zone is unknown, the time is UTC
        when = when.replace(tzinfo=dt.timezone.utc)
    return when.astimezone(dt.timezone.utc)


@dataclass
class Head:
    """What the header block alone says: enough to decide whether a message deserves reading."""

    sender: str
    date: dt.datetime | None
    message_id: str
    subject: str
    robot: Robot | None = None       # automatic mail (auto-reply, bulk, list, receipt, bounce)


HEAD_LIMIT = 64 * 1024  # a header block longer than this is cut: no legitimate message needs more
# The standard library's structured header parsing (policy.default) takes time growing with the
# square of some values (60 KB of '"' in From: costs minutes), so headers are first read as plain
# strings, and a message whose parsed headers are oversize is refused before that parsing.
PARSED_HEADERS = ("from", "content-type", "content-disposition", "content-transfer-encoding")
MAX_PARSED_HEADER = 1000
MAX_PARTS = 64


def _plain(msg, name: str, limit: int) -> str:
    try:
        value = msg.get(name)
    except Exception:  # noqa: BLE001 - a header too broken to read is no header
        return ""
    return " ".join(str(value or "").split())[:limit]


def read_head(raw: bytes) -> Head:
    """The sender, date, id and subject from the header block only, never touching the body and
    without the slow structured parsing, so a message from a stranger costs next to nothing.
    Never raises."""
    block = raw[:HEAD_LIMIT]
    ends = [i for i in (block.find(b"\r\n\r\n"), block.find(b"\n\n")) if i >= 0]
    block = block[:min(ends)] if ends else block
    try:
        msg = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(block + b"\n\n")
        pairs = email.utils.getaddresses([_plain(msg, "From", 2000)])
        sender = next((addr.strip().lower() for _name, addr in pairs if "@" in addr), "")
        return Head(sender, _date(_plain(msg, "Date", 200)), _plain(msg, "Message-ID", 998),
                    _subject(_plain(msg, "Subject", 2000)), classify(msg, sender))
    except Exception:  # noqa: BLE001 - headers too broken to read: a message with no sender
        return Head("", None, "", "")


def _subject(text: str) -> str:
    try:
        return str(email.header.make_header(email.header.decode_header(text)))
    except Exception:  # noqa: BLE001 - an undecodable subject is shown as it came
        return text


def screen(raw: bytes) -> None:
    """Refuse, cheaply, what the full parser would take too long over: too many MIME parts, or an
    oversize header among those it parses."""
    try:
        msg = email.message_from_bytes(raw, policy=email.policy.compat32)
        parts = list(msg.walk())
    except Exception as exc:  # noqa: BLE001
        raise BadMessage(f"malformed message: {type(exc).__name__}") from None
    if len(parts) > MAX_PARTS:
        raise BadMessage(f"the message has {len(parts)} MIME parts (at most {MAX_PARTS}); "
                         "send the orders as plain text")
    for part in parts:
        for name, value in part.items():
            if name.lower() in PARSED_HEADERS and len(str(value)) > MAX_PARSED_HEADER:
                raise BadMessage(f"the message's {name}: header is too long ({len(str(value))} characters; "
                                 f"at most {MAX_PARSED_HEADER})")


def read_incoming(raw: bytes) -> Incoming:
    """Take a raw message apart; raises BadMessage with one line for anything unusable."""
    screen(raw)
    try:
        msg = parse_message(raw)
    except Exception as exc:  # the parser should not raise, but a broken message must never stop a fetch
        raise BadMessage(f"malformed message: {type(exc).__name__}") from None
    sender = sender_of(msg)
    if not sender:
        raise BadMessage("no sender address in the From: header")
    defects = [d for part in msg.walk() for d in part.defects if isinstance(d, _FATAL_DEFECTS)]
    if defects:
        raise BadMessage(f"malformed MIME ({type(defects[0]).__name__.replace('Defect', '')}); "
                         "send the orders as plain text")
    notes: list[str] = []
    text, source = order_text(msg, notes)
    return Incoming(sender, date_of(msg), header(msg, "Message-ID"), header(msg, "Subject"), text, source, notes)


def _decoded(part: EmailMessage, notes: list[str] | None = None, name: str = "") -> str:
    """A text part as text. A format=flowed part has its soft line breaks joined (RFC 3676). An
    attachment with no declared character set is read the way `gm check` reads a file (UTF-8,
    UTF-16 with or without a byte-order mark, otherwise Windows-1252), and the reply says which."""
    payload = part.get_payload(decode=True) or b""
    declared = part.get_content_charset()
    if declared is None and name and notes is not None:
        text = _as_file(payload, name, notes)
    else:
        charset = (declared or "utf-8").lower()
        if charset in ("us-ascii", "ascii", "unknown-8bit"):
            charset = "utf-8"  # ASCII is UTF-8; undeclared 8-bit text is only accepted when it is UTF-8
        try:
            text = payload.decode(charset)
        except LookupError:
            raise BadMessage(f"unknown character set {charset!r}; send the orders as UTF-8 text") from None
        except UnicodeDecodeError:
            raise BadMessage(f"the text is not valid {charset.upper()}; send the orders as UTF-8 text") from None
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    params = {k.lower(): str(v).lower() for k, v in (part.get_params() or [])[1:]}
    if params.get("format") == "flowed":
        text = unflow(text, delsp=params.get("delsp") == "yes")
    return text


def _as_file(payload: bytes, name: str, notes: list[str]) -> str:
    try:
        text = decode_order_bytes(payload, name)
    except OrderError as exc:
        raise BadMessage(f"the attachment {name!r}: {exc.message}") from None
    try:
        payload.decode("utf-8")
    except UnicodeDecodeError:
        if b"\x00" in payload or payload[:2] in (b"\xff\xfe", b"\xfe\xff"):
            notes.append(f"the attachment {name!r} declares no character set; it was read as UTF-16")
        else:
            notes.append(f"the attachment {name!r} declares no character set and is not UTF-8; "
                         "it was read as Windows-1252 (save it as UTF-8 if letters look wrong)")
    return text


def _has_header(text: str) -> bool:
    return bool(read_frame(text, skip_preamble=True).headers)


def safe_name(name: str | None) -> str:
    """An attachment's name for a log line or a reply only — it is never used as a path."""
    clean = re.sub(r"[^\w.\- ]", "_", name or "")[:60]
    return clean or "unnamed"


# documents gm cannot read: named in the reply with what to do instead
DOCUMENTS = {".rtf": "an RTF document", ".doc": "a Word document", ".docx": "a Word document",
             ".odt": "an OpenDocument text", ".pdf": "a PDF file", ".pages": "a Pages document",
             ".wps": "a Works document"}
DOCUMENT_TYPES = {"application/rtf": ".rtf", "text/rtf": ".rtf", "application/msword": ".doc",
                  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ".docx",
                  "application/vnd.oasis.opendocument.text": ".odt", "application/pdf": ".pdf"}


def _document(name: str, ctype: str) -> str | None:
    lower = name.lower()
    for ext, what in DOCUMENTS.items():
        if lower.endswith(ext):
            return what
    ext = DOCUMENT_TYPES.get(ctype)
    return DOCUMENTS[ext] if ext else None


@dataclass
class _Parts:
    plain: str | None = None
    html_text: str | None = None
    attachments: list[tuple[str, str]] = field(default_factory=list)
    documents: list[tuple[str, str]] = field(default_factory=list)
    inner: list[EmailMessage] = field(default_factory=list)


def _parts(msg: EmailMessage, notes: list[str]) -> _Parts:
    """The message's texts, not descending into a forwarded message (message/rfc822)."""
    found = _Parts()
    stack = [msg]
    while stack:
        part = stack.pop(0)
        ctype = part.get_content_type()
        if ctype == "message/rfc822":
            inner = part.get_payload()
            if isinstance(inner, list) and inner:
                found.inner.append(inner[0])
            continue
        if part.is_multipart():
            stack[:0] = list(part.iter_parts())
            continue
        name = part.get_filename()
        is_attachment = part.get_content_disposition() == "attachment" or name is not None
        if is_attachment:
            what = _document(name or "", ctype)
            if what:
                found.documents.append((safe_name(name), what))
            elif ctype == "text/plain" or (name or "").lower().endswith(".txt"):
                found.attachments.append((safe_name(name), _decoded(part, notes, safe_name(name))))
            continue
        if ctype == "text/plain" and found.plain is None:
            found.plain = _decoded(part)
        elif ctype == "text/html" and found.html_text is None:
            found.html_text = html_to_text(_decoded(part))
    return found


def order_text(msg: EmailMessage, notes: list[str] | None = None, *, depth: int = 0) -> tuple[str, str]:
    notes = notes if notes is not None else []
    found = _parts(msg, notes)
    body, source = (found.plain, "body") if found.plain is not None else (found.html_text, "html body")
    if body is not None and _has_header(body):
        return body, source
    for name, text in found.attachments:
        if _has_header(text):
            return text, f"attachment {name!r}"
    if depth < 3:
        for inner in found.inner:  # a message forwarded as an attachment is read as itself
            try:
                text, where = order_text(inner, notes, depth=depth + 1)
            except BadMessage:
                continue
            if _has_header(text):
                return text, f"forwarded message's {where}"
    if found.documents:
        name, what = found.documents[0]
        raise BadMessage(f"the attachment {name!r} is {what}, which gm cannot read: save it as plain text "
                         "(.txt) and attach that, or paste the orders into the message itself")
    if body is not None:
        return body, source
    if found.attachments:
        return found.attachments[0][1], f"attachment {found.attachments[0][0]!r}"
    raise BadMessage("no text in the message: write the orders as plain text or attach a .txt file")


def clean_order_text(text: str) -> Cleaned:
    """Blank what is not orders, keeping every line's number as the player sees it: a mail
    client's "On ... wrote:" line (one or two lines) above quoted text; everything from the start
    of a quoted earlier message that is not marked with '>' (Outlook's From:/Sent: block,
    "-----Original Message-----", a rule of underscores) or from a phone app's signature on; and a
    closing of short lines below the orders, which the caller confirms (``closing``). A greeting
    above the header stays: the frame skips it and says so, as `gm check` does."""
    lines = plain_typography(text).split("\n")
    out = Cleaned("")
    cut = quoted_start(lines)
    if cut is not None:
        out.quoted_from = cut + 1
        lines[cut:] = [""] * (len(lines) - cut)
    for i in attributions(lines):
        lines[i] = ""
    for i, line in enumerate(lines):
        if is_signature(line):
            out.passed_over.append(line.strip())
            lines[i:] = [""] * (len(lines) - i)
            break
    out.text = "\n".join(lines)
    return out


class _TextFromHTML(HTMLParser):
    """HTML to plain lines; a <blockquote> is a quoted earlier message and is dropped."""

    BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol"}
    SKIP = {"script", "style", "head", "title", "blockquote"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag == "blockquote" and not self.skipping:
            self.out.append("\n> (quoted text)\n")  # so the "On ... wrote:" line above it is recognised
        if tag in self.SKIP:
            self.skipping += 1
        elif tag in self.BLOCKS:
            self.out.append("\n")

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif tag in self.BLOCKS:
            self.out.append("\n")

    def handle_data(self, data):
        if not self.skipping:
            self.out.append(data)


def html_to_text(markup: str) -> str:
    parser = _TextFromHTML()
    parser.feed(markup)
    parser.close()
    text = html.unescape("".join(parser.out)).replace("\xa0", " ")
    lines = [" ".join(line.split()) for line in text.split("\n")]
    return "\n".join(lines).strip("\n") + "\n"
