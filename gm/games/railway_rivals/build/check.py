"""The order checker: the builds read from the order lines, tried against the state of the turn.

The checker knows the three dice (they are published before the turn), the company's own track
and the rivals' track as it stands at the start of the turn. Every rule an order breaks is reported
with its line and column; the notes say per round the pips used against the die and the cash the
builds will cost if the rivals build nothing in the way.
"""
from __future__ import annotations

from typing import Any

from gm.store.errors import IllegalOrderError, OrderError
from gm.store.names import fold

from ..money import build_payments
from ..palette import COLOURS
from ..words import company_names, count
from .company import planning_builder
from .rounds import Cursor


def check_orders(state: dict[str, Any], hexmap, player: str, orders: dict[str, Any],
                 file: str = "") -> tuple[list[OrderError], list[str]]:
    """(errors, notes) for ``orders`` read from one player's file."""
    errors: list[OrderError] = []
    notes: list[str] = []
    names = company_names(state)

    def err(message: str, line: int, col: int) -> None:
        errors.append(IllegalOrderError(message, line=line, col=col, file=file))

    errors += company_problems(state, player, orders.get("company"), file)
    builder, rivals = planning_builder(state, hexmap, player)
    builder.uncertain = bool(orders.get("unread"))  # a round line that could not be read builds who knows what
    built_this_turn: set = set()
    cash_total = 0
    reached: list[str] = []
    for index, (segments, die) in enumerate(zip(orders["rounds"], state["build_dice"])):
        round_no = index + 1
        before = set(builder.links)
        cursor = Cursor(builder, segments, die, lenient=True).run_all()
        errors += cursor.stop_errors(file)
        if cursor.overrun:
            err(f"round {round_no} builds {count(cursor.pip, 'pip')} but its die is {die}: {cursor.overrun['message']}",
                cursor.overrun["line"], cursor.overrun["col"])
        total = orders["totals"][index]
        if total is not None and total["value"] != cursor.pip:
            err(f"'total {total['value']}' but the builds of round {round_no} cost {count(cursor.pip, 'pip')}",
                total["line"], total["col"])
        # what the builds would cost against the rivals' track as it stands now
        paid = build_payments(hexmap, [player] + list(rivals), {player: cursor.steps},
                              {player: before, **rivals}, {player: built_this_turn, **{p: set() for p in rivals}},
                              names, round_no)
        built_this_turn |= builder.links - before
        for step in cursor.steps:
            town = hexmap.town_at.get(step["to"])
            if town and step["new_hex"] and not state["towns_reached"].get(str(town.number)) \
                    and town.name not in reached:
                reached.append(town.name)
        ferries = sum(step.get("cost", 0) for step in cursor.steps)
        cost = sum(p["amount"] for p in paid) + ferries
        cash_total += cost
        if segments or total is not None:
            detail = "; ".join(f"{p['amount']} to {names[p['to']]} ({p['reason']})" for p in paid)
            if ferries:
                detail = "; ".join(x for x in (detail, f"{ferries} for ferries") if x)
            notes.append(f"round {round_no}: {cursor.pip} of {die} pip{'s' if die > 1 else ''}"
                         + (f", {die - cursor.pip} unused" if cursor.pip < die else "")
                         + (f"; pays {cost}: {detail}" if cost else "; pays nothing"))
    if not any(orders["rounds"]):
        pips = sum(state["build_dice"])
        notes.append(f"you build nothing this turn: all {count(pips, 'pip')} of the three rounds are lost")
        return errors, notes
    notes.append(f"cash {state['cash'][player]}, builds cost at least {cash_total} (more if rivals build "
                 f"in the way this turn)" + (f"; first to reach {', '.join(reached)} if no rival gets there "
                                             f"first (+{state['options']['town_bonus']} each)" if reached else ""))
    return errors, notes


def company_problems(state: dict[str, Any], player: str, company: dict[str, Any] | None,
                     file: str) -> list[OrderError]:
    """A new name or colour another company already has."""
    errors: list[OrderError] = []
    names = company_names(state)

    def err(message: str, line: int, col: int) -> None:
        errors.append(IllegalOrderError(message, line=line, col=col, file=file))

    if company and company.get("colour"):
        taken = [p for p, c in state["companies"].items() if p != player and c["colour"] == company["colour"]]
        if taken:
            free = [c for c in COLOURS if c not in {x["colour"] for x in state["companies"].values()}]
            err(f"{company['colour']} is {names[taken[0]]}'s colour; free colours: {', '.join(free)}",
                company["line"], company["col"])
    if company and company.get("name"):
        clash = [p for p, c in state["companies"].items() if p != player and fold(c["name"]) == fold(company["name"])]
        if clash:
            err(f"{names[clash[0]]} is already the name of a rival's company", company["line"], company["col"])
    return errors
