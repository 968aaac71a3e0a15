"""Resolving one build turn: interest, then three rounds of simultaneous building.

In each round every company's orders are carried out in pip order (a contested ferry goes to the
company that reaches it first), then the round's payments to rivals are worked out against the
track as it stood before the round, and the first arrivals at towns are paid. The dice of the next
turn are rolled first (DESIGN.md), tie-break rolls after them.
"""
from __future__ import annotations

import copy
from typing import Any

from gm.store.dice import Dice
from gm.hexmap.model import HexMap
from gm.store.names import fold

from gm.games.base import player_ref
from ..mapdata import foreign_fee
from ..money import BANK, build_payments, cash_event, overdraft_interest, pay_all, payment
from ..state import ROUNDS, roll_build_dice
from ..words import company_name, company_names, count
from .company import Builder, track_links
from ..links import link_key
from .rounds import Cursor
from .ties import tie_order


def resolve_turn(state: dict[str, Any], hexmap: HexMap, orders: dict[str, Any], dice: Dice
                 ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    s = copy.deepcopy(state)
    turn, dice_now = s["build_turn"], list(s["build_dice"])
    last = turn >= s["build_turns"]
    next_dice = [] if last else roll_build_dice(dice, turn + 1)
    seat = list(s["players"])
    cash_before = dict(s["cash"])
    events: list[dict[str, Any]] = [{
        "kind": "dice", "turn": turn, "dice": dice_now,
        "text": f"Build turn {turn} of {s['build_turns']}: the dice are {', '.join(map(str, dice_now))}."}]
    payments, interest_events = overdraft_interest(s)  # before anything is built
    events += interest_events
    s["nmr"] = [p for p in seat if orders.get(p) is None or orders[p].get("nmr")]
    for p in s["nmr"]:
        if orders.get(p) is not None:
            events.append({"kind": "default_build", "player": p,
                           "text": f"{company_name(s, p)} sent no orders: a default build was made for them."})
    events += _company_changes(s, orders)

    ferry_owner = dict(s["ferries"])
    builders = turn_builders(s, hexmap, ferry_owner)
    built_this_turn: dict[str, set] = {p: set() for p in seat}
    built: dict[str, list[list[str]]] = {p: [] for p in seat}
    for r in range(ROUNDS):
        round_no, die = r + 1, dice_now[r]
        links_before = {p: set(builders[p].links) for p in seat}
        cursors = {p: Cursor(builders[p], orders[p]["rounds"][r], die) for p in seat
                   if orders.get(p) is not None and orders[p]["rounds"][r]}
        events += run_round(cursors, seat, dice, s, hexmap, round_no, ferry_owner)
        steps = {p: c.steps for p, c in cursors.items()}
        paid = build_payments(hexmap, seat, steps, links_before, built_this_turn, company_names(s), round_no)
        paid += record_steps(s, steps, round_no, built, built_this_turn)
        for p in seat:
            if p in cursors:
                events.append(build_event(s, hexmap, p, round_no, die, cursors[p], paid))
        paid += arrivals(s, hexmap, seat, steps, dice, round_no, events)
        events += pay_all(s, paid)
        payments += paid
        events += _foreign_connections(s, hexmap, steps, links_before, round_no)

    for p in seat:
        s["track"][p] = s["track"][p] + [list(link) for link in built[p]]  # no list shared with "built"
    s["built"] = built
    s["ferries"] = {f.id: ferry_owner[f.id] for f in hexmap.ferries if f.id in ferry_owner}
    s["payments"] = payments
    if last:
        events += _end_of_building(s, hexmap)
    else:
        s["build_turn"] = turn + 1
        s["build_dice"] = next_dice
        events.append({"kind": "next_dice", "turn": turn + 1, "dice": next_dice,
                       "text": f"The dice of build turn {turn + 1} are {', '.join(map(str, next_dice))}."})
    events.append(cash_event(s, cash_before, payments))
    return s, events


def turn_builders(state: dict[str, Any], hexmap: HexMap, ferry_owner: dict[str, str]) -> dict[str, Builder]:
    """Every company's builder for a turn's resolution: leaps follow rivals' track as it was at the start."""
    at_start = {p: track_links(state, p) for p in state["players"]}
    return {p: Builder(hexmap, state, p, ferry_owner=ferry_owner,
                       rival_links={q: links for q, links in at_start.items() if q != p}) for p in state["players"]}


def record_steps(state: dict[str, Any], steps: dict[str, list[dict]], round_no: int, built: dict[str, list],
                 built_this_turn: dict[str, set] | None = None) -> list[dict[str, Any]]:
    """Note a round's new links (``built``) and leaps (in the state); the ferries built, as payments."""
    paid = []
    for p in state["players"]:
        for step in steps.get(p, []):
            if step["kind"] == "build":
                built[p].append([step["from"], step["to"]])
                if built_this_turn is not None:
                    built_this_turn[p].add(link_key(step["from"], step["to"]))
            if step["kind"] == "ferry":
                paid.append(payment(p, BANK, step["cost"], f"ferry {step['ferry']} built", round_no, step["from"]))
            if step["kind"] == "leap":
                state["leaps"][p].append({"from": step["from"], "to": step["to"], "over": step["over"],
                                          "turn": state.get("build_turn", 0)})
    return paid


def _company_changes(state: dict[str, Any], orders: dict[str, Any]) -> list[dict[str, Any]]:
    events = []
    for p in state["players"]:
        change = (orders.get(p) or {}).get("company")
        if not change:
            continue
        company = state["companies"][p]
        old = dict(company)
        name = change.get("name")
        if name:
            clash = next((q for q, c in state["companies"].items() if q != p and fold(c["name"]) == fold(name)), None)
            if clash is None:
                company["name"] = name
            else:
                events.append({"kind": "company", "player": p, "text": f"{company['name']} keeps its name: "
                               f"{name} is already the name of {player_ref(clash)}'s company."})
        colour = change.get("colour")
        if colour and colour != company["colour"]:
            holder = next((q for q, c in state["companies"].items() if q != p and c["colour"] == colour), None)
            if holder is None:
                company["colour"] = colour
            else:
                events.append({"kind": "company", "player": p, "text": f"{company['name']} keeps "
                               f"{company['colour']}: {colour} was taken by {company_name(state, holder)} first."})
        if company != old:
            events.append({"kind": "company", "player": p, "name": company["name"], "colour": company["colour"],
                           "text": f"{old['name']} is now {company['name']} ({company['colour']})."})
    return events


def run_round(cursors: dict[str, Cursor], seat: list[str], dice: Dice, state: dict[str, Any], hexmap: HexMap,
               round_no: int, ferry_owner: dict[str, str]) -> list[dict[str, Any]]:
    """Advance the cursors together, lowest pip first; contested ferries go by pip, then by a die."""
    events = []
    while True:
        active = [p for p in seat if p in cursors and not cursors[p].done]
        if not active:
            return events
        low = min(cursors[p].pip for p in active)
        layer = [p for p in active if cursors[p].pip == low]
        claims: dict[str, list[str]] = {}
        for p in layer:
            action, cursor = cursors[p].current(), cursors[p]
            ferry = hexmap.ferry(action.ferry or "") if action.kind == "ferry" else None
            if ferry and ferry.id not in ferry_owner and cursor.builder.ferry_problem(cursor.here, ferry) is None:
                claims.setdefault(ferry.id, []).append(p)
        denied: dict[str, str] = {}
        for ferry_id, claimants in claims.items():
            if len(claimants) < 2:
                continue
            order, rolls = tie_order(dice, f"ferry {ferry_id} turn {state['build_turn']} round {round_no}", claimants)
            shown = ", ".join(f"{company_name(state, x['player'])} {x['value']}" for x in rolls)
            events.append({"kind": "tie", "what": f"ferry {ferry_id}", "order": order, "rolls": rolls,
                           "text": f"Ferry {ferry_id} is reached on the same pip by "
                                   f"{', '.join(company_name(state, q) for q in claimants)}; the dice ({shown}) "
                                   f"give it "
                                   f"to {company_name(state, order[0])}."})
            for loser in order[1:]:
                denied[loser] = (f"ferry {ferry_id} was built on the same pip by {company_name(state, order[0])}, "
                                 f"who won the tie-break roll")
        for p in layer:
            cursors[p].run(denied.get(p))


def _route_text(hexmap: HexMap, state: dict[str, Any], cursor: Cursor, segment: int) -> str:
    seg = cursor.done_segments[segment]
    start = seg["start"]
    parts = [f"({hexmap.town_at[start].name if start in hexmap.town_at else start or '?'})"]
    for step in cursor.steps:
        if step["segment"] != segment:
            continue
        town = hexmap.town_at.get(step["to"])
        where = town.name if town else step["to"]
        if step["kind"] == "build":
            parts.append(where)
        elif step["kind"] == "leap":
            parts.append(f"leap {where} over {company_name(state, step['over'])}")
        else:
            parts.append(f"ferry {step['ferry']} {where}")
    return " ".join(parts)


def build_event(state: dict[str, Any], hexmap: HexMap, p: str, round_no: int, die: int, cursor: Cursor,
                 paid: list[dict[str, Any]], *, heading: str | None = None) -> dict[str, Any]:
    """What a company built in a round (``heading`` names it: 'round 1 (die 4)' unless given)."""
    segments = []
    for n, seg in enumerate(cursor.done_segments):
        stop = seg["stopped"]
        segments.append({"line": seg["line"], "route": _route_text(hexmap, state, cursor, n), "pips": seg["pips"],
                         "stopped": None if stop is None else
                         {"hex": stop["hex"], "kind": stop["kind"], "reason": stop["reason"],
                          "at": _stop_place(stop), "from": stop["from"]}})
    cash = sum(x["amount"] for x in paid if x["from"] == p)
    heading = heading or f"round {round_no} (die {die})"
    text = f"{company_name(state, p)}, {heading}: " + "; ".join(s["route"] for s in segments)
    text += f" — {count(cursor.pip, 'pip')}" + (f", {cash} paid" if cash else "") + "."
    for s in segments:
        if s["stopped"]:
            text += f" Stopped {s['stopped']['at']} (line {s['line']}): {s['stopped']['reason']}."
    return {"kind": "build", "player": p, "round": round_no, "die": die, "pips": cursor.pip, "cash": cash,
            "segments": segments, "text": text}


def _stop_place(stop: dict[str, Any]) -> str:
    """'before 2523', 'at ferry F1', 'at the leap to 0604', 'at the start (2520)'."""
    if stop["kind"] == "ferry":
        return f"at ferry {stop['ferry']}"
    if stop["kind"] == "leap":
        return f"at the leap to {stop['hex']}"
    if stop["kind"] == "start":
        return f"at the start ({stop['hex']})"
    return f"before {stop['hex']}"


def arrivals(state: dict[str, Any], hexmap: HexMap, seat: list[str], steps: dict[str, list[dict]], dice: Dice,
              round_no: int, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Record who reached which town this round; pay the first arrival at a town nobody had reached."""
    by_town: dict[str, list[tuple[int, str]]] = {}
    for p in seat:
        for step in steps.get(p, []):
            town = hexmap.town_at.get(step["to"])
            key = str(town.number) if town else None
            if town and step["new_hex"] and p not in state["towns_reached"].get(key, []) \
                    and p not in [q for _, q in by_town.get(key, [])]:
                by_town.setdefault(key, []).append((step["pip"], p))
    bonus = state["options"]["town_bonus"]
    paid = []
    for key, arrived in sorted(by_town.items(), key=lambda kv: int(kv[0])):
        town = hexmap.towns[int(key)]
        arrived.sort(key=lambda x: (x[0], seat.index(x[1])))
        first_pip = arrived[0][0]
        firsts = [p for pip, p in arrived if pip == first_pip]
        new_town = not state["towns_reached"].get(key)
        winners: list[str] = []
        if new_town and len(firsts) > 1 and state["options"]["arrival_ties"] == "roll":
            order, rolls = tie_order(dice, f"arrival {key} turn {state['build_turn']} round {round_no}", firsts)
            shown = ", ".join(f"{company_name(state, x['player'])} {x['value']}" for x in rolls)
            events.append({"kind": "tie", "what": town.name, "order": order, "rolls": rolls,
                           "text": f"{town.name} is reached on pip {first_pip} by "
                                   f"{', '.join(company_name(state, q) for q in firsts)}; the dice ({shown}) put "
                                   f"{company_name(state, order[0])} first."})
            arrived = [(first_pip, p) for p in order] + [x for x in arrived if x[0] != first_pip]
            winners = [order[0]]
        elif new_town:
            winners = firsts
        for pip, p in arrived:
            state["towns_reached"].setdefault(key, []).append(p)
            first = p in winners
            events.append({"kind": "arrival", "player": p, "town": int(key), "name": town.name, "round": round_no,
                           "pip": pip, "bonus": bonus if first else 0,
                           "text": f"{company_name(state, p)} reaches {town.name} ({key}) on pip {pip} of round "
                                   f"{round_no}"
                                   + (f": first there, +{bonus}." if first else ".")})
            if first and bonus:
                paid.append(payment(BANK, p, bonus, f"first to reach {town.name} ({key})", round_no, town.hex))
    return paid


def _foreign_connections(state, hexmap, steps, links_before, round_no) -> list[dict[str, Any]]:
    events = []
    for p, done in steps.items():
        had = {h for link in links_before[p] for h in link}
        for country in hexmap.foreign:
            inside = set(country.hexes)
            if had & inside:
                continue
            if any(step["kind"] == "build" and step["to"] in inside for step in done):
                had |= inside
                events.append({"kind": "foreign", "player": p, "country": country.name, "round": round_no,
                               "text": f"{company_name(state, p)} connects to {country.name} in round {round_no}."})
    return events


def _end_of_building(state: dict[str, Any], hexmap: HexMap) -> list[dict[str, Any]]:
    """After the last build turn foreign companies build the permitted routes no company built."""
    events = []
    players_links = set().union(*(track_links(state, p) for p in state["players"])) if state["players"] else set()
    for country in hexmap.foreign:
        links = list(state["foreign_track"].get(country.name, []))
        have = {link_key(a, b) for a, b in links} | players_links
        for route in country.permitted_routes:
            for a, b in zip(route, route[1:]):
                if link_key(a, b) not in have:
                    links.append([a, b])
                    have.add(link_key(a, b))
        added = len(links) - len(state["foreign_track"].get(country.name, []))
        if added:
            state["foreign_track"][country.name] = links
            events.append({"kind": "foreign_build", "country": country.name, "links": links,
                           "text": f"The {country.name} company builds the {count(added, 'link')} of its "
                                   f"permitted routes that no company built; using them costs "
                                   f"{foreign_fee(country)} a hex."})
    state["stage"] = "operate"
    state["build_dice"] = []
    events.append({"kind": "stage", "stage": "operate",
                   "text": "The building stage is over."})
    return events
