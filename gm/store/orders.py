"""The order-file frame shared by every game.

A file (or e-mail body) is read into header fields (``player:``, ``turn:``, ``password:``) and
the game's own lines, each remembering its line number and the column where its text starts.
Comments (``#``, outside double quotes), quoted e-mail lines (``>``) and everything after a
``-- `` signature line are dropped. Anything above the first header line is a greeting ("Hi GM,
here are my orders:") and is ignored, the same way for `gm check`, `gm submit` and mail; a text
with no header at all is read whole. Games parse the remaining ``OrderLine``s and report errors
with ``line.error(...)`` so that every message reads ``FILE:LINE:COL: message``.

Every step is linear in the size of the text (no backtracking patterns), so a hostile file costs
no more than its length to refuse.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from gm.store.errors import (
    MAX_ERRORS,
    IllegalOrderError,
    OrderError,
    OrderErrors,
    OrderSyntaxError,
    UsageError,
    located_lines,
)
from gm.store.players import find_player

HEADER_KEYS = ("player", "turn", "password")
MAX_TURN_DIGITS = 6
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # what an editor counts as a new line (not \f, \x1c, \u2028...)
_TOKEN = re.compile(r'"[^"]*"?|\S+')
# what phones and word processors type for the quotes and spaces of the order syntax: curly and
# low quotes become straight ones, unusual spaces plain ones; one character for one, so every
# column stays where the player sees it
TYPOGRAPHY = str.maketrans({
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u2009": " ", "\u200a": " ", "\u2002": " ", "\u2003": " ",
    "\u3000": " ",
})

__all__ = ["HEADER_KEYS", "TYPOGRAPHY", "is_password_line", "without_password", "MAX_ERRORS", "OrderLine",
           "OrderText", "read_frame", "capped", "collect", "canonical_text",
           "decode_order_bytes", "frame_player", "located_lines", "preamble_note"]


@dataclass(frozen=True)
class OrderLine:
    """One line of a game's orders: its 1-based number, the column where ``text`` starts, the text."""

    number: int
    col: int
    text: str
    file: str = ""

    def error(self, message: str, offset: int = 0, *, kind: type[OrderError] = IllegalOrderError) -> OrderError:
        """An error at ``offset`` characters into ``text`` (0 = the start of the order)."""
        return kind(message, line=self.number, col=self.col + offset, text=self.text, file=self.file)

    def syntax(self, message: str, offset: int = 0) -> OrderError:
        return self.error(message, offset, kind=OrderSyntaxError)

    def tokens(self) -> list[tuple[int, str]]:
        """Whitespace-separated words with their offsets; a double-quoted phrase is one word."""
        return [(m.start(), m.group(0)) for m in _TOKEN.finditer(self.text)]


@dataclass
class OrderText:
    """An order file taken apart by the frame."""

    file: str
    headers: dict[str, str] = field(default_factory=dict)
    header_lines: dict[str, int] = field(default_factory=dict)
    lines: list[OrderLine] = field(default_factory=list)
    errors: list[OrderError] = field(default_factory=list)
    preamble: list[int] = field(default_factory=list)  # numbers of the greeting lines ignored above the header

    @property
    def player(self) -> str | None:
        return self.headers.get("player")

    @property
    def turn(self) -> int | None:
        value = self.headers.get("turn")
        return int(value) if value is not None and _is_turn_number(value) else None


def _is_turn_number(value: str) -> bool:
    # ASCII only: '²', '⑼', '３' and '٣' pass str.isdigit() but are no turn number
    return 0 < len(value) <= MAX_TURN_DIGITS and value.isascii() and value.isdigit()


def _strip_comment(raw: str) -> str:
    if "#" not in raw:
        return raw
    in_quotes = False
    for i, ch in enumerate(raw):
        if ch == '"':
            in_quotes = not in_quotes
        elif ch == "#" and not in_quotes:
            return raw[:i]
    return raw


def _header(body: str) -> tuple[str, str, int] | None:
    """(key, value, column) when ``body`` is a header line ``KEY : VALUE``, else None."""
    head, colon, value = body.partition(":")
    if not colon:
        return None
    key = head.strip().lower()
    if key not in HEADER_KEYS:
        return None
    return key, value.strip(), len(body) - len(body.lstrip()) + 1


def _short(value: str, limit: int = 30) -> str:
    if len(value) <= limit:
        return repr(value)
    return repr(value[:limit]) + f"... ({len(value):,} characters)"


def split_lines(text: str) -> list[str]:
    return _LINE_BREAK.split(text)


def read_frame(text: str, file: str = "<orders>", *, skip_preamble: bool = True) -> OrderText:
    """Split an order text into headers and game lines. Lines above the first header line are a
    greeting and are ignored (their numbers kept in ``preamble``); ``skip_preamble=False`` reads
    them as game lines (for texts the program itself wrote)."""
    out = OrderText(file=file)
    raw_lines = split_lines(text.removeprefix("\ufeff").translate(TYPOGRAPHY))
    bodies = [_body(raw) for raw in raw_lines]
    start = 0
    if skip_preamble:
        for i, body in enumerate(bodies):
            if body is None:
                break  # signature: no header below counts
            if body and _header(body):
                start = i
                break
        out.preamble = [i + 1 for i in range(start) if bodies[i]]
    for index in range(start, len(raw_lines)):
        body = bodies[index]
        if body is None:
            break
        if body:
            _take_line(out, body, index + 1)
    return out


def _body(raw: str) -> str | None:
    """A line without its comment and trailing space; '' for nothing to read; None at a signature."""
    if raw.lstrip().startswith(">"):
        return ""  # quoted e-mail text
    body = _strip_comment(raw).rstrip()
    if body.strip() == "--":
        return None  # e-mail signature ("-- "): the rest is not orders
    return body if body.strip() else ""


def _take_line(out: OrderText, body: str, number: int) -> None:
    header = _header(body)
    if header is None:
        stripped = body.lstrip()
        out.lines.append(OrderLine(number, len(body) - len(stripped) + 1, stripped, out.file))
        return
    key, value, col = header

    def problem(message: str) -> None:
        out.errors.append(OrderSyntaxError(message, line=number, col=col, text=body, file=out.file))

    if key in out.headers and value.lower() == out.headers[key].lower() and key != "password":
        return  # the same header again (an order form pasted below the mail's own lines): harmless
    if key in out.headers:
        problem(f"a second '{key}:' header (the first is on line {out.header_lines[key]})")
    elif key == "turn" and not _is_turn_number(value):
        problem(f"'turn:' needs a whole number such as 3 (digits 0-9), not {_short(value)}")
    elif key == "player" and not value:
        problem("'player:' needs your player id or name")
    else:
        out.headers[key] = value
        out.header_lines[key] = number


def is_password_line(line: str) -> bool:
    """Whether ``line`` is a ``password:`` header line, in any case and spacing ("password : x",
    "PASSWORD<TAB>:", "   Password :"): the one test every part of gm uses to keep passwords out
    of what it stores, shows or sends."""
    if line.lstrip().startswith(">"):
        return False
    header = _header(line.translate(TYPOGRAPHY).rstrip())
    return header is not None and header[0] == "password"


def without_password(text: str) -> str:
    """``text`` with every password line taken out (press, messages for the GM)."""
    return "\n".join(line for line in split_lines(text) if not is_password_line(line))


def frame_player(frame: OrderText, players: list[dict],
                 given: str | None = None) -> tuple[str | None, list[OrderError]]:
    """Whose orders these are: the ``player:`` header (the id in any case or the display name,
    gm.store.players.find_player) or ``given`` (``--player``, the mail sender), with located errors
    for an unknown player, a header that contradicts ``given``, or no player at all."""
    line = frame.header_lines.get("player", 1)
    if frame.player is None:
        if given is None:
            return None, [OrderSyntaxError("no 'player:' header: add a line 'player: ID' or give --player ID",
                                           line=1, col=1, file=frame.file)]
        return given, []
    try:
        who = find_player(players, frame.player)
    except UsageError as exc:
        return None, [OrderSyntaxError(str(exc), line=line, col=1, file=frame.file)]
    if given is not None and who != given:
        return None, [OrderSyntaxError(f"the file says 'player: {frame.player}' but these orders are "
                                       f"{given}'s", line=line, col=1, file=frame.file)]
    return who, []


def preamble_note(frame: OrderText) -> str | None:
    """A note for the player when a greeting above the header was ignored (so that orders written
    above the header are not lost without a word)."""
    if not frame.preamble:
        return None
    first, last = frame.preamble[0], frame.preamble[-1]
    where = f"line {first} was" if first == last else f"lines {first}-{last} were"
    return (f"{where} read as a greeting above the first header line and ignored; "
            "orders go below the 'player:' line")


SIGNOFF_LINES = 3   # a sign-off is a line or three ("Cheers," / "Ann")
SIGNOFF_WORDS = 4


def signoff_hint(frame: OrderText, errors: list[OrderError]) -> None:
    """When the last few order lines are short and every one of them is an error of reading (none
    was read as an order, legal or not), while an order line above them was read, they are most
    likely a sign-off written without the '-- ' line: the first of their errors says so (the errors
    stay errors: gm does not guess)."""
    wrong = {e.line for e in errors}
    tail: list[OrderLine] = []
    for line in reversed(frame.lines):
        if line.number not in wrong:
            break
        tail.insert(0, line)
    if not tail or len(tail) > SIGNOFF_LINES or len(tail) == len(frame.lines):
        return
    if any(len(line.text.split()) > SIGNOFF_WORDS for line in tail):
        return
    numbers = {line.number for line in tail}
    if any(not isinstance(e, OrderSyntaxError) for e in errors if e.line in numbers):
        return  # a line the game read as an order (legal or not) is no sign-off
    first = min((e for e in errors if e.line == tail[0].number), key=lambda e: e.col or 0)
    first.message += ("; if this is your sign-off, put a line '-- ' (two dashes and a space) above it, "
                      "or delete it")


def canonical_text(frame: OrderText, *, player: str | None = None, turn: int | None = None) -> str:
    """The orders to store: ``player:`` and ``turn:`` headers (``player``/``turn`` given replace
    the file's, e.g. the id found from a display name) and the game lines, each stripped of
    comments and surrounding space; never the ``password:`` line. Reading the result again gives
    the same game lines (``receipt`` is unchanged), and ``canonical_text`` of it is itself."""
    player = player if player is not None else frame.player
    turn = turn if turn is not None else frame.turn
    head = ([f"player: {player}"] if player else []) + ([f"turn: {turn}"] if turn is not None else [])
    return "\n".join(head + [line.text for line in frame.lines]) + "\n"


_UTF16_HINT = "; save the orders as UTF-8 text (in Notepad: Save As, Encoding: UTF-8)"


def decode_order_bytes(raw: bytes, file: str) -> str:
    """An order file's bytes as text: UTF-8 (a byte-order mark is fine), UTF-16 or UTF-32 with
    their byte-order mark or, without one, recognised from the zero bytes of UTF-16 text
    (Windows Notepad); other 8-bit text is read as Windows-1252/Latin-1. A file that is not text
    raises OrderSyntaxError at FILE:1:1 naming what it is."""
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe\x00\x00", "utf-32-le"),
                       (b"\x00\x00\xfe\xff", "utf-32-be"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if raw.startswith(bom):
            return _decode(raw[len(bom):], codec, file)
    if b"\x00" in raw:
        codec = _utf16_without_bom(raw)
        if codec is None:
            raise OrderSyntaxError("this file is not text (it holds zero bytes); send the orders as plain text",
                                   line=1, col=1, file=file)
        return _decode(raw, codec, file)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _decode(raw: bytes, codec: str, file: str) -> str:
    try:
        return raw.decode(codec).removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        name = codec.split("-le")[0].split("-be")[0].upper()
        raise OrderSyntaxError(f"this file is {name} text but damaged at byte {exc.start}{_UTF16_HINT}",
                               line=1, col=1, file=file) from None


def _utf16_without_bom(raw: bytes) -> str | None:
    """'utf-16-le' or 'utf-16-be' when the zero bytes sit where UTF-16 puts them for ASCII text."""
    if len(raw) % 2:
        return None
    odd_zeros = raw[1::2].count(0)
    even_zeros = raw[0::2].count(0)
    half = len(raw) // 2
    if odd_zeros >= 0.6 * half and even_zeros == 0:
        return "utf-16-le"
    if even_zeros >= 0.6 * half and odd_zeros == 0:
        return "utf-16-be"
    return None


def capped(errors: list[OrderError], file: str, limit: int = MAX_ERRORS) -> list[OrderError]:
    """At most ``limit`` errors by place, then one error saying how many more there are."""
    if len(errors) <= limit + 1:  # the last may say the rest of the file was not read
        return errors
    errors = sorted(errors, key=lambda e: (e.line or 0, e.col or 0))
    rest = errors[limit:]
    more = f"and {len(rest)} more error{'s' if len(rest) > 1 else ''}"
    return errors[:limit] + [OrderError(more, line=rest[0].line, col=rest[0].col, file=file)]


def collect(errors: list[OrderError]) -> None:
    """Raise all ``errors`` together, sorted by position, when there are any."""
    if errors:
        errors = sorted(errors, key=lambda e: (e.line or 0, e.col or 0))
        raise OrderErrors(errors)
