"""The money rules, written once for both stages: cash moves, payments and their one event shape,
overdraft interest.

A payment is plain data ``{"from", "to", "amount", "reason", "round", "hex"}`` where ``from`` and
``to`` are player ids or ``BANK``; the state's ``payments`` list keeps that shape. A payment's event
names its two sides ``payer`` and ``payee`` (an event's ``to`` says who may read it, see
gm/games/base.py).
"""
from __future__ import annotations

from typing import Any

BANK = "bank"


def company_name(state: dict[str, Any], player: str) -> str:
    return state["companies"][player]["name"]


def move_cash(state: dict[str, Any], pay: dict[str, Any]) -> None:
    """Carry out one payment on the state's cash (the bank has no cash of its own)."""
    if pay["from"] != BANK:
        state["cash"][pay["from"]] -= pay["amount"]
    if pay["to"] != BANK:
        state["cash"][pay["to"]] += pay["amount"]


def payment(payer: str, payee: str, amount: int, reason: str, round_no: int = 0,
            where: str | None = None) -> dict[str, Any]:
    return {"from": payer, "to": payee, "amount": amount, "reason": reason, "round": round_no, "hex": where}


def payment_event(state: dict[str, Any], pay: dict[str, Any]) -> dict[str, Any]:
    """The one event of a payment: 'Great Western pays the bank 6: ferry F1 built (round 1).'
    (the build round is named in the building stage; in the operating stage the reason says when)."""
    payer = "The bank" if pay["from"] == BANK else company_name(state, pay["from"])
    payee = "the bank" if pay["to"] == BANK else company_name(state, pay["to"])
    when = f" (round {pay['round']})" if pay.get("round") and state["stage"] == "build" else ""
    return {"kind": "payment", "payer": pay["from"], "payee": pay["to"], "amount": pay["amount"],
            "reason": pay["reason"], "round": pay.get("round") or 0, "hex": pay.get("hex"),
            "text": f"{payer} pays {payee} {pay['amount']}: {pay['reason']}{when}."}


def pay_all(state: dict[str, Any], payments: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Carry out ``payments`` in order; their events."""
    events = []
    for pay in payments:
        move_cash(state, pay)
        events.append(payment_event(state, pay))
    return events


def overdraft_interest(state: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Interest on every overdraft, taken at the start of a turn in either stage (changes cash):
    (payments, events). The interest is ``interest_percent`` of the overdraft, rounded up."""
    percent = state["options"]["interest_percent"]
    payments, events = [], []
    for p in state["players"]:
        owed = -state["cash"][p]
        interest = -(-owed * percent // 100) if owed > 0 else 0
        if not interest:
            continue
        pay = payment(p, BANK, interest, f"interest: {percent}% of the overdraft of {owed}, rounded up")
        move_cash(state, pay)
        payments.append(pay)
        events.append({"kind": "interest", "player": p, "amount": interest, "before": -owed,
                       "after": state["cash"][p],
                       "text": f"{company_name(state, p)} pays {interest} interest on an overdraft of {owed}: "
                               f"cash now {state['cash'][p]}."})
    return payments, events
