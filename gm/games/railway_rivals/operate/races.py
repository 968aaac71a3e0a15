"""Running one race with the dice: every train rolls its own die each turn, all move together.

A train spends its pips on its moves in order (1 a hex, 2 for a mountain hex, 1 to embark on a
ferry and 1 to disembark); pips too few for the next move are lost. A train that ends a turn at
sea pays 1 pip of its next turn for that turn at sea. The first train to arrive wins; trains
arriving in the same turn are ranked by the pips they had left; equal pips left is a tie.
"""
from __future__ import annotations

from typing import Any

from gm.store.dice import Dice
from gm.hexmap.model import HexMap

from .network import moves_of

MAX_RACE_TURNS = 500  # a train always moves on a 2 or more, so races end long before this


def run_race(hexmap: HexMap, race: dict[str, Any], entrants: list[dict[str, Any]], dice: Dice
             ) -> list[dict[str, Any]]:
    """Finishers in order: {player, turns, left, rolls, trace, place}; ``place`` is shared on a tie."""
    trains = [{"player": e["player"], "moves": moves_of(hexmap, e["route"]), "at": 0, "at_sea": False,
               "rolls": [], "trace": [], "turns": None, "left": None} for e in entrants]
    turn = 0
    while any(t["turns"] is None for t in trains) and turn < MAX_RACE_TURNS:
        turn += 1
        for t in trains:  # in seat order, each train its own die
            if t["turns"] is not None:
                continue
            roll = dice.roll(f"race {race['id']} {t['player']}", 6)
            pips = roll
            if t["at_sea"]:
                pips -= 1  # a turn begun at sea
            moves = t["moves"]
            while t["at"] < len(moves) and moves[t["at"]]["pips"] <= pips:
                pips -= moves[t["at"]]["pips"]
                t["at_sea"] = moves[t["at"]]["kind"] == "embark"
                t["at"] += 1
            t["rolls"].append(roll)
            where = next((moves[i]["to"] for i in range(t["at"] - 1, -1, -1) if moves[i]["to"]), None)
            t["trace"].append("at sea" if t["at_sea"] else where or "start")
            if t["at"] == len(moves):
                t["turns"], t["left"] = turn, pips
    finishers = sorted(trains, key=lambda t: (t["turns"] if t["turns"] is not None else MAX_RACE_TURNS + 1,
                                              -(t["left"] or 0)))
    place, out = 0, []
    for n, t in enumerate(finishers):
        if n == 0 or (t["turns"], t["left"]) != (finishers[n - 1]["turns"], finishers[n - 1]["left"]):
            place = n + 1
        out.append({"player": t["player"], "place": place, "turns": t["turns"], "left": t["left"],
                    "rolls": t["rolls"], "trace": t["trace"]})
    return out
