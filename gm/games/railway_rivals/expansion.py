"""Network expansion after a race round: one round of building, paid in cash, with the build code.

Orders: `expand: (2522) 2523 "Helm's Deep"; (2522) 2924` (one or more lines). Each pip costs 1
cash and a company builds at most the round's budget in pips; payments to rivals, ferries and the
first-arrival bonus work as in a build round (all companies build at the same time).
"""
from __future__ import annotations

import copy
import re
from typing import Any

from gm.dice import Dice
from gm.errors import IllegalOrderError, OrderError
from gm.hexmap.model import HexMap
from gm.names import fold, suggestion
from gm.orders import OrderLine

from .build import _arrivals, _build_event, _run_round
from .company import Builder, track_links
from .links import link_key
from .money import BANK, pay_all
from .operate import _cash_event, expansion_budget
from .orders import _Round
from .payments import round_payments
from .rounds import Cursor

_EXPAND = re.compile(r"expand\s*:", re.IGNORECASE)
EXAMPLE = "expand: (2522) 2523 \"Helm's Deep\""


def read_expansion(state: dict[str, Any], hexmap: HexMap, player: str, lines: list[OrderLine], file: str = ""
                   ) -> tuple[dict[str, Any], list[OrderError]]:
    errors: list[OrderError] = []
    segments: list[dict[str, Any]] = []
    for line in lines:
        header = _EXPAND.match(line.text)
        if not header:
            first = line.text.split()[0] if line.text.split() else line.text
            errors.append(line.syntax(f"expected '{EXAMPLE}' (this turn is the expansion after race round "
                                      f"{state['race_round']}), not {first!r}"
                                      f"{suggestion(first.rstrip(':'), ['expand'])}"))
            continue
        segments += _Round(hexmap, state["companies"], line, header.end(), errors).read(line.text[header.end():])
    orders = {"segments": segments, "notes": []}
    budget = expansion_budget(state)
    rivals = {p: track_links(state, p) for p in state["players"] if p != player}
    builder = Builder(hexmap, state, player, ferry_owner=dict(state["ferries"]), rival_links=rivals)
    cursor = Cursor(builder, segments, budget, lenient=True)
    while not cursor.done:
        cursor.run()
    for stop in cursor.stops:
        if stop["hex"] is not None or stop["kind"] != "start":
            errors.append(IllegalOrderError(stop["reason"], line=stop["line"], col=stop["col"], file=file))
    if cursor.overrun:
        errors.append(IllegalOrderError(f"the expansion builds {cursor.pip} pips but the budget is {budget}: "
                                        f"{cursor.overrun['message']}", line=cursor.overrun["line"],
                                        col=cursor.overrun["col"], file=file))
    names = {p: c["name"] for p, c in state["companies"].items()}
    paid = round_payments(hexmap, [player] + list(rivals), {player: cursor.steps},
                          {player: track_links(state, player), **rivals}, {p: set() for p in state["players"]},
                          names, 1)
    ferries = sum(step.get("cost", 0) for step in cursor.steps)
    orders["notes"].append(f"expansion: {cursor.pip} of {budget} pips (cost {cursor.pip}), "
                           f"{sum(p['amount'] for p in paid)} to rivals, {ferries} for ferries; "
                           f"cash {state['cash'][player]}")
    return orders, errors


def is_expansion_text(text: str) -> bool:
    return fold(text.strip()).startswith("expand")


def resolve_expansion(state: dict[str, Any], hexmap: HexMap, orders: dict[str, Any], dice: Dice
                      ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    s = copy.deepcopy(state)
    seat, r = s["players"], s["race_round"]
    budget = expansion_budget(s)
    events: list[dict[str, Any]] = [{"kind": "expansion", "round": r, "budget": budget,
                                     "text": f"Expansion after race round {r}: up to {budget} pips each."}]
    s["nmr"] = [p for p in seat if orders.get(p) is None or orders[p].get("nmr")]
    rivals_at_start = {p: track_links(s, p) for p in seat}
    ferry_owner = dict(s["ferries"])
    builders = {p: Builder(hexmap, s, p, ferry_owner=ferry_owner,
                           rival_links={q: v for q, v in rivals_at_start.items() if q != p}) for p in seat}
    links_before = {p: set(builders[p].links) for p in seat}
    cursors = {p: Cursor(builders[p], orders[p]["segments"], budget) for p in seat
               if orders.get(p) is not None and orders[p]["segments"]}
    events += _run_round(cursors, seat, dice, s, hexmap, 1, ferry_owner)
    steps = {p: c.steps for p, c in cursors.items()}
    names = {p: c["name"] for p, c in s["companies"].items()}
    paid = round_payments(hexmap, seat, steps, links_before, {p: set() for p in seat}, names, 1)
    for p in seat:
        if p not in cursors:
            continue
        if cursors[p].pip:
            paid.append({"from": p, "to": BANK, "amount": cursors[p].pip, "round": 1, "hex": None,
                         "reason": f"expansion: {cursors[p].pip} pip(s) at 1 each"})
        for step in steps[p]:
            if step["kind"] == "build":
                s["track"][p].append([step["from"], step["to"]])
            if step["kind"] == "ferry":
                paid.append({"from": p, "to": BANK, "amount": step["cost"], "round": 1, "hex": step["from"],
                             "reason": f"ferry {step['ferry']} built"})
        event = _build_event(s, hexmap, p, 1, budget, cursors[p], paid)
        event["text"] = event["text"].replace(f"round 1 (die {budget})", f"expansion (budget {budget})", 1)
        events.append(event)
    paid += _arrivals(s, hexmap, seat, steps, dice, 1, events)
    events += pay_all(s, paid)
    s["ferries"] = {f.id: ferry_owner[f.id] for f in hexmap.ferries if f.id in ferry_owner}
    s["built"] = {p: [[x["from"], x["to"]] for x in steps.get(p, []) if x["kind"] == "build"] for p in seat}
    s["payments"] = paid
    s["operate_phase"] = "races"
    s["race_round"] = r + 1
    _check_unique(s)
    events.append(_cash_event(s, paid))
    return s, events


def _check_unique(state: dict[str, Any]) -> None:
    for p in state["players"]:  # a link is a company's once, however often it was ordered
        seen, kept = set(), []
        for a, b in state["track"][p]:
            if link_key(a, b) not in seen:
                seen.add(link_key(a, b))
                kept.append([a, b])
        state["track"][p] = kept
