"""Starting from a given position (rules cases' ``setup:``): replace state keys and check them."""
from __future__ import annotations

import copy
from typing import Any

from gm.store.errors import UsageError
from gm.store.names import fold
from gm.games.base import State
from .board import MAX_STUDIOS, settle
from .cards import (ALL_PROFESSIONS, ProfessionTable, card_professions, make_card, read_card_line,
                    title_table)

SETTABLE = ("hands", "decks", "studios", "to_move", "skip_next", "starting_player")


def apply_overrides(state: State, overrides: dict[str, Any]) -> State:
    state = copy.deepcopy(state)
    if state.get("starting_player") is None:
        raise UsageError("setup: needs both decks given (options deck_p1 and deck_p2)")
    players = state["players"]
    for key, value in overrides.items():
        if key not in SETTABLE:
            raise UsageError(f"setup: cannot set {key!r}; settable: {', '.join(SETTABLE)}")
        if key in ("hands", "decks"):
            state[key].update(_card_lists(key, value, players))
        elif key == "studios":
            state["studios"] = _studios(value, players)
        elif key == "skip_next":
            if not isinstance(value, dict) or any(p not in players or not isinstance(v, bool)
                                                   for p, v in value.items()):
                raise UsageError("setup: skip_next maps player ids to true or false")
            state["skip_next"].update(value)
        else:
            if value not in players:
                raise UsageError(f"setup: {key} must be one of {', '.join(players)}, not {value!r}")
            state[key] = value
    cards = [c for p in players for c in state["hands"][p] + (state["decks"][p] or [])]
    cards += [make_card(h["card"], h["title"]) for s in state["studios"] for hs in s["hires"].values()
              for h in hs]
    table = ProfessionTable.load(state.get("professions_file"))
    try:
        known = state["title_professions"]
        known.update(title_table([c for c in cards if c.split(" | ", 1)[1] not in known], table))
    except ValueError as exc:
        raise UsageError(f"setup: {exc}") from None
    for studio in state["studios"]:
        for hires in studio["hires"].values():
            for h in hires:
                fits = card_professions(make_card(h["card"], h["title"]), known)
                if h["profession"] not in fits:
                    raise UsageError(f"setup: {h['card']} ({h['title']}) cannot be {h['profession']}: "
                                     f"it is {' or '.join(fits)}")
    state["winner"] = None
    settle(state)
    if state["winner"] is None and not state["hands"][state["to_move"]]:
        raise UsageError(f"setup: {state['to_move']} is to move but holds no card")
    return state


def _card_lists(key: str, value: Any, players: list[str]) -> dict[str, list[str]]:
    if not isinstance(value, dict):
        raise UsageError(f"setup: {key} maps player ids to lists of 'Name | Job Title' cards")
    out = {}
    for player, cards in value.items():
        if player not in players or not isinstance(cards, list):
            raise UsageError(f"setup: {key} maps player ids ({', '.join(players)}) to lists of cards")
        try:
            out[player] = [read_card_line(str(c)) for c in cards]
        except ValueError as exc:
            raise UsageError(f"setup: {key} of {player}: {exc}") from None
    return out


def _studios(value: Any, players: list[str]) -> list[dict]:
    if not isinstance(value, list) or len(value) > MAX_STUDIOS:
        raise UsageError(f"setup: studios is a list of at most {MAX_STUDIOS} studios")
    studios, seen = [], set()
    for studio in value:
        if not isinstance(studio, dict) or not str(studio.get("name", "")).strip():
            raise UsageError("setup: each studio is {name, hires: {PLAYER: [{card, title, profession, laid_off}]}}")
        name = " ".join(str(studio["name"]).split())
        if fold(name) in seen:
            raise UsageError(f"setup: two studios are named {name!r}")
        seen.add(fold(name))
        hires = studio.get("hires") or {}
        if not isinstance(hires, dict) or any(p not in players for p in hires):
            raise UsageError(f"setup: hires of {name} are keyed by player ids ({', '.join(players)})")
        out = {p: [] for p in players}
        for p, entries in hires.items():
            for entry in entries or []:
                if not isinstance(entry, dict) or "card" not in entry or "profession" not in entry:
                    raise UsageError(f"setup: a hire in {name} needs card and profession: {entry!r}")
                if entry["profession"] not in ALL_PROFESSIONS:
                    raise UsageError(f"setup: unknown profession {entry['profession']!r} in {name}")
                card = make_card(str(entry["card"]), str(entry.get("title") or ""))
                name_part, title_part = card.split(" | ", 1)
                out[p].append({"card": name_part, "title": title_part, "profession": entry["profession"],
                               "laid_off": bool(entry.get("laid_off", False))})
        studios.append({"name": name, "hires": out})
    return studios
