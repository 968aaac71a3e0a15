"""The operating stage: the schedule drawn, race rounds run, expansion between them, the winner.

Turns of the operating stage alternate: a race round (entries), then an expansion (builds paid
with cash) while the expansion budget after that round is above 0, then the next race round.
"""
from __future__ import annotations

import copy
from typing import Any

from gm.dice import Dice
from gm.hexmap.model import HexMap

from .accept import accept_entries
from .entries import open_races, runnable
from .money import BANK, move_cash, overdraft_interest, payment_event
from .network import place_of, race_title, railway
from .races import prizes, run_race
from .schedule import draw_schedule


def _name(state: dict[str, Any], p: str) -> str:
    return state["companies"][p]["name"]


def expansion_budget(state: dict[str, Any], race_round: int | None = None) -> int:
    """Cash a company may spend on pips after race round ``race_round``: 10, 8, 6, ... never below 0."""
    r = state["race_round"] if race_round is None else race_round
    return max(0, state["options"]["expansion_budget"] - state["options"]["expansion_step"] * (r - 1))


def start_operating(state: dict[str, Any], hexmap: HexMap, dice: Dice) -> list[dict[str, Any]]:
    """Draw the schedule and open race round 1 (changes ``state``)."""
    rounds = state["options"]["race_rounds"]
    schedule, rules = draw_schedule(hexmap, rounds, dice)
    seat = state["players"]
    state.update({"stage": "operate", "operate_phase": "races", "race_round": 1, "schedule": schedule,
                  "schedule_rules": rules, "carried_over": [], "entries": {}, "results": {},
                  "races_won": {p: 0 for p in seat}, "races_entered": {p: 0 for p in seat}, "ranking": []})
    text = f"The operating stage begins: {rounds} rounds of races."
    if rules["min_distance"] != 7 or not rules["sectors"]:
        text += (f" This map's towns cannot all be paired 7 hexes apart in other sectors: races here run "
                 f"at least {rules['min_distance']} hexes" + (" between sectors." if rules["sectors"] else "."))
    events = [{"kind": "stage", "stage": "operate", "text": text}]
    for r, races in enumerate(schedule, start=1):
        events.append({"kind": "schedule", "round": r, "races": races,
                       "text": f"Round {r}: " + "; ".join(race_title(hexmap, x) for x in races) + "."})
    return events


def resolve_race_round(state: dict[str, Any], hexmap: HexMap, orders: dict[str, Any], dice: Dice
                       ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    s = copy.deepcopy(state)
    seat, r = s["players"], s["race_round"]
    events: list[dict[str, Any]] = [{"kind": "race_round", "round": r,
                                     "text": f"Race round {r} of {s['options']['race_rounds']}."}]
    payments, interest_events = overdraft_interest(s)
    events += interest_events
    s["nmr"] = [p for p in seat if orders.get(p) is None or orders[p].get("nmr")]
    net = railway(s, hexmap)
    races = open_races(s)
    can_run = {x["id"]: runnable(net, hexmap, x) for x in races}
    entries, trains, fees, refusals = accept_entries(s, orders, can_run, r)
    payments += fees
    events += refusals
    results: dict[str, Any] = {}
    carried = []
    for race in races:
        key = str(race["id"])
        if not can_run[race["id"]]:
            carried.append(race)
            continue
        entrants = trains.get(race["id"], [])
        if not entrants:
            results[key] = {**race, "finishers": []}
            events.append({"kind": "race", "race": race, "finishers": [],
                           "text": f"{_upper(race_title(hexmap, race))}: nobody entered."})
            continue
        finishers = run_race(hexmap, race, entrants, dice)
        won = prizes(finishers, s["options"], race["special"])
        teams = {t["player"]: t["team"] for t in entrants if t["team"]}
        for f in finishers:
            f["winnings"] = won[f["player"]]
            members = teams.get(f["player"], [f["player"]])
            if len(members) > 1:
                f["team"] = members
            for m in members:
                if f["place"] == 1:
                    s["races_won"][m] += 1
            for n, m in enumerate(members):  # a team shares equally, the odd 1 to the first partner
                share = f["winnings"] // len(members) + (1 if n < f["winnings"] % len(members) else 0)
                if share:
                    pay = {"from": BANK, "to": m, "amount": share, "round": r, "hex": None,
                           "reason": f"{'first' if f['place'] == 1 else 'runner-up'}"
                                     f"{' (tie)' if sum(x['place'] == f['place'] for x in finishers) > 1 else ''} "
                                     f"in race {race['id']}" + (" (special run: double)" if race["special"] else "")
                                     + (" (share of the joint run)" if len(members) > 1 else "")}
                    move_cash(s, pay)
                    payments.append(pay)
        results[key] = {**race, "finishers": finishers}
        events.append(_race_event(s, hexmap, race, finishers))
    s["entries"], s["results"] = entries, results
    last = r >= s["options"]["race_rounds"]
    for race in carried:
        events.append({"kind": "carried", "race": race, "text": (
            f"{_upper(race_title(hexmap, race))} cannot be run: no track joins "
            f"{place_of(hexmap, race['from'])} and {place_of(hexmap, race['to'])}"
            + (". It is cancelled: this was the last round." if last else "; it is carried over to the next round."))})
    s["carried_over"] = [] if last else carried
    s["payments"] = payments
    events += [payment_event(s, pay) for pay in payments]  # cash already moved as each was made
    if last:
        events += finish(s)
    elif expansion_budget(s) > 0:
        s["operate_phase"] = "expansion"
    else:
        s["race_round"] = r + 1
    events.append(_cash_event(s, payments))
    return s, events


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _race_event(state, hexmap, race, finishers) -> dict[str, Any]:
    parts = []
    for f in finishers:
        how = f"turn {f['turns']}, {f['left']} pip(s) left" if f["turns"] else "did not finish"
        who = " and ".join(_name(state, m) for m in f.get("team") or [f["player"]])
        parts.append(f"{f['place']}. {who} ({how}; rolls {', '.join(map(str, f['rolls']))})"
                     + (f" wins {f['winnings']}" if f["winnings"] else ""))
    return {"kind": "race", "race": race, "finishers": finishers,
            "text": f"{_upper(race_title(hexmap, race))}: " + "; ".join(parts) + "."}


def _cash_event(state: dict[str, Any], payments: list[dict[str, Any]]) -> dict[str, Any]:
    rows = []
    for p in state["players"]:
        out = sum(x["amount"] for x in payments if x["from"] == p)
        into = sum(x["amount"] for x in payments if x["to"] == p)
        rows.append({"player": p, "name": _name(state, p), "paid": out, "received": into, "after": state["cash"][p]})
    return {"kind": "operate_cash", "rows": rows,
            "text": "Cash: " + ", ".join(f"{x['name']} {x['after']}" for x in rows) + "."}


def upcoming(state: dict[str, Any], hexmap: HexMap) -> dict[str, Any] | None:
    """The event saying what the next turn is: the races open, or the expansion budget."""
    if state["stage"] != "operate":
        return None
    r = state["race_round"]
    if state["operate_phase"] == "expansion":
        return {"kind": "upcoming", "text": f"Next: the expansion after race round {r}: up to "
                                            f"{expansion_budget(state)} pips each, 1 cash a pip."}
    net = railway(state, hexmap)
    shown = []
    for race in open_races(state):
        carried = race in state["carried_over"]
        shown.append(race_title(hexmap, race) + (" (carried over)" if carried else "")
                     + ("" if runnable(net, hexmap, race) else " [no track joins them yet]"))
    return {"kind": "upcoming", "round": r, "races": open_races(state),
            "text": f"Next: race round {r} of {state['options']['race_rounds']}. Races: " + "; ".join(shown) + "."}


def finish(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The end: most cash wins; ties go to races won, then races entered (changes ``state``)."""
    seat = state["players"]

    def key(p: str) -> tuple[int, int, int]:
        return (-state["cash"][p], -state["races_won"][p], -state["races_entered"][p])

    order = sorted(seat, key=lambda p: (key(p), seat.index(p)))
    ranking, place = [], 0
    for n, p in enumerate(order):
        if n == 0 or key(p) != key(order[n - 1]):
            place = n + 1
        ranking.append({"player": p, "place": place, "cash": state["cash"][p],
                        "races_won": state["races_won"][p], "races_entered": state["races_entered"][p]})
    state["ranking"] = ranking
    state["winner"] = [x["player"] for x in ranking if x["place"] == 1]
    state["stage"] = "over"
    state["operate_phase"] = None
    lines = "; ".join(f"{x['place']}. {_name(state, x['player'])} {x['cash']} cash, {x['races_won']} won, "
                      f"{x['races_entered']} entered" for x in ranking)
    winners = " and ".join(_name(state, p) for p in state["winner"])
    return [{"kind": "ranking", "ranking": ranking,
             "text": f"The game is over. {winners} win{'s' if len(state['winner']) == 1 else ''}. Ranking: {lines}."}]
