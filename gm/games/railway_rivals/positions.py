"""A position given by a rules case's `setup:`: each key checked against the map and the players,
the operating stage's own keys by operate/setup.py."""
from __future__ import annotations

import copy
from typing import Any

from gm.hexmap.model import HexMap
from gm.store.errors import UsageError
from gm.store.names import match, suggestion

from .links import link_key, link_problem
from .operate.setup import apply_operate_setup
from .palette import COLOURS
from .reading import small_number
from .state import ROUNDS, SETUP_KEYS, game_map


# ---- a position given by a rules case -------------------------------------------------------
def apply_setup(state: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    new = copy.deepcopy(state)
    hexmap = game_map(state)
    players = state["players"]
    for key in overrides:
        if key not in SETUP_KEYS:
            raise UsageError(f"a Railway Rivals set-up cannot set {key!r}{suggestion(key, SETUP_KEYS)}; "
                             f"it sets {', '.join(SETUP_KEYS)}")
    who = _player_checker(players)
    for p, value in (overrides.get("cash") or {}).items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise UsageError(f"set-up cash: {p}'s cash must be a whole number (thousands), not {value!r}")
        new["cash"][who(p, "cash")] = value
    for p, links in (overrides.get("track") or {}).items():
        new["track"][who(p, "track")] = _read_track(hexmap, links, f"set-up track of {p}")
    if "towns_reached" in overrides:
        new["towns_reached"] = {}
        for number, reached in (overrides["towns_reached"] or {}).items():
            town = hexmap.towns.get(int(number)) if small_number(str(number), 2) is not None else None
            if town is None:
                raise UsageError(f"set-up towns_reached: {number!r} is not a town number on this map")
            new["towns_reached"][str(town.number)] = [who(p, "towns_reached") for p in reached or []]
    if "build_dice" in overrides:
        dice = overrides["build_dice"]
        fine = isinstance(dice, list) and len(dice) == ROUNDS
        if not (fine and all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)):
            raise UsageError(f"set-up build_dice must be three dice 1-6, like [4, 6, 3], not {dice!r}")
        new["build_dice"] = list(dice)
    if "build_turn" in overrides:
        turn = overrides["build_turn"]
        if not isinstance(turn, int) or not 1 <= turn <= state["build_turns"]:
            raise UsageError(f"set-up build_turn must be 1 to {state['build_turns']}, not {turn!r}")
        new["build_turn"] = turn
    if "stage" in overrides:
        if overrides["stage"] not in ("build", "operate"):
            raise UsageError(f"set-up stage is build or operate, not {overrides['stage']!r}")
        new["stage"] = overrides["stage"]
    if new["stage"] == "operate":
        new = apply_operate_setup(new, hexmap, overrides)
    _apply_network(new, hexmap, overrides, who)
    colours = [c["colour"] for c in new["companies"].values()]
    if len(set(colours)) != len(colours):
        raise UsageError("set-up companies: two companies have the same colour")
    return new


def _player_checker(players: list[str]):
    def who(p: Any, what: str) -> str:
        if str(p) not in players:
            raise UsageError(f"set-up {what}: {p!r} is not a player{suggestion(str(p), players)}")
        return str(p)
    return who


def _apply_network(new: dict[str, Any], hexmap: HexMap, overrides: dict[str, Any], who) -> None:
    """The set-up's ferries, leaps, companies and foreign track."""
    players = new["players"]
    if "ferries" in overrides:
        new["ferries"] = {}
        for ferry_id, owner in (overrides["ferries"] or {}).items():
            ferry = hexmap.ferry(str(ferry_id))
            if ferry is None:
                raise UsageError(f"set-up ferries: no ferry {ferry_id!r} on this map")
            new["ferries"][ferry.id] = who(owner, "ferries")
    for p, leaps in (overrides.get("leaps") or {}).items():
        new["leaps"][who(p, "leaps")] = [_read_leap(hexmap, leap, players, p) for leap in leaps or []]
    for p, company in (overrides.get("companies") or {}).items():
        entry = new["companies"][who(p, "companies")]
        entry.update({k: v for k, v in (company or {}).items() if k in ("name", "colour")})
        if entry["colour"] not in COLOURS:
            raise UsageError(f"set-up companies: unknown colour {entry['colour']!r}; colours: {', '.join(COLOURS)}")
    if "foreign_track" in overrides:
        names = [f.name for f in hexmap.foreign]
        new["foreign_track"] = {}
        for name, links in (overrides["foreign_track"] or {}).items():
            found = match(str(name), names)
            if found is None:
                raise UsageError(f"set-up foreign_track: no foreign country {name!r}{suggestion(str(name), names)}")
            new["foreign_track"][found] = _read_track(hexmap, links, f"set-up foreign track of {found}")


def _read_track(hexmap: HexMap, links: Any, what: str) -> list[list[str]]:
    if not isinstance(links, list):
        raise UsageError(f"{what} must be a list of links like [[\"2522\", \"2523\"]]")
    out, seen = [], set()
    for link in links:
        if not (isinstance(link, list) and len(link) == 2 and all(isinstance(h, str) for h in link)):
            raise UsageError(f"{what}: {link!r} is not a link; write two quoted hexes, like [\"2522\", \"2523\"]")
        a, b = link
        problem = link_problem(hexmap, a, b)
        if problem:
            raise UsageError(f"{what}: {a}-{b}: {problem}")
        if link_key(a, b) in seen:
            raise UsageError(f"{what}: {a}-{b} is listed twice")
        seen.add(link_key(a, b))
        out.append([a, b])
    return out


def _read_leap(hexmap: HexMap, leap: Any, players: list[str], player: str) -> dict[str, Any]:
    if not (isinstance(leap, dict) and {"from", "to", "over"} <= set(leap)):
        raise UsageError(f"set-up leaps of {player}: write each as {{from: \"2522\", to: \"2524\", over: red}}")
    if leap["over"] not in players or leap["over"] == player:
        raise UsageError(f"set-up leaps of {player}: over {leap['over']!r} is not a rival")
    for h in (leap["from"], leap["to"]):
        if not hexmap.grid.contains(h):
            raise UsageError(f"set-up leaps of {player}: {h!r} is not a hex on the map")
    return {"from": leap["from"], "to": leap["to"], "over": leap["over"], "turn": int(leap.get("turn", 0))}
