"""Reading build orders: `round 2: (2522) 2523 "Helm's Deep"; (2522) 2924   total 6`.

This module only reads what the lines say (hexes, towns, ferries, leaps, jumps along straight hex
lines expanded into single steps); whether the builds are allowed is checked in ``check``.
Orders are plain data:
  {"company": {"name", "colour", "line", "col"} | None,
   "rounds": [[segment, ...] x 3], "totals": [{"value", "line", "col"} | None x 3]}
  segment = {"line", "col", "start", "steps": [{"kind": build|ferry|leap, "hex", "col", ...}]}
"""
from __future__ import annotations

import re
from typing import Any

from gm.store.errors import OrderError
from gm.hexmap.model import HexMap
from gm.store.names import fold, match
from gm.store.orders import OrderLine

from ..palette import COLOURS
from ..words import company_by_word
from ..reading import (MAX_ERRORS, MAX_STEPS, Allowance, find_total, header, hint, is_number, keyword_at,
                       reading_stopped, shown, small_number, too_long)
from .company import place_name
from .examples import round_example, segment_example

ROUNDS = 3
KEYWORDS = ("round", "company")
_COMPANY = re.compile(r"company\s*:\s*", re.IGNORECASE)
_TOKEN = re.compile(r'"[^"]*"?|[();]|[-\u2013\u2014]+|[^\s();"]+')
_DASHED_HEXES = re.compile(r"[0-9]+(?:[-\u2013\u2014][0-9]+)+")
_DIGITS = re.compile(r"[0-9]+")


def empty_orders() -> dict[str, Any]:
    return {"company": None, "rounds": [[] for _ in range(ROUNDS)], "totals": [None] * ROUNDS}


def read_orders(hexmap: HexMap, companies: dict[str, dict], lines: list[OrderLine]) -> tuple[dict, list[OrderError]]:
    """The orders the lines give, and every reading error (the orders hold what could be read).
    Past MAX_ERRORS errors the rest of the file is not read (one error says so)."""
    orders = empty_orders()
    errors: list[OrderError] = []
    seen_rounds: dict[int, int] = {}
    allowance = Allowance()
    for n, line in enumerate(lines):
        if len(errors) >= MAX_ERRORS:
            if len(errors) == MAX_ERRORS:  # else the reader has said where it stopped
                errors.append(reading_stopped(line, 0, len(lines) - n - 1))
            orders["unread"] = True
            break
        long = too_long(line)
        if long:
            errors.append(long)
            orders["unread"] = True
            continue
        text = line.text
        company = _COMPANY.match(text)
        if company:
            if orders["company"] is not None:
                errors.append(line.syntax(f"a second 'company:' line (the first is on line "
                                          f"{orders['company']['line']})"))
                continue
            orders["company"] = _read_company(line, text[company.end():], company.end(), errors)
            continue
        rnd = _round_number(hexmap, line, errors)
        if rnd is None:
            orders["unread"] = True
            continue
        number, body_start = rnd
        if number in seen_rounds:
            errors.append(line.error(f"round {number} is given twice (first on line {seen_rounds[number]})"))
            continue
        seen_rounds[number] = line.number
        body = text[body_start:]
        total = find_total(_mask_quotes(body))
        if total:
            at, value, value_at = total
            value = value.rstrip(".")
            col = body_start + value_at
            if small_number(value) is None:
                errors.append(line.syntax(f"'total' takes the number of pips, e.g. 'total 6', "
                                          f"not {shown(value) if value else 'nothing'}", col))
            else:
                orders["totals"][number - 1] = {"value": int(value), "line": line.number, "col": line.col + col}
            body = body[:at].rstrip(" \t.,;")
        orders["rounds"][number - 1] = SegmentReader(hexmap, companies, line, body_start, errors,
                                                     allowance).read(body)
    return orders, errors


def _round_number(hexmap: HexMap, line: OrderLine, errors: list[OrderError]) -> tuple[int, int] | None:
    """(round number, where the builds start) from 'round 2:', or None after reporting the error."""
    head = header(line.text, ("round",))
    if head is None:
        words = line.text.split(None, 1)
        first = words[0] if words else line.text
        if keyword_at(line.text, ("round",)) is not None:
            errors.append(line.syntax(f"write the round as 'round 1:' (a number and a colon), e.g. "
                                      f"{round_example(hexmap)}"))
        else:
            errors.append(line.syntax(f"expected 'round 1:' to 'round {ROUNDS}:' or 'company: NAME, COLOUR', "
                                      f"not {shown(first)}{hint(first.rstrip(':'), KEYWORDS)}"))
        return None
    number = small_number(head.number, 2)
    if number is None or not 1 <= number <= ROUNDS:
        errors.append(line.syntax(f"a build turn has rounds 1 to {ROUNDS}, not "
                                  f"{shown(head.number) if head.number else repr('no number')}",
                                  head.number_at if head.number else 0))
        return None
    return number, head.end


def _mask_quotes(text: str) -> str:
    """The text with quoted parts blanked, so 'total' inside a quoted name is not read as the total."""
    return re.sub(r'"[^"]*"?', lambda m: " " * len(m.group(0)), text)


def _read_company(line: OrderLine, rest: str, offset: int, errors: list[OrderError]) -> dict | None:
    name, colour, colour_at = rest.strip(), None, offset
    if "," in rest:
        head, _, tail = rest.rpartition(",")
        name, colour, colour_at = head.strip(), tail.strip(), offset + len(head) + 1 + (len(tail) - len(tail.lstrip()))
    elif match(rest.strip(), COLOURS):
        name, colour = "", rest.strip()
    if colour is not None:
        found = match(colour, COLOURS)
        if found is None:
            errors.append(line.error(f"unknown colour {shown(colour)}{hint(colour, COLOURS)}; colours: "
                                     f"{', '.join(COLOURS)}", colour_at))
            return None
        colour = found
    if len(name) > 40:
        errors.append(line.error("a company name has at most 40 characters", offset))
        return None
    if not name and colour is None:
        errors.append(line.syntax("write 'company: NAME, COLOUR' (e.g. 'company: Great Western, green')", offset))
        return None
    return {"name": name or None, "colour": colour, "line": line.number, "col": line.col + offset}


class SegmentReader:
    """Reads the segments of one round line."""

    def __init__(self, hexmap: HexMap, companies: dict[str, dict], line: OrderLine, base: int,
                 errors: list[OrderError], allowance: Allowance | None = None):
        self.hexmap, self.companies, self.line, self.base, self.errors = hexmap, companies, line, base, errors
        self.allowance = allowance or Allowance()
        self.town_names = hexmap.town_names()
        self.longest = max((len(name.split()) for name in self.town_names), default=1)  # words in a town name

    def error(self, message: str, at: int) -> None:
        self.errors.append(self.line.error(message, self.base + at))

    def syntax(self, message: str, at: int) -> None:
        self.errors.append(self.line.syntax(message, self.base + at))

    def tokens(self, body: str) -> list[tuple[int, str]]:
        out = []
        for m in _TOKEN.finditer(body):
            word, at = m.group(0), m.start()
            core = word.strip("-\u2013\u2014")
            if core and (is_number(core) or _DASHED_HEXES.fullmatch(core)):  # 2522-2523: two hexes
                for part in _DIGITS.finditer(word):
                    out.append((at + part.start(), part.group(0)))
            elif word[0] not in '"' and len(word) > 1 and word[-1] in ".," and is_number(word[:-1]):
                out.append((at, word[:-1]))
            else:
                out.append((at, word))
        return out

    def read(self, body: str) -> list[dict]:
        """The segments of one line; a segment with a reading error is marked ``broken`` (what the
        company's network holds after it is unknown, so the checker does not pile errors on it)."""
        errors_before = len(self.errors)
        segments = self._read(body)
        marks = [seg.pop("_errors") for seg in segments] + [len(self.errors)]
        for seg, (here, after) in zip(segments, zip(marks, marks[1:])):
            seg["broken"] = after > here or seg["start"] is None
        if segments and marks[0] > errors_before:  # an error before the first bracket
            segments[0]["broken"] = True
        return segments

    def _read(self, body: str) -> list[dict]:
        toks = self.tokens(body)
        segments: list[dict] = []
        segment: dict | None = None
        here: str | None = None
        i = 0
        while i < len(toks):
            at, tok = toks[i]
            if len(self.errors) >= MAX_ERRORS:
                self.errors.append(reading_stopped(self.line, self.base + at, 0))
                break
            if self.allowance.left <= 0:
                self.syntax(f"these orders hold more than {MAX_STEPS:,} hexes, ferries and leaps, far more than "
                            f"a turn can build: the rest is not read", at)
                break
            if tok == ";":
                segment, i = None, i + 1
                continue
            if tok[0] in "-\u2013\u2014" or tok == ")":
                if tok == ")":
                    self.syntax("a ')' without its '('", at)
                i += 1
                continue
            if tok == "(":
                close = next((j for j in range(i + 1, len(toks)) if toks[j][1] in (")", ";", "(")), None)
                if close is None or toks[close][1] != ")":
                    self.syntax(f"the '(' is not closed: write the segment's start in brackets, like "
                                f"{segment_example(self.hexmap).split()[0]}", at)
                    i = close if close is not None else len(toks)
                    segment, here = None, None
                    continue
                inner = [t for t in toks[i + 1:close] if t[1][0] not in "-\u2013\u2014"]
                start = self.place(inner, 0, at, whole=True)[0] if inner else None
                if not inner:
                    self.syntax("the brackets are empty: put the hex or town the segment starts from in them", at)
                segment = {"line": self.line.number, "col": self.line.col + self.base + at, "start": start,
                           "steps": [], "_errors": len(self.errors)}
                segments.append(segment)
                here = start
                i = close + 1
                continue
            if segment is None:
                self.syntax(f"a segment starts with the hex or town it leaves from, in brackets: "
                            f"{segment_example(self.hexmap)} ...", at)
                while i < len(toks) and toks[i][1] != ";":
                    i += 1
                continue
            word = fold(tok)
            if word == "ferry":
                i, here = self.ferry(toks, i + 1, at, segment, here)
            elif word == "leap":
                i, here = self.leap(toks, i + 1, at, segment, here)
            else:
                label, i = self.place(toks, i, at)
                if label is not None and here is not None:
                    here = self.build_to(segment, here, label, at)
                elif label is None:
                    here = None  # the rest of the segment cannot be followed
        return segments

    # ---- places --------------------------------------------------------------------------
    def place(self, toks: list[tuple[int, str]], i: int, at: int, *, whole: bool = False) -> tuple[str | None, int]:
        """(hex label, next index) of the place starting at toks[i]; None after reporting an error."""
        tok = toks[i][1]
        at = toks[i][0]
        if tok.startswith('"'):
            if len(tok) < 2 or not tok.endswith('"'):
                self.syntax("the quoted name is not closed with \"", at)
                return None, len(toks)
            return self.town(tok[1:-1], at), i + 1
        if is_number(tok):
            return self.number(tok, at), i + 1
        words = []
        j = i
        while j < len(toks) and len(words) <= self.longest and not _stops_name(toks[j][1]):
            words.append(toks[j][1])
            j += 1
        if not words:
            self.syntax(f"expected a hex or a town, not {shown(tok)}", at)
            return None, i + 1
        for k in range(min(len(words), self.longest), 0, -1):  # the longest run of words naming a town
            town = self.hexmap.town_by_name(" ".join(words[:k]))
            if town is not None:
                if whole and k < len(words):
                    break
                return town.hex, i + k
        while j < len(toks) and not _stops_name(toks[j][1]):  # the rest of an unknown name, read once
            j += 1
        name = " ".join(t for _, t in toks[i:j]) if j - i <= self.longest + 8 else " ".join(words) + " ..."
        self.error(f"unknown town {shown(name)}{hint(name, self.town_names)}", at)
        return None, j

    def town(self, name: str, at: int) -> str | None:
        town = self.hexmap.town_by_name(name)
        if town is None:
            self.error(f"unknown town {shown(name)}{hint(name, self.town_names)}", at)
            return None
        return town.hex

    def number(self, tok: str, at: int) -> str | None:
        grid = self.hexmap.grid
        if len(tok) == 4:
            if not grid.contains(tok):
                self.error(f"{tok} is off the map (columns 01-{grid.columns:02d}, rows 01-{grid.rows:02d})", at)
                return None
            return tok
        if len(tok) == 2 and int(tok) in self.hexmap.towns:
            return self.hexmap.towns[int(tok)].hex
        if len(tok) == 2:
            self.error(f"there is no town number {tok} on this map", at)
            return None
        self.syntax(f"{shown(tok)} is not a hex: a hex is four digits, column then row, like "
                    f"{segment_example(self.hexmap).split()[1]}", at)
        return None

    # ---- steps ---------------------------------------------------------------------------
    def build_to(self, segment: dict, here: str, label: str, at: int) -> str | None:
        grid = self.hexmap.grid
        col = self.line.col + self.base + at
        if label == here:
            self.error(f"the segment is already at {place_name(self.hexmap, label)}", at)
            return here
        between = grid.straight_between(here, label)
        if between is None:
            self.error(f"{place_name(self.hexmap, label)} is not next to {place_name(self.hexmap, here)} nor on a "
                       f"straight hex line from it: list the hexes in between", at)
            return None
        # a straight run keeps the two places the player wrote, so a message about a hex in between names them
        written = {"straight": [here, label]} if between else {}
        for step in between + [label]:
            segment["steps"].append({"kind": "build", "hex": step, "col": col, **written})
            self.allowance.take()
        return label

    def ferry(self, toks, i, at, segment, here):
        if i >= len(toks) or toks[i][1] in (";", "(", ")"):
            self.syntax("'ferry' needs the ferry's id, e.g. 'ferry F1'", at)
            return i, None
        arg_at, arg = toks[i]
        ferry = self.hexmap.ferry(arg)
        if ferry is None and is_number(arg) and here is not None:  # 'ferry 0704': by its far end
            ferry = next((f for f in self.hexmap.ferries if set(f.ends) == {here, arg}), None)
        if ferry is None:
            ids = [f.id for f in self.hexmap.ferries]
            self.error(f"unknown ferry {shown(arg)}{hint(arg, ids)}; "
                       f"{'ferries: ' + ', '.join(ids) if ids else 'this map has no ferries'}", arg_at)
            return i + 1, None
        other = ferry.ends[0] if here == ferry.ends[1] else ferry.ends[1]
        self.allowance.take()
        segment["steps"].append({"kind": "ferry", "ferry": ferry.id, "hex": other,
                                 "col": self.line.col + self.base + at})
        return i + 1, other if here is not None else None

    def leap(self, toks, i, at, segment, here):
        if i >= len(toks) or toks[i][1] in (";", "(", ")"):
            self.syntax("'leap' needs the hex or town it leaps to, e.g. 'leap 0306'", at)
            return i, None
        label, i = self.place(toks, i, at)
        over = None
        if i < len(toks) and fold(toks[i][1]) == "over":
            if i + 1 >= len(toks) or toks[i + 1][1] in (";", "(", ")"):
                self.syntax("'over' needs the company whose track the leap follows", toks[i][0])
                return i + 1, None
            over_at, who = toks[i + 1]
            over = self.company(who, over_at)
            i += 2
            if over is None:
                return i, None
        if label is None:
            return i, None
        self.allowance.take()
        segment["steps"].append({"kind": "leap", "hex": label, "over": over, "col": self.line.col + self.base + at})
        return i, label

    def company(self, who: str, at: int) -> str | None:
        player = company_by_word(self.companies, who)
        if player is not None:
            return player
        choices = list(self.companies) + [c["name"] for c in self.companies.values()]
        self.error(f"no company {shown(who)}{hint(who, choices)}", at)
        return None


def _stops_name(tok: str) -> bool:
    """Tokens that end a town name written without quotes."""
    return (tok in (";", "(", ")") or tok.startswith('"') or tok[0] in "-\u2013\u2014" or is_number(tok)
            or fold(tok) in ("ferry", "leap", "over"))
