"""Fuzzing the Network King order parser: only OrderError(s) ever escape, and whatever it accepts
resolves (parse checks everything resolve relies on)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm.store.dice import Dice
from gm.store.errors import OrderError, OrderErrors
from gm.games.network_king import GAME
from gm.store.orders import read_frame

ROOT = Path(__file__).resolve().parent.parent
DECKS = {"deck_p1": str(ROOT / "orders" / "network-king" / "deck-p1.txt"),
         "deck_p2": str(ROOT / "orders" / "network-king" / "deck-p2.txt")}


def _positions() -> list[dict]:
    """The start, a few positions along a seeded random game, its end, and the deck phase."""
    state = GAME.setup(None, ["p1", "p2"], DECKS, Dice(b"f" * 32))
    rng = random.Random(7)
    out = [state]
    while GAME.due(state):
        player = GAME.due(state)[0]
        orders = GAME.parse(state, player, read_frame(GAME.random_orders(state, player, rng)).lines)
        state, _ = GAME.resolve(state, {player: orders}, Dice(b"g" * 32))
        out.append(state)
    out.append(GAME.setup(None, ["p1", "p2"], {}, Dice(b"f" * 32)))
    return out


POSITIONS = _positions()
NAMES = sorted({c.split(" | ")[0] for s in POSITIONS[:1] for p in s["players"]
                for c in s["hands"][p] + s["decks"][p]})
WORDS = ["hire", "to", "as", "effect", "effect:", ";", ",", ":", "draw", "bottom", "then", "and",
         "relocate", "move", "from", "in", "layoff", "lay", "off", "lay off", "all", "rehire", "pass",
         "mimic", "clear", "my", "their", "no effect", "none", "Tokyo", "Osaka", "Kyoto", "Seattle",
         "Business", "Art", "Sound", "Design/Writing", "Programming/QA", "No Name", "No Profession",
         "1", "2", "3", "5", "9", "0", '"', '""', "|", "#", "\n", "Ümit", "Zoë Quinn"]
token = st.one_of(st.sampled_from(WORDS), st.sampled_from(NAMES).map(lambda n: f'"{n}"'),
                  st.sampled_from(NAMES), st.text(max_size=8))
order_text = st.one_of(st.lists(token, max_size=16).map(" ".join), st.text(max_size=80))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=order_text, which=st.integers(min_value=0, max_value=len(POSITIONS) - 1),
       player=st.sampled_from(["p1", "p2"]))
def test_parser_raises_only_order_errors_and_accepted_orders_resolve(text, which, player):
    state = POSITIONS[which]
    try:
        orders = GAME.parse(state, player, read_frame(text, "fuzz.txt").lines)
    except (OrderErrors, OrderError) as exc:
        lines = exc.lines() if isinstance(exc, OrderErrors) else [exc.located()]
        assert lines and all(line.startswith("fuzz.txt") or line.startswith("<orders>") for line in lines)
        assert all("\n" not in line for line in lines)
        return
    new, events = GAME.resolve(state, {player: orders}, Dice(b"h" * 32))
    assert all(isinstance(e["text"], str) for e in events)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_random_turns_are_always_accepted(data):
    state = POSITIONS[data.draw(st.integers(min_value=0, max_value=len(POSITIONS) - 3))]
    if not GAME.due(state):
        return
    player = GAME.due(state)[0]
    text = GAME.random_orders(state, player, random.Random(data.draw(st.integers(0, 10**6))))
    GAME.parse(state, player, read_frame(text).lines)


# ---- hostile files (issue 17 item 5): mutated orders, odd digits, 1 MB probes -----------------
def test_mutated_order_files_raise_only_order_errors(capsys):
    """2,000+ seeded mutations of valid orders at every stage (deck lists included), odd digits as
    card numbers and 1 MB files: only OrderError(s), each naming its line, escape `parse`; what it
    accepts plays."""
    from tests.support.network_fuzz import Tally, mutate, probes, run
    states = [s for s in POSITIONS if GAME.due(s)]
    rng, tally = random.Random(17), Tally()
    words = WORDS + ['"Ada Lovelace"', "²", "⑼", "１", "٣", "9" * 5000]
    bases = {i: [GAME.random_orders(s, GAME.due(s)[0], rng) for _ in range(8)] for i, s in enumerate(states)}
    for i in range(2100):
        state = states[i * 5 % len(states)]
        player = GAME.due(state)[0]
        text = mutate(rng.choice(bases[i * 5 % len(states)]), rng, words)

        def parse_and_play(lines, state=state, player=player):
            GAME.resolve(state, {player: GAME.parse(state, player, lines)}, Dice(b"h" * 32))
        run(parse_and_play, [text], tally)
    start = states[0]
    mover = GAME.due(start)[0]
    odd = [f"hire {n} to Tokyo" for n in ("²", "⑼", "１", "٣", "۳", "߂", "𝟙", "9" * 5000, "0" * 20 + "1")]
    odd += [f'hire 1 to Tokyo as Business; effect: draw "Ada Lovelace", bottom {n}' for n in ("²", "9" * 5000)]
    run(lambda lines: GAME.parse(start, mover, lines), odd + probes(), tally)
    decks = POSITIONS[-1]  # deck lists as orders: big ones, and one title over and over
    big_lists = ["a | b\n" * 200_000, "Ann | Writer\n" * 100_000, "x | " + "Writer " * 150_000, "|" * (1 << 20)]
    run(lambda lines: GAME.parse(decks, "p1", lines), big_lists + probes()[:4], tally)
    assert tally.crashes == [], "\n".join(tally.crashes[:10])
    assert tally.files > 2100 and tally.accepted > 100 and tally.refused > 1000
    with capsys.disabled():
        print(f"\nNetwork King parser fuzz: {tally.files} files, slowest {tally.slowest:.2f} s "
              f"({tally.slowest_text[:20]!r}...)")


def test_only_ascii_digits_number_a_card():
    state = POSITIONS[1]
    mover = GAME.due(state)[0]
    for number in ("²", "１", "٣", "9" * 5000):
        with pytest.raises(OrderErrors) as info:
            GAME.parse(state, mover, read_frame(f"hire {number} to Tokyo", "o.txt").lines)
        message = info.value.lines()[0]
        assert message.startswith("o.txt:1:6: ") and len(message) < 200, message
