"""Profit (routes, factory trains, permits, riots), the war's outcome, and the end of the game."""
from __future__ import annotations


from gm.games.base import State, player_ref
from .cards import Cards
from .data import GameMap
from .income import route_income
from .rules import capital, counted, joined, player_lines



def settle(state: State, gmap: GameMap, cards: Cards, orders: dict, options: dict, progress: bool,
           log: list[dict]) -> None:
    profit(state, gmap, cards, orders, log)
    if state["war"]:
        war_outcome(state, gmap, cards, progress, log)
    if state["winners"] is None:
        check_end(state, gmap, cards, options, log)
    for p in state["players"]:
        state["capital_history"][p].append(capital(state, cards, p))


def profit(state: State, gmap: GameMap, cards: Cards, orders: dict, log: list[dict]) -> None:
    war = bool(state["war"])
    state["income"] = {}
    for p in state["players"]:
        routes = [route_income(state, gmap, cards, p, r) for r in orders[p]["routes"]]
        stations = sum(r["amount"] for r in routes if r["kind"] == "station")
        goods = sum(r["amount"] for r in routes if r["kind"] == "factory")
        extras = [] if war else _extras(state, gmap, cards, p)
        room = cards.supply - state["trains_owned"][p]
        affordable = goods // cards.train_cost
        ask = orders[p]["factory"]
        if war or ask == "all":
            bought = min(affordable, room)
        else:
            bought = min(ask or 0, affordable, room)
        cash_in = stations + sum(e["amount"] for e in extras) + (0 if war else goods - bought * cards.train_cost)
        state["cash"][p] += cash_in
        state["trains_owned"][p] += bought
        state["income"][p] = {"routes": routes, "stations": stations, "factories": goods,
                              "trains_bought": bought, "extras": extras, "cash": cash_in}
        lost = goods - bought * cards.train_cost if war else 0
        text = (f"{player_ref(p)} earns {cash_in} RM (stations {stations}, factories {goods}"
                f"{', bonuses ' + str(sum(e['amount'] for e in extras)) if extras else ''})"
                f" and buys {counted(bought, 'train')}"
                f"{f'; {lost} RM of factory money goes to the army' if lost else ''}.")
        log.append({"kind": "profit", "player": p, "text": text})


def _extras(state: State, gmap: GameMap, cards: Cards, p: str) -> list[dict]:
    """Connection permits whose cities the player's trains link, and riot pay for barracks."""
    out = []
    lines = player_lines(state, p)
    for card in state["permits"][p]:
        info = cards.info(card)
        if info["type"] == "link" and set(info["cities"]) <= joined(info["cities"][0], lines):
            out.append({"what": card, "amount": info["bonus"]})
    event = state["event"]
    if event:
        info = cards.info(event["card"])
        if info.get("kind") == "riot" and state["buildings"][p].get(info["city"]) == "barracks":
            out.append({"what": info["name"], "amount": info["bonus"]})
    return out


def troops_at_front(state: State, gmap: GameMap, cards: Cards, player: str) -> list[str]:
    """The player's barracks whose trains join them to the front line (each barracks needs a train)."""
    front = set(gmap.front_line(state["war"]["target"]))
    lines = player_lines(state, player)
    touched = {c for key in lines for c in key.split("-", 1)}
    return sorted(city for city, kind in state["buildings"][player].items()
                  if kind == "barracks" and city in touched and joined(city, lines) & front)


def war_outcome(state: State, gmap: GameMap, cards: Cards, progress: bool, log: list[dict]) -> None:
    war = state["war"]
    connected = {p: troops_at_front(state, gmap, cards, p) for p in state["players"]}
    troops = sum(len(c) for c in connected.values()) * cards.troops_per_barracks
    war["connected"] = connected
    war["turns"] += 1
    better = troops > war["troops"]
    war["troops"] = max(war["troops"], troops)
    parts = "; ".join(f"{player_ref(p)}: {', '.join(c)}" for p, c in connected.items() if c) or "no barracks"
    if troops >= war["target_troops"]:
        country = war["target"]
        state["annexed"] = sorted(state["annexed"] + [country])
        state["war_discard"] += war["cards"]
        state["war"] = None
        state["peace_since"] = state["turn"]
        log.append({"kind": "war_won", "text": f"The war against {country} is won: {troops} troops "
                    f"({parts}) against {war['target_troops']}. {country} is annexed."})
        return
    log.append({"kind": "war_on", "text": f"The war against {war['target']} goes on: {troops} of "
                f"{war['target_troops']} troops at the front ({parts})."})
    if not progress and not better:
        state["winners"] = []
        state["ended_by"] = "exhaustion"
        log.append({"kind": "end", "text": "Nobody bought, converted or brought new troops up: the Empire is "
                    "exhausted and every player loses."})


def check_end(state: State, gmap: GameMap, cards: Cards, options: dict, log: list[dict]) -> None:
    fatherland = options.get("fatherland", "also")
    if fatherland != "off" and set(gmap.foreign_countries()) <= set(state["annexed"]):
        state["winners"] = list(state["players"])
        state["ended_by"] = "fatherland"
        log.append({"kind": "end", "text": "Every neighbouring country is annexed: Fatherland victory, "
                    "every player wins."})
        return
    limit = int(options.get("turn_limit") or 0)
    if state["last_turn"] or (limit and state["turn"] >= limit):
        caps = {p: capital(state, cards, p) for p in state["players"]}
        best = max(caps.values())
        state["winners"] = [p for p in state["players"] if caps[p] == best]
        state["ended_by"] = "capital" if state["last_turn"] else "turn limit"
        log.append({"kind": "end", "text": f"The game is over: {' and '.join(map(player_ref, state['winners']))} "
                    f"win{'s' if len(state['winners']) == 1 else ''} with {best} RM of capital."})
        return
    if fatherland != "only":
        full = [p for p in state["players"] if state["trains_owned"][p] >= cards.supply]
        if full:
            state["last_turn"] = True
            log.append({"kind": "last",
                        "text": f"{' and '.join(map(player_ref, full))} own{'s' if len(full) == 1 else ''} "
                                f"all {cards.supply} trains: one more turn is played."})
