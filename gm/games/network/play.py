"""Playing Network on plain-data state: whose turn, what is legal, and what a move does.

State keys (as ``gm show --json`` shows them): ``board`` (eight strings, row 8 first),
``to_move``, ``placed``, ``winner``, ``networks``, ``history``, plus ``sides`` (colour -> player
id), ``turn_order``, ``ply`` (moves made), ``last_move``, ``end`` (why the game ended) and
``positions`` (how often each position has occurred, for the repetition draw).
"""
from __future__ import annotations

import copy
import random
from typing import Any, Iterator

from gm.store.errors import IllegalOrderError, UsageError
from gm.games.base import player_ref
from .board import (EMPTY, LETTER, OTHER, PIECES, SIDES, SQUARE_NAMES, SQUARE_OF, TITLE, count,
                    from_rows, placements, position_problems, relocations, square_problem, to_rows)
from .networks import find_network, find_networks, named
from .notation import canonical, move, place, position_key

TURN_ORDERS = ("standard", "equalized")
REPETITIONS = 3  # the third occurrence of a position (same side to move) draws


def new_state(sides: dict[str, str], cells: list[str], to_move: str, turn_order: str) -> dict[str, Any]:
    """A game starting from ``cells``; raises UsageError when the position breaks the rules."""
    state: dict[str, Any] = {
        "board": to_rows(cells), "to_move": to_move, "placed": {}, "winner": None, "end": None,
        "networks": {"dark": None, "light": None}, "history": [], "last_move": None,
        "sides": dict(sides), "turn_order": turn_order,
        # a position counts as many moves made as it has pieces (it decides the equalized double move)
        "ply": sum(1 for c in cells if c != EMPTY), "positions": {},
    }
    return settle(state, cells)


def settle(state: dict[str, Any], cells: list[str]) -> dict[str, Any]:
    """Check a position given from outside (option or rules case) and work out its derived keys."""
    if state["turn_order"] not in TURN_ORDERS:
        raise UsageError(f"turn_order is one of {', '.join(TURN_ORDERS)}, not {state['turn_order']!r}")
    if state["to_move"] not in SIDES:
        raise UsageError(f"to_move is dark or light, not {state['to_move']!r}")
    problems = position_problems(cells)
    if problems:
        raise UsageError("the position breaks the rules: " + "; ".join(problems))
    networks = find_networks(cells)
    if networks["dark"] and networks["light"]:
        raise UsageError("the position breaks the rules: both sides have a network "
                         f"(dark {' '.join(named(networks['dark']))}; light {' '.join(named(networks['light']))})")
    state["board"] = to_rows(cells)
    state["placed"] = {side: count(cells, side) for side in SIDES}
    state["networks"] = {side: named(networks[side]) for side in SIDES}
    state["winner"] = next((side for side in SIDES if networks[side]), None)
    state["end"] = "network" if state["winner"] else None
    state["positions"] = {}
    if state["winner"]:
        state["positions"] = {position_key(state["board"], state["to_move"]): 1}
    else:
        _hand_over(state, [])
    return state


# ---- what may be played -----------------------------------------------------------------------
def placing(state: dict[str, Any], side: str) -> bool:
    """A side places while it has pieces off the board, and moves once all ten are down."""
    return state["placed"][side] < PIECES


def order_problem(state: dict[str, Any], side: str, order: dict) -> tuple[str, str] | None:
    """Why ``side`` may not play ``order`` now, as (which square's fault: 'from'/'to', reason)."""
    cells = from_rows(state["board"])
    if order["kind"] == "place":
        if not placing(state, side):
            return "to", (f"all ten {TITLE[side]} pieces are on the board: move one instead, "
                          f"e.g. 'move {_some_piece(cells, side)} {order['to']}'")
        problem = square_problem(cells, side, SQUARE_OF[order["to"]])
        return ("to", problem) if problem else None
    if placing(state, side):
        left = PIECES - state["placed"][side]
        return "from", (f"{TITLE[side]} still has {left} piece{'s' if left != 1 else ''} to place: "
                        f"pieces move only once all ten are on the board (write 'place {order['to']}')")
    source, target = SQUARE_OF[order["from"]], SQUARE_OF[order["to"]]
    if cells[source] != LETTER[side]:
        holds = "is empty" if cells[source] == EMPTY else f"holds a {TITLE[OTHER[side]]} piece"
        return "from", f"{order['from']} {holds}: {TITLE[side]} can move only its own pieces"
    problem = square_problem(cells, side, target, lifted=source)
    if problem:
        return "to", problem
    after = _played(cells, side, order)
    if find_network(after, side, shortest=False) and find_network(after, OTHER[side], shortest=False):
        return "to", ("this move would complete both networks (Dark's and Light's): "
                      "a move may not complete both")
    return None


def legal_orders(state: dict[str, Any], side: str, rng: random.Random | None = None) -> Iterator[dict]:
    """Every legal order of ``side`` (shuffled by ``rng`` when given), lazily."""
    cells = from_rows(state["board"])
    if placing(state, side):
        squares = list(placements(cells, side))
        if rng:
            rng.shuffle(squares)
        yield from (place(SQUARE_NAMES[s]) for s in squares)
        return
    pairs = list(relocations(cells, side))
    if rng:
        rng.shuffle(pairs)
    for source, target in pairs:
        order = move(SQUARE_NAMES[source], SQUARE_NAMES[target])
        after = _played(cells, side, order)
        if not (find_network(after, side, shortest=False) and find_network(after, OTHER[side], shortest=False)):
            yield order


def can_play(state: dict[str, Any], side: str) -> bool:
    return next(legal_orders(state, side), None) is not None


# ---- playing a move ----------------------------------------------------------------------------
def play(state: dict[str, Any], order: dict) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The state after the side to move plays ``order`` (checked), and the events."""
    side = state["to_move"]
    problem = order_problem(state, side, order)
    if problem:
        raise IllegalOrderError(problem[1])
    new = copy.deepcopy(state)
    cells = _played(from_rows(state["board"]), side, order)
    new["board"] = to_rows(cells)
    new["placed"][side] = count(cells, side)
    new["history"].append(canonical(order))
    new["last_move"] = {"side": side, **order}
    new["ply"] += 1
    verb = f"placed a piece on {order['to']}" if order["kind"] == "place" else f"moved {order['from']} to {order['to']}"
    events = [{"text": f"{_who(state, side)} {verb}.", "kind": order["kind"], "side": side,
               "move": canonical(order)}]
    networks = find_networks(cells)
    new["networks"] = {s: named(networks[s]) for s in SIDES}
    winner = side if networks[side] else OTHER[side] if networks[OTHER[side]] else None
    if winner:
        new["winner"], new["end"] = winner, "network"
        how = "" if winner == side else f" opened by {TITLE[side]}'s move"
        events.append({"text": f"{_who(state, winner)} completed a network{how}: "
                               f"{' '.join(new['networks'][winner])}. {TITLE[winner]} wins.",
                       "kind": "win", "side": winner, "network": new["networks"][winner]})
        return new, events
    new["to_move"] = _next_side(new, side)
    if order["kind"] == "place":
        new["positions"] = {}  # a placement adds a piece: no earlier position can come back
    _hand_over(new, events)
    return new, events


def _hand_over(state: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Pass the turn on from a side with no legal move, then count the position for repetition."""
    if not state["winner"] and not can_play(state, state["to_move"]):
        stuck = state["to_move"]
        if can_play(state, OTHER[stuck]):
            state["to_move"] = OTHER[stuck]
            state["history"].append("pass")
            events.append({"text": f"{_who(state, stuck)} has no legal move and passes.", "kind": "pass",
                           "side": stuck})
        else:
            state["winner"], state["end"] = "draw", "no legal move"
            events.append({"text": "Neither side has a legal move: the game is drawn.", "kind": "draw"})
            return
    key = position_key(state["board"], state["to_move"])
    seen = state["positions"].get(key, 0) + 1
    state["positions"][key] = seen
    if seen >= REPETITIONS and not state["winner"]:
        state["winner"], state["end"] = "draw", "repetition"
        events.append({"text": f"This position has now occurred {seen} times with {TITLE[state['to_move']]} "
                               f"to move: the game is drawn.", "kind": "draw"})


def _who(state: dict[str, Any], side: str) -> str:
    """A side as events name it: 'Dark (@{ann})', the report filling in the player's name."""
    return f"{TITLE[side]} ({player_ref(state['sides'][side])})"


def _next_side(state: dict[str, Any], mover: str) -> str:
    """Turns alternate, except that the equalized order gives Light the game's second and third moves."""
    if state["turn_order"] == "equalized" and mover == "light" and state["ply"] == 2:
        return "light"
    return OTHER[mover]


def _played(cells: list[str], side: str, order: dict) -> list[str]:
    after = list(cells)
    if order["kind"] == "move":
        after[SQUARE_OF[order["from"]]] = EMPTY
    after[SQUARE_OF[order["to"]]] = LETTER[side]
    return after


def _some_piece(cells: list[str], side: str) -> str:
    return next(SQUARE_NAMES[s] for s in range(64) if cells[s] == LETTER[side])
