"""Seeded fuzzing of the order frame (issue 17 items 4 and 5): thousands of mutated order files,
odd digits and 1 MB probes through everything the engine and mail do with a file before a game
sees it. Only OrderError may escape (UsageError from find_player, which says who is unknown),
every error names its line, and the slowest file is reported, never asserted on."""
from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from gm.store.errors import MAX_ERRORS, OrderError, UsageError, located_lines
from gm.store.orders import canonical_text, decode_order_bytes, preamble_note, read_frame
from gm.store.players import find_player

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = [{"id": "ann", "name": "Ann Smith"}, {"id": "bob", "name": "Bøb"}, {"id": "p1", "name": "P One"}]
ODD = ["²", "⑼", "３", "٣", "۹", "३", "𝟗", "\u0660", "1" * 4301, "9" * 20, "\x00", "\ufeff", "\u2028", "\r", "\x85",
       "\x0c", "#", '"', ">", "-- ", ":", "player:", "turn:", "password:", "\t", " " * 50, "é", "ß", "İ", "\U0001f600"]
SEED_TEXTS = [
    "player: ann\nturn: 1\nguess 3\n",
    "Hi GM, here are my orders:\n\nPlayer: Ann Smith\npassword: x\nturn: 2\nround 1: (0203) 0207 # build\n",
    "> On Monday you wrote:\n> player: bob\nplayer: BOB\nhire \"Gabe # Newell\" to Tokyo\n-- \nBob\n",
    "turn: 3\nplayer: p1\nplace c3\nmove c3 d4\n",
]


def corpus() -> list[str]:
    texts = list(SEED_TEXTS)
    for path in sorted((ROOT / "orders").rglob("*.txt"))[:40]:
        texts.append(path.read_text(encoding="utf-8", errors="replace"))
    return texts


def mutate(text: str, rng: random.Random) -> bytes:
    chars = list(text)
    for _ in range(rng.randint(1, 12)):
        choice = rng.random()
        at = rng.randint(0, len(chars))
        if choice < 0.45:
            chars[at:at] = list(rng.choice(ODD))
        elif choice < 0.65 and chars:
            del chars[min(at, len(chars) - 1)]
        elif choice < 0.8 and chars:
            end = min(len(chars), at + rng.randint(1, 40))
            chars[at:at] = chars[at:end] * rng.randint(1, 30)  # repeat a run
        else:
            chars[at:at] = list(rng.choice(["\nplayer: ", "\nturn: ", "\npassword: ", "\n-- \n", "\n> ", "\n#"]))
    text = "".join(chars)
    codec = rng.choice(["utf-8"] * 6 + ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "cp1252", "utf-8-sig"])
    raw = text.encode(codec, errors="replace")
    if rng.random() < 0.15 and raw:  # flip bytes after encoding: damaged files
        data = bytearray(raw)
        for _ in range(rng.randint(1, 5)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        raw = bytes(data)
    return raw


def probes() -> list[bytes]:
    mb = 1 << 20
    texts = [
        "player:" + " " * mb + "x" + " " * mb + "y\n",
        " " * mb + "player :" + "\t" * mb,
        '"' * mb,
        "player: a\n" * (mb // 10),
        "turn: ²\n" * (mb // 8),
        "turn: " + "7" * mb + "\n",
        "#" * mb,
        "\r" * mb,
        ">" * mb,
        ("a " * (mb // 2)),
        "player: ann\n" + ("guess 1 # x\n" * (mb // 12)),
        "\u2028" * (mb // 3),
        "Hi GM\n" * (mb // 6) + "player: ann\n",
    ]
    raws = [t.encode("utf-8") for t in texts]
    raws += [("player: ann\n" * (mb // 24)).encode("utf-16"), b"\x00" * mb, bytes(range(256)) * (mb // 256)]
    return raws


def through_the_frame(raw: bytes, file: str) -> None:
    """Everything done to an order file before a game parses it; raises only OrderError/UsageError."""
    try:
        text = decode_order_bytes(raw, file)
    except OrderError as exc:
        assert exc.line == 1 and exc.located().startswith(f"{file}:1:1: ")
        return
    frame = read_frame(text, file)
    for error in frame.errors:
        assert isinstance(error, OrderError) and isinstance(error.line, int) and error.line >= 1
        assert error.located().startswith(f"{file}:{error.line}:")
        assert len(error.located()) < 400
    lines = located_lines(frame.errors)
    assert len(lines) <= MAX_ERRORS + 1
    assert frame.turn is None or frame.turn >= 0
    canon = canonical_text(frame)
    again = read_frame(canon, file)
    assert [line.text for line in again.lines] == [line.text for line in frame.lines]
    assert "password" not in again.headers
    preamble_note(frame)
    if frame.player is not None:
        try:
            assert find_player(PLAYERS, frame.player) in {"ann", "bob", "p1"}
        except UsageError as exc:
            assert "\n" not in str(exc) and "players: ann (Ann Smith)" in str(exc)


def _timed(cases, label):
    slowest, worst, internal = 0.0, None, []
    for name, raw in cases:
        start = time.perf_counter()
        try:
            through_the_frame(raw, name)
        except (OrderError, UsageError):
            raise  # through_the_frame handles these itself: reaching here is a bug
        except Exception as exc:  # noqa: BLE001 - the point: count every internal error
            internal.append(f"{name}: {type(exc).__name__}: {exc}"[:300])
        took = time.perf_counter() - start
        if took > slowest:
            slowest, worst = took, name
    print(f"\n{label}: {len(cases)} files, internal errors: {len(internal)}; "
          f"slowest {slowest * 1000:.1f} ms ({worst})")
    return internal


def test_mutated_order_files_only_raise_order_errors():
    rng = random.Random(20261201)
    texts = corpus()
    cases = [(f"fuzz{n}.txt", mutate(rng.choice(texts), rng)) for n in range(2500)]
    assert _timed(cases, "mutated frame fuzz") == []


@pytest.mark.parametrize("digit", ODD[:10])
def test_odd_digits_anywhere_in_the_turn_header(digit):
    cases = [(f"odd{n}.txt", text.encode("utf-8")) for n, text in enumerate([
        f"player: ann\nturn: {digit}\n", f"turn:{digit}3\n", f"turn: 3{digit}\n", f"turn: {digit * 3}\n",
        f"player: {digit}\n", f"Turn : {digit} # c\n"])]
    assert _timed(cases, f"odd digit {digit[:5]!r}") == []


def test_megabyte_probes():
    cases = [(f"probe{n}.txt", raw) for n, raw in enumerate(probes())]
    assert _timed(cases, "1 MB probes") == []
