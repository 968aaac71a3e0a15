"""Which entries of a race round run, and the fees they pay before the races start.

Judged in this order: the race must be runnable; a joint run needs both partners to name each
other for the race (one train, the route of the partner first in seat order that gave one); an
exchange of running powers needs both to name each other, and the fees each pays the other may
differ by at most the cap. Then, in seat order, each company's entries in the order written are
paid from its cash at the start of the round; an entry whose fees the cash left cannot pay is
refused (an entry that costs nothing never is). A joint run is paid when its first partner's turn
comes, each fee split in two (the odd 1 paid by that partner), and refused if either partner cannot
pay its share. When one side of an exchange of running powers is refused, the other side is judged
again as if it stood alone (its fees over the cap are then refused too), and the round's payments
are worked out again from the start, until nothing changes.
"""
from __future__ import annotations

from typing import Any

from ..money import fee_reason, fees_to, move_cash, payment
from ..words import company_name

Key = tuple[str, int]  # (player, race id)


def accept_entries(state: dict[str, Any], orders: dict[str, Any], can_run: dict[int, bool], round_no: int
                   ) -> tuple[dict[str, dict], dict[int, list[dict]], list[dict], list[dict]]:
    """(entries record, trains per race id, fee payments, refusal events); changes cash in ``state``."""
    seat, cap = state["players"], state["options"]["fee_cap"]
    mine = {(p, e["race"]): e for p in seat for e in (orders.get(p) or {}).get("entries", [])}
    refused = _partner_refusals(state, mine, can_run, cap)
    while True:
        paying = _Paying(state, mine, refused, round_no)
        alone = _powers_left_alone(state, mine, paying.refused, cap)
        if not alone:
            break
        refused.update(alone)
    for pay in paying.payments:
        move_cash(state, pay)
    for p in paying.entered:
        state["races_entered"][p] += 1
    return paying.records, paying.trains, paying.payments, paying.events


def _partner_refusals(state: dict[str, Any], mine: dict[Key, dict], can_run: dict[int, bool],
                      cap: int) -> dict[Key, str]:
    """The refusals that do not depend on cash: unrunnable races, partners who did not answer."""
    name = lambda p: company_name(state, p)  # noqa: E731
    refused: dict[Key, str] = {}
    for (p, race), e in mine.items():
        q, other = e.get("partner"), mine.get((e.get("partner"), race))
        if not can_run.get(race):
            refused[(p, race)] = "the race cannot be run this round"
        elif e.get("mode") == "joint":
            if other is None or other.get("mode") != "joint" or other.get("partner") != p:
                refused[(p, race)] = f"{name(q)} did not enter race {race} as a team with {name(p)}"
            elif e["route"] is None and other["route"] is None:
                refused[(p, race)] = "neither partner gave the route"
        elif e.get("mode") == "powers" and fees_to(e, q) > cap:
            if other is None or other.get("mode") != "powers" or other.get("partner") != p:
                refused[(p, race)] = (f"the fees to {name(q)} are {fees_to(e, q)}, over the cap of {cap}, and "
                                      f"{name(q)} did not exchange running powers in race {race}")
            elif abs(fees_to(e, q) - fees_to(other, p)) > cap:
                refused[(p, race)] = (f"running powers: {name(p)} would pay {fees_to(e, q)} and "
                                      f"{name(q)} {fees_to(other, p)}, a difference over {cap}")
    return refused


def _powers_left_alone(state: dict[str, Any], mine: dict[Key, dict], refused: dict[Key, str],
                       cap: int) -> dict[Key, str]:
    """Accepted entries over the cap to a partner whose side of the exchange was refused: the partner
    pays nothing, so the difference is the whole fee."""
    out = {}
    for (p, race), e in mine.items():
        q = e.get("partner")
        if e.get("mode") != "powers" or (p, race) in refused or fees_to(e, q) <= cap:
            continue
        if (q, race) in refused:
            out[(p, race)] = (f"running powers: {company_name(state, q)}'s entry in race {race} is refused and "
                              f"pays nothing, so the fees of {fees_to(e, q)} to {company_name(state, q)} are "
                              f"over the cap of {cap}")
    return out


class _Paying:
    """One pass over the round's entries in seat order, paying from a copy of the cash."""

    def __init__(self, state: dict[str, Any], mine: dict[Key, dict], refused: dict[Key, str], round_no: int):
        self.state, self.mine, self.round_no = state, mine, round_no
        self.refused = dict(refused)
        self.cash = dict(state["cash"])
        self.records: dict[str, dict] = {}
        self.trains: dict[int, list[dict]] = {}
        self.payments: list[dict] = []
        self.events: list[dict] = []
        self.entered: list[str] = []
        seat = state["players"]
        for p in seat:
            for (who, race), e in mine.items():
                if who != p:
                    continue
                q = e.get("partner")
                if e.get("mode") == "joint" and (p, race) not in self.refused:
                    if seat.index(q) > seat.index(p):  # paid with the first partner's entry
                        self.joint(p, q, race)
                    continue
                self.single(p, e)

    def record(self, p: str, e: dict, route: list | None, fees: list, paid: int, reason: str | None,
               pips: int) -> None:
        self.records.setdefault(str(e["race"]), {})[p] = {
            "route": [x["hex"] for x in route] if route else None, "pips": pips, "fees": fees, "paid": paid,
            "refused": reason, "mode": e.get("mode"), "partner": e.get("partner")}
        if reason:
            self.refused[(p, e["race"])] = reason
            self.events.append({"kind": "refused", "player": p, "race": e["race"],
                                "text": f"{company_name(self.state, p)}'s entry in race {e['race']} is refused: "
                                        f"{reason}."})

    def single(self, p: str, e: dict) -> None:
        fee = sum(f["amount"] for f in e["fees"])
        reason = self.refused.get((p, e["race"]))
        if reason is None and fee > 0 and fee > self.cash[p]:  # an entry that costs nothing is never refused
            reason = f"the fees are {fee} but only {max(self.cash[p], 0)} cash is left to pay them"
        self.record(p, e, e["route"], e["fees"], 0 if reason else fee, reason, e["pips"])
        if reason:
            return
        self.cash[p] -= fee
        self.entered.append(p)
        self.payments += [payment(p, f["to"], f["amount"], fee_reason(self.state, f, e["race"]), self.round_no)
                          for f in e["fees"] if f["amount"]]
        self.trains.setdefault(e["race"], []).append({"player": p, "team": None, "route": e["route"]})

    def joint(self, p: str, q: str, race: int) -> None:
        e, other = self.mine[(p, race)], self.mine[(q, race)]
        giver = e if e["route"] is not None else other
        shares: dict[str, list] = {p: [], q: []}
        for f in giver["fees"]:  # each fee in two, the odd 1 paid by the first partner
            shares[p].append({**f, "amount": f["amount"] - f["amount"] // 2})
            shares[q].append({**f, "amount": f["amount"] // 2})
        owe = {x: sum(f["amount"] for f in shares[x]) for x in (p, q)}
        short = next((x for x in (p, q) if owe[x] > 0 and owe[x] > self.cash[x]), None)
        reason = None if short is None else (
            f"{company_name(self.state, short)}'s share of the fees is {owe[short]} but only "
            f"{max(self.cash[short], 0)} cash is left to pay it")
        for x, x_entry in ((p, e), (q, other)):
            self.record(x, x_entry, giver["route"], giver["fees"], 0 if reason else owe[x], reason, giver["pips"])
        if reason:
            return
        for x, partner in ((p, q), (q, p)):
            self.cash[x] -= owe[x]
            self.entered.append(x)
            share = f" (share of the joint run with {company_name(self.state, partner)})"
            self.payments += [payment(x, f["to"], f["amount"], fee_reason(self.state, f, race, share), self.round_no)
                              for f in shares[x] if f["amount"]]
        self.trains.setdefault(race, []).append({"player": f"{p}+{q}", "team": [p, q], "route": giver["route"]})
