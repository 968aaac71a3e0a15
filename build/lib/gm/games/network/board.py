"""The Network board: squares, goals, groups and the placing/moving rules (no networks here).

A board is a list of 64 one-letter cells, index ``(row - 1) * 8 + column`` (a1 = 0, h8 = 63):
``D`` dark, ``L`` light, ``.`` empty. In state it is written as eight strings, row 8 first.
"""
from __future__ import annotations

from typing import Iterable

COLUMNS = "abcdefgh"
DARK, LIGHT, EMPTY = "D", "L", "."
SIDES = ("dark", "light")
LETTER = {"dark": DARK, "light": LIGHT}
SIDE_OF = {DARK: "dark", LIGHT: "light"}
OTHER = {"dark": "light", "light": "dark"}
TITLE = {"dark": "Dark", "light": "Light"}
PIECES = 10
SIZE = 64


def index(column: int, row: int) -> int:
    """Square index from a 0-based column (a = 0) and a 1-based row."""
    return (row - 1) * 8 + column


def name(square: int) -> str:
    return f"{COLUMNS[square % 8]}{square // 8 + 1}"


SQUARE_NAMES = [name(s) for s in range(SIZE)]
SQUARE_OF = {n: s for s, n in enumerate(SQUARE_NAMES)}

DEAD_CORNERS = frozenset(SQUARE_OF[n] for n in ("a1", "h1", "a8", "h8"))
# each side's two goals (dead corners excluded); a network joins one to the other
GOALS = {
    "dark": (frozenset(index(0, r) for r in range(2, 8)), frozenset(index(7, r) for r in range(2, 8))),
    "light": (frozenset(index(c, 1) for c in range(1, 7)), frozenset(index(c, 8) for c in range(1, 7))),
}
GOAL_SQUARES = {side: a | b for side, (a, b) in GOALS.items()}
GOAL_WORDS = {"dark": "columns a and h", "light": "rows 1 and 8"}

# the eight directions as (column step, row step); a link's direction is its index here
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


def _ray(square: int, step: tuple[int, int]) -> tuple[int, ...]:
    column, row = square % 8, square // 8
    out = []
    while True:
        column, row = column + step[0], row + step[1]
        if not (0 <= column < 8 and 0 <= row < 8):
            return tuple(out)
        out.append(row * 8 + column)


# RAYS[square][direction]: the squares seen from ``square`` looking that way, nearest first
RAYS = tuple(tuple(_ray(s, d) for d in DIRECTIONS) for s in range(SIZE))
NEIGHBOURS = tuple(tuple(r[0] for r in RAYS[s] if r) for s in range(SIZE))


# ---- reading and writing boards ---------------------------------------------------------------
def from_rows(rows: list[str]) -> list[str]:
    """Cells from eight strings, row 8 first (the strings are assumed checked)."""
    cells = [EMPTY] * SIZE
    for i, text in enumerate(rows):
        row = 8 - i
        for column, char in enumerate(text):
            cells[index(column, row)] = char
    return cells


def to_rows(cells: list[str]) -> list[str]:
    return ["".join(cells[index(c, row)] for c in range(8)) for row in range(8, 0, -1)]


def read_rows(rows: object) -> tuple[list[str], list[str]]:
    """Cells and the reasons ``rows`` is not a board of eight 8-letter strings of D, L and '.'."""
    if not isinstance(rows, (list, tuple)) or not all(isinstance(r, str) for r in rows):
        return [], ["the board must be eight strings of eight characters, row 8 first"]
    if len(rows) != 8:
        return [], [f"the board needs eight rows (row 8 first), not {len(rows)}"]
    problems = []
    for i, text in enumerate(rows):
        if len(text) != 8:
            problems.append(f"row {8 - i} has {len(text)} squares, not 8: {text!r}")
        bad = sorted({c for c in text if c.upper() not in (DARK, LIGHT, EMPTY)})
        if bad:
            problems.append(f"row {8 - i} holds {', '.join(map(repr, bad))}: use D (dark), L (light) or '.'")
    if problems:
        return [], problems
    return from_rows([r.upper() for r in rows]), []


def squares_of(cells: list[str], letter: str) -> list[int]:
    return [s for s in range(SIZE) if cells[s] == letter]


def count(cells: list[str], side: str) -> int:
    return cells.count(LETTER[side])


# ---- the placing rules ------------------------------------------------------------------------
def group_with(cells: list[str], letter: str, square: int) -> list[int]:
    """The group of ``letter`` pieces ``square`` would join (with it), on a board with no group of
    three; stops looking once it holds three, which is already too many."""
    group = [square]
    for near in NEIGHBOURS[square]:
        if cells[near] == letter:
            group.append(near)
    if len(group) == 2:
        first = group[1]
        for near in NEIGHBOURS[first]:
            if near != square and cells[near] == letter:
                group.append(near)
                break
    return group


def square_problem(cells: list[str], side: str, square: int, *, lifted: int | None = None) -> str | None:
    """Why ``side`` may not put a piece on ``square`` (None when it may). ``lifted`` is the square a
    moving piece leaves: the group rule is checked with it off the board."""
    where = SQUARE_NAMES[square]
    if square in DEAD_CORNERS:
        return f"{where} is a dead corner: no piece may stand there"
    other = OTHER[side]
    if square in GOAL_SQUARES[other]:
        return f"{where} is in {TITLE[other]}'s goal ({GOAL_WORDS[other]}): {TITLE[side]} may not play there"
    if square == lifted:
        return f"a piece must move to another square, not back to {where}"
    if cells[square] != EMPTY:
        return f"{where} is taken by a {TITLE[SIDE_OF[cells[square]]]} piece"
    letter = LETTER[side]
    if lifted is not None:
        cells = list(cells)
        cells[lifted] = EMPTY
    group = group_with(cells, letter, square)
    if len(group) > 2:
        names = ", ".join(SQUARE_NAMES[s] for s in sorted(group))
        return (f"a {TITLE[side]} piece on {where} would make a group of {_count_word(len(group))} "
                f"({names}): no more than two of a player's pieces may touch")
    return None


def _count_word(n: int) -> str:
    return {3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}.get(n, str(n))


def groups(cells: list[str], letter: str) -> list[list[int]]:
    """Groups of ``letter`` pieces touching orthogonally or diagonally."""
    seen: set[int] = set()
    out = []
    for start in squares_of(cells, letter):
        if start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            square = todo.pop()
            group.append(square)
            for near in NEIGHBOURS[square]:
                if cells[near] == letter and near not in seen:
                    seen.add(near)
                    todo.append(near)
        out.append(sorted(group))
    return out


def position_problems(cells: list[str]) -> list[str]:
    """Every way ``cells`` breaks the placing rules (dead corners, foreign goals, counts, groups)."""
    problems = []
    for square in sorted(DEAD_CORNERS):
        if cells[square] != EMPTY:
            problems.append(f"{SQUARE_NAMES[square]} is a dead corner but holds a piece")
    for side in SIDES:
        letter, other = LETTER[side], OTHER[side]
        foreign = [SQUARE_NAMES[s] for s in sorted(GOAL_SQUARES[other]) if cells[s] == letter]
        if foreign:
            problems.append(f"{TITLE[side]} has pieces in {TITLE[other]}'s goal ({GOAL_WORDS[other]}): "
                            f"{', '.join(foreign)}")
        pieces = cells.count(letter)
        if pieces > PIECES:
            problems.append(f"{TITLE[side]} has {pieces} pieces on the board; each side has only {PIECES}")
        for group in groups(cells, letter):
            if len(group) > 2:
                problems.append(f"{TITLE[side]} has a group of {len(group)} touching pieces "
                                f"({', '.join(SQUARE_NAMES[s] for s in group)}): no more than two may touch")
    return problems


def placements(cells: list[str], side: str) -> Iterable[int]:
    """Squares where ``side`` may place a piece (the group and goal rules only)."""
    return (s for s in range(SIZE) if cells[s] == EMPTY and square_problem(cells, side, s) is None)


def relocations(cells: list[str], side: str) -> Iterable[tuple[int, int]]:
    """(from, to) pairs ``side`` may move (the group and goal rules only)."""
    letter = LETTER[side]
    for source in squares_of(cells, letter):
        for target in range(SIZE):
            if cells[target] == EMPTY and square_problem(cells, side, target, lifted=source) is None:
                yield source, target
