"""The game's state: set-up and options (a rules case's `setup:` is checked in positions.py).

State is plain data (see docs/rules/railway-rivals.md, "State"): town numbers are string keys
so the state reads the same after a YAML or JSON round trip.
"""
from __future__ import annotations

from typing import Any

from gm.store.dice import Dice
from gm.store.errors import UsageError
from .hexmaps import load_map
from gm.hexmap.model import HexMap
from gm.store.names import fold

from gm.games.base import Option
from .palette import COLOURS, default_colours

ROUNDS = 3
OPTIONS: dict[str, Option] = {
    "leapfrog": Option(None, "leaps up to leap_length hexes along a rival's track (default: the map's "
                             "rules, else off)", kind=bool),
    "leap_length": Option(3, "how many hexes of a rival's track one leap may cover", kind=int, low=1, high=20),
    "leaps_per_rival": Option(2, "leaps each company may make over each rival's track", kind=int, low=1, high=99),
    "arrival_ties": Option("share", "two companies reaching a new town on the same pip: share (each gets "
                                    "the full bonus) or roll (a die decides who is first)",
                           choices=("share", "roll"), kind=str),
    "starting_cash": Option(20, "cash (thousands) each company starts with", kind=int, low=0, high=10_000),
    "town_bonus": Option(6, "cash for the first company to enter a numbered town", kind=int, low=0, high=1_000),
    "interest_percent": Option(20, "interest taken from an overdraft at the start of each turn "
                                   "(rounded up)", kind=int, low=0, high=100),
    "build_turns": Option(6, "build turns before the operating stage", kind=int, low=1, high=50),
    "race_rounds": Option(6, "rounds of races in the operating stage", kind=int, low=1, high=50),
    "max_entries": Option(4, "races a company may enter in one round", kind=int, low=1, high=50),
    "fee_cap": Option(10, "most a company may pay one rival in fees for one race", kind=int, low=0, high=1_000),
    "winner_prize": Option(20, "cash for winning a race (special runs pay double)", kind=int, low=0, high=1_000),
    "runner_up_prize": Option(10, "cash for the runner-up (tied runners-up share it, rounded up)", kind=int,
                              low=0, high=1_000),
    "tie_prize": Option(15, "cash for each company tied for first", kind=int, low=0, high=1_000),
    "expansion_budget": Option(10, "pips a company may buy (1 cash each) after the first round of races",
                               kind=int, low=0, high=1_000),
    "expansion_step": Option(2, "how much the expansion budget falls after each further round", kind=int,
                             low=0, high=1_000),
}
SETUP_KEYS = ("cash", "track", "towns_reached", "build_dice", "build_turn", "ferries", "leaps", "companies",
              "foreign_track", "stage", "schedule", "race_round", "operate_phase", "carried_over", "races_won",
              "races_entered")
# what every viewer sees (the game hides nothing): the state's keys, named one by one
VIEW_KEYS = ("map", "map_name", "options", "players", "companies", "stage", "build_turn", "build_turns",
             "build_dice", "cash", "track", "built", "towns_reached", "payments", "ferries", "leaps",
             "foreign_track", "nmr", "cash_history", "operate_phase", "race_round", "schedule", "schedule_rules",
             "carried_over", "entries", "results", "races_won", "races_entered", "ranking", "winner", "last_turn")


def game_map(state: dict[str, Any]) -> HexMap:
    return load_map(state["map"])


def read_game_options(options: dict[str, Any], hexmap: HexMap) -> dict[str, Any]:
    """Every option: the campaign's where it set one, else the map's `rules:`, else the default.
    Each value is read by its Option (kind, choices, range), so a map's rules are checked as
    strictly as the campaign's options; an option the game no longer has (an old `nmr`) is dropped."""
    chosen = {}
    for key, option in OPTIONS.items():
        value = options.get(key, option.default)
        if value == option.default and key in hexmap.rules:
            value = hexmap.rules[key]
        chosen[key] = option.read(key, value)
        if option.kind is int and (isinstance(chosen[key], bool) or not isinstance(chosen[key], int)):
            raise UsageError(f"option {key} takes a whole number, not {chosen[key]!r}")
    chosen["leapfrog"] = bool(chosen["leapfrog"])
    return chosen


def roll_build_dice(dice: Dice, turn: int) -> list[int]:
    """The three build dice of ``turn``, in round order (DESIGN.md: rolled when the turn before ends)."""
    return [dice.roll(f"build turn {turn} round {r}", 6) for r in range(1, ROUNDS + 1)]


def default_company_names(players: list[str], names: dict[str, str] | None = None) -> dict[str, str]:
    """Each company is first called after its player: the display name at set-up ("Cathérine"),
    else the id ("big_red" -> "Big Red"). A display name is passed over for the id's form when it
    is longer than a company name may be (40) or could be read as another company (the same name,
    a colour, another player's id)."""
    chosen: dict[str, str] = {}
    taken = {fold(c) for c in COLOURS}
    for p in players:
        from_id = p.replace("_", " ").title()
        given = " ".join(str((names or {}).get(p) or "").split())
        others = {fold(q) for q in players if q != p}
        if given and len(given) <= 40 and fold(given) not in taken | others | {fold(n) for n in chosen.values()}:
            chosen[p] = given
        else:
            chosen[p] = from_id
    return chosen


def new_state(map_name: str, hexmap: HexMap, players: list[str], options: dict[str, Any], dice: Dice, *,
              names: dict[str, str] | None = None) -> dict:
    colours = default_colours(players)
    company_names = default_company_names(players, names)
    return {
        "map": map_name,
        "map_name": hexmap.name,
        "options": options,
        "players": list(players),
        "companies": {p: {"name": company_names[p], "colour": colours[p]} for p in players},
        "stage": "build",
        "build_turn": 1,
        "build_turns": options["build_turns"],
        "build_dice": roll_build_dice(dice, 1),
        "cash": {p: options["starting_cash"] for p in players},
        "track": {p: [] for p in players},
        "built": {p: [] for p in players},
        "towns_reached": {},
        "payments": [],
        "ferries": {},
        "leaps": {p: [] for p in players},
        "foreign_track": {},
        "nmr": [],
        "last_turn": "set-up",
    }
