"""What mail programs add around a player's own words, taken off before orders are read:
format=flowed soft line breaks (RFC 3676), the quoted earlier message in the forms real programs
write it (Gmail's attribution wrapped over two lines, Outlook's unruled From:/Sent:/To:/Subject:
block, "-----Original Message-----", underscore rules, localised attributions), the default
signatures of phone mail apps, and a short closing ("Best wishes," / "Cat") below the orders.

Every cut keeps each remaining line's number, so errors point where the player wrote. Every step
is linear in the length of the text (no backtracking patterns over a whole line of input).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from gm.store.orders import TYPOGRAPHY

# ---- format=flowed (RFC 3676) -------------------------------------------------------------------


def unflow(text: str, *, delsp: bool) -> str:
    """Join the soft-broken lines of a format=flowed text: a line ending in a space goes on in the
    next line of the same quote depth; with DelSp=yes that space was added by the sender and is
    taken out. Space-stuffing (a space put before a line starting with ' ', '>' or 'From ') is
    undone. The signature line '-- ' is never joined."""
    out: list[str] = []
    pending: str | None = None
    pending_depth = 0
    for raw in text.split("\n"):
        depth = len(raw) - len(raw.lstrip(">"))
        line = raw[depth:]
        if line.startswith(" "):
            line = line[1:]  # space-stuffing (or the space after '>')
        flowed = line.endswith(" ") and line != "-- "
        if pending is not None and depth != pending_depth:
            out.append(_quoted(pending, pending_depth))  # a soft break cannot cross quote depths
            pending = None
        if flowed and delsp:
            line = line[:-1]
        pending = line if pending is None else pending + line
        pending_depth = depth
        if not flowed:
            out.append(_quoted(pending, depth))
            pending = None
    if pending is not None:
        out.append(_quoted(pending, pending_depth))
    return "\n".join(out)


def _quoted(line: str, depth: int) -> str:
    return (">" * depth + " " + line) if depth else line


# ---- typography a phone puts in ------------------------------------------------------------------

def plain_typography(text: str) -> str:
    return text.translate(TYPOGRAPHY)


# ---- the quoted earlier message ------------------------------------------------------------------

_ATTRIBUTION_WORD = re.compile(
    r"\b(wrote|writes|schrieb|a écrit|a ecrit|escribió|escribio|ha scritto|schreef|skrev|kirjoitti|napisał|"
    r"escreveu|написал)\b", re.IGNORECASE)
_ATTRIBUTION_START = re.compile(r"^\s*(on|am|le|el|il|op|den|em|w dniu|в)\s", re.IGNORECASE)

FORWARDED = re.compile(
    r"^\s*(-{2,}\s*(original message|forwarded message|ursprüngliche nachricht|originalnachricht|"
    r"weitergeleitete nachricht|message d'origine|message transféré|mensaje original|mensaje reenviado|"
    r"messaggio originale|messaggio inoltrato|oorspronkelijk bericht|doorgestuurd bericht|"
    r"originalmeddelande|vidarebefordrat meddelande|mensagem original)\s*-{2,}"
    r"|_{20,}|begin forwarded message:|début du message réexpédié :|anfang der weitergeleiteten nachricht:)\s*$",
    re.IGNORECASE)

# Outlook (desktop and on the web) puts the earlier message under a block of its own headers, with
# no '>' and, in newer versions, no rule above it: "From: ... / Sent: ... / To: ... / Subject: ..."
_BLOCK_FROM = re.compile(r"^\s*\**\s*(from|von|de|da|van|från|fra|od|от)\s*\**\s*:\s*\**\s*\S", re.IGNORECASE)
_BLOCK_NEXT = re.compile(r"^\s*\**\s*(sent|date|gesendet|datum|envoyé|enviado|enviado el|inviato|verzonden|"
                         r"skickat|sendt|to|an|à|para|a|aan|till|til|subject|betreff|objet|asunto|oggetto|"
                         r"onderwerp|ämne|emne|cc)\s*\**\s*:", re.IGNORECASE)


def is_attribution(line: str) -> bool:
    """A mail client's "On ..., Ann wrote:" line (any of the common languages)."""
    stripped = line.rstrip()
    return stripped.endswith(":") and _ATTRIBUTION_WORD.search(stripped) is not None


def _outlook_block(lines: list[str], i: int) -> bool:
    """Whether line i starts an Outlook header block: 'From:' then, within the next four
    non-blank lines, at least two of 'Sent:'/'Date:', 'To:', 'Subject:' (or their translations)."""
    if not _BLOCK_FROM.match(lines[i]):
        return False
    seen = 0
    looked = 0
    for line in lines[i + 1:]:
        if not line.strip():
            continue
        looked += 1
        if _BLOCK_NEXT.match(line):
            seen += 1
            if seen >= 2:
                return True
        if looked >= 4:
            break
    return False


def quoted_start(lines: list[str]) -> int | None:
    """The index of the line where a quoted earlier message begins that is not marked with '>'
    (everything from it down is the earlier message), or None."""
    for i, line in enumerate(lines):
        if line.lstrip().startswith(">"):
            continue
        if FORWARDED.match(line) or _outlook_block(lines, i):
            return i
    return None


def attributions(lines: list[str]) -> list[int]:
    """The lines of each "On ... wrote:" attribution above '>'-quoted text, also when a mail
    program (Gmail) wrapped it over two lines ("On Sat, 28 Nov 2026 at 18:02, The GM <gm@…>" /
    "wrote:")."""
    out: list[int] = []
    below_quoted = [False] * len(lines)  # whether the next non-blank line below is quoted
    below = False
    for i in range(len(lines) - 1, -1, -1):
        below_quoted[i] = below
        if lines[i].strip():
            below = lines[i].lstrip().startswith(">")
    for i, line in enumerate(lines):
        if not below_quoted[i] or line.lstrip().startswith(">") or not line.rstrip().endswith(":"):
            continue
        above = lines[i - 1] if i > 0 else ""
        wrapped = (above.strip() and not above.lstrip().startswith(">") and _ATTRIBUTION_START.match(above)
                   and len(line.split()) <= 3 and is_attribution(above.rstrip() + " " + line.strip()))
        if wrapped:  # "On Sat, ... The GM <gm@…>" / "wrote:", or "Am ... schrieb The GM <" / "gm@…>:"
            out += [i - 1, i]
        elif is_attribution(line):
            out.append(i)
    return sorted(out)


# ---- signatures and closings ---------------------------------------------------------------------

# the default signatures of phone and web mail apps, and their common translations
APP_SIGNATURE = re.compile(
    r"^\s*(sent from my (iphone|ipad|galaxy|samsung[\w ]*|huawei[\w ]*|android[\w ]*|xperia|mobile|phone|"
    r"blackberry[\w ]*|pixel[\w ]*|smartphone|oneplus[\w ]*|xiaomi[\w ]*)"
    r"|sent from (yahoo mail|outlook|mail|my mobile|gmail mobile|proton mail)[\w .,]*"
    r"|get outlook for (ios|android)|sent with proton mail[\w ]*|sent via [\w ]+"
    r"|von meinem (iphone|ipad|smartphone|samsung[\w ]*|android[\w ]*) gesendet"
    r"|gesendet von (meinem )?(iphone|ipad|smartphone|yahoo mail|outlook)[\w ]*"
    r"|envoyé de mon (iphone|ipad|smartphone|samsung[\w ]*|appareil [\w ]+)|envoyé depuis (mon|l'application) [\w ]+"
    r"|enviado desde mi (iphone|ipad|smartphone|samsung[\w ]*|dispositivo [\w ]+)|enviado do meu (iphone|celular)"
    r"|inviato da(l mio)? (iphone|ipad|smartphone|samsung[\w ]*|yahoo mail)[\w ]*"
    r"|verzonden (vanaf|met) (mijn )?(iphone|ipad|samsung[\w ]*|outlook)[\w ]*"
    r"|skickat från min (iphone|ipad|samsung[\w ]*))\s*\.?\s*(<https?://[^<>\s]{1,200}>)?\s*$",
    re.IGNORECASE)

# words a closing starts with ("Best wishes," / "Cat", "Thanks!", "Cheers, Bob")
CLOSING = re.compile(
    r"^\s*(best|best wishes|best regards|all the best|kind regards|warm regards|regards|many thanks|"
    r"thanks( a lot| again| in advance)?|thank you|thx|ta|cheers|love|yours|yours truly|sincerely|bye|"
    r"see you|see ya|take care|greetings|good luck|have fun|enjoy|ciao|salut|merci|cordialement|amitiés|"
    r"bien à vous|grüße|gruß|viele grüße|liebe grüße|lg|mfg|beste grüße|danke|saludos|gracias|"
    r"un saludo|abrazos|grazie|saluti|groeten|met vriendelijke groet|hälsningar|mvh|hilsen)"
    r"\s*[,.!]*(\s+\S.*)?$", re.IGNORECASE)
CLOSING_LINES = 3
CLOSING_WORDS = 4


def is_signature(line: str) -> bool:
    return len(line) <= 80 and APP_SIGNATURE.match(line) is not None


def closing_candidate(lines: list[tuple[int, str]]) -> list[int]:
    """The numbers of the lines (the order lines, (number, text)) that make a closing at the end:
    at most three short lines, the first a closing word, none holding a digit or a character of
    the order syntax. [] when there is none. Whether each is also no order is the caller's test."""
    tail = lines[-CLOSING_LINES:]
    for start, (_number, text) in enumerate(tail):
        if CLOSING.match(text) is None:
            continue
        block = tail[start:]
        if all(_plain_words(t) for _n, t in block):
            return [n for n, _t in block]
    return []


def _plain_words(text: str) -> bool:
    words = text.split()
    if not words or len(words) > CLOSING_WORDS:
        return False
    return not any(ch.isdigit() or ch in ':()"#|/=' for ch in text)


@dataclass
class Cleaned:
    text: str                                          # the order text, cut parts blanked
    passed_over: list[str] = field(default_factory=list)  # lines set aside, as the player wrote them
    quoted_from: int | None = None                     # 1-based line where a quoted message began


def fold(text: str) -> str:
    """Case and accents folded (for comparing words)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))
