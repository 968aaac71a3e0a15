"""A new game's state, and positions set by rules cases (checked to be legal)."""
from __future__ import annotations

import copy
from typing import Any

from gm.store.dice import Dice
from gm.store.errors import UsageError
from gm.store.names import suggestion
from gm.games.base import State
from .cards import Cards
from .data import BUILDINGS, GameMap
from .deal import deal



def new_game(gmap: GameMap, cards: Cards, map_name: str, players: list[str], options: dict, dice: Dice) -> State:
    seats = dice.shuffle("seat order", players)
    state: State = {
        "map": map_name, "options": dict(options), "players": list(players), "seats": seats, "first": 0, "snake": False,
        "turn": 0, "cash": {p: cards.start_cash for p in players},
        "trains_owned": {p: cards.start_trains for p in players},
        "buildings": {p: {} for p in players}, "permits": {p: [] for p in players},
        "hand": {p: [] for p in players}, "market": [],
        "deck": first_deck(cards, dice), "discard": [],
        "dealt": [], "event": None, "war": None, "war_queue": [],
        "war_deck": dice.shuffle("shuffle war deck", cards.war_deck, secret=True), "war_discard": [],
        "annexed": [], "open_cities": [], "peace_since": None, "placements": {p: [] for p in players},
        "train_steps": [],
        "income": {}, "winners": None, "ended_by": None, "last_turn": False,
        "capital_history": {p: [] for p in players},
    }
    state["setup_log"] = []
    deal(state, gmap, cards, dice, state["setup_log"], first=True)
    return state


def first_deck(cards: Cards, dice: Dice) -> list[str]:
    """The Network deck, shuffled; War! cards only below the top ``peace_cards`` cards."""
    deck = cards.network_deck()
    wars = [c for c in deck if c.startswith("war ")]
    peace = dice.shuffle("shuffle network deck", [c for c in deck if c not in wars], secret=True)
    top = peace[: cards.peace_cards]
    return top + dice.shuffle("shuffle war cards in", peace[cards.peace_cards:] + wars, secret=True)


SETTABLE = {"cash", "trains_owned", "buildings", "permits", "hand", "market", "deck", "event", "war",
            "annexed", "open_cities", "seats", "first", "snake", "last_turn", "turn", "war_deck"}


def apply_setup(state: State, gmap: GameMap, cards: Cards, overrides: dict[str, Any]) -> State:
    _refuse_unknown_keys(overrides)
    new = copy.deepcopy(state)
    players = state["players"]
    errors = _set_values(new, cards, overrides, players)
    errors += _position_problems(new, gmap, cards, players)
    if errors:
        raise UsageError("; ".join(errors))
    # cards now in the market, hands, permits or the event leave the deck; the old market goes below it
    taken = set(_held(new))
    if "deck" not in overrides:
        rest = [c for c in state["market"] if c not in taken]
        new["deck"] = [c for c in new["deck"] if c not in taken] + rest
    new["discard"] = [c for c in new["discard"] if c not in taken]
    return new


def _refuse_unknown_keys(overrides: dict[str, Any]) -> None:
    errors = [f"setup: {key!r} cannot be set{suggestion(key, SETTABLE)}; settable: {', '.join(sorted(SETTABLE))}"
              for key in overrides if key not in SETTABLE]
    if errors:
        raise UsageError("; ".join(errors))


def _set_values(new: State, cards: Cards, overrides: dict[str, Any], players: list[str]) -> list[str]:
    """Write ``overrides`` into ``new`` (per-player tables merged, the event and war filled in from
    the cards); the problems found on the way."""
    errors: list[str] = []
    for key, value in overrides.items():
        if isinstance(value, dict) and key in ("cash", "trains_owned", "buildings", "permits", "hand"):
            unknown = [p for p in value if p not in players]
            errors += [f"setup {key}: {p!r} is not a player{suggestion(p, players)}" for p in unknown]
            new[key] = {**new[key], **copy.deepcopy(value)}
        elif key == "event" and isinstance(value, str):
            new["event"] = {"card": value, "turns_left": cards.info(value)["turns"]} if value in cards.events else value
        elif key == "war" and isinstance(value, dict):
            target = value.get("target")
            if target not in cards.wars:
                errors.append(f"setup war: unknown target {target!r}{suggestion(str(target), cards.wars)}")
                continue
            power = cards.wars[target]
            kept = [int(v) for v in value.get("cards", [])]
            new["war"] = {"target": target, "power": power, "cards": kept, "target_troops": sum(kept),
                          "card": f"war {target}", "troops": 0, "turns": 0}
        else:
            new[key] = copy.deepcopy(value)
    return errors


def _held(new: State) -> list[str]:
    """The Network cards out of the deck: in the market, hands, permits and the running event."""
    held = new["market"] + sum(new["hand"].values(), []) + sum(new["permits"].values(), [])
    if isinstance(new["event"], dict):
        held.append(new["event"]["card"])
    return held


def _position_problems(new: State, gmap: GameMap, cards: Cards, players: list[str]) -> list[str]:
    """What makes the position set up illegal: unknown cities, cards, countries; bad numbers."""
    errors: list[str] = []
    for p in players:
        for city, kind in new["buildings"][p].items():
            if city not in gmap.cities:
                errors.append(f"setup buildings: unknown city {city!r}{gmap.city_hint(city)}")
            if kind not in BUILDINGS:
                errors.append(f"setup buildings: {kind!r} is not a building")
        if not isinstance(new["cash"][p], int) or new["cash"][p] < 0:
            errors.append(f"setup cash: {p} needs a whole number of at least 0")
        if not 0 <= new["trains_owned"][p] <= cards.supply:
            errors.append(f"setup trains_owned: {p} owns 0 to {cards.supply}")
    if new["event"] is not None and not isinstance(new["event"], dict):
        errors.append(f"setup event: unknown event {new['event']!r}{suggestion(str(new['event']), cards.events)}")
    deck = set(cards.network_deck())
    for card in _held(new) + new["deck"]:
        if card not in deck:
            errors.append(f"setup: unknown card {card!r}{suggestion(card, deck)}")
    for country in new["annexed"]:
        if country not in gmap.foreign_countries():
            errors.append(f"setup annexed: {country!r} is not a Foreign country")
    if sorted(new["seats"]) != sorted(players):
        errors.append("setup seats: every player once")
    return errors
