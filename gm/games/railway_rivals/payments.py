"""What a company pays its rivals for the track it built in one round.

Entering a hex (other than a town) where a rival's track already is costs 1 to that rival: a
junction or a crossing. Building a link a rival already has costs 2 more per half hex of it that is
not in a town: running parallel. Track the rival built in an earlier round of this turn halves the
parallel charge (rounded up, per half hex) but not the junction; track built in the same round
costs nothing. A company whose own network already reached the hex pays no junction there again.
"""
from __future__ import annotations

from typing import Any

from gm.hexmap.model import HexMap

from .links import link_key

JUNCTION = 1
PARALLEL_PER_HALF_HEX = 2


def half_price(amount: int) -> int:
    return -(-amount // 2)


def round_payments(hexmap: HexMap, seat: list[str], steps: dict[str, list[dict[str, Any]]],
                   links_before: dict[str, set], links_this_turn: dict[str, set], names: dict[str, str],
                   round_no: int) -> list[dict[str, Any]]:
    """Payments for every company's ``steps`` of round ``round_no``, in seat and build order.

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
                    out.append(_payment(payer, rival, JUNCTION, f"{what} at {b}", round_no, b))
                if step["kind"] != "build" or link_key(a, b) not in links_before[rival]:
                    continue
                halves = (a not in towns) + (b not in towns)
                if not halves:
                    continue
                earlier = link_key(a, b) in links_this_turn[rival]
                per = half_price(PARALLEL_PER_HALF_HEX) if earlier else PARALLEL_PER_HALF_HEX
                when = f", half price as {names.get(rival, rival)} built it earlier this turn" if earlier else ""
                half_word = "half hex" if halves == 1 else "half hexes"
                out.append(_payment(payer, rival, per * halves,
                                    f"parallel track {a}-{b} ({halves} {half_word}{when})", round_no, b))
    return out


def _payment(payer: str, payee: str, amount: int, reason: str, round_no: int, where: str) -> dict[str, Any]:
    return {"from": payer, "to": payee, "amount": amount, "reason": reason, "round": round_no, "hex": where}
