"""Network expansion after a race round: one round of building, paid in cash, with the build code.

Orders: `expand: (2522) 2523 "Helm's Deep"; (2522) 2924` (one or more lines). Each pip costs 1
cash and a company builds at most the round's budget in pips; payments to rivals, ferries and the
first-arrival bonus work as in a build round (all companies build at the same time).
"""
from __future__ import annotations

import copy
import re
from typing import Any

from gm.store.dice import Dice
from gm.store.errors import IllegalOrderError, OrderError
from gm.hexmap.model import HexMap
from gm.store.names import fold
from gm.store.orders import OrderLine

from ..build.company import planning_builder, track_links
from ..build.examples import segment_example
from ..links import link_key
from ..build.orders import SegmentReader
from ..build.rounds import Cursor
from ..build.turn import arrivals, build_event, record_steps, run_round, turn_builders
from ..reading import Allowance, hint, readable_lines, shown
from ..money import BANK, build_payments, cash_event, pay_all, payment
from ..words import company_names, count
from .round import expansion_budget

_EXPAND = re.compile(r"expand\s*:", re.IGNORECASE)


def read_expansion(state: dict[str, Any], hexmap: HexMap, player: str, lines: list[OrderLine], file: str = ""
                   ) -> tuple[dict[str, Any], list[OrderError]]:
    errors: list[OrderError] = []
    segments: list[dict[str, Any]] = []
    allowance = Allowance()
    for line in readable_lines(lines, errors):
        header = _EXPAND.match(line.text)
        if not header:
            words = line.text.split(None, 1)
            first = words[0] if words else line.text
            errors.append(line.syntax(f"expected 'expand: {segment_example(hexmap)}' (this turn is the expansion "
                                      f"after race round "
                                      f"{state['race_round']}), not {shown(first)}"
                                      f"{hint(first.rstrip(':'), ['expand'])}"))
            continue
        reader = SegmentReader(hexmap, state["companies"], line, header.end(), errors, allowance)
        segments += reader.read(line.text[header.end():])
    budget = expansion_budget(state)
    builder, rivals = planning_builder(state, hexmap, player)
    cursor = Cursor(builder, segments, budget, lenient=True, limit="the budget of").run_all()
    errors += cursor.stop_errors(file)
    spent = expansion_spending(state, hexmap, player, cursor, rivals)
    if spent["over"] is not None:
        step = spent["over"]
        errors.append(IllegalOrderError(
            f"the expansion spends {spent['total']} ({count(cursor.pip, 'pip')}, {spent['rivals']} to rivals, "
            f"{spent['ferries']} for ferries) but the budget is {budget}: it is spent by {step['to']}",
            line=cursor.done_segments[step["segment"]]["line"], col=step["col"], file=file))
    note = (f"expansion: spends {spent['total']} of the budget of {budget} ({count(cursor.pip, 'pip')}, "
            f"{spent['rivals']} to rivals, {spent['ferries']} for ferries); cash {state['cash'][player]}")
    return {"segments": segments, "notes": [note]}, errors


def expansion_spending(state: dict[str, Any], hexmap: HexMap, player: str, cursor: Cursor,
                       rivals: dict[str, set]) -> dict[str, Any]:
    """What an expansion spends against the rivals' track as it stands: its pips at 1 each, payments
    to rivals and ferries, all within the budget; ``over`` is the first step past the budget."""
    spent = {"total": 0, "rivals": 0, "ferries": 0, "over": None}
    mine = track_links(state, player)
    none = {p: set() for p in state["players"]}
    for step in cursor.steps:  # each step's payments depend only on the track at the start
        paid = build_payments(hexmap, [player] + list(rivals), {player: [step]}, {player: mine, **rivals}, none,
                              company_names(state), 1)
        to_rivals = sum(p["amount"] for p in paid)
        spent["rivals"] += to_rivals
        spent["ferries"] += step.get("cost", 0)
        spent["total"] += step["pips"] + to_rivals + step.get("cost", 0)
        if spent["over"] is None and spent["total"] > expansion_budget(state):
            spent["over"] = step
    return spent


def is_expansion_text(text: str) -> bool:
    return fold(text.strip()).startswith("expand")


def resolve_expansion(state: dict[str, Any], hexmap: HexMap, orders: dict[str, Any], dice: Dice
                      ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    s = copy.deepcopy(state)
    seat, r = s["players"], s["race_round"]
    budget = expansion_budget(s)
    before = dict(s["cash"])
    events: list[dict[str, Any]] = [{"kind": "expansion", "round": r, "budget": budget,
                                     "text": f"Expansion after race round {r}: each company may spend up to {budget}."}]
    s["nmr"] = [p for p in seat if orders.get(p) is None or orders[p].get("nmr")]
    ferry_owner = dict(s["ferries"])
    builders = turn_builders(s, hexmap, ferry_owner)
    links_before = {p: set(builders[p].links) for p in seat}
    cursors = {p: Cursor(builders[p], orders[p]["segments"], budget) for p in seat
               if orders.get(p) is not None and orders[p]["segments"]}
    events += run_round(cursors, seat, dice, s, hexmap, 1, ferry_owner)
    steps = {p: c.steps for p, c in cursors.items()}
    paid = build_payments(hexmap, seat, steps, links_before, {p: set() for p in seat}, company_names(s), 1)
    paid += [payment(p, BANK, cursors[p].pip, f"expansion: {count(cursors[p].pip, 'pip')} at 1 each", 1)
             for p in seat if p in cursors and cursors[p].pip]
    built: dict[str, list] = {p: [] for p in seat}
    paid += record_steps(s, steps, 1, built)
    events += [build_event(s, hexmap, p, 1, budget, cursors[p], paid, heading=f"expansion (budget {budget})")
               for p in seat if p in cursors]
    paid += arrivals(s, hexmap, seat, steps, dice, 1, events)
    events += pay_all(s, paid)
    s["ferries"] = {f.id: ferry_owner[f.id] for f in hexmap.ferries if f.id in ferry_owner}
    for p in seat:
        s["track"][p] += [list(link) for link in built[p]]  # no list shared with "built"
    s["built"] = built
    s["payments"] = paid
    s["operate_phase"] = "races"
    s["race_round"] = r + 1
    _check_unique(s)
    events.append(cash_event(s, before, paid))
    return s, events


def _check_unique(state: dict[str, Any]) -> None:
    for p in state["players"]:  # a link is a company's once, however often it was ordered
        seen, kept = set(), []
        for a, b in state["track"][p]:
            if link_key(a, b) not in seen:
                seen.add(link_key(a, b))
                kept.append([a, b])
        state["track"][p] = kept
