"""The operating stage: the schedule drawn, race rounds run, expansion between them, the winner.

Turns of the operating stage alternate: a race round (entries), then an expansion (builds paid
with cash) while the expansion budget after that round is above 0, then the next race round.
"""
from __future__ import annotations

import copy
from typing import Any

from gm.store.dice import Dice
from gm.hexmap.model import HexMap

from ..money import cash_event, move_cash, overdraft_interest, payment_event, prize_payments, prizes
from ..words import capital, company_name, count
from .accept import accept_entries
from .entries import open_races, runnable
from .network import place_of, race_title, railway, route_text
from .races import run_race
from .schedule import draw_schedule


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
                 f"at least {count(rules['min_distance'], 'hex')}" + (" between sectors." if rules["sectors"] else "."))
    events = [{"kind": "stage", "stage": "operate", "text": text}]
    for r, races in enumerate(schedule, start=1):
        events.append({"kind": "schedule", "round": r, "races": races,
                       "text": f"Round {r}: " + "; ".join(race_title(hexmap, x) for x in races) + "."})
    return events


def resolve_race_round(state: dict[str, Any], hexmap: HexMap, orders: dict[str, Any], dice: Dice
                       ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    s = copy.deepcopy(state)
    seat, r = s["players"], s["race_round"]
    before = dict(s["cash"])
    events: list[dict[str, Any]] = [{"kind": "race_round", "round": r,
                                     "text": f"Race round {r} of {s['options']['race_rounds']}."}]
    payments, interest_events = overdraft_interest(s)
    events += interest_events
    s["nmr"] = [p for p in seat if orders.get(p) is None or orders[p].get("nmr")]
    s["built"] = {p: [] for p in seat}  # nothing is built in a race round
    net = railway(s, hexmap)
    races = open_races(s)
    can_run = {x["id"]: runnable(net, hexmap, x) for x in races}
    entries, trains, fees, refusals = accept_entries(s, orders, can_run, r)  # the fees are paid here
    payments += fees
    events += refusals
    results, carried, won, race_events = _run_races(s, hexmap, races, can_run, trains, dice)
    events += race_events
    for pay in won:
        move_cash(s, pay)
    payments += won
    s["entries"], s["results"] = entries, results
    last = r >= s["options"]["race_rounds"]
    for race in carried:
        events.append({"kind": "carried", "race": race, "text": (
            f"{capital(race_title(hexmap, race))} cannot be run: no track joins "
            f"{place_of(hexmap, race['from'])} and {place_of(hexmap, race['to'])}"
            + (". It is cancelled: this was the last round." if last else "; it is carried over to the next round."))})
    s["carried_over"] = [] if last else carried
    s["payments"] = payments
    events += [payment_event(s, pay) for pay in payments]  # each moved its cash when it was made
    if last:
        events += finish(s)
    elif expansion_budget(s) > 0:
        s["operate_phase"] = "expansion"
    else:
        s["race_round"] = r + 1
    events.append(cash_event(s, before, payments))
    return s, events


def _run_races(s: dict[str, Any], hexmap: HexMap, races: list[dict[str, Any]], can_run: dict[int, bool],
               trains: dict[int, list[dict[str, Any]]], dice: Dice) -> tuple[dict, list, list, list]:
    """(results by race id, races carried over, prize payments, events) of the races of a round."""
    results: dict[str, Any] = {}
    carried, won, events = [], [], []
    for race in races:
        if not can_run[race["id"]]:
            carried.append(race)
            continue
        entrants = trains.get(race["id"], [])
        finishers = run_race(hexmap, race, entrants, dice) if entrants else []
        prize = prizes(finishers, s["options"], race["special"])
        teams = {t["player"]: t["team"] for t in entrants if t["team"]}
        for f in finishers:
            f["winnings"] = prize[f["player"]]
            if f["player"] in teams:
                f["team"] = teams[f["player"]]
            for m in f.get("team") or [f["player"]]:
                s["races_won"][m] += f["place"] == 1
        won += prize_payments(race, finishers, s["race_round"])
        results[str(race["id"])] = {**race, "finishers": finishers}
        events.append(_race_event(s, hexmap, race, finishers, entrants))
    return results, carried, won, events


def _race_event(state, hexmap, race, finishers, entrants) -> dict[str, Any]:
    """The race's result in one sentence, and a line per train: the route it ran and where it stood
    after each turn of the race."""
    routes = {t["player"]: t["route"] for t in entrants}
    lines = []
    for f in finishers:
        who = " and ".join(company_name(state, m) for m in f.get("team") or [f["player"]])
        stood = ", ".join(_where(hexmap, h) for h in f["trace"])
        lines.append(f"{who} ran {route_text(routes[f['player']], hexmap, towns=True)}; after each turn: {stood}")
    parts = []
    for f in finishers:
        how = f"turn {f['turns']}, {count(f['left'], 'pip')} left" if f["turns"] else "did not finish"
        who = " and ".join(company_name(state, m) for m in f.get("team") or [f["player"]])
        parts.append(f"{f['place']}. {who} ({how}; rolls {', '.join(map(str, f['rolls']))})"
                     + (f" wins {f['winnings']}" if f["winnings"] else ""))
    return {"kind": "race", "race": race, "finishers": finishers, "lines": lines,
            "text": f"{capital(race_title(hexmap, race))}: " + ("; ".join(parts) or "nobody entered") + "."}


def _where(hexmap: HexMap, place: str) -> str:
    """A train's place after a turn: a hex, a town's name, 'at sea' or 'start'."""
    town = hexmap.town_at.get(place)
    return town.name if town else place


def upcoming(state: dict[str, Any], hexmap: HexMap) -> dict[str, Any] | None:
    """The event saying what the next turn is: the races open, or the expansion budget."""
    if state["stage"] != "operate":
        return None
    r = state["race_round"]
    if state["operate_phase"] == "expansion":
        return {"kind": "upcoming", "text": f"Next: the expansion after race round {r}: each company may "
                                            f"spend up to {expansion_budget(state)} (1 a pip, payments to "
                                            f"rivals and ferries included)."}
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
    lines = "; ".join(f"{x['place']}. {company_name(state, x['player'])} {x['cash']} cash, {x['races_won']} won, "
                      f"{x['races_entered']} entered" for x in ranking)
    winners = " and ".join(company_name(state, p) for p in state["winner"])
    return [{"kind": "ranking", "ranking": ranking,
             "text": f"The game is over. {winners} win{'s' if len(state['winner']) == 1 else ''}. Ranking: {lines}."}]
