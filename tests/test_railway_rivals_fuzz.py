"""Hostile order files against the Railway Rivals parser (issue 17 item 5): seeded mutations of valid
files, odd digits and megabyte probes. Only OrderError/OrderErrors may escape `game.parse` after
`gm.store.orders.read_frame`, every error names its line, and a file gets at most MAX_ERRORS lines of errors.
Times are measured and printed (run with -s), never asserted: speed belongs to `make bench`."""
from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from gm.store.dice import Dice, turn_seed
from gm.store.errors import OrderError, OrderErrors
from gm.games import get
from gm.games.railway_rivals.reading import MAX_ERRORS
from gm.store.orders import read_frame

GAME = get("railway-rivals")
RACECOURSE = str(Path(__file__).parent / "cases" / "railway-rivals" / "maps" / "racecourse.yaml")
ODD_DIGITS = ["²", "⑼", "３", "٣", "۵", "߁", "𝟙", "¹²", "½", "Ⅻ", "١٢٣٤"]
SLOWEST: list[tuple[float, str]] = []


def _states() -> dict[str, tuple[dict, str]]:
    """(state, player) for each kind of turn: build orders, race entries, an expansion."""
    rng = random.Random(17)
    state = GAME.setup("tutorial", ["blue", "red", "green"], {}, Dice(turn_seed(bytes(32), 0)))
    for turn in (1, 2):
        orders = {p: GAME.parse(state, p, read_frame(GAME.random_orders(state, p, rng), p).lines)
                  for p in GAME.due(state)}
        state, _ = GAME.resolve(state, orders, Dice(turn_seed(bytes(32), turn)))
    course = GAME.setup(RACECOURSE, ["blue", "red"], {}, Dice(b"s" * 32))
    line = [[f"{c:02d}05", f"{c + 1:02d}05"] for c in range(2, 22)]
    races = GAME.apply_setup(course, {"stage": "operate", "track": {"blue": line}, "schedule": [
        [{"id": 1, "from": 11, "to": 21}, {"id": 2, "from": 21, "to": 31},
         {"id": 3, "from": 11, "to": "S1", "special": True}]]})
    expansion = GAME.apply_setup(races, {"operate_phase": "expansion"})
    return {"build": (state, "blue"), "races": (races, "red"), "expansion": (expansion, "red")}


STATES = _states()
VALID = {
    "build": ['company: Great Western, teal\nround 1: (Isengard) 0406 0307; (Isengard) 0606\nround 2: (0307) '
              'Grimslade total 1\nround 3: ("Grimslade") 0108 - 0109', "round 1: (0506) 0507 0508 \"Helm's Deep\"",
              "round 2: (0406) 0307 Grimslade; (0406) 0506\nround 3: (0307) 0207 ferry F1"],
    "races": ["race 1: Westby 0305 0405 0505 0605 0705 0805 0905 1005 1105 Eastby",
              "special run 3: Westby 0305 0405 0505 0605 0705 0805 0905 1005 1105 1205 Farby 2305 2405",
              "race 2 powers blue: Eastby 1305 1405 1505 1605 1705 1805 1905 2005 2105 Farby\nrace 1 with blue:"],
    "expansion": ["expand: (0304) 0305 0405", "expand: (Westby) 0204 0203; (0205) 0206\nexpand: (0206) 0207"],
}


def _valid(kind: str, rng: random.Random) -> str:
    state, player = STATES[kind]
    texts = VALID[kind] + [GAME.random_orders(state, player, rng) for _ in range(2)]
    return f"player: {player}\n" + rng.choice(texts)


def _mutate(text: str, rng: random.Random) -> str:
    """One to four edits: characters in or out, words swapped or repeated, odd digits, huge numbers."""
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(text) + 1)
        pick = rng.randrange(10)
        if pick == 0:
            text = text[:at] + rng.choice(ODD_DIGITS) + text[at:]
        elif pick == 1:
            text = text[:at] + "9" * rng.choice([5, 300, 4301, 6000]) + text[at:]
        elif pick == 2:
            text = text[:at] + text[at + rng.randint(1, 12):]
        elif pick == 3:
            text = text[:at] + rng.choice('"();:-–—.,=#>\t ') + text[at:]
        elif pick == 4:
            words = text.split(" ")
            i, j = rng.randrange(len(words)), rng.randrange(len(words))
            words[i], words[j] = words[j], words[i]
            text = " ".join(words)
        elif pick == 5:
            lines = text.split("\n")
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(lines))
            text = "\n".join(lines)
        elif pick == 6:
            text = text[:at] + chr(rng.randrange(0x20, 0x3000)) + text[at:]
        elif pick == 7:
            text = text[:at] + rng.choice(["round ", "race ", "total ", "ferry ", "leap ", "over ", "with ",
                                           "powers ", "expand:", "company:", "special run ", "Edoras "]) + text[at:]
        elif pick == 8:
            text = text[:at] + text[at:at + 8] * rng.randint(2, 40) + text[at + 8:]
        else:
            text = text.swapcase() if rng.random() < 0.3 else text[:at]
    return text


def _parse(kind: str, text: str) -> None:
    """The frame, then the game's parser: only order errors, each with its line, at most MAX_ERRORS
    (+1 for the line saying how many more)."""
    state, player = STATES[kind]
    start = time.perf_counter()
    try:
        frame = read_frame(text, "fuzz.txt")
        GAME.parse(state, player, frame.lines)
    except OrderErrors as caught:
        assert caught.errors and all(e.line and e.line >= 1 for e in caught.errors), caught.lines()
        assert len(caught.errors) <= MAX_ERRORS, len(caught.errors)
    except OrderError as caught:
        assert caught.line, str(caught)
    SLOWEST.append((time.perf_counter() - start, f"{kind}: {text[:60]!r} ({len(text):,} characters)"))


@pytest.mark.parametrize("kind", sorted(VALID))
def test_mutated_order_files_give_order_errors_only(kind: str) -> None:
    rng = random.Random(f"rr-fuzz-{kind}")
    for _ in range(700):  # 2,100 files over the three kinds of turn
        _parse(kind, _mutate(_valid(kind, rng), rng))


ODD = ([f"round {d}: (0506) 0507" for d in ODD_DIGITS] + [f"round 1: ({d}) 0507" for d in ODD_DIGITS]
       + [f"round 1: (0506) 0507 total {d}" for d in ODD_DIGITS]
       + [f"round 1: (0506) {d}{d}{d}{d}" for d in ODD_DIGITS]
       + ["round 1: (0506) 0507 total " + "7" * 5000, "round " + "1" * 5000 + ": (0506) 0507",
          "round 1: (" + "5" * 4301 + ") 0507", "round 1: (0506) " + "0" * 10_000])


@pytest.mark.parametrize("text", ODD, ids=range(len(ODD)))
def test_odd_digits_and_huge_numbers_in_build_orders(text: str) -> None:
    _parse("build", "player: blue\n" + text)


@pytest.mark.parametrize("text", [f"race {d}: Westby 0305" for d in ODD_DIGITS] + ["race " + "1" * 5000 + ": Westby",
                                  "race 1: Westby " + "0" * 6000, "race 1 with ²: Westby 0305"])
def test_odd_digits_and_huge_numbers_in_race_entries(text: str) -> None:
    _parse("races", "player: red\n" + text)


MB = 1_000_000
PROBES = {
    "quotes": '"' * MB,
    "quotes in a segment": 'round 1: (0506) ' + '"' * MB,
    "whitespace": "round 1:" + " " * MB + "(0506) 0507",
    "tabs before total": "round 1: (0506) 0507" + "\t" * MB + "total 1",
    "word run": "round 1: (0506) " + "Edoras " * (MB // 7),
    "unknown word run": "round 1: (0506) " + "foo " * (MB // 4),
    "town names": "round 1: (0506) " + "Helm's Deep " * (MB // 12),
    "hexes": "round 1: (0506) " + "0507 0508 " * (MB // 10),
    "brackets": "round 1: " + "(" * MB,
    "segments": "round 1: " + "(0506) 0507; " * (MB // 13),
    "dashes": "round 1: (0506) " + "-" * MB,
    "totals": "round 1: (0506) 0507 " + "total " * (MB // 6),
    "lines": "round 1: (0506) 0507\n" * (MB // 21),
    "one letter": "x" * MB,
}


@pytest.mark.parametrize("name", sorted(PROBES))
def test_megabyte_probes_of_build_orders(name: str) -> None:
    _parse("build", "player: blue\n" + PROBES[name])


@pytest.mark.parametrize("name", sorted(PROBES))
def test_megabyte_lines_are_read_in_one_pass_when_let_through(name: str, monkeypatch) -> None:
    """With the line-length limit lifted, the reader itself meets each probe: headers, totals and
    town names are read without backtracking, and reading stops at the error and step caps."""
    monkeypatch.setattr("gm.games.railway_rivals.reading.MAX_LINE", 10 * MB)
    _parse("build", "player: blue\n" + PROBES[name])


@pytest.mark.parametrize("kind,body", [("races", "race 1: Westby " + "0305 " * (MB // 5)),
                                       ("races", "race 1" + " " * MB + ":"),
                                       ("races", "race 1 with" + " " * MB + "red:"),
                                       ("races", "race 1: " + "Westby " * (MB // 7)),
                                       ("expansion", "expand: (0304) " + "0305 " * (MB // 5)),
                                       ("expansion", "expand:" + '"' * MB)])
def test_megabyte_probes_of_operating_orders(kind: str, body: str) -> None:
    _parse(kind, f"player: {STATES[kind][1]}\n" + body)


def test_report_the_slowest_file() -> None:
    """Not a check: prints the slowest files of this run (pytest -s) for the report and `make bench`."""
    for seconds, what in sorted(SLOWEST, reverse=True)[:5]:
        print(f"{seconds:8.3f} s  {what}")
