"""A rules case's position in the operating stage: the schedule, the round, the phase, the tallies.

A set-up that puts the game in the operating stage without a schedule gets one drawn with dice
seeded by the words "rules case schedule" (a case is not a campaign: nobody needs to verify them).
"""
from __future__ import annotations

import hashlib
from typing import Any

from gm.store.dice import Dice
from gm.store.errors import UsageError
from gm.hexmap.model import HexMap

from .round import start_operating


def apply_operate_setup(state: dict[str, Any], hexmap: HexMap, overrides: dict[str, Any]) -> dict[str, Any]:
    if "schedule" not in state:
        start_operating(state, hexmap, Dice(hashlib.sha256(b"rules case schedule").digest()))
    state["build_dice"] = []
    players = state["players"]
    if "schedule" in overrides:
        state["schedule"] = [[_race(hexmap, race) for race in rnd or []] for rnd in _rounds(overrides["schedule"])]
        state["options"]["race_rounds"] = len(state["schedule"])
    if "carried_over" in overrides:
        state["carried_over"] = [_race(hexmap, race) for race in overrides["carried_over"] or []]
    ids = [r["id"] for rnd in state["schedule"] for r in rnd] + [r["id"] for r in state["carried_over"]]
    if len(set(ids)) != len(ids):
        raise UsageError("set-up schedule: two races have the same id")
    if "race_round" in overrides:
        r = overrides["race_round"]
        if not isinstance(r, int) or not 1 <= r <= len(state["schedule"]):
            raise UsageError(f"set-up race_round must be 1 to {len(state['schedule'])}, not {r!r}")
        state["race_round"] = r
    if "operate_phase" in overrides:
        if overrides["operate_phase"] not in ("races", "expansion"):
            raise UsageError("set-up operate_phase is races or expansion")
        state["operate_phase"] = overrides["operate_phase"]
    for key in ("races_won", "races_entered"):
        for p, n in (overrides.get(key) or {}).items():
            if p not in players or not isinstance(n, int) or n < 0:
                raise UsageError(f"set-up {key}: give each player a whole number, like {{blue: 2}}")
            state[key][p] = n
    return state


def _rounds(value: Any) -> list:
    if not isinstance(value, list) or not value:
        raise UsageError("set-up schedule is a list of rounds, each a list of races {id, from, to, special}")
    return value


def _race(hexmap: HexMap, race: Any) -> dict[str, Any]:
    if not (isinstance(race, dict) and {"id", "from", "to"} <= set(race)):
        raise UsageError(f"set-up race {race!r}: write {{id: 1, from: 11, to: 42}} (special: true for a special run)")
    special = bool(race.get("special", False))
    if not isinstance(race["id"], int) or race["from"] not in hexmap.towns:
        raise UsageError(f"set-up race {race!r}: the id is a number and 'from' a town number on this map")
    if special and race["to"] not in hexmap.specials:
        raise UsageError(f"set-up race {race!r}: a special run goes to one of {', '.join(hexmap.specials) or 'none'}")
    if not special and race["to"] not in hexmap.towns:
        raise UsageError(f"set-up race {race!r}: 'to' is a town number on this map")
    return {"id": race["id"], "from": race["from"], "to": race["to"], "special": special}
