"""Reading a turn's orders: one step a line, checked against what the player may know.

    official: carrier            (postmaster | administrator | carrier | cartwright)
    draw: display Regensburg     (or 'draw: deck'; 'draw: Regensburg' takes it from the display)
    play: Passau right           (left | right | new; the end may be left out when only one fits)
    score: houses Passau Linz    ('score' alone scores without placing houses)
    discard: Ulm
"""
from __future__ import annotations

import re
from typing import Any

from gm.store.errors import IllegalOrderError, OrderError
from gm.store.names import fold, match, suggestion
from gm.store.orders import OrderLine, capped, collect
from . import turn
from .maps import GameMap

KEYWORDS = ("official", "draw", "play", "score", "discard")
PHASE = {"draw": 1, "play": 2, "score": 3, "discard": 4}
PHASE_NAME = {"draw": "draws", "play": "plays", "score": "scoring", "discard": "discards"}
OFFICIAL_NAMES = {
    "postmaster": "postmaster", "post master": "postmaster", "postmeister": "postmaster",
    "administrator": "administrator", "admin": "administrator", "amtmann": "administrator",
    "carrier": "carrier", "postal carrier": "carrier", "postillion": "carrier", "postillon": "carrier",
    "cartwright": "cartwright", "wheelwright": "cartwright", "wagner": "cartwright",
}
ENDS = {"left": "left", "right": "right", "new": "new", "start": "new", "restart": "new"}
MAX_LINE = 300     # characters: an order line is one step, a few city names at most
MAX_ERRORS = 50    # a file this wrong is not worth reading on: the rest is named as not read
_LINE = re.compile(r"^([A-Za-z]+)\s*(?::\s*|\s+|$)")
_WORD = re.compile(r'"[^"]*"?|[^\s,]+')


def _words(text: str, base: int) -> list[tuple[int, str, bool]]:
    """(offset, word, comma_before) for each word of ``text``, offsets counted from ``base``."""
    out, last_end = [], 0
    for m in _WORD.finditer(text):
        out.append((base + m.start(), m.group(0), "," in text[last_end:m.start()]))
        last_end = m.end()
    return out


def read_cities(gmap: GameMap, line: OrderLine, words: list[tuple[int, str, bool]],
                errors: list[OrderError]) -> tuple[list[str], list[int]]:
    """City names from words; a name may span words ("Frankfurt am Main") but not a comma."""
    cities, cols, i = [], [], 0
    while i < len(words):
        for j in range(min(len(words), i + 4), i, -1):
            if any(words[k][2] for k in range(i + 1, j)):
                continue
            city = gmap.city(" ".join(w for _, w, _ in words[i:j]))
            if city:
                cities.append(city)
                cols.append(line.col + words[i][0])
                i = j
                break
        else:
            offset, word, _ = words[i]
            errors.append(line.error(f"no city {word!r} on this map{gmap.suggest(word)}", offset))
            i += 1
    return cities, cols


def parse_orders(gmap: GameMap, state: dict[str, Any], player: str, lines: list[OrderLine]) -> dict[str, Any]:
    """Orders as plain data, or OrderErrors with every problem of the file."""
    errors: list[OrderError] = []
    file = lines[0].file if lines else ""
    first = lines[0].number if lines else 1
    if state.get("finished"):
        collect([OrderError("the game is over: no more orders", line=first, col=1, file=file)])
    if state["to_move"] != player:
        collect([OrderError(f"it is {state['to_move']}'s turn, not {player}'s", line=first, col=1, file=file)])
    orders: dict[str, Any] = {"official": None, "official_step": None, "steps": [], "notes": []}
    last_of: dict[str, int] = {}
    broken_at = None  # the first line that did not read: the plan is checked up to there
    official_broken = False
    for n, line in enumerate(lines):
        if len(errors) >= MAX_ERRORS:
            errors.append(line.error(f"too many errors: this line and the {len(lines) - n - 1} after it were "
                                     "not read"))
            broken_at = line.number if broken_at is None else broken_at
            break
        key, step = _read_line(gmap, line, errors)
        if step is None:
            broken_at = line.number if broken_at is None else broken_at
            official_broken = official_broken or key == "official"
            continue
        kind = step["step"]
        if kind == "official":
            if orders["official_step"] is not None:
                first = orders["official_step"]
                errors.append(line.error(f"one official a turn: the {turn.OFFICIALS[first['name']]} is already "
                                         f"called on line {first['line']}"))
                continue
            orders["official"], orders["official_step"] = step["name"], step
            continue
        if kind == "score" and "score" in last_of:
            errors.append(line.error(f"one scoring a turn (already on line {last_of['score']})"))
            continue
        later = [k for k, n in last_of.items() if PHASE[k] > PHASE[kind]]
        if later:
            k = max(later, key=lambda x: PHASE[x])
            errors.append(line.error(f"{PHASE_NAME[kind]} come before {PHASE_NAME[k]}: this line follows the "
                                     f"{k} on line {last_of[k]} (a turn goes draw, play, score, discard)"))
        last_of[kind] = line.number
        orders["steps"].append(step)
    orders["steps"].sort(key=lambda s: PHASE[s["step"]])  # stable: each phase keeps its written order
    if not official_broken:
        plan = dict(orders, steps=[s for s in orders["steps"] if broken_at is None or s["line"] < broken_at])
        if lines:  # where to point when the plan has no step of its own (the first line)
            plan["first_line"] = {"step": "line", "line": lines[0].number, "col": lines[0].col,
                                  "text": lines[0].text}
        problems, notes = turn.check_turn(gmap, state, player, plan, complete=broken_at is None)
        orders["notes"] = notes
        for step, message, col in problems:
            if step is None:
                errors.append(OrderError(message, line=1, col=1, file=file))  # no step: the file as a whole
            else:
                errors.append(IllegalOrderError(message, line=step["line"], col=col or step["col"],
                                                text=step.get("text", ""), file=file))
    collect(capped(errors, file, MAX_ERRORS))
    return orders


def _read_line(gmap: GameMap, line: OrderLine, errors: list[OrderError]) -> tuple[str | None, dict | None]:
    """The line's keyword and its step (None when the line has errors, added to ``errors``)."""
    if len(line.text) > MAX_LINE:
        errors.append(line.syntax(f"this line is {len(line.text)} characters long: an order line is one step "
                                  f"(at most {MAX_LINE} characters)"))
        return None, None
    m = _LINE.match(line.text)
    word = m.group(1) if m else line.text.split()[0]
    key = match(word, KEYWORDS)
    if key is None:
        errors.append(line.syntax(f"unknown order {word!r}{suggestion(word, KEYWORDS)}; orders are "
                                  "official, draw, play, score, discard"))
        return None, None
    start = m.end() if m else len(word)
    rest = line.text[start:]
    words = _words(rest, start)
    step: dict[str, Any] = {"step": key, "line": line.number, "col": line.col, "text": line.text}
    before = len(errors)
    getattr(_Readers, key)(gmap, line, words, step, errors)
    return key, (step if len(errors) == before else None)


class _Readers:
    """One reader per keyword: fill ``step`` from the words after the keyword."""

    @staticmethod
    def official(gmap, line, words, step, errors):
        text = " ".join(w for _, w, _ in words)
        name = OFFICIAL_NAMES.get(fold(text))
        if name is None:
            where = words[0][0] if words else len(line.text)
            errors.append(line.error(f"no official {text!r}{suggestion(text, OFFICIAL_NAMES)}; the officials are "
                                     "postmaster, administrator, carrier, cartwright", where))
        step["name"] = name

    @staticmethod
    def draw(gmap, line, words, step, errors):
        if not words:
            errors.append(line.syntax("draw from where? 'draw: deck' or 'draw: display CITY'", len(line.text)))
            return
        first = fold(words[0][1])
        if first == "deck":
            step["source"] = "deck"
            if len(words) > 1:
                errors.append(line.syntax("'draw: deck' takes nothing more (one draw a line)", words[1][0]))
            return
        step["source"] = "display"
        if first == "display":
            words = words[1:]
            if not words:
                errors.append(line.syntax("which card of the display? 'draw: display CITY'", len(line.text)))
                return
        cities, cols = read_cities(gmap, line, words, errors)
        if len(cities) > 1:
            errors.append(line.syntax("one card a line: write a second 'draw:' line", cols[1] - line.col))
        if cities:
            step["city"], step["city_col"] = cities[0], cols[0]

    @staticmethod
    def play(gmap, line, words, step, errors):
        step["end"] = None
        if words and fold(words[-1][1]) in ENDS and (len(words) > 1 or not gmap.city(words[-1][1])):
            step["end"] = ENDS[fold(words[-1][1])]
            step["end_col"] = line.col + words[-1][0]
            words = words[:-1]
        if not words:
            errors.append(line.syntax("play which card? 'play: CITY left|right|new'", len(line.text)))
            return
        cities, cols = read_cities(gmap, line, words, errors)
        if len(cities) > 1:
            errors.append(line.syntax("one card a line (then 'left', 'right' or 'new'): write a second "
                                      "'play:' line", cols[1] - line.col))
        if cities:
            step["city"], step["city_col"] = cities[0], cols[0]

    @staticmethod
    def score(gmap, line, words, step, errors):
        if words and fold(words[0][1]) in ("houses", "house"):
            words = words[1:]
        if [fold(w) for _, w, _ in words] in (["none"], ["no", "houses"], ["no"], ["-"]):
            words = []
        step["houses"], step["cols"] = read_cities(gmap, line, words, errors)

    @staticmethod
    def discard(gmap, line, words, step, errors):
        if not words:
            errors.append(line.syntax("discard which cards? 'discard: CITY CITY'", len(line.text)))
            return
        step["cities"], step["cols"] = read_cities(gmap, line, words, errors)
