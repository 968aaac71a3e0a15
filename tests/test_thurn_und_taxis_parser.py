"""Fuzzing the Thurn und Taxis order parser: whatever the text, only OrderError/OrderErrors escape,
nothing in the state changes, and every error is located on a line of the file."""
from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm.store.dice import Dice
from gm.store.errors import OrderError, OrderErrors
from gm.games import get
from gm.store.orders import read_frame

GAME = get("thurn-und-taxis")
STATE = GAME.apply_setup(GAME.setup("map1", ["ann", "bob"], {}, Dice(b"fuzz")), {
    "display": ["Ulm", "Passau", "Linz", "Basel", "Lodz", "Pilsen"],
    "hands": {"ann": ["Salzburg", "Augsburg", "Regensburg", "Zürich"]},
    "routes": {"ann": ["München", "Passau"]},
    "houses": {"ann": ["Passau"]},
})
EMPTY_HAND = GAME.setup("map2", ["ann", "bob", "cy"], {}, Dice(b"fuzz2"))

WORDS = ["official:", "draw:", "play:", "score:", "discard:", "official", "draw", "play", "score", "discard",
         "postmaster", "administrator", "carrier", "cartwright", "deck", "display", "left", "right", "new",
         "houses", "no", "none", "Ulm", "Passau", "Linz", "München", "munchen", "Salzburg", "Augsburg",
         "Regensburg", "Zürich", "Karlsruhe", "Hamburg", "Lübeck", ",", ":", '"', "#", "-", "Frankfurt am Main"]


def check(state, text):
    before = copy.deepcopy(state)
    try:
        orders = GAME.parse(state, state["to_move"], read_frame(text, "fuzz.txt").lines)
    except OrderErrors as exc:
        assert exc.errors and all(isinstance(e, OrderError) for e in exc.errors)
        lines = len(text.splitlines()) or 1
        for e in exc.errors:
            assert e.line is None or 1 <= e.line <= lines, e.located()
            assert "\n" not in e.located()
    except OrderError:
        pass
    else:
        # clean orders resolve without crashing
        GAME.resolve(state, {state["to_move"]: orders}, Dice(b"fuzz"))
    assert state == before, "parse changed the state"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_any_text(text):
    check(STATE, text)


line = st.lists(st.sampled_from(WORDS), min_size=1, max_size=5).map(" ".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(line, min_size=0, max_size=7).map("\n".join), st.booleans())
def test_order_shaped_text(text, empty_hand):
    check(EMPTY_HAND if empty_hand else STATE, text)
