"""One turn after the cards are dealt: place kept buildings, convert factories (war), buy in
forward order, utilise in reverse order; then profit, war and the end (profit.py), then the
next turn's deal (deal.py)."""
from __future__ import annotations

import copy
from typing import Any

from gm.store.dice import Dice
from gm.games.base import State, player_ref
from .cards import Cards
from .data import GameMap, line_key
from .deal import deal
from .orders import empty_orders
from .profit import settle
from .rules import building_refusal, closed_lines, counted, forward_order, missing_permits, price



def resolve_turn(state: State, gmap: GameMap, cards: Cards, orders: dict[str, Any], dice: Dice,
                 options: dict[str, Any]) -> tuple[State, list[dict]]:
    state = copy.deepcopy(state)
    orders = {p: (orders.get(p) or empty_orders()) for p in state["players"]}
    state["turn"] += 1
    log: list[dict] = []
    order = forward_order(state)
    log.append({"kind": "order", "forward": order,
                "text": f"Turn {state['turn']}: forward order {', '.join(map(player_ref, order))}; "
                        "trains in reverse order."})
    progress = place_kept(state, gmap, order, orders, log)
    progress |= convert_factories(state, cards, order, orders, log)
    progress |= buy(state, gmap, cards, order, orders, log)
    utilise(state, gmap, cards, list(reversed(order)), orders, log)
    settle(state, gmap, cards, orders, options, progress, log)
    if state["winners"] is None:
        state["snake"] = not state.get("snake")  # the last buyer buys first next: the order turns round
        deal(state, gmap, cards, dice, log)
    return state, log


def _take(pile: list[str], kind: str) -> str | None:
    for card in pile:
        if card.rsplit("-", 1)[0] == kind:
            pile.remove(card)
            return card
    return None


def place_kept(state: State, gmap: GameMap, order: list[str], orders: dict, log: list[dict]) -> bool:
    done = False
    for p in order:
        for item in orders[p]["place"]:
            refusal = building_refusal(state, gmap, p, item["kind"], item["city"])
            if refusal or _take(state["hand"][p], item["kind"]) is None:
                log.append({"kind": "place", "player": p, "text": f"{player_ref(p)} cannot place a {item['kind']} in "
                            f"{item['city']}: {refusal or 'no such card in hand'}."})
                continue
            state["buildings"][p][item["city"]] = item["kind"]
            done = True
            log.append({"kind": "place", "player": p,
                        "text": f"{player_ref(p)} places a kept {item['kind']} in {item['city']}."})
    return done


def convert_factories(state: State, cards: Cards, order: list[str], orders: dict, log: list[dict]) -> bool:
    done = False
    for p in order:
        for city in orders[p]["convert"]:
            cost = cards.cost["factory"]
            if not state["war"] or state["buildings"][p].get(city) != "factory":
                continue
            if state["cash"][p] < cost:
                log.append({"kind": "convert", "player": p,
                            "text": f"{player_ref(p)} cannot pay {cost} to convert {city}."})
                continue
            state["cash"][p] -= cost
            state["buildings"][p][city] = "barracks"
            done = True
            log.append({"kind": "convert", "player": p,
                        "text": f"{player_ref(p)} converts the factory in {city} to barracks for {cost} RM."})
    return done


def buy(state: State, gmap: GameMap, cards: Cards, order: list[str], orders: dict, log: list[dict]) -> bool:
    """Forward order, one card each: the highest-ranked card still available and affordable."""
    done = False
    for p in order:
        steps: list[str] = []
        got = None
        for item in orders[p]["buy"]:
            why = _try_item(state, gmap, cards, p, item)
            if why is None:
                got = item["text"]
                steps.append(f"{item['text']}: bought")
                break
            steps.append(f"{item['text']}: {why}")
        done |= got is not None
        if orders[p]["buy"]:
            text = f"{player_ref(p)} buys {got}." if got else f"{player_ref(p)} buys nothing."
            log.append({"kind": "buy", "player": p, "steps": steps, "got": got,
                        "text": f"{text} ({'; '.join(steps)})"})
    return done


def _try_item(state: State, gmap: GameMap, cards: Cards, p: str, item: dict) -> str | None:
    """Buy one ranked item; None when bought, else why not."""
    if "card" in item:  # a permit
        card = item["card"]
        if card not in state["market"]:
            return "already sold"
        cost = price(state, cards, card)
        if state["cash"][p] < cost:
            return f"cannot afford {cost} (cash {state['cash'][p]})"
        state["market"].remove(card)
        state["cash"][p] -= cost
        state["permits"][p].append(card)
        return None
    kind, city, seller = item["kind"], item["city"], item["from"]
    pile = state["hand"][seller] if seller else state["market"]
    card = next((c for c in pile if c.rsplit("-", 1)[0] == kind), None)
    if card is None:
        return f"no {kind} left with {seller}" if seller else f"no {kind} left in the market"
    if city:
        refusal = building_refusal(state, gmap, p, kind, city)
        if refusal:
            return refusal
    cost = price(state, cards, card, from_hand=seller is not None)
    if state["cash"][p] < cost:
        return f"cannot afford {cost} (cash {state['cash'][p]})"
    pile.remove(card)
    state["cash"][p] -= cost
    if seller:
        state["cash"][seller] += cost
    if city:
        state["buildings"][p][city] = kind
    else:
        state["hand"][p].append(card)
    return None


def utilise(state: State, gmap: GameMap, cards: Cards, order: list[str], orders: dict, log: list[dict]) -> None:
    """Reverse order, one train at a time, round and round: each player's next line still open to them."""
    closed = closed_lines(state, gmap, cards)
    load: dict[str, int] = {}
    left = {p: state["trains_owned"][p] for p in order}
    wanted = {p: list(orders[p]["trains"]) for p in order}
    placed: dict[str, list[list[str]]] = {p: [] for p in order}
    steps: list[dict] = []
    moving = True
    while moving:
        moving = False
        for p in order:
            while left[p] and wanted[p]:
                key = wanted[p].pop(0)
                line = gmap.lines[key]
                lacking = missing_permits(state, gmap, p, key)
                if lacking:
                    steps.append({"player": p, "line": key, "result": f"no {' or '.join(lacking)} permit"})
                elif key in closed:
                    steps.append({"player": p, "line": key, "result": "closed"})
                elif load.get(key, 0) >= line.capacity:
                    steps.append({"player": p, "line": key, "result": f"full ({line.capacity})"})
                else:
                    load[key] = load.get(key, 0) + 1
                    left[p] -= 1
                    placed[p].append(sorted(line.ends))
                    steps.append({"player": p, "line": key, "result": "placed"})
                    moving = True
                    break
    state["placements"] = placed
    state["train_steps"] = steps
    for p in order:
        lines = ", ".join(line_key(*ends) for ends in placed[p]) or "none"
        skipped = [s["line"] + " " + s["result"] for s in steps if s["player"] == p and s["result"] != "placed"]
        more = f" (skipped: {'; '.join(skipped)})" if skipped else ""
        log.append({"kind": "trains", "player": p, "text": f"{player_ref(p)} places {len(placed[p])} of "
                    f"{counted(state['trains_owned'][p], 'train')}: {lines}{more}."})
