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
from dataclasses import dataclass
from email.message import EmailMessage
from html.parser import HTMLParser

from gm.store.orders import read_frame

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
                    _subject(_plain(msg, "Subject", 2000)))
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
    text, source = order_text(msg)
    return Incoming(sender, date_of(msg), header(msg, "Message-ID"), header(msg, "Subject"), text, source)


def _decoded(part: EmailMessage) -> str:
    payload = part.get_payload(decode=True) or b""
    charset = (part.get_content_charset() or "utf-8").lower()
    if charset in ("us-ascii", "ascii", "unknown-8bit"):
        charset = "utf-8"  # ASCII is UTF-8; undeclared 8-bit text is only accepted when it is UTF-8
    try:
        text = payload.decode(charset)
    except LookupError:
        raise BadMessage(f"unknown character set {charset!r}; send the orders as UTF-8 text") from None
    except UnicodeDecodeError:
        raise BadMessage(f"the text is not valid {charset.upper()}; send the orders as UTF-8 text") from None
    return text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")


def _has_header(text: str) -> bool:
    return bool(read_frame(text, skip_preamble=True).headers)


def safe_name(name: str | None) -> str:
    """An attachment's name for a log line or a reply only — it is never used as a path."""
    clean = re.sub(r"[^\w.\- ]", "_", name or "")[:60]
    return clean or "unnamed"


def order_text(msg: EmailMessage) -> tuple[str, str]:
    plain: str | None = None
    html_text: str | None = None
    attachments: list[tuple[str, str]] = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        name = part.get_filename()
        is_attachment = part.get_content_disposition() == "attachment" or name is not None
        if is_attachment:
            if ctype == "text/plain" or (name or "").lower().endswith(".txt"):
                attachments.append((safe_name(name), _decoded(part)))
            continue
        if ctype == "text/plain" and plain is None:
            plain = _decoded(part)
        elif ctype == "text/html" and html_text is None:
            html_text = html_to_text(_decoded(part))
    body, source = (plain, "body") if plain is not None else (html_text, "html body")
    if body is not None and _has_header(body):
        return body, source
    for name, text in attachments:
        if _has_header(text):
            return text, f"attachment {name!r}"
    if body is not None:
        return body, source
    if attachments:
        return attachments[0][1], f"attachment {attachments[0][0]!r}"
    raise BadMessage("no text in the message: write the orders as plain text or attach a .txt file")


_ATTRIBUTION_WORD = re.compile(r"\b(wrote|writes|schrieb|a écrit|escribió|ha scritto|schreef|skrev)\b", re.IGNORECASE)


def is_attribution(line: str) -> bool:
    """A mail client's "On ..., Ann wrote:" line. (Tested without a `.*:$` pattern, which would
    be quadratic on a long line full of those words.)"""
    stripped = line.rstrip()
    return stripped.endswith(":") and _ATTRIBUTION_WORD.search(stripped) is not None
_FORWARDED = re.compile(r"^\s*(-{3,}\s*(original message|forwarded message|ursprüngliche nachricht)\s*-{3,}"
                        r"|_{20,})\s*$", re.IGNORECASE)


def clean_order_text(text: str) -> str:
    """Blank what is not orders, keeping every line's number as the player sees it: any text
    before the first header line, a mail client's "On ... wrote:" line above quoted text, and
    everything from an "-----Original Message-----" (or Outlook's rule) line on."""
    lines = text.split("\n")
    frame = read_frame(text, skip_preamble=True)
    first = min(frame.header_lines.values()) - 1 if frame.header_lines else 0
    out = [""] * first + lines[first:]
    for i, line in enumerate(out):
        if _FORWARDED.match(line):
            out[i:] = [""] * (len(out) - i)
            break
    quoted_next = [False] * len(out)  # whether the next non-blank line below is quoted (one pass up)
    below = False
    for i in range(len(out) - 1, -1, -1):
        quoted_next[i] = below
        if out[i].strip():
            below = out[i].lstrip().startswith(">")
    for i, line in enumerate(out):
        if quoted_next[i] and is_attribution(line):
            out[i] = ""
    return "\n".join(out)


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
