"""Network's written forms: move orders (``place c3``, ``c3``, ``move c3 d5``, ``c3-d5``) and
positions (``R8/R7/R6/R5/R4/R3/R2/R1 SIDE``). Reading only: no rules are checked here."""
from __future__ import annotations

import re

from gm.store.errors import OrderError, UsageError
from gm.store.names import suggestion
from gm.store.orders import OrderLine
from .board import read_rows, to_rows

KEYWORDS = ("place", "move")
# words split on blanks and on hyphens or dashes (c3-d5); "to" between squares is allowed
_WORD = re.compile(r"[^\s\-\u2010-\u2015]+")
_SQUARE = re.compile(r"^[a-hA-H][1-8]$")
EXAMPLES = "'place c3' (or 'c3') or 'move c3 d5' (or 'c3-d5')"


def place(square: str) -> dict:
    return {"kind": "place", "to": square}


def move(source: str, target: str) -> dict:
    return {"kind": "move", "from": source, "to": target}


def canonical(order: dict) -> str:
    """The history's form of a move: ``c3`` for a placement, ``c3-d5`` for a move."""
    return order["to"] if order["kind"] == "place" else f"{order['from']}-{order['to']}"


def said(text: str, most: int = 40) -> str:
    """What the player wrote, quoted for a message (a very long one cut short)."""
    return repr(text if len(text) <= most else text[:most - 3] + "…")


def square_error(line: OrderLine, offset: int, word: str) -> OrderError:
    return line.syntax(f"{said(word)} is not a square: squares run a1 to h8 (columns a-h, rows 1-8)", offset)


def read_move(line: OrderLine) -> tuple[dict, dict[str, int]]:
    """The move one line asks for, and the offset in the line of each square named (keys
    ``from``/``to``) so that errors can point at it. Raises an OrderSyntaxError."""
    words = [(m.start(), m.group(0)) for m in _WORD.finditer(line.text)]
    if not words:
        raise line.syntax(f"expected a move: {EXAMPLES}")
    keyword = None
    first_offset, first = words[0]
    if first.lower() in KEYWORDS:
        keyword = first.lower()
        words = words[1:]
    elif not _SQUARE.match(first) and not _looks_like_square(first):
        raise line.syntax(f"expected 'place', 'move' or a square, not {said(first)}"
                          f"{suggestion(first, KEYWORDS)}", first_offset)
    words = [(o, w) for o, w in words if w.lower() != "to"]
    for offset, word in words:
        if not _SQUARE.match(word):
            raise square_error(line, offset, word)
    wanted = {"place": 1, "move": 2}.get(keyword or "", len(words))
    if keyword and len(words) != wanted:
        shape = "one square, e.g. 'place c3'" if keyword == "place" else "two squares, e.g. 'move c3 d5'"
        where = words[wanted][0] if len(words) > wanted else len(line.text)
        raise line.syntax(f"'{keyword}' takes {shape}", where)
    if not 1 <= len(words) <= 2:
        raise line.syntax(f"one move is one or two squares: {EXAMPLES}", words[2][0])
    squares = [w.lower() for _, w in words]
    if len(squares) == 1:
        return place(squares[0]), {"to": words[0][0]}
    return move(*squares), {"from": words[0][0], "to": words[1][0]}


def _looks_like_square(word: str) -> bool:
    """A letter then digits (i9, c10): worth a 'not a square' message rather than 'expected'."""
    return bool(re.match(r"^[a-zA-Z][0-9]+$", word))


# ---- positions ---------------------------------------------------------------------------------
def position_key(rows: list[str], to_move: str) -> str:
    """A position as the ``position`` option writes it: rows (8 first) joined by '/', the side."""
    return "/".join(rows) + " " + to_move[0]


def read_position(text: str) -> tuple[list[str], str]:
    """Cells and side to move from ``R8/.../R1 SIDE``; the rules are checked by the caller."""
    if not isinstance(text, str):
        raise UsageError(f"position must be text like '{'/'.join(['........'] * 8)} d', not {text!r}")
    parts = text.split()
    if len(parts) != 2:
        raise UsageError(f"position {text!r}: write eight rows joined by '/', row 8 first, a space, "
                         f"then d or l for the side to move")
    rows, side = parts[0].split("/"), parts[1].lower()
    if side not in ("d", "l", "dark", "light"):
        raise UsageError(f"position {text!r}: the side to move is d (dark) or l (light), not {parts[1]!r}")
    cells, problems = read_rows(rows)
    if problems:
        raise UsageError(f"position {text!r}: {'; '.join(problems)}")
    return cells, "dark" if side.startswith("d") else "light"


def write_position(cells: list[str], to_move: str) -> str:
    return position_key(to_rows(cells), to_move)
