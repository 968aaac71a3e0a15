"""Which entries of a race round run, and the fees they pay before the races start.

Judged in this order: the race must be runnable; a joint run needs both partners to name each
other for the race (one train, the route of the partner first in seat order that gave one); an
exchange of running powers needs both to name each other, and the fees each pays the other may
differ by at most the cap. Then, in seat order, each company's entries in the order written are
paid from its cash at the start of the round; an entry the cash left cannot pay is refused. A joint
run is paid when its first partner's turn comes, each fee split in two (the odd 1 paid by that
partner), and refused if either cannot pay its share.
"""
from __future__ import annotations

from typing import Any

from ..money import fee_reason, fees_to, move_cash
from ..words import company_name


def accept_entries(state: dict[str, Any], orders: dict[str, Any], can_run: dict[int, bool], round_no: int
                   ) -> tuple[dict[str, dict], dict[int, list[dict]], list[dict], list[dict]]:
    """(entries record, trains per race id, fee payments, refusal events); changes cash in ``state``."""
    seat, cap = state["players"], state["options"]["fee_cap"]
    mine = {(p, e["race"]): e for p in seat for e in (orders.get(p) or {}).get("entries", [])}
    refused: dict[tuple[str, int], str] = {}
    for (p, race), e in mine.items():
        q, other = e.get("partner"), mine.get((e.get("partner"), race))
        if not can_run.get(race):
            refused[(p, race)] = "the race cannot be run this round"
        elif e.get("mode") == "joint":
            if other is None or other.get("mode") != "joint" or other.get("partner") != p:
                refused[(p, race)] = f"{company_name(state, q)} did not enter race {race} as a team with {company_name(state, p)}"
            elif e["route"] is None and other["route"] is None:
                refused[(p, race)] = "neither partner gave the route"
        elif e.get("mode") == "powers" and fees_to(e, q) > cap:
            if other is None or other.get("mode") != "powers" or other.get("partner") != p:
                refused[(p, race)] = (f"the fees to {company_name(state, q)} are {fees_to(e, q)}, over the cap of {cap}, and "
                                      f"{company_name(state, q)} did not exchange running powers in race {race}")
            elif abs(fees_to(e, q) - fees_to(other, p)) > cap:
                refused[(p, race)] = (f"running powers: {company_name(state, p)} would pay {fees_to(e, q)} and "
                                      f"{company_name(state, q)} {fees_to(other, p)}, a difference over {cap}")
    cash = {p: state["cash"][p] for p in seat}
    records: dict[str, dict] = {}
    trains: dict[int, list[dict]] = {}
    payments: list[dict] = []
    events: list[dict] = []

    def record(p: str, e: dict, route: list | None, fees: list, paid: int, reason: str | None,
               pips: int | None = None) -> None:
        records.setdefault(str(e["race"]), {})[p] = {
            "route": [x["hex"] for x in route] if route else None, "pips": e["pips"] if pips is None else pips,
            "fees": fees, "paid": paid,
            "refused": reason, "mode": e.get("mode"), "partner": e.get("partner")}
        if reason:
            events.append({"kind": "refused", "player": p, "race": e["race"],
                           "text": f"{company_name(state, p)}'s entry in race {e['race']} is refused: {reason}."})

    for p in seat:
        for e in (orders.get(p) or {}).get("entries", []):
            race, q = e["race"], e.get("partner")
            if e.get("mode") == "joint" and not refused.get((p, race)) and seat.index(q) < seat.index(p):
                continue  # paid with the first partner's entry
            if e.get("mode") == "joint" and not refused.get((p, race)):
                other = mine[(q, race)]
                giver = e if e["route"] is not None else other
                shares = {p: [], q: []}
                for f in giver["fees"]:
                    half = f["amount"] // 2
                    shares[p].append({**f, "amount": f["amount"] - half})
                    shares[q].append({**f, "amount": half})
                owe = {x: sum(f["amount"] for f in shares[x]) for x in (p, q)}
                short = next((x for x in (p, q) if owe[x] > cash[x]), None)
                reason = None if short is None else (
                    f"{company_name(state, short)}'s share of the fees is {owe[short]} but only {max(cash[short], 0)} "
                    f"cash is left to pay it")
                for x in (p, q):
                    x_entry = e if x == p else other
                    record(x, x_entry, giver["route"], giver["fees"], 0 if reason else owe[x], reason, giver["pips"])
                if reason:
                    continue
                for x in (p, q):
                    cash[x] -= owe[x]
                    state["races_entered"][x] += 1
                    payments += [{"from": x, "to": f["to"], "amount": f["amount"], "round": round_no, "hex": None,
                                  "reason": fee_reason(state, f, race, f" (share of the joint run with "
                                                                        f"{company_name(state, q if x == p else p)})")}
                                 for f in shares[x] if f["amount"]]
                trains.setdefault(race, []).append({"player": f"{p}+{q}", "team": [p, q], "route": giver["route"]})
                continue
            fee = sum(f["amount"] for f in e["fees"])
            reason = refused.get((p, race))
            if reason is None and fee > cash[p]:
                reason = f"the fees are {fee} but only {max(cash[p], 0)} cash is left to pay them"
            record(p, e, e["route"], e["fees"], 0 if reason else fee, reason)
            if reason:
                continue
            cash[p] -= fee
            state["races_entered"][p] += 1
            payments += [{"from": p, "to": f["to"], "amount": f["amount"], "round": round_no, "hex": None,
                          "reason": fee_reason(state, f, race)} for f in e["fees"]]
            trains.setdefault(race, []).append({"player": p, "team": None, "route": e["route"]})
    for pay in payments:
        move_cash(state, pay)
    return records, trains, payments, events
