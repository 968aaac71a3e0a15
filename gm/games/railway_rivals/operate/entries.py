"""Entering races: `race 3: Isengard 0507 0508 Edoras` — reading the lines, checking the routes, fees.

Orders of a race round are plain data:
  {"entries": [{"race", "line", "col", "route": [{"hex", "kind": start|run|ferry, "ferry"?, "col"}],
                "fees": [{"to", "country"?, "amount", "hexes"}], "pips"}], "notes": [...]}
A route runs along existing track from the race's start town to its destination, never entering a
hex twice. It costs 1 a hex of a rival's track (to that rival), the foreign country's fee a hex of
its permitted routes, and a ferry's use fee for a rival's ferry; at most ``fee_cap`` to one rival.
"""
from __future__ import annotations

from typing import Any

from gm.store.errors import OrderError
from gm.hexmap.model import HexMap
from gm.store.names import fold
from gm.store.orders import OrderLine

from ..build.company import place_name
from ..build.orders import SegmentReader
from ..money import route_fees
from ..reading import Header, header, hint, readable_lines, shown, small_number
from ..words import company_by_word, company_names, count, ordinal
from .network import Network, place_of, race_ends, railway, route_pips
RACE_WORDS = ("race", "special run", "run")  # 'special run 13:' as the form lists it


def open_races(state: dict[str, Any]) -> list[dict[str, Any]]:
    """This round's races: those carried over from earlier rounds first, then the round's own."""
    if state.get("stage") != "operate" or not state.get("schedule"):
        return []
    races = list(state.get("carried_over", [])) + list(state["schedule"][state["race_round"] - 1])
    return [dict(race) for race in races]  # copies: a carried race must not be the schedule's own


def runnable(net: Network, hexmap: HexMap, race: dict[str, Any]) -> bool:
    """A race runs when track (any company's, foreign, ferries) joins its start and destination."""
    start, goals = race_ends(hexmap, race)
    return net.connected([start], goals)


class RouteReader(SegmentReader):
    """Reads one route: places (hexes, town names or numbers, straight runs) and 'ferry F1'."""

    def read_route(self, body: str) -> list[dict[str, Any]] | None:
        toks = [t for t in self.tokens(body) if t[1] not in ("(", ")") and t[1][0] not in "-\u2013\u2014"]
        if not toks:
            self.syntax("the race needs its route: the hexes (or towns) from its start town to its destination, "
                        "after the colon", 0)
            return None
        segment: dict[str, Any] = {"steps": []}
        start, i = self.place(toks, 0, toks[0][0])
        here, fine = start, start is not None
        landed: str | None = None
        route = [{"hex": start, "kind": "start", "col": self.line.col + self.base + toks[0][0]}]
        while i < len(toks):
            at, tok = toks[i]
            word = fold(tok)
            if tok == ";":
                self.syntax("a race has one route: write each race on its own line", at)
                return None
            if word == "leap":
                self.error("trains do not leap: list the hexes of the track the train runs along", at)
                return None
            if word == "ferry":
                i, here = self.ferry(toks, i + 1, at, segment, here)
                landed = here
            else:
                label, i = self.place(toks, i, at)
                if label is None:
                    fine = False
                    continue
                if here is not None and not (label == here == landed):  # 'ferry F1 1309' may name the landing
                    here = self.build_to(segment, here, label, at)
                landed = None
            if here is None:
                fine = False
                break
        for step in segment["steps"]:
            kind = "ferry" if step["kind"] == "ferry" else "run"
            route.append({"hex": step["hex"], "kind": kind, "col": step["col"],
                          **({"ferry": step["ferry"]} if kind == "ferry" else {}),
                          **({"straight": step["straight"]} if step.get("straight") else {})})
        return route if fine else None


def read_entries(state: dict[str, Any], hexmap: HexMap, player: str, lines: list[OrderLine]
                 ) -> tuple[dict[str, Any], list[OrderError]]:
    """The entries of one player's race orders and every error in them (nothing is charged here)."""
    errors: list[OrderError] = []
    options = state["options"]
    races = {r["id"]: r for r in open_races(state)}
    net = railway(state, hexmap)
    entries: list[dict[str, Any]] = []
    seen: dict[int, int] = {}
    for line in readable_lines(lines, errors):
        head = header(line.text, RACE_WORDS, ("with", "powers"))
        if not head:
            words = line.text.split(None, 1)
            first = words[0] if words else line.text
            if fold(first[:10]).startswith("round"):
                errors.append(line.error("the building stage is over: no build orders are taken"))
            else:
                errors.append(line.syntax(f"expected a race entry like '{_example(hexmap, list(races.values()))}', "
                                          f"not {shown(first)}{hint(first.rstrip(':'), ['race'])}"))
            continue
        number = small_number(head.number)
        if number is None or number not in races:
            listed = ", ".join(str(r) for r in races) or "none"
            cut = head.number if len(head.number) <= 12 else head.number[:12] + "..."
            what = f"race {cut}" if head.number else "a race without a number"
            errors.append(line.error(f"{what} is not run this round; this round's races: {listed}",
                                     head.number_at if head.number else 0))
            continue
        race = races[number]
        if race["id"] in seen:
            errors.append(line.error(f"race {race['id']} is entered twice (first on line {seen[race['id']]})"))
            continue
        seen[race["id"]] = line.number
        if len(seen) > options["max_entries"]:
            errors.append(line.error(f"a {ordinal(len(seen))} entry: a company enters at most "
                                     f"{options['max_entries']} races a round"))
            continue
        mode, partner = _partner(state, player, line, head, errors)
        if mode == "bad":
            continue
        entry = _read_entry(state, hexmap, net, player, race, line, head.end, mode, partner, errors)
        if entry is not None:
            entries.append(entry)
    return {"entries": entries, "notes": entry_notes(state, hexmap, player, entries)}, errors


def _example(hexmap: HexMap, races: list[dict[str, Any]]) -> str:
    """'race 3: Westby HEX HEX ... Eastby' for the first race open this round."""
    if not races:
        return "race ID: START HEX HEX ... DESTINATION"
    race = races[0]
    start, goals = race_ends(hexmap, race)
    end = hexmap.town_at[goals[0]].name if goals[0] in hexmap.town_at else goals[0]
    return f"race {race['id']}: {hexmap.town_at[start].name} HEX HEX ... {end}"


def _partner(state: dict[str, Any], player: str, line: OrderLine, head: Header, errors: list
             ) -> tuple[str | None, str | None]:
    """('joint' | 'powers' | None, partner) from 'race 3 with red:' / 'race 3 powers red:'."""
    if not head.mode:
        return None, None
    who, at = head.partner, head.partner_at
    mode = "joint" if head.mode == "with" else "powers"
    p = company_by_word(state["companies"], who)
    if p == player:
        errors.append(line.error("a company cannot team up or exchange running powers with itself", at))
        return "bad", None
    if p is not None:
        return mode, p
    choices = [p for p in state["players"] if p != player]
    errors.append(line.error(f"no company {shown(who)}{hint(who, choices)}; rivals: {', '.join(choices)}", at))
    return "bad", None


def _read_entry(state, hexmap, net, player, race, line, base, mode, partner, errors) -> dict[str, Any] | None:
    options = state["options"]
    names = company_names(state)
    body = line.text[base:]
    entry = {"race": race["id"], "line": line.number, "col": line.col, "mode": mode, "partner": partner,
             "route": None, "fees": [], "pips": 0}
    if mode == "joint" and not body.strip():
        return entry  # the partner gives the route
    if not runnable(net, hexmap, race):
        errors.append(line.error(f"race {race['id']} cannot be run this round: no track joins "
                                 f"{place_of(hexmap, race['from'])} and {place_of(hexmap, race['to'])} yet "
                                 f"(the race is carried over to the next round)", base))
        return None
    before = len(errors)
    route = RouteReader(hexmap, state["companies"], line, base, errors).read_route(body)
    if route is None or len(errors) > before:
        return None
    problems = route_problems(net, hexmap, race, route)
    for message, col in problems:
        errors.append(line.error(message, col - line.col))
    if problems:
        return None
    team = [player, partner] if mode == "joint" else [player]
    fees = route_fees(net, player, route, state["players"], team=team)
    over = over_cap(fees, options["fee_cap"], mode, partner)
    for f in over:
        payee = f.get("country") or names[f["to"]]
        if mode == "joint":
            errors.append(line.error(f"the route costs {f['amount']} in fees to {payee}: each partner's share, up "
                                     f"to {-(-f['amount'] // 2)}, is more than the {options['fee_cap']} a company "
                                     f"may pay one rival in a race"))
        else:
            hint = (f" (unless you exchange running powers: 'race {race['id']} powers {f['to']}:')"
                    if not mode and not f.get("country") else "")
            whom = "one foreign country" if f.get("country") else "one rival"
            errors.append(line.error(f"the route costs {f['amount']} in fees to {payee}, more than the "
                                     f"{options['fee_cap']} a company may pay {whom} in a race{hint}"))
    if over:
        return None
    entry.update({"route": route, "fees": fees, "pips": route_pips(hexmap, route)})
    return entry


def over_cap(fees: list[dict[str, Any]], cap: int, mode: str | None, partner: str | None) -> list[dict[str, Any]]:
    """The fees an entry may not pay: over the cap to one rival or foreign country ("as if it was a
    player"); in a joint run each partner pays half, so the cap holds each partner's share; with
    running powers the fees to the partner are judged when the round is run, against what it pays."""
    share = (lambda amount: amount - amount // 2) if mode == "joint" else (lambda amount: amount)
    return [f for f in fees if share(f["amount"]) > cap and not (mode == "powers" and f["to"] == partner)]


def route_problems(net: Network, hexmap: HexMap, race: dict[str, Any], route: list[dict[str, Any]]
                   ) -> list[tuple[str, int]]:
    """(message, column) for each thing wrong with a route for this race."""
    problems = []
    start, goals = race_ends(hexmap, race)
    if route[0]["hex"] != start:
        problems.append((f"race {race['id']} starts at {place_of(hexmap, race['from'])}, hex {start}, "
                         f"not {place_name(hexmap, route[0]['hex'])}", route[0]["col"]))
    seen = {route[0]["hex"]: 0}
    for n, (prev, step) in enumerate(zip(route, route[1:]), start=1):
        a, b = prev["hex"], step["hex"]
        if step["kind"] == "ferry":
            if step["ferry"] not in net.ferries:
                problems.append((f"ferry {step['ferry']} was never built: no train can use it", step["col"]))
        elif not net.has_link(a, b):
            written = step.get("straight")
            along = (f"; {place_name(hexmap, b)} lies on the straight line you wrote from "
                     f"{place_name(hexmap, written[0])} to {place_name(hexmap, written[1])}"
                     if written and b != written[1] else "")
            problems.append((f"the route leaves the track: there is no track from {place_name(hexmap, a)} "
                             f"to {place_name(hexmap, b)}{along}", step["col"]))
        if b in seen:
            problems.append((f"the route enters {place_name(hexmap, b)} twice", step["col"]))
        seen[b] = n
        if b in goals and n < len(route) - 1:
            problems.append((f"the route reaches {place_of(hexmap, race['to'])} at {b} and goes on: end it there",
                             route[n + 1]["col"]))
    if route[-1]["hex"] not in goals and not any(step["hex"] in goals for step in route):
        problems.append((f"race {race['id']} ends at {place_of(hexmap, race['to'])} "
                         f"({', '.join(goals)}), not at {place_name(hexmap, route[-1]['hex'])}", route[-1]["col"]))
    return problems


def entry_notes(state: dict[str, Any], hexmap: HexMap, player: str, entries: list[dict[str, Any]]) -> list[str]:
    """What `gm check` prints: each entry's pips and fees, and the cash they take together."""
    names = company_names(state)
    notes, total = [], 0
    for e in entries:
        partner = names.get(e.get("partner") or "", "")
        if e["route"] is None:
            notes.append(f"race {e['race']}: a joint run with {partner}, who gives the route")
            continue
        paid = sum(f["amount"] for f in e["fees"])
        total += paid
        detail = ", ".join(f"{f['amount']} to {f.get('country') or names[f['to']]}" for f in e["fees"])
        how = {"joint": f"; a joint run with {partner}: fees and winnings shared",
               "powers": f"; running powers with {partner}: fees to each other may differ by at most "
                         f"{state['options']['fee_cap']}"}.get(e.get("mode") or "", "")
        notes.append(f"race {e['race']}: {count(len(e['route']) - 1, 'hex')}, {count(e['pips'], 'pip')}; "
                     + (f"fees {paid} ({detail})" if paid else "no fees") + how)
    if entries:
        cash = state["cash"][player]
        notes.append(f"fees {total} in all, cash {cash}" + ("" if total <= cash else
                     ": an entry whose fees the cash left cannot pay is refused when the round is run"))
    return notes
