"""Seeded fuzzing of a game's order reader: mutated order files, odd digits, 1 MB probes.

The only exceptions allowed out of ``gm.store.orders.read_frame`` + ``game.parse`` are OrderError and
OrderErrors (the documented ones); every error must name its line. Times are measured and
reported by the caller, never asserted (tests never fail on a wall-clock time).
"""
from __future__ import annotations

import random
import time

from gm.store.errors import OrderError, OrderErrors
from gm.store.orders import read_frame

# digits that pass str.isdigit() but not int(), or are not ASCII: superscripts, circled,
# full-width, Arabic-Indic, Devanagari; and other troublemakers
ODD = ["²", "³", "⑼", "①", "３", "٣", "७", "𝟗", "Ⅻ", "\u00a0", "\u200b", "\ufeff", "\t", "é", "ß", "Ö",
       "—", "–", "-", ",", ";", ":", '"', "'", "#", ">", "\\", "%", "{", "}", "@{x}", "\r", "\x00"]
HUGE = ["9" * 5000, "1" * 4301, "0" * 10000, "-" + "9" * 5000, "9" * 20]


def mutate(text: str, rng: random.Random, words: list[str]) -> str:
    """One random change of ``text``: a character, a word, a line, or a huge or odd number."""
    lines = text.splitlines() or [""]
    kind = rng.randrange(10)
    i = rng.randrange(len(lines))
    line = lines[i]
    pos = rng.randrange(len(line) + 1)
    if kind == 0:
        lines[i] = line[:pos] + rng.choice(ODD) + line[pos:]
    elif kind == 1:
        lines[i] = line[:pos] + line[pos + rng.randrange(1, 6):]
    elif kind == 2:
        lines[i] = line[:pos] + " " + rng.choice(words) + " " + line[pos:]
    elif kind == 3:
        lines[i] = line[:pos] + rng.choice(HUGE) + line[pos:]
    elif kind == 4:
        lines.insert(i, rng.choice(lines))
    elif kind == 5:
        del lines[i]
    elif kind == 6:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 7:
        lines[i] = line * rng.randrange(2, 30)
    elif kind == 8:
        lines[i] = "".join(rng.choice(ODD + words[:5] + [" "]) for _ in range(rng.randrange(1, 12)))
    else:
        lines[i] = line.upper() if rng.random() < 0.5 else line.replace(" ", rng.choice(["", "  ", "\t", ",", "-"]))
    return "\n".join(lines) + rng.choice(["\n", ""])


def parse_once(game, state, player: str, text: str) -> float:
    """Seconds to read ``text``; fails on any exception other than the documented ones, or on an
    error that names no line."""
    start = time.perf_counter()
    try:
        game.parse(state, player, read_frame(text, "fuzz.txt").lines)
    except OrderErrors as exc:
        for error in exc.errors:
            assert isinstance(error, OrderError)
            assert error.line is not None or "turn" in str(error) or "game is over" in str(error), str(error)
    except OrderError as error:
        assert error.line is not None, str(error)
    return time.perf_counter() - start


def probes(player_line: str) -> list[str]:
    """1 MB files built to find slow or unbounded readers."""
    mb = 1 << 20
    return [
        player_line + '"' * mb,
        player_line + ("a " * (mb // 2)),
        player_line + ("x," * (mb // 2)),
        player_line + (" " * mb) + "x",
        player_line + ("-" * mb),
        player_line + ("9" * mb),
        player_line + ("²" * (mb // 2)),
        player_line + ("\n" * (mb // 2)),
        player_line + ("draw: deck\n" * (mb // 11)),
        player_line + ("trains: Hamburg-Bremen\n" * (mb // 23)),
        player_line + ("x\n" * (mb // 2)),
    ]


def fuzz(game, states: list[tuple[dict, str]], seeds: range, extra_words: list[str]) -> dict[str, float]:
    """Mutate the random orders of each (state, player) and read them; every probe too.
    Returns {"files": n, "slowest": seconds, "slowest_probe": seconds}."""
    rng = random.Random(seeds.start)
    slowest = 0.0
    count = 0
    for n in seeds:
        state, player = states[n % len(states)]
        text = game.random_orders(state, player, rng)
        for _ in range(rng.randrange(1, 4)):
            text = mutate(text, rng, extra_words)
        slowest = max(slowest, parse_once(game, state, player, text))
        count += 1
    state, player = states[0]
    slowest_probe = 0.0
    for base in ("", "play: ", "buy: ", "trains: ", "route: ", "factory: ", "score: houses "):
        for text in probes(base):
            slowest_probe = max(slowest_probe, parse_once(game, state, player, text))
            count += 1
    return {"files": count, "slowest": slowest, "slowest_probe": slowest_probe}
