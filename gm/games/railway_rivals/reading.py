"""Reading order lines safely: hand-written headers and totals (one pass each, never a pattern that
backtracks over long runs), numbers of ASCII digits only, long input cut short in messages, and a cap
on the errors one file gets (docs/rules/railway-rivals.md, "Writing orders")."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from gm.store.errors import OrderError, OrderSyntaxError
from gm.store.names import suggestion

MAX_ERRORS = 50   # errors listed for one file; past them one located line says how many more
MAX_LINE = 4000   # characters in one line of orders; a longer line is refused unread
MAX_STEPS = 1000  # hexes, ferries and leaps one file may order (far beyond any die or budget)
SHOWN = 40        # characters of a player's text quoted in a message
WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def is_number(text: str) -> bool:
    """ASCII digits only: '²', '⑼', '３' and '٣' are not numbers in orders."""
    return text.isascii() and text.isdigit()


def small_number(text: str, digits: int = 6) -> int | None:
    """The value of ``text`` when it is a number of at most ``digits`` digits, else None."""
    return int(text) if is_number(text) and len(text) <= digits else None


def shown(text: str, limit: int = SHOWN) -> str:
    """``text`` quoted for a message, cut short when long."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def hint(text: str, choices) -> str:
    """' (did you mean "X"?)' for a short word; nothing for long input (no guessing at a megabyte)."""
    return suggestion(text, choices) if len(text) <= SHOWN else ""


@dataclass
class Header:
    """'race 3 with red:' read: the keyword's end, the number and the partner (with their offsets)."""

    number: str
    number_at: int
    mode: str | None
    partner: str
    partner_at: int
    end: int


def _skip_spaces(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _word_end(text: str, i: int, stops: str = ":.") -> int:
    while i < len(text) and not text[i].isspace() and text[i] not in stops:
        i += 1
    return i


def keyword_at(text: str, words: tuple[str, ...]) -> int | None:
    """The end of the keyword (one of ``words``, each one or more words, any case) ``text`` starts
    with, or None; the keyword must end where a word ends ('round1' is not 'round')."""
    low = text[:40].lower()
    for word in words:
        parts, i = word.split(), 0
        for n, part in enumerate(parts):
            if n:
                j = _skip_spaces(low, i)
                if j == i:
                    break
                i = j
            if not low.startswith(part, i):
                break
            i += len(part)
        else:
            if i >= len(text) or text[i] not in WORD_CHARS:
                return i
    return None


def header(text: str, words: tuple[str, ...], partners: tuple[str, ...] = ()) -> Header | None:
    """'KEYWORD NUMBER [PARTNER-WORD NAME] :' (or '.') at the start of ``text``, in one pass."""
    i = keyword_at(text, words)
    if i is None:
        return None
    i = _skip_spaces(text, i)
    number_at, i = i, _word_end(text, i)
    number = text[number_at:i]
    i = _skip_spaces(text, i)
    mode, partner, partner_at = None, "", 0
    if partners and i < len(text) and text[i] not in ":.":
        word_end = _word_end(text, i, "")
        word = text[i:word_end].lower()
        if word not in partners or word_end == len(text) or not text[word_end].isspace():
            return None
        partner_at = _skip_spaces(text, word_end)
        end = _word_end(text, partner_at)
        if end == partner_at:
            return None
        mode, partner = word, text[partner_at:end]
        i = _skip_spaces(text, end)
    if i >= len(text) or text[i] not in ":.":
        return None
    return Header(number, number_at, mode, partner, partner_at, i + 1)


def find_total(masked: str) -> tuple[int, str, int] | None:
    """(where the 'total' word starts, its value, the value's offset) when ``masked`` (quoted parts
    blanked) ends with 'total N' (or 'total: N', 'total = N'); searched from the end, in one pass."""
    low = masked.lower()
    at = low.rfind("total")
    while at >= 0:
        before_ok = at == 0 or masked[at - 1] not in WORD_CHARS
        after = at + len("total")
        if before_ok and (after == len(masked) or masked[after] not in WORD_CHARS):
            i = _skip_spaces(masked, after)
            if i < len(masked) and masked[i] in ":=":
                i = _skip_spaces(masked, i + 1)
            end = i
            while end < len(masked) and not masked[end].isspace():
                end += 1
            if _skip_spaces(masked, end) == len(masked):
                return at, masked[i:end], i
            return None  # only the last 'total' can end the line
        at = low.rfind("total", 0, at)
    return None


class Allowance:
    """How many more steps a file's orders may hold (shared by the readers of its lines)."""

    def __init__(self, steps: int = MAX_STEPS):
        self.left = steps

    def take(self) -> bool:
        self.left -= 1
        return self.left >= 0


def too_long(line) -> OrderError | None:
    """The error for a line longer than MAX_LINE characters (such a line is not read)."""
    if len(line.text) <= MAX_LINE:
        return None
    return line.syntax(f"this line has {len(line.text):,} characters; a line of orders has at most "
                       f"{MAX_LINE:,}: it is not read")


def readable_lines(lines: list, errors: list[OrderError]) -> Iterator:
    """The lines to read, in order: a line too long is an error and is skipped; once the file has
    MAX_ERRORS errors reading stops, with one more error saying where."""
    for n, line in enumerate(lines):
        if len(errors) >= MAX_ERRORS:
            if len(errors) == MAX_ERRORS:
                errors.append(reading_stopped(line, 0, len(lines) - n - 1))
            return
        long = too_long(line)
        if long:
            errors.append(long)
            continue
        yield line


def capped(errors: list[OrderError]) -> list[OrderError]:
    """The file's errors by place, at most MAX_ERRORS, then one located line counting the rest."""
    errors = sorted(errors, key=lambda e: (e.line or 0, e.col or 0))
    if len(errors) <= MAX_ERRORS:
        return errors
    rest = errors[MAX_ERRORS - 1:]
    first = rest[0]
    more = OrderSyntaxError(f"and {len(rest)} more errors from here on: fix the ones above and check again",
                            line=first.line, col=first.col, file=first.file)
    return errors[:MAX_ERRORS - 1] + [more]


def reading_stopped(line, col: int, lines_left: int) -> OrderError:
    """The error that ends reading a file with too many errors (the rest is not read)."""
    rest = f" ({lines_left} more line{'s' if lines_left != 1 else ''} not read)" if lines_left else ""
    return line.syntax(f"too many errors: reading stopped here{rest}; fix the ones above and check again", col)
