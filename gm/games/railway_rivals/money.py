"""The money rules, written once for both stages: cash moves, payments and their one event shape,
overdraft interest, what building next to rivals costs, race fees and prizes, the cash table.

A payment is plain data ``{"from", "to", "amount", "reason", "round", "hex"}`` where ``from`` and
``to`` are player ids or ``BANK``; the state's ``payments`` list keeps that shape. A payment's event
names its two sides ``payer`` and ``payee`` (an event's ``to`` says who may read it, see
gm/games/base.py).
"""
from __future__ import annotations

from typing import Any, Protocol

from gm.hexmap.model import HexMap

from .links import link_key
from .mapdata import country_fee, ferry_use_fee
from .words import company_name, count


class Network(Protocol):
    """What race fees read of the track on the map (operate/network.py builds it): who owns each
    link and ferry, and which links are a foreign country's."""
    hexmap: HexMap
    owners: dict[tuple[str, str], list[str]]
    ferries: dict[str, str]
    foreign: dict[tuple[str, str], str]


BANK = "bank"
JUNCTION = 1                # entering a hex (not a town) where a rival's track is
PARALLEL_PER_HALF_HEX = 2   # building a link a rival already has, per half hex not in a town


# ---- cash and payments ----------------------------------------------------------------------------
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
            "reason": pay["reason"], "round": (pay.get("round") or 0) if state["stage"] == "build" else 0,
            "hex": pay.get("hex"),
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


def cash_event(state: dict[str, Any], before: dict[str, int], payments: list[dict[str, Any]]) -> dict[str, Any]:
    """The turn's cash table, the same in both stages: per company the cash at the start, interest,
    paid to and received from rivals, received from and paid to the bank, and the cash now."""
    rows = []
    for p in state["players"]:
        out = [x for x in payments if x["from"] == p]
        into = [x for x in payments if x["to"] == p]
        interest = sum(x["amount"] for x in out if x["reason"].startswith("interest"))
        rows.append({
            "player": p, "name": company_name(state, p), "colour": state["companies"][p]["colour"],
            "before": before[p], "interest": interest,
            "paid": sum(x["amount"] for x in out if x["to"] != BANK),
            "received": sum(x["amount"] for x in into if x["from"] != BANK),
            "from_bank": sum(x["amount"] for x in into if x["from"] == BANK),
            "to_bank": sum(x["amount"] for x in out if x["to"] == BANK) - interest,
            "after": state["cash"][p],
        })
    return {"kind": "cash", "rows": rows,
            "text": "Cash: " + ", ".join(f"{r['name']} {r['after']}" for r in rows) + "."}


# ---- building next to rivals --------------------------------------------------------------------
def half_price(amount: int) -> int:
    return -(-amount // 2)


def build_payments(hexmap: HexMap, seat: list[str], steps: dict[str, list[dict[str, Any]]],
                   links_before: dict[str, set], links_this_turn: dict[str, set], names: dict[str, str],
                   round_no: int) -> list[dict[str, Any]]:
    """What every company pays its rivals for its ``steps`` of one round, in seat and build order.

    Entering a hex (other than a town) where a rival's track already is costs 1 to that rival: a
    junction or a crossing. Building a link a rival already has costs 2 more per half hex of it not
    in a town: running parallel. Track the rival built in an earlier round of this turn halves the
    parallel charge (rounded up) but not the junction; track built in the same round costs nothing.
    ``links_before`` is each company's track at the start of the round; ``links_this_turn`` the part
    of it built in earlier rounds of this turn.
    """
    hexes_before = {p: {h for link in links for h in link} for p, links in links_before.items()}
    towns = hexmap.town_at
    out: list[dict[str, Any]] = []
    for payer in seat:
        for step in steps.get(payer, []):
            a, b = step["from"], step["to"]
            for rival in seat:
                if rival == payer:
                    continue
                if step["new_hex"] and b not in towns and b in hexes_before[rival]:
                    what = "end of a leap" if step["kind"] == "leap" else (
                        "ferry landing" if step["kind"].startswith("ferry") else "junction")
                    out.append(payment(payer, rival, JUNCTION, f"{what} at {b}", round_no, b))
                if step["kind"] != "build" or link_key(a, b) not in links_before[rival]:
                    continue
                halves = (a not in towns) + (b not in towns)
                if not halves:
                    continue
                earlier = link_key(a, b) in links_this_turn[rival]
                per = half_price(PARALLEL_PER_HALF_HEX) if earlier else PARALLEL_PER_HALF_HEX
                when = f", half price as {names.get(rival, rival)} built it earlier this turn" if earlier else ""
                out.append(payment(payer, rival, per * halves,
                                   f"parallel track {a}-{b} ({count(halves, 'half hex')}{when})", round_no, b))
    return out


# ---- races: fees and prizes ---------------------------------------------------------------------
def route_fees(net: Network, player: str, route: list[dict[str, Any]], seat: list[str],
               team: list[str] | None = None) -> list[dict[str, Any]]:
    """What a race route costs, one row per payee: 1 a hex of a rival's track (to that rival), the
    country's fee a hex of a foreign permitted route (to the bank), a rival's ferry its use fee. A
    link several rivals share is paid to the one owed least so far (then in seat order), which keeps
    entries under the cap where that is possible. A team's train runs over both partners' track free."""
    own = set(team or [player])
    rivals: dict[str, int] = {}
    countries: dict[str, int] = {}
    ferries: dict[str, int] = {}
    for prev, step in zip(route, route[1:]):
        if step["kind"] == "ferry":
            owner = net.ferries.get(step["ferry"])
            if owner and owner not in own:
                ferries[owner] = ferries.get(owner, 0) + ferry_use_fee(net.hexmap.ferry(step["ferry"]))
            continue
        key = link_key(prev["hex"], step["hex"])
        owners = net.owners.get(key, [])
        if own & set(owners):
            continue
        if owners:
            payee = min(owners, key=lambda q: (rivals.get(q, 0), seat.index(q)))
            rivals[payee] = rivals.get(payee, 0) + 1
        elif key in net.foreign:
            countries[net.foreign[key]] = countries.get(net.foreign[key], 0) + 1
    fees = [{"to": q, "amount": rivals.get(q, 0) + ferries.get(q, 0), "hexes": rivals.get(q, 0),
             "ferry": ferries.get(q, 0)} for q in seat if q in rivals or q in ferries]
    for country, hexes in sorted(countries.items()):
        fees.append({"to": BANK, "country": country, "amount": hexes * country_fee(net.hexmap, country),
                     "hexes": hexes, "ferry": 0})
    return fees


def fees_to(entry: dict[str, Any], payee: str) -> int:
    """What an entry's fees pay ``payee``."""
    return sum(f["amount"] for f in entry["fees"] if f["to"] == payee)


def fee_reason(state: dict[str, Any], fee: dict[str, Any], race_id: int, share: str = "") -> str:
    """'fees in race 3: 2 hexes of Great Western's track and Great Western's ferry'."""
    if fee.get("country"):
        what = f"{count(fee['hexes'], 'hex')} of {fee['country']}'s permitted routes"
    else:
        parts = []
        if fee["hexes"]:
            parts.append(f"{count(fee['hexes'], 'hex')} of {company_name(state, fee['to'])}'s track")
        if fee["ferry"]:
            parts.append(f"{company_name(state, fee['to'])}'s ferry")
        what = " and ".join(parts)
    return f"fees in race {race_id}: {what}{share}"


def prizes(finishers: list[dict[str, Any]], options: dict[str, Any], special: bool) -> dict[str, int]:
    """What each finisher wins. A tie for first pays each the tie prize and nobody is runner-up;
    runners-up tied share the runner-up prize, rounded up. Special runs pay double."""
    factor = 2 if special else 1
    firsts = [f["player"] for f in finishers if f["place"] == 1]
    won = {f["player"]: 0 for f in finishers}
    if not firsts:
        return won
    if len(firsts) > 1:
        for p in firsts:
            won[p] = options["tie_prize"] * factor
        return won
    won[firsts[0]] = options["winner_prize"] * factor
    second = [f["player"] for f in finishers if f["place"] == 2]
    for p in second:
        won[p] = -(-options["runner_up_prize"] // len(second)) * factor
    return won


def prize_payments(race: dict[str, Any], finishers: list[dict[str, Any]], round_no: int) -> list[dict[str, Any]]:
    """The bank's payments of a race's winnings (``winnings`` set on each finisher): a team shares
    equally, the odd 1 to the first partner."""
    out = []
    for f in finishers:
        members = f.get("team") or [f["player"]]
        tied = sum(x["place"] == f["place"] for x in finishers) > 1
        for n, m in enumerate(members):
            share = f["winnings"] // len(members) + (1 if n < f["winnings"] % len(members) else 0)
            if share:
                reason = (f"{'first' if f['place'] == 1 else 'runner-up'}{' (tie)' if tied else ''} in race "
                          f"{race['id']}" + (" (special run: double)" if race["special"] else "")
                          + (" (share of the joint run)" if len(members) > 1 else ""))
                out.append(payment(BANK, m, share, reason, round_no))
    return out


__all__ = ["BANK", "JUNCTION", "PARALLEL_PER_HALF_HEX", "build_payments", "cash_event", "fee_reason",
           "fees_to", "half_price", "move_cash", "overdraft_interest", "pay_all", "payment", "payment_event",
           "prize_payments", "prizes", "route_fees"]
