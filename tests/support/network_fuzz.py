"""Seeded mutation fuzzing of order files (Network and Network King, issue 17 item 5): valid order
files are cut, spliced, repeated and salted with odd digits, quotes and separators; each result is
read by ``gm.store.orders.read_frame`` and given to ``game.parse``, where only OrderError/OrderErrors may
escape. Times are measured and returned, never asserted (the figures go in the report)."""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from gm.store.errors import OrderError, OrderErrors
from gm.store.orders import read_frame

# digits that str.isdigit() accepts and int() may not, or that NFKD folds to ASCII digits
ODD_DIGITS = ["²", "³", "¹", "⑼", "①", "１２", "٣", "۳", "߂", "৩", "𝟙", "⁴", "₅", "Ⅻ", "½", "〇"]
SALT = ODD_DIGITS + ['"', '""', ";", ",", ":", "|", "#", "-", "–", "\t", " ", "\n", "\r\n", "\u00a0",
                     "\ufeff", "\x00", "é", "İ", "ß", "K", "ſ", "9" * 5000, "1" * 40, "-1", "0", "+3",
                     "player: x", "turn: ²", ">", "-- ", "\u202e", "\U0001f600", "a" * 300]


def mutate(text: str, rng: random.Random, words: list[str]) -> str:
    """One to four random edits of ``text``."""
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(7)
        at = rng.randint(0, len(text))
        if kind == 0:
            text = text[:at] + rng.choice(SALT) + text[at:]
        elif kind == 1 and text:
            end = min(len(text), at + rng.randint(1, 12))
            text = text[:at] + text[end:]
        elif kind == 2:
            text = text[:at] + rng.choice(words) + text[at:]
        elif kind == 3 and text:
            start = rng.randrange(len(text))
            piece = text[start:start + rng.randint(1, 30)]
            text = text[:at] + piece * rng.randint(1, 20) + text[at:]
        elif kind == 4:
            lines = text.split("\n")
            rng.shuffle(lines)
            text = "\n".join(lines)
        elif kind == 5 and text:
            text = text[:at] + text[at:at + 1].upper() + text[at + 1:]
        else:
            text = text[:at] + rng.choice(ODD_DIGITS) * rng.randint(1, 3) + text[at:]
    return text


def probes() -> list[str]:
    """Big files: 1 MB of one character, separators, a keyword repeated, a huge number."""
    mb = 1 << 20
    return ['"' * mb, ";" * mb, " " * mb, "a" * mb, "9" * mb, "²" * (mb // 2), "x\n" * (mb // 2),
            "hire " * (mb // 5), "hire 1 to " + "Tokyo " * (mb // 6), '"a" ' * (mb // 4),
            "c3 " * (mb // 3), "move " + "c3-" * (mb // 3), "-" * mb, "layoff " + '"' * mb,
            "player: " + " " * mb + "x", "turn: " + "1" * 5000 + "\nc3"]


@dataclass
class Tally:
    files: int = 0
    accepted: int = 0
    refused: int = 0
    slowest: float = 0.0
    slowest_text: str = ""
    crashes: list[str] = field(default_factory=list)


def run(parse: Callable[[Any], Any], texts: list[str], tally: Tally | None = None) -> Tally:
    """Frame and parse each text; record which ones raised anything but order errors."""
    tally = tally or Tally()
    for text in texts:
        started = time.perf_counter()
        frame = None
        try:
            frame = read_frame(text, "fuzz.txt")
            parse(frame.lines)
            tally.accepted += 1
        except (OrderError, OrderErrors) as exc:
            tally.refused += 1
            errors = exc.errors if isinstance(exc, OrderErrors) else [exc]
            # every error names its line (only a file with no order line at all has none to name)
            unplaced = [e.located() for e in errors if e.line is None and frame and frame.lines]
            if unplaced or any("\n" in e.located() for e in errors):
                tally.crashes.append(f"an error without its line: {unplaced[:2]!r} for {text[:80]!r}")
        except Exception as exc:  # noqa: BLE001 - the point: anything else is a bug
            tally.crashes.append(f"{type(exc).__name__}: {exc} for {text[:80]!r}")
        seconds = time.perf_counter() - started
        tally.files += 1
        if seconds > tally.slowest:
            tally.slowest, tally.slowest_text = seconds, text[:60]
    return tally
