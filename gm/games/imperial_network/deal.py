"""Dealing the Network cards for the next turn: events take effect as they are revealed, a War!
starts the war state, and each deal in war draws war cards (the higher ones are kept).

Dice, in order: a reshuffle of the Network discard pile when the deck runs out ("shuffle network
deck"), then, in war, a reshuffle of the War discard pile when the War deck runs out ("shuffle war
deck"). Both are secret (hidden decks).
"""
from __future__ import annotations

from typing import Any

from gm.store.dice import Dice
from gm.games.base import State
from .cards import Cards
from .data import GameMap
from .rules import counted



PEACE_TURNS = 1  # turns of peace after a won war before the next War! begins [gm, balance]


def may_start_war(state: State) -> bool:
    """No war on, and the last one ended at least PEACE_TURNS turns ago (the next deal is at the
    end of this turn: a war won in turn t leaves turn t+1 in peace)."""
    ended = state.get("peace_since")
    return not state["war"] and (ended is None or state["turn"] - ended >= PEACE_TURNS)


def _draw(state: State, dice: Dice, pile: str, discard: str, label: str) -> Any:
    if not state[pile] and state[discard]:
        state[pile] = dice.shuffle(label, state[discard], secret=True)
        state[discard] = []
    return state[pile].pop(0) if state[pile] else None


def start_war(state: State, cards: Cards, card: str, log: list[dict]) -> None:
    country = card[4:]
    state["war"] = {"target": country, "power": cards.wars[country], "cards": [], "target_troops": 0,
                    "card": card, "troops": 0, "turns": 0}
    log.append({"kind": "war", "text": f"War! against {country} (war power {cards.wars[country]}): "
                "the Empire is at war; stations earn nothing and cost double."})


def deal(state: State, gmap: GameMap, cards: Cards, dice: Dice, log: list[dict], *, first: bool = False) -> None:
    """Reveal cards until the market holds players + 1 purchasable cards."""
    if state["event"] and not first:
        state["event"]["turns_left"] -= 1
        if state["event"]["turns_left"] <= 0:
            name = cards.info(state["event"]["card"])["name"]
            log.append({"kind": "event_end", "text": f"{name} is over."})
            state["discard"].append(state["event"]["card"])
            state["event"] = None
    if state["war_queue"] and may_start_war(state):
        start_war(state, cards, state["war_queue"].pop(0), log)
    if state["market"] and not first:  # the card that lay longest goes: a market never stalls
        old = state["market"].pop(0)
        state["discard"].append(old)
        log.append({"kind": "deal", "cards": [], "text": f"{old} lay unsold longest and is discarded."})
    for card in [c for c in state["market"] if _void_permit(state, c)]:
        state["market"].remove(card)
        log.append({"kind": "deal", "cards": [], "text": f"{card} is void (annexed) and leaves the game."})
    wanted = len(state["players"]) + 1
    revealed: list[str] = []
    while sum(1 for c in state["market"] if cards.purchasable(c)) < wanted:
        if not any(cards.purchasable(c) for c in state["deck"] + state["discard"]):
            break  # only events and wars are left: dealing on would never fill the market
        card = _draw(state, dice, "deck", "discard", "shuffle network deck")
        if card is None:
            break
        revealed.append(card)
        _reveal(state, gmap, cards, card, log)
    state["dealt"] = revealed
    if revealed:
        log.append({"kind": "deal", "cards": revealed, "text": f"Dealt: {', '.join(revealed)}."})
    if state["war"]:
        draw_war_cards(state, dice, log)


def _reveal(state: State, gmap: GameMap, cards: Cards, card: str, log: list[dict]) -> None:
    info = cards.info(card)
    if _void_permit(state, card):
        log.append({"kind": "deal", "cards": [], "text": f"{card} is void (annexed) and leaves the game."})
        return
    if info["type"] in ("building", "permit", "link"):
        state["market"].append(card)
        return
    if info["type"] == "war":
        country = info["country"]
        if country in state["annexed"]:
            log.append({"kind": "war", "text": f"{info['name']}: {country} is already annexed; "
                        "the card leaves the game."})
        elif state["war"] or state["war_queue"] or not may_start_war(state):
            state["war_queue"].append(card)
            when = ("when the war in progress ends" if state["war"] or len(state["war_queue"]) > 1
                    else "after a turn of peace")
            log.append({"kind": "war", "text": f"{info['name']} is declared: it begins {when}."})
        else:
            start_war(state, cards, card, log)
        return
    if state["event"]:
        state["discard"].append(state["event"]["card"])
    state["event"] = {"card": card, "turns_left": info["turns"]}
    text = f"Event: {info['name']} for {counted(info['turns'], 'turn')}."
    if info["kind"] == "trade_treaty":
        opened = [c for c in gmap.country_cities(info["country"]) if c not in state["open_cities"]]
        state["open_cities"] = sorted(state["open_cities"] + opened)
        text += f" Open from now on: {', '.join(opened) or 'nothing new'}."
    log.append({"kind": "event", "card": card, "text": text})


def _void_permit(state: State, card: str) -> bool:
    """An annexed country's cities count as Allied: its operating permit is worth nothing."""
    return card.startswith("permit ") and card[7:] in state["annexed"]


def draw_war_cards(state: State, dice: Dice, log: list[dict]) -> None:
    war = state["war"]
    drawn = []
    for _ in range(war["power"]):
        troops = _draw(state, dice, "war_deck", "war_discard", "shuffle war deck")
        if troops is not None:
            drawn.append(troops)
    pool = sorted(war["cards"] + drawn, reverse=True)
    war["cards"], dropped = pool[: war["power"]], pool[war["power"]:]
    state["war_discard"] += dropped
    war["target_troops"] = sum(war["cards"])
    log.append({"kind": "war_cards", "drawn": drawn, "kept": list(war["cards"]),
                "text": f"War cards drawn: {', '.join(map(str, drawn)) or 'none'}; "
                        f"kept {', '.join(map(str, war['cards']))}: "
                        f"{war['target_troops']} troops needed against {war['target']}."})
