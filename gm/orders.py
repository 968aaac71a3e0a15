"""The order-file frame shared by every game.

A file (or e-mail body) is read into header fields (``player:``, ``turn:``, ``password:``) and
the game's own lines, each remembering its line number and the column where its text starts.
Comments (``#``, outside double quotes), quoted e-mail lines (``>``) and everything after a
``-- `` signature line are dropped. Games parse the remaining ``OrderLine``s and report errors
with ``line.error(...)`` so that every message reads ``FILE:LINE:COL: message``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import IllegalOrderError, OrderError, OrderErrors, OrderSyntaxError

HEADER_KEYS = ("player", "turn", "password")
_HEADER = re.compile(r"^\s*(player|turn|password)\s*:\s*(.*?)\s*$", re.IGNORECASE)


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
        return [(m.start(), m.group(0)) for m in re.finditer(r'"[^"]*"?|\S+', self.text)]


@dataclass
class OrderText:
    """An order file taken apart by the frame."""

    file: str
    headers: dict[str, str] = field(default_factory=dict)
    header_lines: dict[str, int] = field(default_factory=dict)
    lines: list[OrderLine] = field(default_factory=list)
    errors: list[OrderError] = field(default_factory=list)

    @property
    def player(self) -> str | None:
        return self.headers.get("player")

    @property
    def turn(self) -> int | None:
        value = self.headers.get("turn")
        return int(value) if value is not None and value.isdigit() else None


def _strip_comment(raw: str) -> str:
    in_quotes = False
    for i, ch in enumerate(raw):
        if ch == '"':
            in_quotes = not in_quotes
        elif ch == "#" and not in_quotes:
            return raw[:i]
    return raw


def read_frame(text: str, file: str = "<orders>", *, skip_preamble: bool = False) -> OrderText:
    """Split an order text into headers and game lines. ``skip_preamble`` drops any text before
    the first header line (a player replying above a quoted report)."""
    out = OrderText(file=file)
    text = text.lstrip("\ufeff")
    raw_lines = text.splitlines()
    start = 0
    if skip_preamble:
        for i, raw in enumerate(raw_lines):
            if _HEADER.match(raw) and not raw.lstrip().startswith(">"):
                start = i
                break
    for index in range(start, len(raw_lines)):
        raw = raw_lines[index]
        number = index + 1
        if raw.rstrip() == "--":
            break  # e-mail signature: the rest is not orders
        if raw.lstrip().startswith(">"):
            continue
        body = _strip_comment(raw).rstrip()
        if not body.strip():
            continue
        header = _HEADER.match(body)
        if header:
            key, value = header.group(1).lower(), header.group(2)
            col = body.lower().index(key) + 1
            if key in out.headers:
                out.errors.append(OrderSyntaxError(f"a second '{key}:' header (the first is on line "
                                                   f"{out.header_lines[key]})", line=number, col=col,
                                                   text=body, file=file))
                continue
            if key == "turn" and not value.isdigit():
                out.errors.append(OrderSyntaxError(f"'turn:' needs a whole number, not {value!r}",
                                                   line=number, col=col, text=body, file=file))
                continue
            out.headers[key] = value
            out.header_lines[key] = number
            continue
        stripped = body.lstrip()
        out.lines.append(OrderLine(number, len(body) - len(stripped) + 1, stripped, file))
    return out


def collect(errors: list[OrderError]) -> None:
    """Raise all ``errors`` together, sorted by position, when there are any."""
    if errors:
        errors = sorted(errors, key=lambda e: (e.line or 0, e.col or 0))
        raise OrderErrors(errors)
